"""Rough four-sided places where a grid might be, from several cheap views of the photo.

Views: contours of adaptive thresholds at two scales, and contours of the long
horizontal + vertical line runs (which keeps a grid whose border touches text or whose
border is broken). Each contour gives up to two quads: a polygon approximation and the
four extreme points of its hull. Scoring (lattice.py) decides which is a grid.
"""

from __future__ import annotations

import cv2
import numpy as np

from .cell_clusters import cluster_quads
from .config import SearchConfig
from .lattice import odd_size
from .warp import is_convex_clockwise, next_rows, order_corners

INK = 255  # value of ink pixels in the binary views
JOIN_PX = 3  # line runs are thickened by a pixel each way so their crossings join


def ink_views(gray: np.ndarray, search: SearchConfig) -> list[np.ndarray]:
    """Binary ink images (255 = ink) at a few threshold scales, plus their line runs."""
    side = max(gray.shape)
    blurred = cv2.GaussianBlur(gray, (search.blur_size, search.blur_size), 0)
    views = []
    for parts, offset in search.threshold_views:
        block = odd_size(side / parts)
        ink = cv2.adaptiveThreshold(
            blurred, INK, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, offset
        )
        views.append(ink)
    views.append(line_runs(views[0], side, search))
    return views


def line_runs(ink: np.ndarray, side: int, search: SearchConfig) -> np.ndarray:
    """Long horizontal and vertical ink runs, slightly thickened so crossings join."""
    length = max(search.min_line_run, side // search.line_run_parts)
    horizontal = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    vertical = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    joined = cv2.bitwise_or(horizontal, vertical)
    return cv2.dilate(joined, np.ones((JOIN_PX, JOIN_PX), np.uint8))


def quads_from_contour(contour: np.ndarray, search: SearchConfig) -> list[np.ndarray]:
    """Up to two four-corner readings of a contour: polygon approximation and hull extremes."""
    hull = cv2.convexHull(contour).reshape(-1, 2).astype(np.float64)
    quads = []
    perimeter = cv2.arcLength(hull.astype(np.float32), True)
    for fraction in search.approx_fractions:
        approx = cv2.approxPolyDP(hull.astype(np.float32), fraction * perimeter, True)
        if len(approx) == 4:
            quads.append(order_corners(approx.reshape(4, 2)))
            break
    sums, diffs = hull.sum(axis=1), hull[:, 0] - hull[:, 1]
    extremes = hull[[np.argmin(sums), np.argmax(diffs), np.argmax(sums), np.argmin(diffs)]]
    quads.append(extremes)
    return [q for q in quads if is_convex_clockwise(q)]


def _box_area(contour: np.ndarray) -> float:
    """Area of the upright bounding box of a contour (a cheap upper bound of its hull's)."""
    _, _, width, height = cv2.boundingRect(contour)
    return float(width * height)


def contour_quads(
    binary: np.ndarray, min_area: float, limit: int, search: SearchConfig
) -> list[np.ndarray]:
    """Quads from the largest contours (any nesting level) of a binary image."""
    contours, _ = cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    big = [c for c in contours if len(c) >= 4 and _box_area(c) >= min_area]
    sized = [(cv2.contourArea(cv2.convexHull(c)), c) for c in big]
    sized = [item for item in sized if item[0] >= min_area]
    sized.sort(key=lambda item: -item[0])
    quads: list[np.ndarray] = []
    for _, contour in sized[:limit]:
        quads.extend(quads_from_contour(contour, search))
    return quads


def is_plausible(quad: np.ndarray, min_area: float, search: SearchConfig) -> bool:
    """A quad big enough, not too thin, with no very sharp corner."""
    following = next_rows(quad)
    area = 0.5 * abs(
        float(np.dot(quad[:, 0], following[:, 1]) - np.dot(quad[:, 1], following[:, 0]))
    )
    if area < min_area:
        return False
    edges = following - quad
    sides = np.linalg.norm(edges, axis=1)
    if sides.min() < search.min_side_ratio * sides.max():
        return False
    prev = next_rows(edges, -1)
    cosines = -np.sum(edges * prev, axis=1) / (sides * next_rows(sides, -1) + 1e-9)
    return bool(np.all(np.abs(cosines) < search.max_corner_cosine))


def dedupe(quads: list[np.ndarray], tolerance: float) -> list[np.ndarray]:
    """Drop quads whose corners all lie within ``tolerance`` px of an earlier quad."""
    kept: list[np.ndarray] = []
    for quad in quads:
        if all(np.abs(quad - other).max() > tolerance for other in kept):
            kept.append(quad)
    return kept


def find_candidates(
    gray: np.ndarray,
    search: SearchConfig,
    max_grids: int = 1,
    views: list[np.ndarray] | None = None,
) -> list[np.ndarray]:
    """Distinct plausible quads (TL, TR, BR, BL) in the pixels of ``gray``, biggest first.

    Each view (``ink_views``, or ``views`` when given) contributes its ``contours_per_view``
    largest contours, plus ``contours_per_extra_grid`` per extra grid wanted. When several
    grids are wanted, the quads of ``clustered_candidates`` follow.
    """
    min_area = min_grid_area(gray, search)
    limit = search.contours_per_view + search.contours_per_extra_grid * (max_grids - 1)
    views = ink_views(gray, search) if views is None else views
    quads: list[np.ndarray] = []
    for view in views:
        quads.extend(contour_quads(view, min_area, limit, search))
    if max_grids > 1:
        quads.extend(cluster_quads(views, min_area, search))
    quads = [q for q in quads if is_plausible(q, min_area, search)]
    return dedupe(quads, search.same_quad_fraction * max(gray.shape))


def min_grid_area(gray: np.ndarray, search: SearchConfig) -> float:
    """Area (px²) of the smallest grid looked for in ``gray``."""
    return search.min_grid_area_fraction * gray.shape[0] * gray.shape[1]


def clustered_candidates(views: list[np.ndarray], search: SearchConfig) -> list[np.ndarray]:
    """Plausible quads around clusters of cell-like holes in ``views`` (cell_clusters.py)."""
    min_area = min_grid_area(views[0], search)
    quads = cluster_quads(views, min_area, search)
    return [q for q in quads if is_plausible(q, min_area, search)]


def grids_around_box(quad: np.ndarray) -> list[np.ndarray]:
    """The nine 9×9 grids that would hold ``quad`` as one of their 3×3 boxes.

    Rescues grids whose outer border is lost (merged with text, faded, cut) while a box
    inside it was seen.
    """
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32)
    homography = cv2.getPerspectiveTransform(unit, quad.astype(np.float32)).astype(np.float64)
    grids = []
    for row in range(3):
        for col in range(3):
            box = np.array(
                [[-col, -row], [3 - col, -row], [3 - col, 3 - row], [-col, 3 - row]],
                dtype=np.float64,
            )
            mapped = box @ homography[:, :2].T + homography[:, 2]
            with np.errstate(divide="ignore", invalid="ignore"):
                grid = mapped[:, :2] / mapped[:, 2:3]
            # a corner on the horizon (the box seen edge-on) is no grid in the photo
            if np.isfinite(grid).all() and is_convex_clockwise(grid):
                grids.append(grid)
    return grids
