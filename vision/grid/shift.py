"""Whether a found lattice sits one to a few cells off the real grid, and where it belongs.

A page edge, a table edge or the edge of a shadow can pass for a grid line: a lattice
snapped onto one takes it for an outer line, leaves a real outer line just outside, and
holds a row or column of phantom cells (page margin, table, handwriting). Here the
lattice's lines are followed ``ShiftConfig.max_cells`` beyond each side and two things
measured in each direction:

- each line: in how many of its segments it is a thin line darker than the paper on
  *both* sides (ink on paper; a step edge is darker than one side only);
- each column (row) of cells: how many of the perpendicular lines cross it (a real
  grid's columns are crossed by its 10 lines; a page margin or table is not).

The 10 lines and 9 columns (rows) in a row that look most like a grid become the lattice
when they look clearly more so than the ones found.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .config import ShiftConfig
from .lattice import Pyramid, warp_with_margin

MIN_PAPER = 1.0  # gray level floor of the paper beside a line (no division by zero)
UNIT_QUAD = np.array([[0, 0], [9, 0], [9, 9], [0, 9]], dtype=np.float64)


def two_sided_contrast(profiles: np.ndarray, cell: int, config: ShiftConfig) -> np.ndarray:
    """Per pixel of each profile (rows of gray levels across lines): ``1 - gray / paper``
    where paper is the darker of the mean gray each side, ``paper_near_cells`` to
    ``paper_far_cells`` away; at least 0. Textured or dark ground beside a page edge
    reads as paper no brighter than the edge."""
    near = max(1, round(config.paper_near_cells * cell))
    far = max(near + 1, round(config.paper_far_cells * cell))
    pad = far
    padded = cv2.copyMakeBorder(profiles, 0, 0, pad, pad, cv2.BORDER_REPLICATE)
    width = profiles.shape[1]
    spread = far - near + 1
    bright = cv2.blur(padded, (spread, 1), anchor=(0, 0), borderType=cv2.BORDER_REPLICATE)
    # bright[:, i] = mean of padded[:, i : i + spread]
    left = bright[:, pad - far : pad - far + width]
    right = bright[:, pad + near : pad + near + width]
    paper = np.maximum(np.minimum(left, right), MIN_PAPER)
    return np.asarray(np.clip(1.0 - profiles / paper, 0.0, 1.0))


@dataclass(frozen=True)
class _Direction:
    """Lines of one direction, followed beyond the lattice, in a warp with a margin."""

    places: np.ndarray  # (n,) pixel of each line, lattice line 0 at index ``reach``
    strengths: np.ndarray  # (n,) share of the lattice's segments that see each line
    seen: np.ndarray  # (segments, width) bool: within ``slant_cells`` of a seen line


def follow_lines(
    seen: np.ndarray, cell: int, reach: int, config: ShiftConfig
) -> tuple[np.ndarray, np.ndarray]:
    """Places and strengths of the lattice's lines and ``reach`` more each side.

    ``seen``: (segments, width) line pixels, each widened by the slant allowed; lattice
    line k is expected at pixel ``(reach + 1/2 + k) * cell``. Each line is the best-seen
    place within ``search_cells`` of where it is expected: its lattice place, or, beyond
    the lattice, one spacing (the lattice's median) on from the line before.
    """
    share = seen.mean(axis=0, dtype=np.float32)
    search = max(1, round(config.search_cells * cell))
    count = 10 + 2 * reach
    places = np.zeros(count)
    strengths = np.zeros(count)

    def put(k: int, expected: float) -> None:
        lo = int(np.clip(round(expected) - search, 0, len(share) - 1))
        hi = int(np.clip(round(expected) + search + 1, lo + 1, len(share)))
        best = lo + int(np.argmax(share[lo:hi]))
        places[k], strengths[k] = (best, share[best]) if share[best] > 0 else (expected, 0.0)

    for k in range(reach, reach + 10):
        put(k, (k + 0.5) * cell)
    spacing = float(np.median(np.diff(places[reach : reach + 10])))
    for k in range(reach - 1, -1, -1):
        put(k, places[k + 1] - spacing)
    for k in range(reach + 10, count):
        put(k, places[k - 1] + spacing)
    return places, strengths


def percentile_along(values: np.ndarray, q: float) -> np.ndarray:
    """(A, C) float32: ``np.percentile(values.astype(np.float32), q, axis=1)`` of (A, B, C)
    ``values``, with the same linear method and arithmetic, so the same numbers.

    The two values it interpolates between are put in place by one partition along the
    axis at both ranks (numpy's percentile partitions a short axis of a large array many
    times slower; a full sort takes twice as long).
    """
    count = values.shape[1]
    position = (count - 1) * (q / 100.0)
    lower = min(math.floor(position), count - 1)
    upper = min(lower + 1, count - 1)
    gamma = position - lower
    ordered = np.partition(values, sorted({lower, upper}), axis=1)
    below = ordered[:, lower].astype(np.float32)
    above = ordered[:, upper].astype(np.float32)
    step = above - below
    return np.asarray(below + step * gamma if gamma < 0.5 else above - step * (1 - gamma))


def measure_direction(warped: np.ndarray, cell: int, reach: int, config: ShiftConfig) -> _Direction:
    """The vertical lines of ``warped`` (the grid at ``cell`` px per cell with ``reach`` +
    1/2 cells of margin), seen in each of the 9 + 2 * ``reach`` cell-wide bands across
    them; strengths count the lattice's own 9 bands."""
    bands = 9 + 2 * reach
    start = cell // 2
    # a line is dark all along a band (text is not): a high percentile along it, after a
    # minimum over ``slant_cells`` across it so a slightly slanting line stays whole
    slant = 2 * round(config.slant_cells * cell) + 1
    part = cv2.erode(warped[start : start + bands * cell], np.ones((1, slant), np.uint8))
    profiles = percentile_along(part.reshape(bands, cell, -1), config.along_percentile)
    contrast = two_sided_contrast(profiles, cell, config)
    own = contrast[reach : reach + 9]
    search = max(1, round(config.search_cells * cell))
    peaks = [
        own[:, max(0, round((k + 0.5) * cell) - search) : round((k + 0.5) * cell) + search + 1]
        for k in range(reach, reach + 10)
    ]
    typical = float(np.median([p.max(axis=1) for p in peaks]))
    dark = (contrast >= max(config.seen_share * typical, config.min_contrast)).astype(np.uint8)
    seen = cv2.dilate(dark, np.ones((1, slant), np.uint8)) > 0  # a line may wander
    places, strengths = follow_lines(seen[reach : reach + 9], cell, reach, config)
    return _Direction(places, strengths, seen)


def crossed_share(lines: _Direction, cell: int, config: ShiftConfig) -> np.ndarray:
    """For each band across ``lines``: how many of them (of 10) are seen in it, at most 1.

    A line is seen in a band within ``search_cells`` of its place (beyond the lattice's
    bands, lines followed straight may stray from the real ones a little).
    """
    search = max(1, round(config.search_cells * cell))
    near = cv2.dilate(lines.seen.astype(np.uint8), np.ones((1, 2 * search + 1), np.uint8))
    at = np.clip(np.round(lines.places).astype(int), 0, lines.seen.shape[1] - 1)
    crossing = near[:, at]
    return np.asarray(np.minimum(crossing.sum(axis=1) / 10.0, 1.0), dtype=np.float64)


def best_offset(strengths: np.ndarray, crossed: np.ndarray, reach: int, config: ShiftConfig) -> int:
    """Cells to move the lattice by (0: stay) so its 10 lines and 9 bands look most grid-like.

    A move must see every line it adds in ``new_line_share`` of the segments, find every
    band it adds crossed by ``new_band_share`` of the lines, and gain ``min_gain`` in all.
    """

    def value(offset: int) -> float:
        lines = strengths[reach + offset : reach + offset + 10]
        bands = crossed[reach + offset : reach + offset + 9]
        return float(lines.sum() + bands.sum())

    best, best_value = 0, value(0) + config.min_gain
    for offset in [o for o in range(-reach, reach + 1) if o != 0]:
        span = range(offset, 0) if offset < 0 else range(10, 10 + offset)
        new_lines = strengths[[reach + k for k in span]]
        new_bands = crossed[[reach + k - (offset > 0) for k in span]]
        if new_lines.min() < config.new_line_share or new_bands.min() < config.new_band_share:
            continue
        if value(offset) >= best_value:
            best, best_value = offset, value(offset)
    return best


def grid_offsets(levels: Pyramid, quad: np.ndarray, config: ShiftConfig) -> tuple[int, int]:
    """Whole cells (right, down) to move ``quad`` by onto the grid's real lines."""
    cell, reach = config.cell_size, config.max_cells
    warped, _ = warp_with_margin(levels, quad, cell, reach + 0.5)
    vertical = measure_direction(warped, cell, reach, config)
    horizontal = measure_direction(np.ascontiguousarray(warped.T), cell, reach, config)
    dx = best_offset(vertical.strengths, crossed_share(horizontal, cell, config), reach, config)
    dy = best_offset(horizontal.strengths, crossed_share(vertical, cell, config), reach, config)
    return dx, dy


def moved_quad(quad: np.ndarray, right: int, down: int) -> np.ndarray:
    """``quad`` (TL, TR, BR, BL of a 9 × 9 grid) moved by whole cells along its own lattice."""
    unit = cv2.getPerspectiveTransform(UNIT_QUAD.astype(np.float32), quad.astype(np.float32))
    moved = (UNIT_QUAD + np.array([right, down], dtype=np.float64)).reshape(1, 4, 2)
    return np.asarray(cv2.perspectiveTransform(moved, unit).reshape(4, 2), dtype=np.float64)
