"""Puzzles that look like a Sudoku but are not one, photographed like a Sudoku page.

A Samurai (five 9×9 grids overlapping at their corner boxes), a Kakuro (black cells, some
split by a diagonal with a small clue sum either side, white cells to fill), a KenKen
(cages drawn thick with a small target and operator in their first cell, no boxes, no
givens) and a crossword (black squares, small clue numbers, no digits). Simple drawings,
honest in what makes each one what it is; sudokucam must name them, never read them as a
Sudoku (``vision/structure/lookalike.py``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import numpy as np

from .camera import photograph
from .distractors import draw_crossword
from .files import encode_jpeg
from .fonts import PRINT_FONTS, font_for_height, pick_font
from .grid_drawing import draw_digits, draw_grid_lines, grid_lattice, sample_grid_style
from .newspaper_page import PageDraft, draw_surroundings, sample_fonts, sample_frame
from .paper import paper
from .params import sample_params
from .puzzles import make_puzzle, solved_grid
from .sensor import develop
from .sheet import INK, Sheet
from .truth import jsonable

LOOKALIKES = ("samurai", "kakuro", "kenken", "crossword")
CELLS = {"samurai": 21, "kakuro": 10, "kenken": 9, "crossword": 15}  # cells a side


def render_lookalike(seed: int, kind: str, **overrides: Any) -> tuple[np.ndarray, dict[str, Any]]:
    """A photo (BGR uint8) of a printed ``kind`` (one of LOOKALIKES) and what it shows."""
    if kind not in LOOKALIKES:
        raise ValueError(f"kind must be one of {', '.join(LOOKALIKES)}; got {kind!r}")
    rng = np.random.default_rng(seed)
    params = replace(sample_params("printed", rng), **overrides)
    n = CELLS[kind]
    cell = params.grid_fraction * min(params.size) / n * params.supersample
    frame = sample_frame(rng, cell * n / 9)
    fonts = sample_fonts(rng, params.print_font)
    sheet = Sheet(frame.width, frame.height)
    origin = (frame.left, frame.top)
    DRAWERS[kind](sheet, rng, origin, cell)
    draw_surroundings(sheet, rng, frame, cell * n / 9, fonts)
    rgb = paper(rng, frame.width, frame.height, params.paper_tone) * sheet.ink
    lattice = grid_lattice(frame.left, frame.top, cell * n / 9)
    rgb_photo, _ = photograph(rng, PageDraft(rgb=rgb, lattice=lattice, fonts=fonts), params)
    image = develop(rng, rgb_photo, params)
    return image, {"seed": seed, "kind": kind, "effects": jsonable(asdict(params))}


def render_sudoku_beside_crossword(
    seed: int, givens: int = 12, **overrides: Any
) -> tuple[np.ndarray, dict[str, Any]]:
    """A photo (BGR uint8) of a page with a big 15×15 crossword and, beside it, a smaller
    classic Sudoku printed with only ``givens`` givens (several solutions: it cannot be
    solved), and what it shows. The Sudoku is a Sudoku, however big the crossword."""
    rng = np.random.default_rng(seed)
    params = replace(sample_params("printed", rng), **overrides)
    side = params.grid_fraction * min(params.size) * params.supersample  # both puzzles' span
    frame = sample_frame(rng, side / 9)
    fonts = sample_fonts(rng, params.print_font)
    sheet = Sheet(frame.width, frame.height)
    cross_cell, sudoku_cell = 0.56 * side / 15, 0.42 * side / 9
    draw_crossword(sheet, rng, (frame.left, frame.top), cross_cell, (15, 15))
    solution = solved_grid(rng)
    grid = np.where(rng.permutation(81).reshape(9, 9) < givens, solution, 0)
    style = replace(sample_grid_style(rng, pick_font(rng, PRINT_FONTS)), shade="none")
    at = (frame.left + 0.6 * side, frame.top + 0.07 * side)
    draw_grid_lines(sheet, at[0], at[1], sudoku_cell, style)
    lattice = grid_lattice(at[0], at[1], sudoku_cell)
    draw_digits(sheet, lattice, grid, style.font, style.digit_height * sudoku_cell, INK)
    draw_surroundings(sheet, rng, frame, side / 9, fonts)
    rgb = paper(rng, frame.width, frame.height, params.paper_tone) * sheet.ink
    whole = grid_lattice(frame.left, frame.top, side / 9)
    rgb_photo, _ = photograph(rng, PageDraft(rgb=rgb, lattice=whole, fonts=fonts), params)
    image = develop(rng, rgb_photo, params)
    truth = {"seed": seed, "kind": "sudoku_beside_crossword", "givens": grid.tolist()}
    return image, truth | {"effects": jsonable(asdict(params))}


def draw_samurai(
    sheet: Sheet, rng: np.random.Generator, origin: tuple[float, float], cell: float
) -> None:
    """Five 9×9 Sudokus, four at the corners and one in the middle sharing their corner boxes."""
    style = replace(sample_grid_style(rng, pick_font(rng, PRINT_FONTS)), shade="none")
    x0, y0 = origin
    for gr, gc in ((0, 0), (0, 12), (12, 0), (12, 12), (6, 6)):
        gx, gy = x0 + gc * cell, y0 + gr * cell
        sheet.rect(gx, gy, gx + 9 * cell, gy + 9 * cell, (1.0, 1.0, 1.0))
        givens, _ = make_puzzle(rng, int(rng.integers(24, 30)))
        draw_grid_lines(sheet, gx, gy, cell, style)
        lattice = grid_lattice(gx, gy, cell)
        draw_digits(sheet, lattice, givens, style.font, style.digit_height * cell, INK)


def draw_kakuro(
    sheet: Sheet, rng: np.random.Generator, origin: tuple[float, float], cell: float
) -> None:
    """A 10×10 Kakuro: black cells, clue cells split by a diagonal with small sums."""
    n, (x0, y0) = CELLS["kakuro"], origin
    black = rng.random((n, n)) < 0.3
    black[0, :] = black[:, 0] = True
    font = font_for_height("Nimbus Sans", 0.26 * cell)
    for r, c in np.argwhere(black):
        x, y = x0 + c * cell, y0 + r * cell
        sheet.rect(x, y, x + cell, y + cell, (0.12, 0.12, 0.12))
        right = c + 1 < n and not black[r, c + 1]
        below = r + 1 < n and not black[r + 1, c]
        if right or below:
            sheet.line((x, y), (x + cell, y + cell), 0.04 * cell, (1.0, 1.0, 1.0))
        if right:
            sheet.text(
                x + 0.55 * cell, y + 0.12 * cell, str(rng.integers(3, 40)), font, (1.0, 1.0, 1.0)
            )
        if below:
            sheet.text(
                x + 0.12 * cell, y + 0.55 * cell, str(rng.integers(3, 40)), font, (1.0, 1.0, 1.0)
            )
    _rule(sheet, origin, cell, n, 0.03)


def draw_kenken(
    sheet: Sheet, rng: np.random.Generator, origin: tuple[float, float], cell: float
) -> None:
    """A 9×9 KenKen: cages of one to four cells drawn thick, each with a target and operator."""
    n, (x0, y0) = CELLS["kenken"], origin
    owner = -np.ones((n, n), np.int64)
    cages = 0
    for r in range(n):
        for c in range(n):
            if owner[r, c] >= 0:
                continue
            owner[r, c], want, cells = cages, int(rng.integers(1, 5)), [(r, c)]
            while len(cells) < want:
                free = [(a, b) for a, b in cells for a, b in ((a + 1, b), (a, b + 1))
                        if a < n and b < n and owner[a, b] < 0]  # fmt: skip
                if not free:
                    break
                a, b = free[int(rng.integers(len(free)))]
                owner[a, b] = cages
                cells.append((a, b))
            op = "" if len(cells) == 1 else str(rng.choice(["+", "−", "×", "÷"]))
            font = font_for_height("Nimbus Sans", 0.24 * cell)
            sheet.text(
                x0 + (c + 0.08) * cell, y0 + (r + 0.06) * cell, f"{rng.integers(1, 60)}{op}", font
            )
            cages += 1
    _rule(sheet, origin, cell, n, 0.02)
    thick = 0.045 * cell
    for r in range(n):
        for c in range(n):
            x, y = x0 + c * cell, y0 + r * cell
            if c + 1 < n and owner[r, c] != owner[r, c + 1]:
                sheet.rect(x + cell - thick, y - thick, x + cell + thick, y + cell + thick)
            if r + 1 < n and owner[r, c] != owner[r + 1, c]:
                sheet.rect(x - thick, y + cell - thick, x + cell + thick, y + cell + thick)


def draw_lookalike_crossword(
    sheet: Sheet, rng: np.random.Generator, origin: tuple[float, float], cell: float
) -> None:
    """A 15×15 crossword: black squares and small clue numbers."""
    n = CELLS["crossword"]
    draw_crossword(sheet, rng, origin, cell, (n, n))


def _rule(sheet: Sheet, origin: tuple[float, float], cell: float, n: int, width: float) -> None:
    """Every line of an n×n grid, ``width`` of a cell, the frame twice that."""
    x0, y0 = origin
    for i in range(n + 1):
        w = (2 if i in (0, n) else 1) * width * cell / 2
        sheet.rect(x0 + i * cell - w, y0 - w, x0 + i * cell + w, y0 + n * cell + w)
        sheet.rect(x0 - w, y0 + i * cell - w, x0 + n * cell + w, y0 + i * cell + w)


DRAWERS = {
    "samurai": draw_samurai,
    "kakuro": draw_kakuro,
    "kenken": draw_kenken,
    "crossword": draw_lookalike_crossword,
}


def write_lookalike_samples(folder: Path, max_bytes: int, seed: int = 21) -> list[Path]:
    """Render one photo of each look-alike into ``folder``: <kind>.jpg (at most
    ``max_bytes``) and <kind>.json (what it shows)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in LOOKALIKES:
        image, truth = render_lookalike(seed, kind, size=(1024, 768))
        quality = 85
        while quality > 50 and len(encode_jpeg(image, quality)) > max_bytes:
            quality -= 3
        jpg, meta = folder / f"{kind}.jpg", folder / f"{kind}.json"
        jpg.write_bytes(encode_jpeg(image, quality))
        meta.write_text(
            json.dumps(truth | {"jpeg_quality": quality}, indent=1) + "\n", encoding="utf-8"
        )
        written += [jpg, meta]
    return written
