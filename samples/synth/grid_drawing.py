"""Printed Sudoku grids: newspaper grid styles, the lattice, lines, shading and givens."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .fonts import font_for_height
from .sheet import INK, Sheet
from .types import RGB


@dataclass(frozen=True)
class GridStyle:
    """How a newspaper prints its Sudoku grid (widths are fractions of a cell)."""

    font: str
    digit_height: float
    thin: float
    thick: float
    outer: float
    line_ink: RGB
    digit_ink: RGB
    shade: str  # "none", "boxes" (alternate boxes tinted) or "band" (a few cells tinted)


def sample_grid_style(rng: np.random.Generator, font: str) -> GridStyle:
    """A random but plausible newspaper grid style."""
    thick = float(rng.uniform(0.05, 0.085))
    return GridStyle(
        font=font,
        digit_height=float(rng.uniform(0.5, 0.64)),
        thin=float(rng.uniform(0.016, 0.03)),
        thick=thick,
        outer=thick * float(rng.uniform(1.0, 1.4)),
        line_ink=INK if rng.random() < 0.7 else (0.2, 0.2, 0.24),
        digit_ink=INK,
        shade=str(rng.choice(["none", "none", "none", "boxes", "band"])),
    )


def grid_lattice(x0: float, y0: float, cell: float, n: int = 9) -> np.ndarray:
    """(n+1, n+1, 2) crossings of the grid lines: [i, j] is horizontal line i × vertical j."""
    ii, jj = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    return np.stack([x0 + jj * cell, y0 + ii * cell], axis=-1).astype(np.float64)


def draw_grid_lines(sheet: Sheet, x0: float, y0: float, cell: float, style: GridStyle) -> None:
    """The thin, thick and outer lines of a 9×9 grid, centred on the cell boundaries."""
    side = 9 * cell
    half_outer = style.outer * cell / 2
    for i in range(10):
        width = style.outer if i in (0, 9) else style.thick if i % 3 == 0 else style.thin
        half = width * cell / 2
        pos_x, pos_y = x0 + i * cell, y0 + i * cell
        sheet.rect(
            pos_x - half, y0 - half_outer, pos_x + half, y0 + side + half_outer, style.line_ink
        )
        sheet.rect(
            x0 - half_outer, pos_y - half, x0 + side + half_outer, pos_y + half, style.line_ink
        )


def draw_shading(
    sheet: Sheet, rng: np.random.Generator, x0: float, y0: float, cell: float, style: GridStyle
) -> None:
    """Tinted boxes or a tinted band of cells, as some newspapers print."""
    if style.shade == "boxes":
        tint: RGB = (0.86, 0.86, 0.86)
        for box in (1, 3, 5, 7):
            br, bc = divmod(box, 3)
            sheet.rect(x0 + 3 * bc * cell, y0 + 3 * br * cell, x0 + 3 * (bc + 1) * cell,
                       y0 + 3 * (br + 1) * cell, tint)  # fmt: skip
    elif style.shade == "band":
        r, c = int(rng.integers(9)), int(rng.integers(7))
        sheet.rect(x0 + c * cell, y0 + r * cell, x0 + (c + 3) * cell, y0 + (r + 1) * cell,
                   (0.62, 0.76, 0.92))  # fmt: skip


def draw_digits(
    sheet: Sheet, lattice: np.ndarray, grid: np.ndarray, font_name: str, height: float, ink: RGB
) -> None:
    """Printed digits centred in their cells."""
    font = font_for_height(font_name, height)
    _, top8, _, bottom8 = font.getbbox("8")
    for r, c in np.argwhere(grid > 0):
        cx, cy = lattice[r : r + 2, c : c + 2].reshape(4, 2).mean(axis=0)
        s = str(int(grid[r, c]))
        left, _, right, _ = font.getbbox(s)
        sheet.text(cx - (left + right) / 2, cy - (top8 + bottom8) / 2, s, font, ink)


def draw_sudoku(
    sheet: Sheet,
    rng: np.random.Generator,
    origin: tuple[float, float],
    cell: float,
    grid: np.ndarray,
    style: GridStyle,
) -> np.ndarray:
    """A printed Sudoku with its givens; returns the (10, 10, 2) lattice in sheet pixels."""
    x0, y0 = origin
    draw_shading(sheet, rng, x0, y0, cell, style)
    draw_grid_lines(sheet, x0, y0, cell, style)
    lattice = grid_lattice(x0, y0, cell)
    draw_digits(sheet, lattice, grid, style.font, style.digit_height * cell, style.digit_ink)
    return lattice
