"""A plain page of several printed grids (puzzles, a printed answer) at chosen places, for
the tests of how a photo of several grids is told and numbered."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .distractors import draw_calendar
from .fonts import PRINT_FONTS, FontMissingError, resolve_font
from .grid_drawing import GridStyle, draw_sudoku
from .sheet import INK, Sheet

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
OTHER = "..9748...7.........2.1.9.....7...24..64.1.59..98...3.....8.3.2.........6...2759.."
CELL = 44  # pixels per cell on the page
STYLE_FONT = "DejaVu Sans"
# the puzzle top right, yesterday's answer top left, another puzzle below: reading order
# is answer, PUZZLE, OTHER; the puzzles are numbered PUZZLE 1, OTHER 2
SOLUTION_BESIDE = [(SOLUTION, (40, 80)), (PUZZLE, (500, 60)), (OTHER, (60, 560))]
SOLUTION_BESIDE_SIZE = (960, 1000)
# a finished puzzle (every digit printed: a page's answer) with a month's calendar right
# beside it, one cell apart, its cells the Sudoku's size
CALENDAR_ORIGIN = (60, 90)
CALENDAR_SIZE = (1000, 520)


def grid_array(text: str) -> np.ndarray:
    """81 characters ('.' empty) as a 9×9 int array."""
    return np.array([0 if ch == "." else int(ch) for ch in text]).reshape(9, 9)


def write_page(path: Path, grids: list[tuple[str, tuple[int, int]]], size: tuple[int, int]) -> Path:
    """A white page (width, height) with each grid's digits printed at its (left, top);
    raises FontMissingError when the print font is not installed."""
    sheet = Sheet(*size)
    print_grids(sheet, grids)
    return save(sheet, path)


def write_calendar_page(path: Path) -> Path:
    """A white page with ``SOLUTION`` printed full at ``CALENDAR_ORIGIN`` and a month's
    calendar one cell right of it (a ruled table the grid finder could take for part of
    the grid); raises FontMissingError when a print font is not installed."""
    sheet = Sheet(*CALENDAR_SIZE)
    print_grids(sheet, [(SOLUTION, CALENDAR_ORIGIN)])
    left, top = CALENDAR_ORIGIN
    draw_calendar(sheet, (left + 10 * CELL, top + CELL), CELL, first_day=3, days=31)
    return save(sheet, path)


def print_grids(sheet: Sheet, grids: list[tuple[str, tuple[int, int]]]) -> None:
    """Each grid's digits printed on ``sheet`` at its (left, top)."""
    font = resolve_font(STYLE_FONT, PRINT_FONTS)
    style = GridStyle(font, 0.58, 0.025, 0.07, 0.08, INK, INK, "none")
    rng = np.random.default_rng(0)
    for text, origin in grids:
        draw_sudoku(sheet, rng, (float(origin[0]), float(origin[1])), CELL, grid_array(text), style)


def save(sheet: Sheet, path: Path) -> Path:
    """The sheet on white paper, written to ``path`` (PNG or JPEG by its suffix)."""
    rgb = np.clip(sheet.ink * 245.0, 0, 255).astype(np.uint8)
    cv2.imwrite(str(path), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    return path


__all__ = [
    "CALENDAR_ORIGIN",
    "OTHER",
    "PUZZLE",
    "SOLUTION",
    "SOLUTION_BESIDE",
    "SOLUTION_BESIDE_SIZE",
    "FontMissingError",
    "write_calendar_page",
    "write_page",
]
