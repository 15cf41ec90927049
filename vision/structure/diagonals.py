"""Sudoku X: both main diagonals marked, as drawn lines or as shaded cells.

A drawn diagonal is darker along its own path than along parallel paths just beside it,
in cell after cell, where digits seldom reach (near the cells' corners). Shaded diagonal
cells have a greyer paper than the cells of their row in their box that lie on no
diagonal; comparing within a box keeps a page tinting whole boxes, or a shadow, from
passing for shading.
"""

from __future__ import annotations

from enum import StrEnum

import numpy as np

from .config import DiagonalConfig

# where a drawn line is looked for across its path (pixels along the normal, over √2): a
# straightened grid's diagonal may lie a pixel off the ideal one (warp error, resampling)
ALIGN_SHIFTS = (-0.75, -0.35, 0.0, 0.35, 0.75)


class DiagonalMark(StrEnum):
    """How a grid's diagonals are marked."""

    NONE = "none"
    LINES = "lines"
    SHADED = "shaded"


def diagonal_mark(warped: np.ndarray, size: int, config: DiagonalConfig) -> DiagonalMark:
    """How both main diagonals of a straightened grid are marked (NONE when not both)."""
    dark = 255.0 - warped.astype(np.float32)
    if all(_line_drawn(dark, size, anti, config) for anti in (False, True)):
        return DiagonalMark.LINES
    if _cells_shaded(dark, size, config):
        return DiagonalMark.SHADED
    return DiagonalMark.NONE


def _line_drawn(dark: np.ndarray, size: int, anti: bool, config: DiagonalConfig) -> bool:
    """Whether one diagonal is drawn: darker on its path than beside it, cell after cell."""
    side = dark.shape[0] / size
    along = corner_points(dark.shape[0], size, config)
    shift = config.offset * side / np.sqrt(2.0)
    on = np.max([path_darkness(dark, along, anti, d) for d in ALIGN_SHIFTS], axis=0)
    beside = path_darkness(dark, along, anti, shift) + path_darkness(dark, along, anti, -shift)
    beside /= 2.0
    cells = on - beside
    strong = float(np.median(cells)) >= config.min_line_ink
    return strong and int(np.sum(cells >= config.min_line_ink / 2)) >= config.min_cells


def corner_points(side: int, size: int, config: DiagonalConfig) -> np.ndarray:
    """(size, points): where a diagonal is sampled in each cell, as distances along the
    main diagonal's axis (pixels), near the cell's two corners on it (digits seldom reach)."""
    ts = np.concatenate([
        np.linspace(config.near_corner, config.far_corner, 6),
        np.linspace(1 - config.far_corner, 1 - config.near_corner, 6),
    ])  # fmt: skip
    return np.asarray((np.arange(size)[:, None] + ts[None, :]) * (side / size), np.float64)


def path_darkness(
    dark: np.ndarray, along: np.ndarray, anti: bool, shift: float | np.ndarray
) -> np.ndarray:
    """(size,): each cell's mean darkness at the points ``along`` the main diagonal (or
    the anti-diagonal), moved ``shift`` pixels along the path's normal; (shifts, size)
    for a column of shifts (shape (shifts, 1, 1))."""
    last = dark.shape[0] - 1
    y = along + shift
    x = (dark.shape[0] - along if anti else along) + (shift if anti else -shift)
    xs = np.clip(np.rint(x), 0, last).astype(np.intp)
    ys = np.clip(np.rint(y), 0, last).astype(np.intp)
    return np.asarray(dark[ys, xs].mean(axis=-1), np.float64)


def _cells_shaded(dark: np.ndarray, size: int, config: DiagonalConfig) -> bool:
    """Whether the diagonals' cells are shaded: greyer than their row's others in their box."""
    paper = _cell_paper(dark, size, config)
    box = round(np.sqrt(size))
    on = {(i, i) for i in range(size)} | {(i, size - 1 - i) for i in range(size)}
    shade = []
    for r, c in sorted(on):
        start = c // box * box
        others = [float(paper[r, k]) for k in range(start, start + box) if (r, k) not in on]
        shade.append(float(paper[r, c]) - sum(others) / len(others))
    shades = np.asarray(shade)
    strong = float(np.median(shades)) >= config.min_shade
    return strong and int(np.sum(shades >= config.min_shade / 2)) >= config.min_shaded_cells


def _cell_paper(dark: np.ndarray, size: int, config: DiagonalConfig) -> np.ndarray:
    """(size, size): how dark each cell's paper is (a low percentile of its inner darkness)."""
    side = dark.shape[0] // size
    inset = round(config.inset * side)
    cells = dark[: size * side, : size * side].reshape(size, side, size, side)
    inner = cells[:, inset : side - inset, :, inset : side - inset].transpose(0, 2, 1, 3)
    flat = inner.reshape(size, size, -1)
    return np.percentile(flat, 100.0 - config.ground_percentile, axis=-1).astype(np.float64)
