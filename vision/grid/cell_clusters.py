"""Rough quads around clusters of cell-like holes: a grid seen through its cells.

A grid's outline is a contour of its own only while its border touches no other ink. A
fold across the page, a rule, or the edge of a photo pasted on a white sheet joins it to
its surroundings, and the contour views (candidates.py) see one larger blob. Its cells
(or, where the thin lines are lost, its 3×3 boxes) are still holes in the ink: near
square, filled, side by side. Holes grown a little join their neighbours; each cluster
of enough of them gives quads around its holes. Scoring (lattice.py) decides which is a
grid.
"""

from __future__ import annotations

import cv2
import numpy as np

from .config import SearchConfig
from .warp import is_convex_clockwise, order_corners

GRID_CELLS = 9  # cells along a grid's side
BOXES = 3  # 3×3 boxes along a grid's side
MIN_HOLE_PX = 3  # smaller holes (the insides of letters, noise) are never cells


def cell_holes(
    binary: np.ndarray, min_side: float, max_side: float, search: SearchConfig
) -> list[np.ndarray]:
    """Contours of the holes in ``binary`` (255 = ink) shaped like a cell or a 3×3 box.

    Near square (``cell_min_square``), filling most of their upright box
    (``cell_min_fill``), from ``min_side`` to ``max_side`` px wide.
    """
    contours, hierarchy = cv2.findContours(binary, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    holes = []
    for contour, links in zip(contours, hierarchy[0], strict=True):
        if links[3] < 0:  # no parent: an outer boundary, not a hole
            continue
        _, _, width, height = cv2.boundingRect(contour)
        short, long = min(width, height), max(width, height)
        if short < min_side or long > max_side or short < search.cell_min_square * long:
            continue
        if cv2.contourArea(contour) >= search.cell_min_fill * width * height:
            holes.append(contour)
    return holes


def clusters(
    holes: list[np.ndarray], shape: tuple[int, int], join: float
) -> list[list[np.ndarray]]:
    """The holes in groups of neighbours: each hole's upright box grown by ``join`` of its
    side, boxes that then touch are one group."""
    mask = np.zeros(shape, np.uint8)
    boxes = [cv2.boundingRect(hole) for hole in holes]
    for x, y, width, height in boxes:
        grow = round(join * (width + height) / 2)
        cv2.rectangle(mask, (x - grow, y - grow), (x + width + grow, y + height + grow), 255, -1)
    count, labels = cv2.connectedComponents(mask, connectivity=4)
    groups: list[list[np.ndarray]] = [[] for _ in range(count)]
    for hole, (x, y, width, height) in zip(holes, boxes, strict=True):
        groups[int(labels[y + height // 2, x + width // 2])].append(hole)
    return [group for group in groups if group]


def quads_around(points: np.ndarray) -> list[np.ndarray]:
    """Two quads around points: the four extreme points of their hull, and the smallest
    turned rectangle holding them (TL, TR, BR, BL)."""
    hull = cv2.convexHull(points.astype(np.int32)).reshape(-1, 2).astype(np.float64)
    sums, diffs = hull.sum(axis=1), hull[:, 0] - hull[:, 1]
    extremes = hull[[np.argmin(sums), np.argmax(diffs), np.argmax(sums), np.argmin(diffs)]]
    rectangle = order_corners(cv2.boxPoints(cv2.minAreaRect(hull.astype(np.float32))))
    return [q for q in (extremes, rectangle.astype(np.float64)) if is_convex_clockwise(q)]


def cluster_quads(
    views: list[np.ndarray], min_area: float, search: SearchConfig
) -> list[np.ndarray]:
    """Quads around each cluster of at least ``min_cluster_holes`` cell-like holes.

    Holes range from a cell of the smallest grid (``min_area`` px²) to a 3×3 box of a grid
    as large as the image; a cluster must cover ``min_area``.
    """
    shape = views[0].shape[:2]
    min_side = max(MIN_HOLE_PX, float(np.sqrt(min_area)) / GRID_CELLS)
    quads: list[np.ndarray] = []
    for view in views:
        holes = cell_holes(view, min_side, min(shape) / BOXES, search)
        for group in clusters(holes, shape, search.cell_join_fraction):
            if len(group) < search.min_cluster_holes:
                continue
            points = np.concatenate([hole.reshape(-1, 2) for hole in group])
            quads.extend(
                q for q in quads_around(points) if cv2.contourArea(q.astype(np.float32)) >= min_area
            )
    return quads
