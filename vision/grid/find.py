"""Find 9×9 Sudoku grids in a photo: the map of the grid stage.

1. Candidates (candidates.py): on the photo shrunk to ``search.max_side``, rough quads
   from contours of thresholded views and of long line runs; when several grids are
   wanted, also around clusters of cell-like holes (cell_clusters.py).
2. Score (lattice.py): how grid-like each quad's inside is: 10 evenly spaced horizontal
   and vertical lines, little between them, no crossword black cells.
3. Refine the lattice (lattice.py, here): the best few quads are moved onto the 10 + 10
   lines found around them and their 100 crossings measured; quads that could be a
   3×3 box of a grid whose border was missed are tried too; the best grids that do not
   overlap are kept (``find_all_grids`` searches for more than one only once a second
   candidate looks like a grid). A shrunk page wanted for several grids is searched
   again finer (``search.finer_zoom``), for grids too small to be seen at first.
4. Trace at full resolution (trace.py): each kept grid's lines are followed in the
   whole photo, the border's outer edge measured, and a flat page told from a bent one.
5. Warp (warp.py): the grid straightened into ``GridDetection.warped``, by one
   homography or cell by cell on a bent page.

Every tunable number lives in ``GridConfig`` (config.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property

import cv2
import numpy as np

from ..results import reading_order as puzzle_order
from ..types import GridDetection
from .candidates import clustered_candidates, find_candidates, grids_around_box, ink_views
from .config import DEFAULT_GRID_CONFIG, GridConfig, SelectConfig
from .lattice import Pyramid, fit_lattice, measure_lattice, reframe_quad, score_quad
from .shift import grid_offsets, moved_quad
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

# The photo decoded finer than the image a search was given (a reduced copy of it): for a
# longer side in pixels, the photo at least that large where it has that many pixels.
FinerPhoto = Callable[[int], np.ndarray]


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


MAX_SCORE = 1.0  # grid-likeness scores lie in 0..1
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
    return measured(levels, reframe_if_better(levels, quad, config), config)


def measured(levels: Pyramid, best: _Found, config: GridConfig) -> _Found:
    """A grid's lattice measured (``refine.rounds`` times, each searching nearer)."""
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


def extra_grid_like(item: _Found, config: SelectConfig, shape: tuple[int, ...]) -> bool:
    """Whether a grid may be reported after the first: it scores ``min_extra_score``
    (tables and crosswords beside a puzzle score lower than Sudokus), is about square
    (``min_extra_squareness``: a table matched to 9 × 9 lines is mostly wider than tall),
    and lies in the image (within ``extra_outside_cells``: part of a grid cut by the
    photo's edge cannot be read)."""
    if item.score < config.min_extra_score or squareness(item.quad) < config.min_extra_squareness:
        return False
    margin = config.extra_outside_cells * float(np.sqrt(quad_area(item.quad))) / 9
    height, width = shape[:2]
    x, y = item.quad[:, 0], item.quad[:, 1]
    return bool(
        x.min() >= -margin
        and y.min() >= -margin
        and x.max() <= width + margin
        and y.max() <= height + margin
    )


def squareness(quad: np.ndarray) -> float:
    """Mean width over mean height of a quad (TL, TR, BR, BL), or its inverse: at most 1."""
    sides = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    width, height = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return float(min(width, height) / max(width, height, 1e-9))


def quad_area(quad: np.ndarray) -> float:
    """Area of a quad in square pixels."""
    return float(cv2.contourArea(quad.astype(np.float32)))


def select(
    found: list[_Found],
    max_grids: int,
    config: SelectConfig,
    shape: tuple[int, ...],
    kept: tuple[_Found, ...] = (),
) -> list[_Found]:
    """Best grids above the minimum score that do not overlap each other, best first.

    The rank favours bigger grids a little (``size_preference``), so the puzzle beats
    yesterday's small solution grid printed next to it. Grids after the first must be
    ``extra_grid_like``. ``kept``: grids already chosen, which stay first. ``shape``: the
    search image's (height, width).
    """
    largest = max((quad_area(f.quad) for f in [*found, *kept]), default=1.0)

    def rank(item: _Found) -> float:
        return item.score * (quad_area(item.quad) / largest) ** config.size_preference

    chosen: list[_Found] = list(kept)
    for item in sorted(found, key=rank, reverse=True):
        if len(chosen) >= max_grids:
            break
        if not (extra_grid_like(item, config, shape) if chosen else item.score >= config.min_score):
            continue
        if all(overlap_fraction(item.quad, c.quad) < config.max_overlap_fraction for c in chosen):
            chosen.append(item)
    return chosen


def scored_quads(
    levels: Pyramid, quads: list[np.ndarray], config: GridConfig
) -> list[tuple[float, np.ndarray]]:
    """Every quad with its grid-likeness before refinement, best first."""
    scores = [score_quad(levels, quad, config) for quad in quads]
    return [(scores[i], quads[i]) for i in np.argsort(scores)[::-1]]


def refine_all(
    levels: Pyramid, quads: list[np.ndarray], config: GridConfig, known: tuple[_Found, ...] = ()
) -> list[_Found]:
    """Refine each quad, skipping those that mostly overlap a grid already found for sure.

    ``known``: grids found before (not returned), which count as found.
    """
    found: list[_Found] = []
    for quad in quads:
        if off_sure_grids([quad], (*known, *found), config):
            found.append(refine(levels, quad, config))
    return found


def off_sure_grids(
    quads: list[np.ndarray], grids: tuple[_Found, ...], config: GridConfig
) -> list[np.ndarray]:
    """The quads that overlap none of the sure ``grids`` by more than ``same_grid_overlap``."""
    sure = [g.quad for g in grids if g.score >= config.select.sure_score]
    same_grid = config.select.same_grid_overlap
    return [q for q in quads if all(overlap_fraction(q, other) <= same_grid for other in sure)]


def find_grids(
    image: np.ndarray,
    *,
    config: GridConfig = DEFAULT_GRID_CONFIG,
    max_grids: int = 1,
    finer_photo: FinerPhoto | None = None,
) -> list[GridDetection]:
    """Every distinct Sudoku grid in the photo (up to ``max_grids``), best first.

    With ``max_grids`` > 1 a shrunk page that shows fewer grids is searched again finer
    (``SearchConfig.finer_zoom``); the grids it adds follow those of the first search.
    ``finer_photo``: where ``image`` is a reduced copy of the photo, the photo decoded
    finer for that search (``FinerPhoto``).
    """
    page = _SearchPage.of(image, config, max_grids, finer_photo)
    found, _ = page.search(max_grids)
    chosen = select(found, max_grids, config.select, page.small.shape)
    if max_grids > 1:
        chosen = page.finer_grids(chosen, max_grids)
    return page.full_detections(chosen)


def find_all_grids(
    image: np.ndarray,
    *,
    config: GridConfig = DEFAULT_GRID_CONFIG,
    max_grids: int = 1,
    finer_photo: FinerPhoto | None = None,
) -> list[GridDetection]:
    """The best grid as ``find_grids(max_grids=1)`` finds it, then up to ``max_grids`` - 1 more.

    The wider search for more grids (``find_grids``'s for ``max_grids``) runs only when a
    candidate outside the first grid (a contour's quad, or one around a cluster of
    cell-like holes) scores ``select.min_score`` before refinement; the finer search of a
    shrunk page (``SearchConfig.finer_zoom``) then, when a candidate outside the grids
    found scores ``select.finer_seen_score`` (small grids score little at the first
    search's size), or when no grid is found. A photo of one puzzle mostly costs what
    ``find_grids(max_grids=1)`` costs, a page of several puzzles all the searches.
    Several grids come in reading order: rows of grids top to bottom, each row left to
    right. ``finer_photo`` as for ``find_grids``.
    """
    page = _SearchPage.of(image, config, max_grids, finer_photo)
    found, scored = page.search(1)
    chosen = select(found, 1, config.select, page.small.shape)
    if max_grids == 1:
        return page.full_detections(chosen)
    seen = scored + page.clusters_apart(chosen)
    several = bool(chosen) and _seen_apart(seen, chosen, config.select.min_score, config.select)
    if several:
        more, _ = page.search(max_grids)
        chosen = select(more, max_grids, config.select, page.small.shape, tuple(chosen))
    finer_seen = _seen_apart(seen, chosen, config.select.finer_seen_score, config.select)
    if several or finer_seen or not chosen:
        chosen = page.finer_grids(chosen, max_grids)
    return page.full_detections(reading_order(chosen))


def reading_order(grids: list[_Found]) -> list[_Found]:
    """Grids top to bottom in rows, each row left to right (``vision/results.py``'s order)."""
    return [grids[i] for i in puzzle_order([g.quad for g in grids])]


def _seen_apart(
    scored: list[tuple[float, np.ndarray]],
    chosen: list[_Found],
    threshold: float,
    config: SelectConfig,
) -> bool:
    """True when a candidate quad apart from every chosen grid scores ``threshold``."""
    apart = config.max_overlap_fraction
    return any(
        score >= threshold and all(overlap_fraction(quad, c.quad) < apart for c in chosen)
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
    finer_photo: FinerPhoto | None = None

    @classmethod
    def of(
        cls,
        image: np.ndarray,
        config: GridConfig,
        max_grids: int,
        finer_photo: FinerPhoto | None = None,
    ) -> _SearchPage:
        """Check the photo and ``max_grids``, and prepare the search."""
        check_image(image)
        if not isinstance(max_grids, int) or max_grids < 1:
            raise ValueError(f"max_grids must be a positive integer, got {max_grids!r}")
        gray = to_gray(image)
        small, scale = shrink(gray, config.search.max_side)
        return cls(image, gray, small, scale, build_pyramid(small), config, finer_photo)

    def search(
        self, max_grids: int, known: tuple[_Found, ...] = (), floor: float = 0.0
    ) -> tuple[list[_Found], list[tuple[float, np.ndarray]]]:
        """Refined grids for up to ``max_grids``, and every candidate quad with its rough score.

        When fewer than ``max_grids`` sure grids are found, quads around the best few
        candidates (taken as a 3×3 box of a larger grid) are refined too. ``known``: grids
        found before, in this page's pixels; quads on them are not refined again. Quads
        scoring less than ``floor`` before refinement are not refined.
        """
        config, levels = self.config, self.levels
        count = config.refine.candidates_per_grid * max_grids
        candidates = find_candidates(self.small, config.search, max_grids, self.views)
        scored = scored_quads(levels, off_sure_grids(candidates, known, config), config)
        quads = [quad for _, quad in scored[:count]]
        found = refine_all(levels, [q for s, q in scored[:count] if s >= floor], config, known)
        if sum(f.score >= config.select.sure_score for f in [*known, *found]) < max_grids:
            boxes = quads[: config.refine.box_candidates]
            around = scored_quads(
                levels, [g for box in boxes for g in grids_around_box(box)], config
            )
            best = [quad for score, quad in around[:count] if score >= floor]
            found += refine_all(levels, best, config, known)
        return found, scored

    @cached_property
    def views(self) -> list[np.ndarray]:
        """The binary ink views of the search image that candidates are found in."""
        return ink_views(self.small, self.config.search)

    def clusters_apart(self, chosen: list[_Found]) -> list[tuple[float, np.ndarray]]:
        """Quads around clusters of cell-like holes in the line runs (the last view), apart
        from every chosen grid, each with its grid-likeness before refinement, best first."""
        apart = self.config.select.max_overlap_fraction
        quads = [
            quad
            for quad in clustered_candidates(self.views[-1:], self.config.search)
            if all(overlap_fraction(quad, item.quad) < apart for item in chosen)
        ]
        return scored_quads(self.levels, quads, self.config)

    def finer(self) -> _SearchPage | None:
        """This page searched at up to ``search.finer_zoom`` times the resolution, every view
        the same size in pixels; None when it is searched at full resolution already.

        The finer search image comes from ``finer_photo`` when the page is too small for it.
        """
        search = self.config.search
        gray = self.gray
        wanted = math.ceil(search.max_side * search.finer_zoom)
        if self.finer_photo is not None and max(gray.shape) < wanted:
            gray = to_gray(self.finer_photo(wanted))
        grow = max(gray.shape) / max(self.gray.shape)  # pixels of ``gray`` per page pixel
        zoom = min(search.finer_zoom, grow / self.scale)
        if zoom <= 1.0:
            return None
        config = replace(self.config, search=search.zoomed(zoom))
        small, scale = shrink(gray, config.search.max_side)
        levels = build_pyramid(small)
        return _SearchPage(self.image, self.gray, small, scale * grow, levels, config)

    def finer_grids(self, chosen: list[_Found], max_grids: int) -> list[_Found]:
        """The first of ``chosen``, then the best of the others and of the finer search's grids.

        A finer grid replaces one of the others it overlaps only when it scores
        ``select.finer_better_score`` more (a one-cell shift can score a little higher);
        where the other scores too high for that, the finer search does not look again.
        Up to ``max_grids`` in all, in this page's search pixels; ``chosen`` as it is when
        the page is searched at full resolution already or holds ``max_grids``.
        """
        fine = self.finer() if len(chosen) < max_grids else None
        if fine is None:
            return chosen
        factor = fine.scale / self.scale
        first = tuple(rescaled(item, factor) for item in chosen[:1])
        others = [rescaled(item, factor) for item in chosen[1:]]
        margin = fine.config.select.finer_better_score
        beyond = tuple(item for item in others if item.score + margin > MAX_SCORE)
        found, _ = fine.search(max_grids, (*first, *beyond), fine.config.refine.finer_min_score)
        same = fine.config.select.max_overlap_fraction
        found = [
            item
            for item in found
            if all(
                item.score >= other.score + margin or overlap_fraction(item.quad, other.quad) < same
                for other in others
            )
        ]
        picked = select(found + others, max_grids, fine.config.select, fine.small.shape, first)
        return chosen[:1] + [rescaled(item, 1.0 / factor) for item in picked[len(first) :]]

    def full_detections(self, chosen: list[_Found]) -> list[GridDetection]:
        """The chosen grids at full resolution, each first moved onto its real lines."""
        full = build_pyramid(self.gray) if chosen else ()
        moved = onto_real_lines(full, chosen, self.scale, self.config)
        return [trace_and_warp(full, item, self.scale, self.config) for item in moved]


def onto_real_lines(
    levels: Pyramid, chosen: list[_Found], scale: float, config: GridConfig
) -> list[_Found]:
    """Each grid moved by whole cells where its lattice took an edge for a line (shift.py).

    ``levels``: the photo's pyramid, ``scale`` times larger than the grids' pixels. A moved
    grid's lattice is measured again there (its score stays the one it was chosen by); one
    that would move onto another chosen grid (``select.max_overlap_fraction``) stays.
    """
    apart = config.select.max_overlap_fraction
    moved: list[_Found] = []
    for i, item in enumerate(chosen):
        right, down = grid_offsets(levels, item.quad / scale, config.shift)
        quad = moved_quad(item.quad, right, down)
        others = [c.quad for j, c in enumerate(chosen) if j != i]
        if (
            (right, down) != (0, 0)
            and is_convex_clockwise(quad)
            and all(overlap_fraction(quad, other) < apart for other in others)
        ):
            full = quad / scale
            start = _Found(full, flat_lattice(full), score_quad(levels, full, config))
            remeasured = rescaled(measured(levels, start, config), scale)
            item = _Found(remeasured.quad, remeasured.lattice, item.score)
        moved.append(item)
    return moved


def rescaled(item: _Found, factor: float) -> _Found:
    """The same grid in the pixels of an image ``factor`` times larger."""
    return _Found(item.quad * factor, item.lattice * factor, item.score)


def trace_and_warp(
    levels: Pyramid, item: _Found, scale: float, config: GridConfig
) -> GridDetection:
    """The detection at full resolution: lines traced in ``levels`` (the photo's gray
    pyramid), the grid warped from its first level (the gray photo, not made again).

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
    gray = levels[0]
    return warp_from_corners(gray, corners, config, lattice=lattice, score=item.score, outer=outer)


def find_grid(
    image: np.ndarray, *, config: GridConfig = DEFAULT_GRID_CONFIG
) -> GridDetection | None:
    """The most grid-like 9×9 grid in the photo, or None when there is none."""
    grids = find_grids(image, config=config, max_grids=1)
    return grids[0] if grids else None


def retrace(
    image: np.ndarray, lattice: np.ndarray, score: float, config: GridConfig = DEFAULT_GRID_CONFIG
) -> GridDetection:
    """A grid found in a coarser copy of the photo, traced again and warped from ``image``.

    ``lattice``: its (10, 10, 2) crossings in ``image``'s pixels; ``score``: its
    grid-likeness where it was found.
    """
    check_image(image)
    grid = np.asarray(lattice, dtype=np.float64)
    if grid.shape != (10, 10, 2):
        raise ValueError(f"lattice must have shape (10, 10, 2), got {grid.shape}")
    item = _Found(grid[[0, 0, 9, 9], [0, 9, 9, 0]], grid, score)
    return trace_and_warp(build_pyramid(to_gray(image)), item, 1.0, config)
