"""What surrounds a Sudoku in print: crosswords, ruled tables and articles."""

from __future__ import annotations

import numpy as np

from .fonts import load_font
from .sheet import Sheet
from .types import Box
from .words import text_line, word, wrap


def draw_crossword(
    sheet: Sheet,
    rng: np.random.Generator,
    origin: tuple[float, float],
    cell: float,
    shape: tuple[int, int],
) -> None:
    """A crossword block: ruled cells, symmetric black squares and small clue numbers."""
    black = rng.random(shape) < 0.17
    black |= black[::-1, ::-1]
    _draw_crossword_cells(sheet, black, origin, cell)
    _draw_clue_numbers(sheet, black, origin, cell)


def _draw_crossword_cells(
    sheet: Sheet, black: np.ndarray, origin: tuple[float, float], cell: float
) -> None:
    """The black squares and the ruling of a crossword, its border twice as thick."""
    rows, cols = black.shape
    x0, y0 = origin
    for r, c in np.argwhere(black):
        sheet.rect(x0 + c * cell, y0 + r * cell, x0 + (c + 1) * cell, y0 + (r + 1) * cell)
    half = 0.025 * cell
    for i in range(cols + 1):
        w = 2 * half if i in (0, cols) else half
        sheet.rect(x0 + i * cell - w, y0 - 2 * half, x0 + i * cell + w, y0 + rows * cell + 2 * half)
    for i in range(rows + 1):
        w = 2 * half if i in (0, rows) else half
        sheet.rect(x0 - 2 * half, y0 + i * cell - w, x0 + cols * cell + 2 * half, y0 + i * cell + w)


def _draw_clue_numbers(
    sheet: Sheet, black: np.ndarray, origin: tuple[float, float], cell: float
) -> None:
    """Small numbers in the cells where an across or down answer starts."""
    rows, cols = black.shape
    x0, y0 = origin
    font = load_font("Nimbus Sans", round(0.3 * cell))
    number = 1
    for r in range(rows):
        for c in range(cols):
            across = (c == 0 or black[r, c - 1]) and c + 1 < cols and not black[r, c + 1]
            down = (r == 0 or black[r - 1, c]) and r + 1 < rows and not black[r + 1, c]
            if not black[r, c] and (across or down):
                sheet.text(
                    x0 + c * cell + 0.08 * cell, y0 + r * cell + 0.06 * cell, str(number), font
                )
                number += 1


def draw_table(sheet: Sheet, rng: np.random.Generator, box: Box, font_name: str) -> None:
    """A fully ruled table of numbers (results, timetables): a grid-like distractor."""
    x0, y0, x1, y1 = box
    cols = int(rng.integers(4, 8))
    row_h = (y1 - y0) / int(rng.integers(8, 16))
    rows = int((y1 - y0) // row_h)
    col_w = (x1 - x0) / cols
    font = load_font(font_name, round(0.55 * row_h))
    for c in range(cols + 1):
        sheet.rect(x0 + c * col_w - 0.6, y0, x0 + c * col_w + 0.6, y0 + rows * row_h)
    for r in range(rows + 1):
        w = 1.4 if r in (0, 1, rows) else 0.6
        sheet.rect(x0, y0 + r * row_h - w, x1, y0 + r * row_h + w)
    for r in range(rows):
        for c in range(cols):
            s = word(rng)[:7] if r == 0 or c == 0 else f"{rng.integers(0, 999)}"
            sheet.text(x0 + c * col_w + 0.15 * row_h, y0 + r * row_h + 0.2 * row_h, s, font)


def fill_text(
    sheet: Sheet, rng: np.random.Generator, box: Box, font_name: str, size: float
) -> None:
    """Fill a rectangle with paragraphs of body text."""
    x0, y0, x1, y1 = box
    if x1 - x0 < 4 * size or y1 - y0 < size:
        return
    font = load_font(font_name, round(size))
    y = y0
    while y + size * 1.05 <= y1:
        line = text_line(rng, font, x1 - x0)
        if rng.random() < 0.1:  # the last line of a paragraph
            line = " ".join(line.split()[: max(1, len(line.split()) // 2)])
            sheet.text(x0, y, line, font)
            y += size * 0.5
        else:
            sheet.text(x0, y, line, font)
        y += size * 1.22


def draw_article(
    sheet: Sheet, rng: np.random.Generator, box: Box, fonts: dict[str, str], size: float
) -> None:
    """A headline followed by body text, filling a rectangle."""
    x0, y0, x1, y1 = box
    head = load_font(fonts["title"], round(size * rng.uniform(1.5, 2.2)))
    lines = wrap(
        " ".join(word(rng) for _ in range(int(rng.integers(2, 6)))).capitalize(), head, x1 - x0
    )
    y = y0
    for line in lines[:2]:
        if y + head.size * 1.2 > y1:
            break
        sheet.text(x0, y, line, head)
        y += head.size * 1.15
    fill_text(sheet, rng, (x0, y + size * 0.4, x1, y1), fonts["text"], size)


WEEKDAYS = ("Mo", "Tu", "We", "Th", "Fr", "Sa", "Su")


def draw_calendar(
    sheet: Sheet, origin: tuple[float, float], cell: float, first_day: int, days: int
) -> None:
    """A month's calendar as a fully ruled table of 7 columns (weekday names above, the day
    numbers in their cells from column ``first_day``): ruled like a Sudoku, cells the
    Sudoku's size, digits in most of them."""
    x0, y0 = origin
    weeks = (first_day + days + 6) // 7
    header = load_font("Nimbus Sans Bold", round(0.4 * cell))
    for c, name in enumerate(WEEKDAYS):
        sheet.text(x0 + (c + 0.2) * cell, y0 - 0.75 * cell, name, header)
    half = 0.03 * cell
    for c in range(8):
        w = 2 * half if c in (0, 7) else half
        sheet.rect(x0 + c * cell - w, y0 - w, x0 + c * cell + w, y0 + weeks * cell + w)
    for r in range(weeks + 1):
        w = 2 * half if r in (0, weeks) else half
        sheet.rect(x0 - w, y0 + r * cell - w, x0 + 7 * cell + w, y0 + r * cell + w)
    font = load_font("Nimbus Sans", round(0.45 * cell))
    for day in range(1, days + 1):
        r, c = divmod(first_day + day - 1, 7)
        sheet.text(x0 + (c + 0.1) * cell, y0 + (r + 0.08) * cell, str(day), font)
