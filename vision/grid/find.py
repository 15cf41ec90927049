"""Find 9×9 Sudoku grids in a photo: the map of the grid stage.

1. Candidates (candidates.py): on the photo shrunk to ``search.max_side``, rough quads
   from contours of thresholded views and of long line runs.
2. Score (lattice.py): how grid-like each quad's inside is: 10 evenly spaced horizontal
   and vertical lines, little between them, no crossword black cells.
3. Refine the lattice (lattice.py, here): the best few quads are moved onto the 10 + 10
   lines found around them and their 100 crossings measured; quads that could be a
   3×3 box of a grid whose border was missed are tried too; the best grids that do not
   overlap are kept (``find_all_grids`` searches for more than one only once a second
   candidate looks like a grid).
4. Trace at full resolution (trace.py): each kept grid's lines are followed in the
   whole photo, the border's outer edge measured, and a flat page told from a bent one.
5. Warp (warp.py): the grid straightened into ``GridDetection.warped``, by one
   homography or cell by cell on a bent page.

Every tunable number lives in ``GridConfig`` (config.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..types import GridDetection
from .candidates import find_candidates, grids_around_box
from .config import DEFAULT_CONFIG, GridConfig, SelectConfig
from .lattice import Pyramid, fit_lattice, measure_lattice, reframe_quad, score_quad
from .trace import border_offsets, flatten, outer_corners, trace_lattice
from .warp import (
    build_pyramid,
    check_image,
    homography_to_square,
    is_convex_clockwise,
    lattice_from_inverse,
    map_points,
    to_gray,
    warp_from_corners,
)


@dataclass(frozen=True)
class _Found:
    """A refined grid in search-image pixels."""

    quad: np.ndarray
    lattice: np.ndarray
    score: float


def shrink(gray: np.ndarray, max_side: int) -> tuple[np.ndarray, float]:
    """The image scaled so its longer side is at most ``max_side``, and that scale."""
    scale = min(1.0, max_side / max(gray.shape))
    if scale == 1.0:
        return gray, 1.0
    size = (round(gray.shape[1] * scale), round(gray.shape[0] * scale))
    return cv2.resize(gray, size, interpolation=cv2.INTER_AREA), scale


UNIT_CORNERS = np.array([[0, 0], [9, 0], [9, 9], [0, 9]], dtype=np.float64)


def reframe_if_better(levels: Pyramid, quad: np.ndarray, config: GridConfig) -> _Found:
    """The quad, or its reframing onto 10 evenly spaced lines when that scores higher."""
    best = _Found(quad, flat_lattice(quad), score_quad(levels, quad, config))
    reframed = reframe_quad(levels, quad, config)
    if is_convex_clockwise(reframed):
        score = score_quad(levels, reframed, config)
        if score > best.score:
            best = _Found(reframed, flat_lattice(reframed), score)
    return best


def flat_lattice(quad: np.ndarray) -> np.ndarray:
    """The (10, 10, 2) intersections of a flat grid with these corners."""
    return lattice_from_inverse(np.linalg.inv(homography_to_square(quad, 9.0)), 1.0)


def measure_step(
    levels: Pyramid, quad: np.ndarray, config: GridConfig, search: float
) -> _Found | None:
    """Measure the lattice inside ``quad``; the corners it implies, its lattice and score."""
    measured, confidence = measure_lattice(levels, quad, config, search)
    cell_px = float(np.linalg.norm(quad[2] - quad[0])) / (9 * np.sqrt(2.0))
    homography, cleaned = fit_lattice(measured, confidence, cell_px, config.refine)
    corners = map_points(homography, UNIT_CORNERS)
    if not is_convex_clockwise(corners):
        return None
    return _Found(corners, cleaned, score_quad(levels, corners, config))


def refine(levels: Pyramid, quad: np.ndarray, config: GridConfig) -> _Found:
    """Snap a rough quad onto the grid lines and measure its 100 intersections."""
    best = reframe_if_better(levels, quad, config)
    search = config.refine.search_cells
    for _ in range(config.refine.rounds):
        step = measure_step(levels, best.quad, config, search)
        if step is None or step.score < best.score - config.refine.score_slack:
            break
        best = _Found(step.quad, step.lattice, max(step.score, best.score))
        search *= config.refine.search_shrink
    return best


def overlap_fraction(a: np.ndarray, b: np.ndarray) -> float:
    """Area of the intersection of two convex quads over the smaller one's area."""
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    smaller = min(cv2.contourArea(a.astype(np.float32)), cv2.contourArea(b.astype(np.float32)))
    return float(area) / max(smaller, 1e-9)


def quad_area(quad: np.ndarray) -> float:
    """Area of a quad in square pixels."""
    return float(cv2.contourArea(quad.astype(np.float32)))


def select(
    found: list[_Found], max_grids: int, config: SelectConfig, kept: tuple[_Found, ...] = ()
) -> list[_Found]:
    """Best grids above the minimum score that do not overlap each other, best first.

    The rank favours bigger grids a little (``size_preference``), so the puzzle beats
    yesterday's small solution grid printed next to it. Grids after the first must score
    ``min_extra_score``: tables and crosswords beside a puzzle score lower than Sudokus.
    ``kept``: grids already chosen, which stay first.
    """
    largest = max((quad_area(f.quad) for f in [*found, *kept]), default=1.0)

    def rank(item: _Found) -> float:
        return item.score * (quad_area(item.quad) / largest) ** config.size_preference

    chosen: list[_Found] = list(kept)
    for item in sorted(found, key=rank, reverse=True):
        if len(chosen) >= max_grids:
            break
        if item.score < (config.min_extra_score if chosen else config.min_score):
            continue
        if all(overlap_fraction(item.quad, c.quad) < config.max_overlap_fraction for c in chosen):
            chosen.append(item)
    return chosen


def best_quads(
    levels: Pyramid, quads: list[np.ndarray], count: int, config: GridConfig
) -> list[np.ndarray]:
    """The ``count`` most grid-like quads, best first."""
    return [quad for _, quad in scored_quads(levels, quads, config)[:count]]


def scored_quads(
    levels: Pyramid, quads: list[np.ndarray], config: GridConfig
) -> list[tuple[float, np.ndarray]]:
    """Every quad with its grid-likeness before refinement, best first."""
    scores = [score_quad(levels, quad, config) for quad in quads]
    return [(scores[i], quads[i]) for i in np.argsort(scores)[::-1]]


def refine_all(levels: Pyramid, quads: list[np.ndarray], config: GridConfig) -> list[_Found]:
    """Refine each quad, skipping those that mostly overlap a grid already found for sure."""
    found: list[_Found] = []
    same_grid = config.select.same_grid_overlap
    for quad in quads:
        sure = [f.quad for f in found if f.score >= config.select.sure_score]
        if any(overlap_fraction(quad, other) > same_grid for other in sure):
            continue
        found.append(refine(levels, quad, config))
    return found


def find_grids(
    image: np.ndarray, *, config: GridConfig = DEFAULT_CONFIG, max_grids: int = 1
) -> list[GridDetection]:
    """Every distinct Sudoku grid in the photo (up to ``max_grids``), best first."""
    page = _SearchPage.of(image, config, max_grids)
    found, _ = page.search(max_grids)
    return page.straighten(select(found, max_grids, config.select))


def find_all_grids(
    image: np.ndarray, *, config: GridConfig = DEFAULT_CONFIG, max_grids: int = 1
) -> list[GridDetection]:
    """The best grid as ``find_grids(max_grids=1)`` finds it, then up to ``max_grids`` - 1 more.

    The wider search for more grids (``find_grids``'s for ``max_grids``) runs only when a
    candidate outside the first grid scores ``select.min_score`` before refinement: a photo
    of one puzzle costs what ``find_grids(max_grids=1)`` costs, a page of several puzzles
    both searches. Several grids come in reading order: rows of grids top to bottom, each
    row left to right.
    """
    page = _SearchPage.of(image, config, max_grids)
    found, scored = page.search(1)
    chosen = select(found, 1, config.select)
    if max_grids > 1 and chosen and _more_seen(scored, chosen[0], config.select):
        more, _ = page.search(max_grids)
        chosen = reading_order(select(more, max_grids, config.select, kept=tuple(chosen)))
    return page.straighten(chosen)


def reading_order(grids: list[_Found]) -> list[_Found]:
    """Grids top to bottom in rows, each row left to right.

    A grid whose centre lies less than half a grid's height below the top one left
    belongs to that one's row.
    """
    left = sorted(grids, key=lambda g: float(g.quad[:, 1].mean()))
    ordered: list[_Found] = []
    while left:
        top = left[0]
        half = float(np.ptp(top.quad[:, 1])) / 2
        row = [g for g in left if g.quad[:, 1].mean() - top.quad[:, 1].mean() < half]
        ordered += sorted(row, key=lambda g: float(g.quad[:, 0].mean()))
        left = [g for g in left if all(g is not r for r in row)]
    return ordered


def _more_seen(scored: list[tuple[float, np.ndarray]], first: _Found, config: SelectConfig) -> bool:
    """True when a candidate quad apart from ``first`` already scores like a grid."""
    apart = config.max_overlap_fraction
    return any(
        score >= config.min_score and overlap_fraction(quad, first.quad) < apart
        for score, quad in scored
    )


@dataclass(frozen=True)
class _SearchPage:
    """A photo prepared for the grid search: gray, shrunk, and the shrunk one's pyramid."""

    image: np.ndarray
    gray: np.ndarray
    small: np.ndarray
    scale: float
    levels: Pyramid
    config: GridConfig

    @classmethod
    def of(cls, image: np.ndarray, config: GridConfig, max_grids: int) -> _SearchPage:
        """Check the photo and ``max_grids``, and prepare the search."""
        check_image(image)
        if not isinstance(max_grids, int) or max_grids < 1:
            raise ValueError(f"max_grids must be a positive integer, got {max_grids!r}")
        gray = to_gray(image)
        small, scale = shrink(gray, config.search.max_side)
        return cls(image, gray, small, scale, build_pyramid(small), config)

    def search(self, max_grids: int) -> tuple[list[_Found], list[tuple[float, np.ndarray]]]:
        """Refined grids for up to ``max_grids``, and every candidate quad with its rough score.

        When fewer than ``max_grids`` sure grids are found, quads around the best few
        candidates (taken as a 3×3 box of a larger grid) are refined too.
        """
        config, levels = self.config, self.levels
        count = config.refine.candidates_per_grid * max_grids
        scored = scored_quads(levels, find_candidates(self.small, config.search, max_grids), config)
        quads = [quad for _, quad in scored[:count]]
        found = refine_all(levels, quads, config)
        if sum(f.score >= config.select.sure_score for f in found) < max_grids:
            boxes = quads[: config.refine.box_candidates]
            around = [grid for box in boxes for grid in grids_around_box(box)]
            found += refine_all(levels, best_quads(levels, around, count, config), config)
        return found, scored

    def straighten(self, chosen: list[_Found]) -> list[GridDetection]:
        """The chosen grids at full resolution."""
        full = build_pyramid(self.gray) if chosen else ()
        return [straighten(self.image, full, item, self.scale, self.config) for item in chosen]


def straighten(
    image: np.ndarray, levels: Pyramid, item: _Found, scale: float, config: GridConfig
) -> GridDetection:
    """The detection at full resolution: lines traced in ``levels`` (the photo's pyramid).

    On a bent page the lattice is the traced one; on a flat one that of the homography
    fitted to the traced points (steadier, and deaf to a few mis-traced ones). The
    reported corners are the outer corners of the border.
    """
    lattice, grid = trace_lattice(levels, item.lattice / scale, config)
    flat, bent = flatten(lattice, config.trace)
    if not bent:
        lattice = flat
    outer = outer_corners(grid, border_offsets(grid, config.trace))
    corners = lattice[[0, 0, 9, 9], [0, 9, 9, 0]]
    if not (is_convex_clockwise(corners) and is_convex_clockwise(outer)):
        lattice, corners = item.lattice / scale, item.quad / scale
        outer = corners
    return warp_from_corners(image, corners, config, lattice=lattice, score=item.score, outer=outer)


def find_grid(image: np.ndarray, *, config: GridConfig = DEFAULT_CONFIG) -> GridDetection | None:
    """The most grid-like 9×9 grid in the photo, or None when there is none."""
    grids = find_grids(image, config=config, max_grids=1)
    return grids[0] if grids else None
