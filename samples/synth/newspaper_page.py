"""The flat page of a photo: the puzzle with heading, side columns, footer and pen."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from PIL import ImageFont

from .distractors import draw_article, draw_crossword
from .fonts import PRINT_FONTS, TEXT_FONTS, TITLE_FONTS, load_font, pick_font, resolve_font
from .grid_drawing import draw_sudoku, sample_grid_style
from .marks import MarkedPage, draw_marks, pencilled
from .paper import paper, print_through
from .params import PhotoParams
from .pen import draw_pen, sample_pen_style
from .puzzles import solved_grid
from .sheet import Sheet
from .types import RGB, Box
from .words import FOOTERS, INSTRUCTIONS, LEVELS, TITLES, wrap

DARK_GROUND = 0.04  # a dark-mode screen's blackest: light ink on this (kind "screen")

BAR_COLOURS: tuple[RGB, ...] = ((0.5, 0.66, 0.88), (0.96, 0.62, 0.32), (0.62, 0.62, 0.64))


@dataclass(frozen=True)
class PageDraft:
    """A printed (and maybe pen-filled) page, flat, before the camera."""

    rgb: np.ndarray  # (H, W, 3) float32, 0..1
    lattice: np.ndarray  # (10, 10, 2) grid-line crossings in page pixels
    fonts: dict[str, str]
    crossed_out: tuple[tuple[int, int], ...] = ()  # (row, col) of digits struck through


def draw_heading(
    sheet: Sheet,
    rng: np.random.Generator,
    box: Box,
    cell: float,
    fonts: dict[str, str],
    rules: tuple[str, ...] = INSTRUCTIONS,
) -> None:
    """Above the grid, bottom up: instructions (one of ``rules``), title (and level), a
    coloured bar, an article."""
    x0, y0, x1, _ = box
    size = cell * float(rng.uniform(0.28, 0.36))
    body = load_font(fonts["text"], round(size))
    y = _draw_instructions(sheet, rng, (box, rules), body, size)
    y = _draw_title(sheet, rng, (x0, x1, y), cell, fonts["title"], body)
    if rng.random() < 0.6:
        y = _draw_bar(sheet, rng, (x0, x1, y), cell)
    sheet.rect(x0 - 0.5 * cell, y - 0.35 * cell - 1.0, x1 + 0.5 * cell, y - 0.35 * cell + 1.0)
    draw_article(sheet, rng, (x0, y0, x1, y - 0.7 * cell), fonts, size)


def _draw_instructions(
    sheet: Sheet,
    rng: np.random.Generator,
    placed: tuple[Box, tuple[str, ...]],
    body: ImageFont.FreeTypeFont,
    size: float,
) -> float:
    """Up to three lines of one of the rules ending at the bottom of the box (``placed``:
    the box and the rules to choose from); returns their top."""
    (x0, _, x1, y1), rules = placed
    lines = wrap(str(rng.choice(rules)), body, x1 - x0)[:3]
    y = y1 - len(lines) * size * 1.2
    for i, line in enumerate(lines):
        sheet.text(x0, y + i * size * 1.2, line, body)
    return y


def _draw_title(
    sheet: Sheet,
    rng: np.random.Generator,
    row: tuple[float, float, float],
    cell: float,
    title_name: str,
    body: ImageFont.FreeTypeFont,
) -> float:
    """The puzzle's title above y (row is x0, x1, y) and its level on the right; returns its top."""
    x0, x1, y = row
    title_font = load_font(title_name, round(cell * float(rng.uniform(0.6, 0.9))))
    title = str(rng.choice(TITLES)).format(n=int(rng.integers(100, 9999)))
    y -= title_font.size * 1.25
    sheet.text(x0, y, title, title_font)
    level = str(rng.choice(LEVELS))
    sheet.text(x1 - body.getlength(level), y + 0.75 * (title_font.size - body.size), level, body)
    return y


def _draw_bar(
    sheet: Sheet, rng: np.random.Generator, row: tuple[float, float, float], cell: float
) -> float:
    """A coloured bar above y (row is x0, x1, y), wider than the grid; returns its top."""
    x0, x1, y = row
    bar_h = cell * float(rng.uniform(0.12, 0.35))
    y -= bar_h + 0.2 * cell
    sheet.rect(x0 - 0.5 * cell, y, x1 + 0.5 * cell, y + bar_h, BAR_COLOURS[int(rng.integers(3))])
    return y


def draw_side(
    sheet: Sheet, rng: np.random.Generator, box: Box, cell: float, fonts: dict[str, str]
) -> None:
    """A neighbouring column: maybe a crossword, then articles."""
    x0, y0, x1, y1 = box
    size = cell * float(rng.uniform(0.26, 0.34))
    if x1 - x0 > 4 * cell and rng.random() < 0.6:
        cw_cell = cell * float(rng.uniform(0.42, 0.55))
        cols = min(13, int((x1 - x0) // cw_cell))
        rows = min(cols, int(rng.integers(7, 14)))
        top = y0 + float(rng.uniform(0.3, 0.6)) * (y1 - y0 - rows * cw_cell)
        draw_crossword(sheet, rng, (x0, top), cw_cell, (rows, cols))
        draw_article(sheet, rng, (x0, y0, x1, top - 0.8 * cell), fonts, size)
        draw_article(sheet, rng, (x0, top + rows * cw_cell + 0.8 * cell, x1, y1), fonts, size)
    else:
        draw_article(sheet, rng, box, fonts, size)


def draw_below(
    sheet: Sheet, rng: np.random.Generator, box: Box, cell: float, fonts: dict[str, str]
) -> None:
    """Under the grid: a footer line, then yesterday's solution in a small grid or an article."""
    x0, y0, x1, y1 = box
    small = load_font(fonts["text"], round(cell * 0.26))
    footer = str(rng.choice(FOOTERS)).format(
        n=int(rng.integers(100, 9999)), d=int(rng.integers(1, 4))
    )
    sheet.text(x0, y0, footer, small)
    y = y0 + cell * 0.8
    size = cell * float(rng.uniform(0.26, 0.34))
    sol_cell = cell * float(rng.uniform(0.28, 0.36))
    if rng.random() < 0.5 and y + 9 * sol_cell + cell < y1:
        sheet.text(x0, y, str(rng.choice(["Solution d'hier", "Yesterday's solution"])), small)
        style = replace(sample_grid_style(rng, fonts["print"]), shade="none")
        draw_sudoku(
            sheet, rng, (x0 + 0.1 * cell, y + 0.6 * cell), sol_cell, solved_grid(rng), style
        )
        draw_article(sheet, rng, (x0 + 9 * sol_cell + cell, y, x1, y1), fonts, size)
    else:
        draw_article(sheet, rng, (x0, y, x1, y1), fonts, size)


@dataclass(frozen=True)
class PageFrame:
    """Where the grid lies on the page (pixels): a side × side square with room around it."""

    left: float
    top: float
    side: float
    gap: float  # between the grid and the text around it
    margin: float  # along the page edges
    width: int
    height: int


def sample_frame(rng: np.random.Generator, cell: float) -> PageFrame:
    """Random room left, right, above and below a grid of 9 cells."""
    side = 9 * cell
    left, right = (float(v) * side for v in rng.uniform(0.6, 1.1, 2))
    top, bottom = float(rng.uniform(0.75, 1.05)) * side, float(rng.uniform(0.7, 1.1)) * side
    gap, margin = float(rng.uniform(0.45, 0.7)) * cell, 0.3 * cell
    width, height = round(left + side + right), round(top + side + bottom)
    return PageFrame(left, top, side, gap, margin, width, height)


def dark_mode(rgb: np.ndarray) -> np.ndarray:
    """The page as a screen in dark mode shows it: light ink on a dark ground (RGB in [0, 1])."""
    return DARK_GROUND + (1.0 - DARK_GROUND) * (1.0 - rgb)


def sample_fonts(rng: np.random.Generator, print_font: str) -> dict[str, str]:
    """The page's faces: the givens' (or an installed stand-in), body text and titles."""
    return {
        "print": resolve_font(print_font, PRINT_FONTS),
        "text": pick_font(rng, TEXT_FONTS),
        "title": pick_font(rng, TITLE_FONTS),
    }


def draw_surroundings(
    sheet: Sheet,
    rng: np.random.Generator,
    f: PageFrame,
    cell: float,
    fonts: dict[str, str],
    rules: tuple[str, ...] = INSTRUCTIONS,
) -> None:
    """Heading above the grid (its instructions one of ``rules``: a 9×9's by default), a
    column on each side, a footer and more below."""
    left, top, side, gap, margin = f.left, f.top, f.side, f.gap, f.margin
    right, bottom = f.width - margin, f.height - margin
    draw_heading(sheet, rng, (left, margin, left + side, top - gap), cell, fonts, rules)
    draw_side(sheet, rng, (margin, margin, left - gap, bottom), cell, fonts)
    draw_side(sheet, rng, (left + side + gap, margin, right, bottom), cell, fonts)
    draw_below(sheet, rng, (left, top + side + gap, left + side, bottom), cell, fonts)


def compose_page(
    rng: np.random.Generator,
    givens: np.ndarray,
    pen: np.ndarray,
    p: PhotoParams,
    marked: MarkedPage | None = None,
) -> PageDraft:
    """Print the page: the puzzle in the middle, heading above, columns beside, more below.

    ``marked``: the person's notes, pencil, erasures and margin writing, if any.
    """
    cell = p.grid_fraction * min(p.size) / 9 * p.supersample
    frame = sample_frame(rng, cell)
    fonts = sample_fonts(rng, p.print_font)
    sheet = Sheet(frame.width, frame.height)
    style = sample_grid_style(rng, fonts["print"])
    lattice = draw_sudoku(sheet, rng, (frame.left, frame.top), cell, givens, style)
    draw_surroundings(sheet, rng, frame, cell, fonts)
    pen_style = sample_pen_style(rng, p.pen_font)
    if p.pen_ink is not None:
        pen_style = replace(pen_style, ink=p.pen_ink)
    if marked is not None:
        pen_style = pencilled(pen_style, marked.marks)
    draw_pen(sheet, rng, lattice, pen, pen_style)
    if pen.any():
        fonts["pen"] = pen_style.font
    crossed: tuple[tuple[int, int], ...] = ()
    if marked is not None:
        taken = (givens > 0) | (pen > 0)
        drawn = draw_marks(sheet, marked.rng, lattice, taken, marked.notes, marked.marks, pen_style)
        fonts |= drawn.fonts
        crossed = drawn.crossed_out
    sheet.ink *= print_through(sheet.ink, float(rng.uniform(0.01, 0.025)))
    rgb = paper(rng, frame.width, frame.height, p.paper_tone) * sheet.ink
    if p.kind == "screen":
        rgb = dark_mode(rgb)
    return PageDraft(rgb=rgb, lattice=lattice, fonts=fonts, crossed_out=crossed)
