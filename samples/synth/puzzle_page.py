"""Scanned A4 puzzle pages: several Sudokus among crosswords, tables and articles."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
from PIL import ImageFont

from .distractors import draw_article, draw_crossword, draw_table
from .fonts import PRINT_FONTS, TEXT_FONTS, TITLE_FONTS, load_font, pick_font
from .grid_drawing import draw_sudoku, sample_grid_style
from .paper import paper
from .params import sample_params
from .puzzles import make_puzzle
from .sensor import develop
from .sheet import Sheet
from .truth import GridTruth
from .types import Box
from .words import FOOTERS, LEVELS, TITLES


def _page_sudoku(
    sheet: Sheet, rng: np.random.Generator, box: Box, fonts: dict[str, str], mm: float
) -> GridTruth:
    """A numbered Sudoku with title and footer in a slot of a puzzle page."""
    x0, y0, x1, y1 = box
    cell = min((x1 - x0) / 9.3, (y1 - y0 - 12 * mm) / 9, 8.5 * mm)
    gx = x0 + float(rng.uniform(0, (x1 - x0) - 9 * cell))
    small = _draw_slot_heading(sheet, rng, (gx, y0, gx + 9 * cell), fonts, mm)
    givens, solution = make_puzzle(rng, int(rng.integers(24, 33)))
    font = pick_font(rng, PRINT_FONTS)
    style = replace(sample_grid_style(rng, font), shade="none")
    lattice = draw_sudoku(sheet, rng, (gx, y0 + 8 * mm), cell, givens, style)
    footer = str(rng.choice(FOOTERS)).format(
        n=int(rng.integers(100, 9999)), d=int(rng.integers(1, 4))
    )
    sheet.text(gx, y0 + 8 * mm + 9 * cell + 1.5 * mm, footer, small)
    return GridTruth(givens=givens, solution=solution, lattice=lattice, font=font)


def _draw_slot_heading(
    sheet: Sheet,
    rng: np.random.Generator,
    row: tuple[float, float, float],
    fonts: dict[str, str],
    mm: float,
) -> ImageFont.FreeTypeFont:
    """A numbered title at (x0, y) and the level flush right at x1; returns the small font."""
    x0, y, x1 = row
    title = load_font(fonts["title"], round(5.0 * mm))
    sheet.text(x0, y, str(rng.choice(TITLES)).format(n=int(rng.integers(100, 999))), title)
    level = str(rng.choice(LEVELS))
    small = load_font(fonts["text"], round(3.0 * mm))
    sheet.text(x1 - small.getlength(level), y + 1.5 * mm, level, small)
    return small


def _page_distractor(
    sheet: Sheet, rng: np.random.Generator, box: Box, fonts: dict[str, str], mm: float
) -> None:
    """A crossword, a ruled table or an article in a slot of a puzzle page."""
    x0, y0, x1, y1 = box
    kind = str(rng.choice(["crossword", "table", "article"]))
    title = load_font(fonts["title"], round(5.0 * mm))
    if kind == "crossword":
        sheet.text(x0, y0, str(rng.choice(["MOTS CROISÉS", "CROSSWORD", "Kreuzworträtsel"])), title)
        n = int(rng.integers(11, 16))
        cell = min((x1 - x0) / n, (y1 - y0 - 8 * mm) / n)
        draw_crossword(sheet, rng, (x0, y0 + 8 * mm), cell, (n, n))
    elif kind == "table":
        sheet.text(x0, y0, str(rng.choice(["RESULTS", "RÉSULTATS", "TIDES", "MARKETS"])), title)
        draw_table(sheet, rng, (x0, y0 + 8 * mm, x1, y1 - 4 * mm), fonts["text"])
    else:
        draw_article(sheet, rng, box, fonts, 3.2 * mm)


def render_page(
    seed: int, n_puzzles: int = 4, dpi: int = 200
) -> tuple[np.ndarray, list[GridTruth]]:
    """A scanned A4 puzzle page: n Sudokus among crosswords, tables and articles.

    Returns the BGR uint8 page image and the truth of each Sudoku, in reading order.
    """
    if not 1 <= n_puzzles <= 6:
        raise ValueError(f"n_puzzles must be between 1 and 6, got {n_puzzles}")
    if not 72 <= dpi <= 600:
        raise ValueError(f"dpi must be between 72 and 600, got {dpi}")
    rng = np.random.default_rng(seed)
    mm = dpi / 25.4
    sheet, truths = print_puzzle_page(rng, mm, n_puzzles)
    image, m = scan_page(rng, sheet, mm, dpi)
    return image, [_moved(t, m) for t in truths]


def print_puzzle_page(
    rng: np.random.Generator, mm: float, n_puzzles: int
) -> tuple[Sheet, list[GridTruth]]:
    """Print an A4 page: a masthead, then six slots of Sudokus and distractors."""
    width, height = round(210 * mm), round(297 * mm)
    fonts = {"text": pick_font(rng, TEXT_FONTS), "title": pick_font(rng, TITLE_FONTS)}
    sheet = Sheet(width, height)
    masthead = load_font(fonts["title"], round(11 * mm))
    sheet.text(14 * mm, 12 * mm, str(rng.choice(["PUZZLES", "JEUX", "Rätsel & Spiele"])), masthead)
    sheet.rect(14 * mm, 27 * mm, width - 14 * mm, 27.8 * mm)
    truths: list[GridTruth] = []
    for box, kind in _slots(rng, (width, height), mm, n_puzzles):
        if kind == "sudoku":
            truths.append(_page_sudoku(sheet, rng, box, fonts, mm))
        else:
            _page_distractor(sheet, rng, box, fonts, mm)
    return sheet, truths


def _slots(
    rng: np.random.Generator, size: tuple[int, int], mm: float, n_puzzles: int
) -> list[tuple[Box, str]]:
    """The six slots (two columns, three rows, reading order) and what each holds."""
    width, height = size
    slots = [(c, r) for r in range(3) for c in range(2)]
    kinds = ["sudoku"] * n_puzzles + ["other"] * (6 - n_puzzles)
    kinds = [kinds[i] for i in rng.permutation(6)]
    slot_w, slot_h = (width - 28 * mm - 10 * mm) / 2, (height - 34 * mm - 14 * mm - 16 * mm) / 3
    boxes: list[tuple[Box, str]] = []
    for (c, r), kind in zip(slots, kinds, strict=True):
        x0, y0 = 14 * mm + c * (slot_w + 10 * mm), 34 * mm + r * (slot_h + 8 * mm)
        boxes.append(((x0, y0, x0 + slot_w, y0 + slot_h), kind))
    return boxes


def scan_page(
    rng: np.random.Generator, sheet: Sheet, mm: float, dpi: int
) -> tuple[np.ndarray, np.ndarray]:
    """The page on a flatbed, slightly turned: the BGR image and the 2×3 page-to-image map."""
    width, height = sheet.width, sheet.height
    tone = float(rng.uniform(0.9, 0.96))
    flat = paper(rng, width, height, (tone, tone, tone * 0.97)) * sheet.ink
    angle = float(rng.uniform(-1.2, 1.2))
    m: np.ndarray = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
    m[:, 2] += rng.uniform(-3, 3, 2) * mm
    rgb = cv2.warpAffine(
        flat, m, (width, height), flags=cv2.INTER_LINEAR, borderValue=(0.97, 0.97, 0.97)
    )
    params = replace(sample_params("scan", rng), size=(width, height), blur_sigma=0.35 * dpi / 150)
    return develop(rng, rgb, params), m


def _moved(truth: GridTruth, m: np.ndarray) -> GridTruth:
    """The truth with its lattice mapped through a 2×3 affine map."""
    lattice = truth.lattice.reshape(-1, 2) @ m[:, :2].T + m[:, 2]
    return replace(truth, lattice=lattice.reshape(10, 10, 2))
