#!/usr/bin/env python3
"""Render realistic synthetic photos of newspaper Sudoku puzzles, with exact ground truth.

    python samples/render.py --out samples --seed 0          # the committed sample set
    python samples/render.py --out /tmp/s --kind progress --count 50 --seed 7
    python samples/render.py --out /tmp/p --pages 5 --n-puzzles 4 --dpi 200 --seed 3

A page is printed (paper, text columns, a crossword, the Sudoku grid and its givens in one
of several fonts), optionally filled in with a pen (including deliberate mistakes), bent,
photographed through a perspective camera, lit unevenly, blurred, made noisy and
JPEG-compressed. Every photo comes with the printed givens (`.dat`, the format of the
shared photo dataset), the pen entries (`.pen.dat`) and a `.json` with everything else:
solution, mistakes, the grid corners and all 100 grid-line crossings in output pixels,
fonts and effects.

This script is not part of the sudokucam package and is never imported by it. It needs
numpy, OpenCV, Pillow and the Debian font packages listed in FONT_PACKAGES. Images are
BGR uint8 arrays (OpenCV's order); all points are (x, y) pixels with pixel centres at
integer coordinates.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

RGB = tuple[float, float, float]
Range = tuple[float, float]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1

# ----------------------------------------------------------------------------- fonts

FONT_ROOT = Path("/usr/share/fonts")
FONT_PACKAGES = {
    "urw-base35": "fonts-urw-base35",
    "liberation2": "fonts-liberation2",
    "dejavu": "fonts-dejavu-core",
    "fifthhorseman": "fonts-dkg-handwriting",
    "breip": "fonts-breip",
    "comic-neue": "fonts-comic-neue",
}
_URW = "opentype/urw-base35/"
PRINT_FONTS = {  # givens and titles: newspaper faces
    "Nimbus Sans": _URW + "NimbusSans-Regular.otf",
    "Nimbus Sans Bold": _URW + "NimbusSans-Bold.otf",
    "Nimbus Sans Narrow Bold": _URW + "NimbusSansNarrow-Bold.otf",
    "Nimbus Roman": _URW + "NimbusRoman-Regular.otf",
    "Nimbus Roman Bold": _URW + "NimbusRoman-Bold.otf",
    "C059": _URW + "C059-Roman.otf",
    "C059 Bold": _URW + "C059-Bold.otf",
    "URW Gothic": _URW + "URWGothic-Book.otf",
    "URW Gothic Demi": _URW + "URWGothic-Demi.otf",
    "P052 Bold": _URW + "P052-Bold.otf",
    "Liberation Sans": "truetype/liberation2/LiberationSans-Regular.ttf",
    "Liberation Sans Bold": "truetype/liberation2/LiberationSans-Bold.ttf",
    "Liberation Serif": "truetype/liberation2/LiberationSerif-Regular.ttf",
    "DejaVu Sans": "truetype/dejavu/DejaVuSans.ttf",
    "DejaVu Sans Bold": "truetype/dejavu/DejaVuSans-Bold.ttf",
}
TEXT_FONTS = {  # body text of the articles around the puzzle
    "Nimbus Roman": PRINT_FONTS["Nimbus Roman"],
    "Liberation Serif": PRINT_FONTS["Liberation Serif"],
    "C059": PRINT_FONTS["C059"],
    "Nimbus Sans": PRINT_FONTS["Nimbus Sans"],
    "Liberation Sans": PRINT_FONTS["Liberation Sans"],
}
TITLE_FONTS = {
    "Nimbus Sans Bold": PRINT_FONTS["Nimbus Sans Bold"],
    "Liberation Sans Bold": PRINT_FONTS["Liberation Sans Bold"],
    "C059 Bold": PRINT_FONTS["C059 Bold"],
    "URW Gothic Demi": PRINT_FONTS["URW Gothic Demi"],
    "Nimbus Sans Narrow Bold": PRINT_FONTS["Nimbus Sans Narrow Bold"],
}
PEN_FONTS = {  # handwriting faces for the pen fill-ins
    "dkg": "truetype/fifthhorseman/dkg.ttf",
    "dkg Bold": "truetype/fifthhorseman/dkgBd.ttf",
    "Breip": "truetype/breip/Breip.ttf",
    "Comic Neue": "opentype/comic-neue/ComicNeue-Regular.otf",
    "Comic Neue Italic": "opentype/comic-neue/ComicNeue-Italic.otf",
}
PEN_STROKE = {"Breip": 0.022, "dkg": 0.006, "Comic Neue": 0.004}  # extra stroke / cell
ALL_FONTS = {**PRINT_FONTS, **PEN_FONTS}


class FontMissingError(FileNotFoundError):
    """A font the renderer needs is not installed."""


def _package_of(relative: str) -> str:
    """The Debian package that installs a font file."""
    return next((pkg for key, pkg in FONT_PACKAGES.items() if key in relative), "a font package")


def resolve_font(name: str, table: dict[str, str]) -> str:
    """The font itself if installed, else the first installed one of the same table."""
    if (FONT_ROOT / table[name]).is_file():
        return name
    for other in sorted(table):
        if (FONT_ROOT / table[other]).is_file():
            return other
    packages = sorted({_package_of(rel) for rel in table.values()})
    raise FontMissingError(
        f"no font of {sorted(table)} found under {FONT_ROOT} (missing {table[name]}); "
        f"install the Debian package(s): {', '.join(packages)}"
    )


def pick_font(rng: np.random.Generator, table: dict[str, str]) -> str:
    """A random installed font of a table (the draw does not depend on what is installed)."""
    names = sorted(table)
    return resolve_font(names[int(rng.integers(len(names)))], table)


@cache
def load_font(name: str, size: int) -> ImageFont.FreeTypeFont:
    """A font by name at a pixel size."""
    path = FONT_ROOT / ALL_FONTS[name]
    if not path.is_file():
        raise FontMissingError(f"font {name!r} missing: install {_package_of(ALL_FONTS[name])}")
    return ImageFont.truetype(str(path), max(size, 4))


@cache
def _digit_height_ratio(name: str) -> float:
    """Ink height of the digit 8 per pixel of font size."""
    _, top, _, bottom = load_font(name, 200).getbbox("8")
    return (bottom - top) / 200.0


def font_for_height(name: str, height: float) -> ImageFont.FreeTypeFont:
    """The font sized so that its digits are `height` pixels tall."""
    return load_font(name, round(height / _digit_height_ratio(name)))


# ----------------------------------------------------------------------------- puzzles

ALL_DIGITS = 0b1111111110  # bits 1..9


def solved_grid(rng: np.random.Generator) -> np.ndarray:
    """A random valid solved 9×9 grid: the base pattern with shuffled bands, rows and digits."""
    base = np.array([[(3 * (r % 3) + r // 3 + c) % 9 for c in range(9)] for r in range(9)])

    def order() -> list[int]:
        return [3 * int(b) + int(i) for b in rng.permutation(3) for i in rng.permutation(3)]

    rows, cols = order(), order()
    digits = rng.permutation(9) + 1
    grid = digits[base[np.ix_(rows, cols)]]
    return np.ascontiguousarray(grid.T if rng.random() < 0.5 else grid).astype(np.int64)


def count_solutions(grid: np.ndarray, limit: int = 2) -> int:
    """Number of solutions of a 9×9 puzzle (0 = empty cell), counted up to `limit`."""
    rows, cols, boxes = [0] * 9, [0] * 9, [0] * 9
    empty: list[tuple[int, int, int]] = []
    for r in range(9):
        for c in range(9):
            value, b = int(grid[r, c]), (r // 3) * 3 + c // 3
            if value == 0:
                empty.append((r, c, b))
                continue
            bit = 1 << value
            if (rows[r] | cols[c] | boxes[b]) & bit:
                return 0
            rows[r], cols[c], boxes[b] = rows[r] | bit, cols[c] | bit, boxes[b] | bit
    return _count(empty, rows, cols, boxes, limit)


def _count(
    empty: list[tuple[int, int, int]],
    rows: list[int],
    cols: list[int],
    boxes: list[int],
    limit: int,
) -> int:
    """Backtracking solution counter on bitmasks, most constrained cell first."""
    if not empty:
        return 1
    best, best_free, best_n = 0, 0, 10
    for i, (r, c, b) in enumerate(empty):
        free = ALL_DIGITS & ~(rows[r] | cols[c] | boxes[b])
        n = free.bit_count()
        if n < best_n:
            best, best_free, best_n = i, free, n
            if n <= 1:
                break
    r, c, b = empty[best]
    rest = empty[:best] + empty[best + 1 :]
    total = 0
    while best_free and total < limit:
        bit = best_free & -best_free
        best_free ^= bit
        rows[r], cols[c], boxes[b] = rows[r] | bit, cols[c] | bit, boxes[b] | bit
        total += _count(rest, rows, cols, boxes, limit - total)
        rows[r], cols[c], boxes[b] = rows[r] ^ bit, cols[c] ^ bit, boxes[b] ^ bit
    return total


def make_puzzle(rng: np.random.Generator, clues: int) -> tuple[np.ndarray, np.ndarray]:
    """A puzzle with a unique solution and about `clues` givens (symmetric), and its solution."""
    solution = solved_grid(rng)
    puzzle = solution.copy()
    for cell in rng.permutation(41):
        if np.count_nonzero(puzzle) <= clues:
            break
        pair = [divmod(int(cell), 9), divmod(80 - int(cell), 9)]
        saved = [puzzle[rc] for rc in pair]
        for rc in pair:
            puzzle[rc] = 0
        if count_solutions(puzzle) != 1:
            for rc, value in zip(pair, saved, strict=True):
                puzzle[rc] = value
    return puzzle, solution


def choose_pen_entries(
    rng: np.random.Generator, givens: np.ndarray, solution: np.ndarray, fill: float, mistakes: int
) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Pen digits in a fraction of the empty cells, `mistakes` of them wrong on purpose."""
    empty = np.argwhere(givens == 0)
    n_fill = round(fill * len(empty))
    chosen = empty[rng.permutation(len(empty))[:n_fill]]
    pen = np.zeros((9, 9), np.int64)
    for r, c in chosen:
        pen[r, c] = solution[r, c]
    wrong: list[tuple[int, int]] = []
    for r, c in chosen[rng.permutation(len(chosen))[: min(mistakes, len(chosen))]]:
        choices = [d for d in range(1, 10) if d != solution[r, c]]
        pen[r, c] = choices[int(rng.integers(len(choices)))]
        wrong.append((int(r), int(c)))
    return pen, sorted(wrong)


# ----------------------------------------------------------------------------- words

# fmt: off
SYLLABLES = (
    "la", "re", "mi", "to", "ka", "sen", "dor", "pa", "ni", "que", "ber", "ton", "al", "est",
    "ra", "vin", "cho", "lu", "mon", "ter", "ge", "fa", "lis", "or", "ex", "pe", "ri", "ment",
    "tion", "ble", "ca", "de", "es", "in", "ou", "ar", "ve", "ul", "po", "sa", "ta", "go", "an",
    "dis", "pro", "con",
)
# fmt: on
INSTRUCTIONS = (
    "Fill in the grid so that every row, every column and every 3x3 box contains the "
    "digits 1 to 9.",
    "Complétez la grille sachant que chaque carré de 3x3 doit présenter une seule fois les "
    "chiffres de 1 à 9 ainsi que les lignes horizontales et verticales.",
    "Place a number from 1 to 9 in each empty cell so that each row, column and 3 by 3 "
    "block contains all nine numbers. Solution tomorrow.",
    "Füllen Sie das Gitter so aus, dass jede Zeile, jede Spalte und jedes 3x3-Feld die "
    "Ziffern 1 bis 9 genau einmal enthält.",
)
TITLES = ("SUDOKU", "Sudoku", "LE SUDOKU", "Sudoku classique", "SU DOKU", "Sudoku No {n}")
LEVELS = ("Easy", "Medium", "Hard", "Moyen", "Difficile", "Leicht", "***", "**")
FOOTERS = (
    "Grille No {n}   Difficulté : {d}/3",
    "© Puzzles {n}",
    "Solution in tomorrow's paper",
    "Solution demain   No {n}",
    "Level {d}   Puzzle {n}",
)
INK: RGB = (0.11, 0.11, 0.13)
BAR_COLOURS: tuple[RGB, ...] = ((0.5, 0.66, 0.88), (0.96, 0.62, 0.32), (0.62, 0.62, 0.64))
PEN_INKS: tuple[RGB, ...] = ((0.14, 0.22, 0.62), (0.08, 0.12, 0.42), (0.12, 0.12, 0.15))


def word(rng: np.random.Generator) -> str:
    """A pseudo-word of one to four syllables, now and then capitalised or punctuated."""
    n = int(rng.choice([1, 1, 2, 2, 2, 3, 3, 4]))
    text = "".join(str(s) for s in rng.choice(SYLLABLES, n))
    if rng.random() < 0.1:
        text = text.capitalize()
    if rng.random() < 0.08:
        text += str(rng.choice([",", ".", ";", ":"]))
    return text


def text_line(rng: np.random.Generator, font: ImageFont.FreeTypeFont, width: float) -> str:
    """Words that fit on one line of the given pixel width."""
    words = [word(rng)]
    while True:
        candidate = [*words, word(rng)]
        if font.getlength(" ".join(candidate)) > width:
            return " ".join(words)
        words = candidate


def wrap(text: str, font: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """Greedy line wrapping of a sentence to a pixel width."""
    lines: list[str] = []
    for w in text.split():
        if lines and font.getlength(lines[-1] + " " + w) <= width:
            lines[-1] += " " + w
        else:
            lines.append(w)
    return lines


# ----------------------------------------------------------------------------- the printed sheet


def _coverage(lo: float, hi: float) -> tuple[int, np.ndarray]:
    """First pixel and per-pixel coverage of the interval [lo, hi] (pixel i spans i±0.5)."""
    start, stop = math.floor(lo + 0.5), math.floor(hi + 0.5) + 1
    idx = np.arange(start, stop, dtype=np.float64)
    cov = np.clip(np.minimum(hi, idx + 0.5) - np.maximum(lo, idx - 0.5), 0.0, 1.0)
    return start, cov.astype(np.float32)


class Sheet:
    """A page being printed: a multiplicative ink layer over the paper (1 = no ink)."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.ink = np.ones((height, width, 3), np.float32)

    def stamp(self, mask: np.ndarray, x0: int, y0: int, colour: RGB, strength: float = 1) -> None:
        """Print `colour` through a coverage mask (0..1) whose top-left pixel is at x0, y0."""
        h, w = mask.shape
        xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x0 + w, self.width), min(y0 + h, self.height)
        if xa >= xb or ya >= yb:
            return
        m = mask[ya - y0 : yb - y0, xa - x0 : xb - x0, None] * strength
        tint = 1.0 - np.asarray(colour, np.float32)
        self.ink[ya:yb, xa:xb] *= 1.0 - m * tint

    def rect(self, x0: float, y0: float, x1: float, y1: float, colour: RGB = INK) -> None:
        """An anti-aliased filled rectangle with exact sub-pixel edges."""
        xs, cx = _coverage(x0, x1)
        ys, cy = _coverage(y0, y1)
        self.stamp(np.outer(cy, cx), xs, ys, colour)

    def text(
        self, x: float, y: float, s: str, font: ImageFont.FreeTypeFont, colour: RGB = INK
    ) -> float:
        """Print a line of text with its top-left (ascender line) at x, y; returns its width."""
        if not s:
            return 0.0
        left, top, right, bottom = font.getbbox(s)
        ox, oy = math.floor(x + left) - 1, math.floor(y + top) - 1
        w, h = math.ceil(x + right) - ox + 2, math.ceil(y + bottom) - oy + 2
        img = Image.new("L", (w, h), 0)
        ImageDraw.Draw(img).text((x - ox, y - oy), s, font=font, fill=255)
        self.stamp(np.asarray(img, np.float32) / 255.0, ox, oy, colour)
        return float(font.getlength(s))

    def glyph(
        self,
        centre: tuple[float, float],
        s: str,
        font: ImageFont.FreeTypeFont,
        colour: RGB,
        angle: float = 0.0,
        stroke: int = 0,
        strength: float = 1.0,
    ) -> None:
        """Print a glyph with its ink box centred on `centre`, rotated by `angle` degrees."""
        left, top, right, bottom = font.getbbox(s, stroke_width=stroke)
        side = int(2 * max(right - left, bottom - top)) + 6
        img = Image.new("L", (side, side), 0)
        origin = (side / 2 - (left + right) / 2, side / 2 - (top + bottom) / 2)
        draw = ImageDraw.Draw(img)
        draw.text(origin, s, font=font, fill=255, stroke_width=stroke, stroke_fill=255)
        if angle:
            img = img.rotate(angle, resample=Image.Resampling.BICUBIC)
        x0, y0 = round(centre[0] - side / 2), round(centre[1] - side / 2)
        self.stamp(np.asarray(img, np.float32) / 255.0, x0, y0, colour, strength)


def paper(rng: np.random.Generator, width: int, height: int, tone: RGB) -> np.ndarray:
    """Newsprint: a tone with blotchy low-frequency variation and fine grain."""
    blotches = rng.normal(0, 1, (height // 48 + 2, width // 48 + 2)).astype(np.float32)
    low = cv2.resize(blotches, (width, height), interpolation=cv2.INTER_CUBIC)
    grain = cv2.GaussianBlur(rng.normal(0, 1, (height, width)).astype(np.float32), (0, 0), 0.8)
    lum = 1.0 + 0.022 * low + 0.016 * grain
    return np.asarray(tone, np.float32)[None, None, :] * lum[..., None]


def print_through(ink: np.ndarray, strength: float) -> np.ndarray:
    """The faint mirrored print of the other side of the page, as a multiplicative layer."""
    front = 1.0 - ink.mean(axis=2)
    back = np.roll(front[:, ::-1], (front.shape[0] // 3, front.shape[1] // 5), axis=(0, 1))
    back = cv2.GaussianBlur(np.ascontiguousarray(back), (0, 0), 2.5)
    return (1.0 - strength * back)[..., None]


# ----------------------------------------------------------------------------- grids


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


def draw_crossword(
    sheet: Sheet,
    rng: np.random.Generator,
    origin: tuple[float, float],
    cell: float,
    shape: tuple[int, int],
) -> None:
    """A crossword block: ruled cells, symmetric black squares and small clue numbers."""
    rows, cols = shape
    x0, y0 = origin
    black = rng.random((rows, cols)) < 0.17
    black |= black[::-1, ::-1]
    for r, c in np.argwhere(black):
        sheet.rect(x0 + c * cell, y0 + r * cell, x0 + (c + 1) * cell, y0 + (r + 1) * cell)
    half = 0.025 * cell
    for i in range(cols + 1):
        w = 2 * half if i in (0, cols) else half
        sheet.rect(x0 + i * cell - w, y0 - 2 * half, x0 + i * cell + w, y0 + rows * cell + 2 * half)
    for i in range(rows + 1):
        w = 2 * half if i in (0, rows) else half
        sheet.rect(x0 - 2 * half, y0 + i * cell - w, x0 + cols * cell + 2 * half, y0 + i * cell + w)
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


# ----------------------------------------------------------------------------- pen


@dataclass(frozen=True)
class PenStyle:
    """How one person writes digits into the cells (sizes are fractions of a cell)."""

    font: str
    ink: RGB
    height: float
    jitter: float
    tilt_deg: float


def draw_pen(
    sheet: Sheet, rng: np.random.Generator, lattice: np.ndarray, pen: np.ndarray, style: PenStyle
) -> None:
    """Handwritten digits: each one a little off-centre, tilted, sized and inked differently."""
    cell = float(np.linalg.norm(lattice[0, 1] - lattice[0, 0]))
    stroke = round(PEN_STROKE.get(style.font.split(" ")[0], 0.004) * cell)
    for r, c in np.argwhere(pen > 0):
        cx, cy = lattice[r : r + 2, c : c + 2].reshape(4, 2).mean(axis=0)
        dx, dy = rng.uniform(-1, 1, 2) * style.jitter * cell
        height = style.height * cell * float(rng.uniform(0.85, 1.12))
        angle = float(rng.uniform(-style.tilt_deg, style.tilt_deg))
        font = font_for_height(style.font, height)
        sheet.glyph((cx + dx, cy + dy), str(int(pen[r, c])), font, style.ink, angle, stroke,
                    float(rng.uniform(0.82, 1.0)))  # fmt: skip


# ----------------------------------------------------------------------------- photo parameters


@dataclass(frozen=True)
class PhotoParams:
    """Everything that decides one photo (recorded as `effects` in the ground truth)."""

    kind: str
    size: tuple[int, int]  # output width, height
    clues: int
    grid_fraction: float  # grid side / shorter image side
    centre_shift: tuple[float, float]  # grid centre offset, fraction of width / height
    roll_deg: float
    pitch_deg: float
    yaw_deg: float
    focal_factor: float  # focal length / longer image side
    supersample: float  # page pixels per output pixel at the grid
    bend: str  # "none", "wave" or "curl"
    bend_axis: str  # "x" (depth varies along x) or "y"
    bend_depth: float  # fraction of the grid side
    bend_period: float  # fraction of the grid side (wave)
    bend_phase: float
    light_gradient: float
    light_angle_deg: float
    vignette: float
    shadow: float  # darkness of a soft cast shadow, 0 = none
    colour_cast: RGB
    black_level: float
    white_level: float
    blur_sigma: float
    motion_blur_px: float
    motion_angle_deg: float
    noise_sigma: float  # in 0..255 units
    sharpen: float
    jpeg_quality: int
    pen_fill: float  # fraction of the empty cells filled in by pen
    pen_mistakes: int
    background: str  # "table" or "lid" (scanner)
    print_font: str
    pen_font: str
    paper_tone: RGB


@dataclass(frozen=True)
class KindRanges:
    """Ranges the parameters of one kind of photo are drawn from."""

    sizes: tuple[tuple[int, int], ...] = (
        (1024, 768),
        (768, 1024),
        (1280, 960),
        (960, 1280),
        (800, 600),
    )
    clues: tuple[int, int] = (24, 32)
    grid_fraction: Range = (0.55, 0.82)
    centre_shift: Range = (-0.05, 0.05)
    roll_deg: Range = (-9.0, 9.0)
    pitch_deg: Range = (-14.0, 14.0)
    yaw_deg: Range = (-10.0, 10.0)
    focal_factor: Range = (0.85, 1.3)
    supersample: float = 1.4
    bends: tuple[str, ...] = ("none",)
    bend_depth: Range = (0.0, 0.0)
    bend_period: Range = (1.0, 2.0)
    light_gradient: Range = (0.0, 0.35)
    vignette: Range = (0.0, 0.3)
    shadow_chance: float = 0.3
    shadow: Range = (0.15, 0.4)
    colour_cast: Range = (-0.06, 0.06)
    black_level: Range = (0.0, 0.08)
    white_level: Range = (0.85, 1.0)
    blur_sigma: Range = (0.0, 0.8)
    motion_chance: float = 0.15
    motion_blur_px: Range = (2.0, 4.0)
    noise_sigma: Range = (1.0, 3.0)
    sharpen: Range = (0.0, 0.6)
    jpeg_quality: tuple[int, int] = (75, 88)
    pen_fill: Range = (0.0, 0.0)
    pen_mistakes: tuple[int, int] = (0, 0)
    background: str = "table"


KINDS: dict[str, KindRanges] = {
    "printed": KindRanges(),
    "progress": KindRanges(pen_fill=(0.3, 0.95), pen_mistakes=(1, 4)),
    "bent": KindRanges(bends=("wave", "curl"), bend_depth=(0.03, 0.12), roll_deg=(-5.0, 5.0)),
    "webcam": KindRanges(
        sizes=((640, 480),),
        grid_fraction=(0.62, 0.85),
        supersample=1.6,
        blur_sigma=(0.9, 1.6),
        noise_sigma=(3.0, 6.0),
        black_level=(-0.12, -0.04),
        white_level=(0.9, 1.05),
        sharpen=(0.0, 0.0),
        jpeg_quality=(55, 70),
        pen_fill=(0.0, 0.0),
    ),
    "scan": KindRanges(
        sizes=((1100, 1400), (1400, 1100)),
        grid_fraction=(0.42, 0.48),
        centre_shift=(-0.03, 0.03),
        roll_deg=(-1.5, 1.5),
        pitch_deg=(0.0, 0.0),
        yaw_deg=(0.0, 0.0),
        focal_factor=(60.0, 60.0),
        supersample=1.0,
        light_gradient=(0.0, 0.03),
        vignette=(0.0, 0.0),
        shadow_chance=0.0,
        colour_cast=(-0.01, 0.01),
        black_level=(0.08, 0.14),
        white_level=(0.8, 0.86),
        blur_sigma=(0.4, 0.6),
        motion_chance=0.0,
        noise_sigma=(0.6, 1.2),
        sharpen=(0.0, 0.0),
        jpeg_quality=(88, 90),
        background="lid",
    ),
}


def _uniform(rng: np.random.Generator, bounds: Range) -> float:
    """A float drawn uniformly from a range."""
    return float(rng.uniform(bounds[0], bounds[1]))


def _integer(rng: np.random.Generator, bounds: tuple[int, int]) -> int:
    """An integer drawn uniformly from an inclusive range."""
    return int(rng.integers(bounds[0], bounds[1] + 1))


def sample_params(kind: str, rng: np.random.Generator) -> PhotoParams:
    """Draw the parameters of one photo of a kind (always the same number of draws)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {sorted(KINDS)}, got {kind!r}")
    k = KINDS[kind]
    shadow, motion = rng.random() < k.shadow_chance, rng.random() < k.motion_chance
    tone = float(rng.uniform(0.86, 0.95))
    return PhotoParams(
        kind=kind,
        size=k.sizes[int(rng.integers(len(k.sizes)))],
        clues=_integer(rng, k.clues),
        grid_fraction=_uniform(rng, k.grid_fraction),
        centre_shift=(_uniform(rng, k.centre_shift), _uniform(rng, k.centre_shift)),
        roll_deg=_uniform(rng, k.roll_deg),
        pitch_deg=_uniform(rng, k.pitch_deg),
        yaw_deg=_uniform(rng, k.yaw_deg),
        focal_factor=_uniform(rng, k.focal_factor),
        supersample=k.supersample,
        bend=str(k.bends[int(rng.integers(len(k.bends)))]),
        bend_axis="x" if rng.random() < 0.65 else "y",
        bend_depth=_uniform(rng, k.bend_depth),
        bend_period=_uniform(rng, k.bend_period),
        bend_phase=_uniform(rng, (0.0, 2 * math.pi)),
        light_gradient=_uniform(rng, k.light_gradient),
        light_angle_deg=_uniform(rng, (0.0, 360.0)),
        vignette=_uniform(rng, k.vignette),
        shadow=_uniform(rng, k.shadow) if shadow else 0.0,
        colour_cast=(
            1.0 + _uniform(rng, k.colour_cast),
            1.0,
            1.0 - _uniform(rng, k.colour_cast) - abs(_uniform(rng, k.colour_cast)),
        ),
        black_level=_uniform(rng, k.black_level),
        white_level=_uniform(rng, k.white_level),
        blur_sigma=_uniform(rng, k.blur_sigma),
        motion_blur_px=_uniform(rng, k.motion_blur_px) if motion else 0.0,
        motion_angle_deg=_uniform(rng, (0.0, 180.0)),
        noise_sigma=_uniform(rng, k.noise_sigma),
        sharpen=_uniform(rng, k.sharpen),
        jpeg_quality=_integer(rng, k.jpeg_quality),
        pen_fill=_uniform(rng, k.pen_fill),
        pen_mistakes=_integer(rng, k.pen_mistakes),
        background=k.background,
        print_font=sorted(PRINT_FONTS)[int(rng.integers(len(PRINT_FONTS)))],
        pen_font=sorted(PEN_FONTS)[int(rng.integers(len(PEN_FONTS)))],
        paper_tone=(
            tone,
            tone * float(rng.uniform(0.97, 1.0)),
            tone * float(rng.uniform(0.9, 0.98)),
        ),
    )


# ----------------------------------------------------------------------------- page layout


@dataclass(frozen=True)
class PageDraft:
    """A printed (and maybe pen-filled) page, flat, before the camera."""

    rgb: np.ndarray  # (H, W, 3) float32, 0..1
    lattice: np.ndarray  # (10, 10, 2) grid-line crossings in page pixels
    fonts: dict[str, str]


def draw_heading(
    sheet: Sheet, rng: np.random.Generator, box: Box, cell: float, fonts: dict[str, str]
) -> None:
    """Above the grid, bottom up: instructions, title (and level), a coloured bar, an article."""
    x0, y0, x1, y1 = box
    size = cell * float(rng.uniform(0.28, 0.36))
    body = load_font(fonts["text"], round(size))
    lines = wrap(str(rng.choice(INSTRUCTIONS)), body, x1 - x0)[:3]
    y = y1 - len(lines) * size * 1.2
    for i, line in enumerate(lines):
        sheet.text(x0, y + i * size * 1.2, line, body)
    title_font = load_font(fonts["title"], round(cell * float(rng.uniform(0.6, 0.9))))
    title = str(rng.choice(TITLES)).format(n=int(rng.integers(100, 9999)))
    y -= title_font.size * 1.25
    sheet.text(x0, y, title, title_font)
    level = str(rng.choice(LEVELS))
    sheet.text(x1 - body.getlength(level), y + 0.75 * (title_font.size - body.size), level, body)
    if rng.random() < 0.6:
        bar_h = cell * float(rng.uniform(0.12, 0.35))
        y -= bar_h + 0.2 * cell
        sheet.rect(
            x0 - 0.5 * cell, y, x1 + 0.5 * cell, y + bar_h, BAR_COLOURS[int(rng.integers(3))]
        )
    sheet.rect(x0 - 0.5 * cell, y - 0.35 * cell - 1.0, x1 + 0.5 * cell, y - 0.35 * cell + 1.0)
    draw_article(sheet, rng, (x0, y0, x1, y - 0.7 * cell), fonts, size)


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


def compose_page(
    rng: np.random.Generator, givens: np.ndarray, pen: np.ndarray, p: PhotoParams
) -> PageDraft:
    """Print the page: the puzzle in the middle, heading above, columns beside, more below."""
    cell = p.grid_fraction * min(p.size) / 9 * p.supersample
    side = 9 * cell
    left, right = (float(v) * side for v in rng.uniform(0.6, 1.1, 2))
    top, bottom = float(rng.uniform(0.75, 1.05)) * side, float(rng.uniform(0.7, 1.1)) * side
    gap, margin = float(rng.uniform(0.45, 0.7)) * cell, 0.3 * cell
    width, height = round(left + side + right), round(top + side + bottom)
    fonts = {
        "print": resolve_font(p.print_font, PRINT_FONTS),
        "text": pick_font(rng, TEXT_FONTS),
        "title": pick_font(rng, TITLE_FONTS),
    }
    sheet = Sheet(width, height)
    lattice = draw_sudoku(
        sheet, rng, (left, top), cell, givens, sample_grid_style(rng, fonts["print"])
    )
    draw_heading(sheet, rng, (left, margin, left + side, top - gap), cell, fonts)
    draw_side(sheet, rng, (margin, margin, left - gap, height - margin), cell, fonts)
    draw_side(sheet, rng, (left + side + gap, margin, width - margin, height - margin), cell, fonts)
    draw_below(sheet, rng, (left, top + side + gap, left + side, height - margin), cell, fonts)
    pen_style = PenStyle(
        font=resolve_font(p.pen_font, PEN_FONTS),
        ink=PEN_INKS[int(rng.integers(len(PEN_INKS)))],
        height=float(rng.uniform(0.5, 0.7)),
        jitter=float(rng.uniform(0.04, 0.12)),
        tilt_deg=float(rng.uniform(3.0, 12.0)),
    )
    draw_pen(sheet, rng, lattice, pen, pen_style)
    if pen.any():
        fonts["pen"] = pen_style.font
    sheet.ink *= print_through(sheet.ink, float(rng.uniform(0.01, 0.025)))
    rgb = paper(rng, width, height, p.paper_tone) * sheet.ink
    return PageDraft(rgb=rgb, lattice=lattice, fonts=fonts)


# ----------------------------------------------------------------------------- bending


@dataclass(frozen=True)
class Bend:
    """A page bent along one axis: depth varies with the page coordinate along that axis.

    The bent page is foreshortened along the axis (the paper is inextensible), scaled
    across it by its depth towards the camera (nearer is bigger) and shifted across it in
    proportion to its depth, as a camera that looks at the page obliquely sees it.
    """

    axis: int  # 0: depth varies along x, 1: along y
    along: np.ndarray  # page coordinate samples along the axis
    bent: np.ndarray  # their bent coordinate (strictly increasing)
    scale: np.ndarray  # scale across the axis at each sample
    lift: np.ndarray  # shift across the axis at each sample (depth seen by a tilted camera)
    shade: np.ndarray  # brightness at each sample (light falls unevenly on the slopes)
    centre: tuple[float, float]

    def forward(self, points: np.ndarray) -> np.ndarray:
        """Page points (n, 2) to bent points."""
        a, c = self.axis, 1 - self.axis
        out = np.empty_like(points, dtype=np.float64)
        out[:, a] = np.interp(points[:, a], self.along, self.bent)
        s = np.interp(points[:, a], self.along, self.scale)
        lift = np.interp(points[:, a], self.along, self.lift)
        out[:, c] = self.centre[c] + (points[:, c] - self.centre[c]) * s + lift
        return out

    def backward(self, xb: np.ndarray, yb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Bent coordinates to page coordinates (arrays of any shape)."""
        along_b, across_b = (xb, yb) if self.axis == 0 else (yb, xb)
        along = np.interp(along_b, self.bent, self.along)
        c = self.centre[1 - self.axis]
        lift = np.interp(along, self.along, self.lift)
        across = c + (across_b - lift - c) / np.interp(along, self.along, self.scale)
        return (along, across) if self.axis == 0 else (across, along)


OBLIQUE_PARALLAX = 0.5  # across-axis shift per unit of depth (a camera ~30° off vertical)


def make_bend(p: PhotoParams, page_size: tuple[int, int], lattice: np.ndarray) -> Bend:
    """The bend of a page: flat, a gentle wave (cockled newsprint) or a curl near one side."""
    axis = 0 if p.bend_axis == "x" else 1
    side = float(np.linalg.norm(lattice[0, 9] - lattice[0, 0]))
    centre = tuple(float(v) for v in lattice[[0, 9]][:, [0, 9]].reshape(4, 2).mean(axis=0))
    length = page_size[axis]
    along = np.arange(-length, 2.0 * length + 1.0)
    depth = p.bend_depth * side
    if p.bend == "wave":
        z = 0.5 * depth * np.sin(2 * math.pi * along / (p.bend_period * side) + p.bend_phase)
    elif p.bend == "curl":
        start = centre[axis] + math.sin(p.bend_phase) * 0.45 * side
        direction = 1.0 if math.cos(p.bend_phase) >= 0 else -1.0
        z = depth * (np.maximum(0.0, direction * (along - start)) / side) ** 2 * 4.0
    else:
        z = np.zeros_like(along)
    slope = np.gradient(z, along)
    arc = np.cumsum(1.0 / np.sqrt(1.0 + slope**2))
    arc += centre[axis] - np.interp(centre[axis], along, arc)
    viewing_distance = 3.0 * side
    scale = viewing_distance / (viewing_distance - np.minimum(z, 0.8 * viewing_distance))
    bent = centre[axis] + (arc - centre[axis]) * scale
    if np.any(np.diff(bent) <= 0):
        raise ValueError("bend_depth is too strong: the page would fold over itself")
    shade = np.clip(1.0 + 0.3 * slope / (1.0 + np.abs(slope)), 0.6, 1.15)
    lift = OBLIQUE_PARALLAX * z
    return Bend(axis, along, bent, scale, lift, shade, (centre[0], centre[1]))


def shade_page(rgb: np.ndarray, bend: Bend) -> np.ndarray:
    """Darken or brighten the page where its bend turns it from or towards the light."""
    n = rgb.shape[1 - bend.axis]
    factor = np.interp(np.arange(n, dtype=np.float64), bend.along, bend.shade).astype(np.float32)
    return rgb * (factor[None, :, None] if bend.axis == 0 else factor[:, None, None])


# ----------------------------------------------------------------------------- the camera


def rotation(roll: float, pitch: float, yaw: float) -> np.ndarray:
    """Camera rotation from angles in degrees: roll in the image plane, pitch and yaw tilts."""
    r, p, y = (math.radians(v) for v in (roll, pitch, yaw))
    rz = np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, math.cos(p), -math.sin(p)], [0, math.sin(p), math.cos(p)]])
    ry = np.array([[math.cos(y), 0, math.sin(y)], [0, 1, 0], [-math.sin(y), 0, math.cos(y)]])
    return rz @ rx @ ry


def apply_homography(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Map (n, 2) points through a 3×3 homography."""
    ph = np.column_stack([points, np.ones(len(points))]) @ h.T
    return ph[:, :2] / ph[:, 2:3]


def camera_homography(grid_quad: np.ndarray, p: PhotoParams) -> np.ndarray:
    """Homography of a pinhole camera looking at the (bent-space) page plane, before framing."""
    w, h = p.size
    centre = grid_quad.mean(axis=0)
    side = float(np.linalg.norm(grid_quad[1] - grid_quad[0]))
    to_unit = np.array(
        [[1 / side, 0, -centre[0] / side], [0, 1 / side, -centre[1] / side], [0, 0, 1]]
    )
    focal = p.focal_factor * max(w, h)
    distance = focal / (p.grid_fraction * min(w, h))
    rot = rotation(p.roll_deg, p.pitch_deg, p.yaw_deg)
    project = np.diag([focal, focal, 1.0]) @ np.column_stack(
        [rot[:, 0], rot[:, 1], [0, 0, distance]]
    )
    return project @ to_unit


def frame(h: np.ndarray, grid_points: np.ndarray, p: PhotoParams) -> np.ndarray:
    """Scale and shift the camera image so the grid has its size and place, fully in view."""
    w, hgt = p.size
    proj = apply_homography(h, grid_points)
    lo, hi = proj.min(axis=0), proj.max(axis=0)
    scale = p.grid_fraction * min(w, hgt) / float(max(hi - lo))
    target = np.array([w / 2 + p.centre_shift[0] * w, hgt / 2 + p.centre_shift[1] * hgt])
    margin = 0.03 * min(w, hgt)
    for _ in range(60):
        t = target - scale * (lo + hi) / 2
        a = np.array([[scale, 0, t[0]], [0, scale, t[1]], [0, 0, 1]])
        pts = apply_homography(a @ h, grid_points)
        if pts.min() >= margin and np.all(pts.max(axis=0) <= np.array([w, hgt]) - 1 - margin):
            return a @ h
        scale *= 0.96
        target = 0.8 * target + 0.2 * np.array([w / 2, hgt / 2])
    raise ValueError("the grid does not fit the frame: lower grid_fraction or the tilts")


def table_surface(rng: np.random.Generator, width: int, height: int, kind: str) -> np.ndarray:
    """What lies around the page: a wooden or grey table, or a white scanner lid."""
    if kind == "lid":
        base: RGB = (0.97, 0.97, 0.96)
    else:
        options: tuple[RGB, ...] = ((0.42, 0.29, 0.18), (0.35, 0.35, 0.37), (0.6, 0.52, 0.42))
        base = options[int(rng.integers(len(options)))]
    low = cv2.resize(
        rng.normal(0, 1, (8, 8)).astype(np.float32), (width, height), interpolation=cv2.INTER_CUBIC
    )
    streaks = cv2.resize(rng.normal(0, 1, (height // 4 + 1, 1)).astype(np.float32), (width, height))
    lum = 1.0 + (0.0 if kind == "lid" else 1.0) * (0.08 * low + 0.05 * streaks)
    return np.asarray(base, np.float32)[None, None, :] * lum[..., None]


def photograph(
    rng: np.random.Generator, page: PageDraft, p: PhotoParams
) -> tuple[np.ndarray, np.ndarray]:
    """Bend and photograph the page; returns the RGB float image and the lattice in pixels."""
    height, width = page.rgb.shape[:2]
    bend = make_bend(p, (width, height), page.lattice)
    flat_lattice = page.lattice.reshape(-1, 2)
    bent_lattice = bend.forward(flat_lattice)
    h = frame(camera_homography(bend.forward(flat_lattice[[0, 9, 99, 90]]), p), bent_lattice, p)
    lattice = apply_homography(h, bent_lattice).reshape(10, 10, 2)
    w_out, h_out = p.size
    u, v = np.meshgrid(np.arange(w_out, dtype=np.float64), np.arange(h_out, dtype=np.float64))
    src = np.stack([u.ravel(), v.ravel(), np.ones(u.size)]).T @ np.linalg.inv(h).T
    xp, yp = bend.backward(src[:, 0] / src[:, 2], src[:, 1] / src[:, 2])
    map_x = xp.reshape(h_out, w_out).astype(np.float32)
    map_y = yp.reshape(h_out, w_out).astype(np.float32)
    rgb = shade_page(page.rgb, bend)
    sigma = 0.5 * math.sqrt(max(p.supersample**2 - 1.0, 0.0))
    if sigma > 0.05:
        rgb = cv2.GaussianBlur(rgb, (0, 0), sigma)
    img = cv2.remap(rgb, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    ones = np.ones((height, width), np.float32)
    alpha = cv2.remap(ones, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    ground = table_surface(rng, w_out, h_out, p.background)
    if p.background == "table":  # the page casts a soft shadow on the table
        shadow = cv2.GaussianBlur(alpha, (0, 0), 0.01 * max(p.size) + 1)
        ground *= (1.0 - 0.35 * np.roll(shadow, (4, 4), axis=(0, 1)))[..., None]
    return img * alpha[..., None] + ground * (1.0 - alpha[..., None]), lattice


# ----------------------------------------------------------------------------- light and sensor


def shadow_mask(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A soft shadow entering from one edge (a hand, a phone), 0..1."""
    small = (max(width // 8, 8), max(height // 8, 8))
    edge = int(rng.integers(4))
    depth = float(rng.uniform(0.25, 0.55))
    pts = rng.uniform(0, 1, (5, 2)) * np.array([1.0, depth])
    pts = np.vstack([[0.0, -0.2], [1.0, -0.2], pts[np.argsort(-pts[:, 0])]])  # from the top edge
    pts = {
        0: pts,
        1: pts[:, ::-1],
        2: np.c_[pts[:, 0], 1 - pts[:, 1]],
        3: np.c_[1 - pts[:, 1], pts[:, 0]],
    }[edge]
    mask: np.ndarray = np.zeros((small[1], small[0]), np.float32)
    cv2.fillPoly(mask, [np.round(pts * np.array(small)).astype(np.int32)], 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), 0.06 * max(small))
    return cv2.resize(mask, (width, height), interpolation=cv2.INTER_LINEAR)


def lighting(rng: np.random.Generator, width: int, height: int, p: PhotoParams) -> np.ndarray:
    """Brightness over the frame: a gradient, vignetting and maybe a cast shadow."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    xn, yn = (xx - width / 2) / max(width, height), (yy - height / 2) / max(width, height)
    angle = math.radians(p.light_angle_deg)
    field = 1.0 + p.light_gradient * (xn * math.cos(angle) + yn * math.sin(angle))
    field *= 1.0 - p.vignette * 2.0 * (xn**2 + yn**2)
    return field * (1.0 - p.shadow * shadow_mask(rng, width, height))


def optics(img: np.ndarray, p: PhotoParams) -> np.ndarray:
    """Defocus and motion blur."""
    if p.blur_sigma > 0.05:
        img = cv2.GaussianBlur(img, (0, 0), p.blur_sigma)
    if p.motion_blur_px >= 1.0:
        n = math.ceil(p.motion_blur_px) | 1
        kernel = np.zeros((n, n), np.float32)
        a = math.radians(p.motion_angle_deg)
        dx, dy = math.cos(a) * p.motion_blur_px / 2, math.sin(a) * p.motion_blur_px / 2
        c = n // 2
        cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1)
        img = cv2.filter2D(img, -1, kernel / kernel.sum())
    return img


def develop(rng: np.random.Generator, rgb: np.ndarray, p: PhotoParams) -> np.ndarray:
    """Light, blur, sensor noise, levels and sharpening; returns a BGR uint8 image."""
    h, w = rgb.shape[:2]
    img = rgb * lighting(rng, w, h, p)[..., None] * np.asarray(p.colour_cast, np.float32)
    img = optics(img.astype(np.float32), p)
    sigma = p.noise_sigma / 255.0
    noise = rng.normal(0, sigma, (h, w, 3)) * 0.6 + rng.normal(0, sigma, (h, w, 1)) * 0.8
    img = img + noise.astype(np.float32) * np.sqrt(np.clip(img, 0.05, 1.0))
    img = (img - p.black_level) / (p.white_level - p.black_level)
    if p.sharpen > 0:
        img = img + p.sharpen * (img - cv2.GaussianBlur(img, (0, 0), 1.2))
    out = np.clip(img * 255.0 + 0.5, 0, 255).astype(np.uint8)
    return cv2.cvtColor(out, cv2.COLOR_RGB2BGR)


# ----------------------------------------------------------------------------- photos


@dataclass(frozen=True)
class PhotoTruth:
    """What a rendered photo shows, exactly."""

    seed: int
    kind: str
    size: tuple[int, int]  # width, height
    givens: np.ndarray  # (9, 9) printed digits, 0 = empty
    solution: np.ndarray  # (9, 9)
    pen: np.ndarray  # (9, 9) pen digits, 0 = none
    mistakes: tuple[tuple[int, int], ...]  # (row, col), 0-based, pen digits that are wrong
    lattice: np.ndarray  # (10, 10, 2) grid-line crossings in output pixels
    fonts: dict[str, str]
    effects: dict[str, Any]

    @property
    def corners(self) -> np.ndarray:
        """(4, 2) grid corners TL, TR, BR, BL: centres of the outer border lines."""
        return self.lattice[[0, 0, 9, 9], [0, 9, 9, 0]]

    @property
    def device(self) -> str:
        """The first line of the .dat file."""
        return f"sudokucam-render seed={self.seed} kind={self.kind}"

    def to_json(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {
            "device": self.device,
            "seed": self.seed,
            "kind": self.kind,
            "size": list(self.size),
            "givens": self.givens.tolist(),
            "pen": self.pen.tolist(),
            "mistakes": [list(rc) for rc in self.mistakes],
            "solution": self.solution.tolist(),
            "corners": np.round(self.corners, 2).tolist(),
            "lattice": np.round(self.lattice, 2).tolist(),
            "fonts": self.fonts,
            "effects": self.effects,
        }


@dataclass(frozen=True)
class Photo:
    """A rendered photo (BGR uint8) and its ground truth."""

    image: np.ndarray
    truth: PhotoTruth
    jpeg_quality: int = field(default=90)


def render_photo(seed: int, kind: str = "printed", **overrides: Any) -> Photo:
    """Render one synthetic photo of a kind; `overrides` set PhotoParams fields by name."""
    rng = np.random.default_rng(seed)
    params = replace(sample_params(kind, rng), **overrides)
    givens, solution = make_puzzle(rng, params.clues)
    pen, mistakes = choose_pen_entries(rng, givens, solution, params.pen_fill, params.pen_mistakes)
    page = compose_page(rng, givens, pen, params)
    rgb, lattice = photograph(rng, page, params)
    image = develop(rng, rgb, params)
    truth = PhotoTruth(
        seed=seed,
        kind=kind,
        size=params.size,
        givens=givens,
        solution=solution,
        pen=pen,
        mistakes=tuple(mistakes),
        lattice=lattice,
        fonts=page.fonts,
        effects=_jsonable(asdict(params)),
    )
    return Photo(image=image, truth=truth, jpeg_quality=params.jpeg_quality)


def _jsonable(value: Any) -> Any:
    """Tuples to lists and numpy scalars to Python numbers, recursively."""
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, float):
        return round(value, 4)
    return value


# ----------------------------------------------------------------------------- multi-puzzle pages


@dataclass(frozen=True)
class GridTruth:
    """One Sudoku on a scanned page."""

    givens: np.ndarray
    solution: np.ndarray
    lattice: np.ndarray  # (10, 10, 2) in page-image pixels
    font: str

    @property
    def corners(self) -> np.ndarray:
        """(4, 2) TL, TR, BR, BL: centres of the outer border lines."""
        return self.lattice[[0, 0, 9, 9], [0, 9, 9, 0]]

    def to_json(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {
            "givens": self.givens.tolist(),
            "solution": self.solution.tolist(),
            "corners": np.round(self.corners, 2).tolist(),
            "lattice": np.round(self.lattice, 2).tolist(),
            "font": self.font,
        }


def _page_sudoku(
    sheet: Sheet, rng: np.random.Generator, box: Box, fonts: dict[str, str], mm: float
) -> GridTruth:
    """A numbered Sudoku with title and footer in a slot of a puzzle page."""
    x0, y0, x1, y1 = box
    title = load_font(fonts["title"], round(5.0 * mm))
    cell = min((x1 - x0) / 9.3, (y1 - y0 - 12 * mm) / 9, 8.5 * mm)
    gx = x0 + float(rng.uniform(0, (x1 - x0) - 9 * cell))
    sheet.text(gx, y0, str(rng.choice(TITLES)).format(n=int(rng.integers(100, 999))), title)
    level = str(rng.choice(LEVELS))
    small = load_font(fonts["text"], round(3.0 * mm))
    sheet.text(gx + 9 * cell - small.getlength(level), y0 + 1.5 * mm, level, small)
    givens, solution = make_puzzle(rng, int(rng.integers(24, 33)))
    font = pick_font(rng, PRINT_FONTS)
    style = replace(sample_grid_style(rng, font), shade="none")
    lattice = draw_sudoku(sheet, rng, (gx, y0 + 8 * mm), cell, givens, style)
    footer = str(rng.choice(FOOTERS)).format(
        n=int(rng.integers(100, 9999)), d=int(rng.integers(1, 4))
    )
    sheet.text(gx, y0 + 8 * mm + 9 * cell + 1.5 * mm, footer, small)
    return GridTruth(givens=givens, solution=solution, lattice=lattice, font=font)


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
    width, height = round(210 * mm), round(297 * mm)
    fonts = {"text": pick_font(rng, TEXT_FONTS), "title": pick_font(rng, TITLE_FONTS)}
    sheet = Sheet(width, height)
    masthead = load_font(fonts["title"], round(11 * mm))
    sheet.text(14 * mm, 12 * mm, str(rng.choice(["PUZZLES", "JEUX", "Rätsel & Spiele"])), masthead)
    sheet.rect(14 * mm, 27 * mm, width - 14 * mm, 27.8 * mm)
    slots = [(c, r) for r in range(3) for c in range(2)]
    kinds = ["sudoku"] * n_puzzles + ["other"] * (6 - n_puzzles)
    kinds = [kinds[i] for i in rng.permutation(6)]
    slot_w, slot_h = (width - 28 * mm - 10 * mm) / 2, (height - 34 * mm - 14 * mm - 16 * mm) / 3
    truths: list[GridTruth] = []
    for (c, r), kind in zip(slots, kinds, strict=True):
        x0, y0 = 14 * mm + c * (slot_w + 10 * mm), 34 * mm + r * (slot_h + 8 * mm)
        box = (x0, y0, x0 + slot_w, y0 + slot_h)
        if kind == "sudoku":
            truths.append(_page_sudoku(sheet, rng, box, fonts, mm))
        else:
            _page_distractor(sheet, rng, box, fonts, mm)
    tone = float(rng.uniform(0.9, 0.96))
    flat = paper(rng, width, height, (tone, tone, tone * 0.97)) * sheet.ink
    angle = float(rng.uniform(-1.2, 1.2))
    m: np.ndarray = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
    m[:, 2] += rng.uniform(-3, 3, 2) * mm
    rgb = cv2.warpAffine(
        flat, m, (width, height), flags=cv2.INTER_LINEAR, borderValue=(0.97, 0.97, 0.97)
    )
    params = replace(sample_params("scan", rng), size=(width, height), blur_sigma=0.35 * dpi / 150)
    image = develop(rng, rgb, params)
    moved = [
        replace(t, lattice=(t.lattice.reshape(-1, 2) @ m[:, :2].T + m[:, 2]).reshape(10, 10, 2))
        for t in truths
    ]
    return image, moved


# ----------------------------------------------------------------------------- files


def dat_text(device: str, size: tuple[int, int], grid: np.ndarray) -> str:
    """Ground truth in the shared dataset's .dat format: device, format, 9 rows of digits."""
    rows = "\n".join(" ".join(str(int(v)) for v in row) for row in grid)
    return f"{device}\n{size[0]}x{size[1]}:24 JPG\n{rows}\n"


def grid_text(grid: np.ndarray) -> str:
    """Nine lines of nine digits (the .pen.dat format)."""
    return "\n".join(" ".join(str(int(v)) for v in row) for row in grid) + "\n"


def encode_jpeg(image: np.ndarray, quality: int) -> bytes:
    """JPEG bytes of a BGR (or grey) image."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise OSError("JPEG encoding failed")
    return bytes(data.tobytes())


def write_photo(photo: Photo, folder: Path, name: str) -> list[Path]:
    """Write <name>.jpg, .dat, .json (and .pen.dat when there is pen) into a folder."""
    folder.mkdir(parents=True, exist_ok=True)
    t = photo.truth
    paths = [folder / f"{name}.jpg", folder / f"{name}.dat", folder / f"{name}.json"]
    paths[0].write_bytes(encode_jpeg(photo.image, photo.jpeg_quality))
    paths[1].write_text(dat_text(t.device, t.size, t.givens), encoding="utf-8")
    paths[2].write_text(
        json.dumps(t.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    if t.pen.any():
        paths.append(folder / f"{name}.pen.dat")
        paths[-1].write_text(grid_text(t.pen), encoding="utf-8")
    return paths


PAGE_JPEG_QUALITY = 75  # puzzle pages are saved as grey JPEGs


def write_page(
    image: np.ndarray, truths: list[GridTruth], folder: Path, name: str, meta: dict[str, Any]
) -> list[Path]:
    """Write a puzzle page as a grey JPEG and its truth JSON."""
    folder.mkdir(parents=True, exist_ok=True)
    jpg, js = folder / f"{name}.jpg", folder / f"{name}.json"
    jpg.write_bytes(encode_jpeg(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), PAGE_JPEG_QUALITY))
    data = {
        **meta,
        "jpeg_quality": PAGE_JPEG_QUALITY,
        "size": [image.shape[1], image.shape[0]],
        "grids": [t.to_json() for t in truths],
    }
    js.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return [jpg, js]


# ----------------------------------------------------------------------------- the committed set


@dataclass(frozen=True)
class SampleSpec:
    """One committed sample: where it goes, its seed offset and fixed parameters."""

    kind: str
    name: str
    offset: int
    overrides: dict[str, Any] = field(default_factory=dict)


SAMPLES: tuple[SampleSpec, ...] = (
    SampleSpec(
        "printed",
        "demo",
        1,
        {
            "size": (1024, 768),
            "grid_fraction": 0.66,
            "centre_shift": (0.0, 0.09),
            "roll_deg": -3.0,
            "pitch_deg": 8.0,
            "yaw_deg": -4.0,
            "shadow": 0.0,
            "blur_sigma": 0.3,
            "motion_blur_px": 0.0,
            "noise_sigma": 1.5,
            "print_font": "Nimbus Sans Bold",
            "colour_cast": (1.0, 1.0, 0.97),
            "paper_tone": (0.93, 0.92, 0.88),
            "jpeg_quality": 85,
        },
    ),
    SampleSpec(
        "printed", "serif_rotated", 2, {"print_font": "C059", "roll_deg": 14.0, "size": (1024, 768)}
    ),
    SampleSpec("printed", "shadow", 3, {"shadow": 0.45, "print_font": "Liberation Sans"}),
    SampleSpec(
        "progress",
        "half_blue",
        4,
        {"pen_fill": 0.5, "pen_mistakes": 2, "pen_font": "dkg", "size": (1024, 768)},
    ),
    SampleSpec(
        "progress",
        "nearly_done",
        5,
        {"pen_fill": 0.9, "pen_mistakes": 3, "pen_font": "Breip", "size": (960, 1280)},
    ),
    SampleSpec("bent", "wave", 6, {"bend": "wave", "bend_depth": 0.1, "bend_period": 1.3}),
    SampleSpec("bent", "curl", 7, {"bend": "curl", "bend_depth": 0.14}),
    SampleSpec("webcam", "dim", 8, {"motion_blur_px": 3.0, "motion_angle_deg": 20.0}),
    SampleSpec("webcam", "pen", 9, {"pen_fill": 0.6, "pen_mistakes": 1, "pen_font": "Comic Neue"}),
    SampleSpec("scan", "clipping", 10, {}),
)


SAMPLE_MAX_BYTES = 240_000  # committed JPEGs stay small


def fit_quality(photo: Photo, max_bytes: int) -> Photo:
    """The photo with its JPEG quality lowered (in steps of 3, to 50 at least) to fit a size."""
    quality = photo.jpeg_quality
    while quality > 50 and len(encode_jpeg(photo.image, quality)) > max_bytes:
        quality -= 3
    effects = {**photo.truth.effects, "jpeg_quality": quality}
    return replace(photo, truth=replace(photo.truth, effects=effects), jpeg_quality=quality)


def render_samples(out: Path, seed: int) -> list[Path]:
    """Render the committed sample set and one puzzle page into `out`."""
    written: list[Path] = []
    for spec in SAMPLES:
        photo = render_photo(seed * 1000 + spec.offset, spec.kind, **spec.overrides)
        written += write_photo(fit_quality(photo, SAMPLE_MAX_BYTES), out / spec.kind, spec.name)
    page_seed = seed * 1000 + 100
    image, truths = render_page(page_seed, n_puzzles=3, dpi=150)
    meta = {"device": f"sudokucam-render page seed={page_seed}", "seed": page_seed, "dpi": 150}
    written += write_page(image, truths, out / "pages", "page0", meta)
    return written


def render_batch(out: Path, seed: int, kind: str, count: int) -> list[Path]:
    """Render `count` photos of one kind named <kind>_NNNN."""
    written: list[Path] = []
    for i in range(count):
        written += write_photo(
            render_photo(seed * 100_000 + i, kind), out / kind, f"{kind}_{i:04d}"
        )
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: render the sample set, a batch of one kind, or puzzle pages."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    parser.add_argument("--kind", choices=sorted(KINDS), help="render a batch of this kind")
    parser.add_argument("--count", type=int, default=10, help="batch size with --kind")
    parser.add_argument("--pages", type=int, default=0, help="render this many puzzle pages")
    parser.add_argument("--n-puzzles", type=int, default=4, help="Sudokus per page (1-6)")
    parser.add_argument("--dpi", type=int, default=200, help="page resolution (72-600)")
    args = parser.parse_args(argv)
    try:
        if args.pages:
            written: list[Path] = []
            for i in range(args.pages):
                s = args.seed * 1000 + i
                image, truths = render_page(s, args.n_puzzles, args.dpi)
                meta = {"device": f"sudokucam-render page seed={s}", "seed": s, "dpi": args.dpi}
                written += write_page(image, truths, args.out / "pages", f"page{i}", meta)
        elif args.kind:
            written = render_batch(args.out, args.seed, args.kind, args.count)
        else:
            written = render_samples(args.out, args.seed)
    except (FontMissingError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, ValueError) else 1
    for path in written:
        print(f"{path}  {path.stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
