"""16×16 Sudokus as puzzle magazines print them: 4×4 boxes, the numbers 1-16, or the
symbols 0-9 and A-F, or the letters A-P (``SIXTEEN_SYMBOLS``).

A magazine's 16×16 takes most of a page: 256 small cells, two-digit numbers 10-16
printed in one cell. The grid stands where a newspaper's 9×9 would (heading, columns, a
footer around it; ``newspaper_page``), drawn in one of ``SIXTEEN_STYLES``:

- ``magazine``: thin cell lines, thick box lines, numbers in a plain face;
- ``bold``: heavier lines and numbers in a bold face, as a puzzle magazine's;
- ``shaded``: every other 4×4 box tinted grey;
- ``narrow``: a narrow face and taller numbers (two digits fill the cell's width).

The lines are those of the small grids (``boxed_grids.draw_box_lines``: thin between
cells, thick between boxes), the numbers centred in their cells (``grid_drawing.draw_digits``). The
puzzle is cut by ``solver/variant_sample.py`` (seeded, proved unique); the photo goes
through the same camera, light and sensor damage as every rendered photo, at a phone
photo's size where a cell is some 30-60 pixels. Its truth is a ``SmallPhoto``'s: 16 × 16
arrays, a (17, 17, 2) lattice, the puzzle in the ``grid FILE.json`` form (symbols
``123456789ABCDEFG`` for the numbers, the page's own ``0123456789ABCDEF`` or
``ABCDEFGHIJKLMNOP`` otherwise: docs/json.md) and the answer as a string.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from ...solver.geometry import BOX_SHAPES
from ...solver.grid import SYMBOLS
from ...solver.variant import Variant, VariantPuzzle
from ...solver.variant_sample import VariantConfig, random_variant
from .boxed_grids import (
    SmallPhoto,
    draw_box_lines,
    photographed,
    shuffled_lines,
    tint_boxes,
    write_photo,
)
from .committed import fit_quality
from .fonts import font_for_height
from .grid_drawing import GridStyle, draw_digits, grid_lattice, sample_grid_style
from .newspaper_page import PageDraft, draw_surroundings, sample_fonts, sample_frame
from .paper import paper, print_through
from .params import PhotoParams, sample_params
from .pen import choose_pen_entries, draw_pen, sample_pen_style
from .sheet import Sheet
from .words import instructions

SIXTEEN = 16
SIXTEEN_STYLES = ("magazine", "bold", "shaded", "narrow")
# what a 16×16 prints: its name -> the symbols of the values 1-16 ("" for the numbers)
SIXTEEN_SYMBOLS = {"numbers": "", "hex": "0123456789ABCDEF", "letters": "ABCDEFGHIJKLMNOP"}
STYLE_FONTS = {
    "magazine": ("Nimbus Sans", "Liberation Sans", "Nimbus Roman", "C059"),
    "bold": ("Nimbus Sans Bold", "Liberation Sans Bold", "Nimbus Roman Bold", "P052 Bold"),
    "shaded": ("Nimbus Sans", "Liberation Sans", "URW Gothic", "Nimbus Roman"),
    "narrow": ("Nimbus Sans Narrow Bold",),
}
CLUES = (100, 130)  # givens of a magazine 16×16 (of 256 cells)
# rendering is offline: the app's 20 s for making a puzzle is no limit here (a busy
# machine ran past it); the puzzle made is the seed's whatever the limit
MAKE_CONFIG = VariantConfig(time_limit_s=600.0)
PHOTO_SIZES = ((1600, 1200), (1200, 1600), (1440, 1080))  # a phone photo, as sent on
PEN_HEIGHT = 0.55  # a pen number's height, at most, of a cell: 10-16 written two digits wide
GRID_FRACTION = (0.72, 0.9)  # the grid's side / the photo's shorter side


def sixteen_puzzle(seed: int, symbols: str = "") -> tuple[VariantPuzzle, tuple[int, ...]]:
    """A seeded unique 16×16 classic Sudoku (4×4 boxes, ``CLUES`` givens) and its answer;
    ``symbols``: how the page prints the values 1-16 ("": the numbers).

    The solver's first grid is shuffled (rows within bands, bands, columns within stacks,
    stacks: ``boxed_grids.shuffled_lines``; the puzzle stays unique) so that answers
    differ from seed to seed in more than their labels."""
    rng = random.Random(seed)
    clues = rng.randint(*CLUES)
    made = random_variant(rng, SIXTEEN, Variant.CLASSIC, min_clues=clues, config=MAKE_CONFIG)
    if made is None:  # an empty classic grid always has a solution
        raise ValueError("no 16×16 Sudoku could be made")
    puzzle, answer = made
    rows, cols = shuffled_lines(rng, SIXTEEN)
    moved = [rows[r] * SIXTEEN + cols[c] for r in range(SIXTEEN) for c in range(SIXTEEN)]
    givens = tuple(puzzle.givens[i] for i in moved)
    puzzle = VariantPuzzle(SIXTEEN, givens, Variant.CLASSIC, symbols=symbols)
    return puzzle, tuple(answer[i] for i in moved)


def sixteen_params(rng: np.random.Generator, **overrides: Any) -> PhotoParams:
    """A printed photo's camera, light and sensor, at a phone photo's size, the grid
    filling most of the shorter side (a magazine's 16×16 is a page's puzzle)."""
    params = sample_params("printed", rng)
    size = PHOTO_SIZES[int(rng.integers(len(PHOTO_SIZES)))]
    fraction = float(rng.uniform(*GRID_FRACTION))
    chosen: dict[str, Any] = {"size": size, "grid_fraction": fraction, "pen_fill": 0.0}
    return replace(params, kind="sixteen", **(chosen | overrides))


def render_sixteen_photo(
    seed: int,
    style: str | None = None,
    symbols: str = "numbers",
    misprint: tuple[int, str] | None = None,
    **overrides: Any,
) -> SmallPhoto:
    """A photo of a printed 16×16 Sudoku (``style`` one of SIXTEEN_STYLES, default picked
    by the seed; ``symbols`` a name of SIXTEEN_SYMBOLS: the numbers 1-16, ``hex`` 0-9 and
    A-F, ``letters`` A-P); ``misprint``: a given cell (0-255) printed with another
    character (a page holding a symbol outside its set; the truth keeps the puzzle's);
    ``overrides`` set PhotoParams fields by name (``size``: width, height; ``pen_fill``,
    ``pen_mistakes``, ``pen_font``: a page half solved in pen, its numbers or symbols
    written as a 9×9 progress page's digits, ``pen.draw_pen``; none by default)."""
    if symbols not in SIXTEEN_SYMBOLS:
        raise ValueError(f"a 16×16 prints one of {', '.join(SIXTEEN_SYMBOLS)}; got {symbols!r}")
    puzzle, answer = sixteen_puzzle(seed, SIXTEEN_SYMBOLS[symbols])
    if misprint is not None and (symbols == "numbers" or not puzzle.givens[misprint[0]]):
        raise ValueError("a misprint is a given cell of a page printed with symbols")
    rng = np.random.default_rng(seed)
    style = style or str(rng.choice(SIXTEEN_STYLES))
    if style not in SIXTEEN_STYLES:
        raise ValueError(f"a 16×16's style is one of {', '.join(SIXTEEN_STYLES)}; got {style!r}")
    params = sixteen_params(rng, **overrides)
    givens = np.asarray(puzzle.givens, np.int64).reshape(SIXTEEN, SIXTEEN)
    solution = np.asarray(answer, np.int64).reshape(SIXTEEN, SIXTEEN)
    pen = np.zeros_like(givens)
    mistakes: list[tuple[int, int]] = []
    if params.pen_fill > 0:  # no draw from rng otherwise: pages without pen stay as they were
        pen, mistakes = choose_pen_entries(rng, givens, solution, params.pen_fill,
                                           params.pen_mistakes)  # fmt: skip
    page = compose_sixteen_page(rng, puzzle, style, params, misprint, pen)
    written = (pen, tuple(mistakes))
    return photographed(rng, seed, "sixteen", page, params, (puzzle, answer, style), written)


def sixteen_grid_style(rng: np.random.Generator, style: str) -> GridStyle:
    """The grid's lines and numbers in one of SIXTEEN_STYLES (line widths: fractions of a
    9×9 grid's cell, as the small grids'; ``digit_height``: of a 16×16 cell)."""
    faces = STYLE_FONTS[style]
    base = replace(sample_grid_style(rng, faces[int(rng.integers(len(faces)))]), shade="none")
    height = float(rng.uniform(0.42, 0.52))
    if style == "bold":
        thick = float(rng.uniform(0.06, 0.09))
        return replace(base, thin=float(rng.uniform(0.025, 0.035)), thick=thick,
                       outer=thick * 1.3, digit_height=height)  # fmt: skip
    if style == "narrow":
        return replace(base, digit_height=float(rng.uniform(0.55, 0.62)))
    return replace(base, digit_height=height)


def compose_sixteen_page(
    rng: np.random.Generator,
    puzzle: VariantPuzzle,
    style: str,
    p: PhotoParams,
    misprint: tuple[int, str] | None = None,
    pen: np.ndarray | None = None,
) -> PageDraft:
    """The flat page: the 16×16 grid where a 9×9 would stand, with heading, columns and
    more around it (``misprint``: a cell printed with another character), and the ``pen``
    entries (16 × 16, 0 where none) written in; the draft's lattice is the grid's
    (17, 17, 2)."""
    cell9 = p.grid_fraction * min(p.size) / 9 * p.supersample
    frame = sample_frame(rng, cell9)
    fonts = sample_fonts(rng, p.print_font)
    grid_style = sixteen_grid_style(rng, style)
    fonts["print"] = grid_style.font
    sheet = Sheet(frame.width, frame.height)
    cell = 9 * cell9 / SIXTEEN
    origin = (frame.left, frame.top)
    tint_boxes(sheet, rng, origin, cell, SIXTEEN, "shaded" if style == "shaded" else "none")
    draw_box_lines(sheet, origin, cell, SIXTEEN, grid_style)
    lattice = grid_lattice(frame.left, frame.top, cell, SIXTEEN)
    givens = np.asarray(puzzle.givens, np.int64).reshape(SIXTEEN, SIXTEEN)
    height = grid_style.digit_height * cell
    if puzzle.symbols == SYMBOLS[:SIXTEEN]:
        draw_digits(sheet, lattice, givens, fonts["print"], height, grid_style.digit_ink)
    else:
        texts = [puzzle.symbols[v - 1] if v else "" for v in puzzle.givens]
        if misprint is not None:
            texts[misprint[0]] = misprint[1]
        draw_symbols(sheet, lattice, texts, (fonts["print"], height), grid_style)
    rules = instructions(SIXTEEN, BOX_SHAPES[SIXTEEN])
    draw_surroundings(sheet, rng, frame, cell9, fonts, rules)
    if pen is not None and pen.any():
        pen_style = sample_pen_style(rng, p.pen_font)
        pen_style = replace(pen_style, height=min(pen_style.height, PEN_HEIGHT))
        glyphs = "" if puzzle.symbols == SYMBOLS[:SIXTEEN] else puzzle.symbols
        draw_pen(sheet, rng, lattice, pen, pen_style, glyphs)
        fonts["pen"] = pen_style.font
    sheet.ink *= print_through(sheet.ink, float(rng.uniform(0.01, 0.025)))
    rgb = paper(rng, frame.width, frame.height, p.paper_tone) * sheet.ink
    return PageDraft(rgb=rgb, lattice=lattice, fonts=fonts)


def draw_symbols(
    sheet: Sheet,
    lattice: np.ndarray,
    texts: list[str],
    face: tuple[str, float],
    style: GridStyle,
) -> None:
    """Each cell's text ("" none; a symbol of 0-9 and A-F, or A-P) centred in its cell in
    the font ``face`` (name, digit height in pixels): letters stand as tall as the digits
    (cap height)."""
    font = font_for_height(*face)
    _, top8, _, bottom8 = font.getbbox("8")
    for cell, text in enumerate(texts):
        if not text:
            continue
        r, c = divmod(cell, SIXTEEN)
        cx, cy = lattice[r : r + 2, c : c + 2].reshape(4, 2).mean(axis=0)
        left, _, right, _ = font.getbbox(text)
        sheet.text(cx - (left + right) / 2, cy - (top8 + bottom8) / 2, text, font, style.digit_ink)


def render_sixteen_batch(out: Path, seed: int, count: int, symbols: str = "numbers") -> list[Path]:
    """Render ``count`` photos of 16×16 Sudokus named sixteen/sixteen_NNNN (a .jpg and its
    .json truth each), styles in turn, printed with ``symbols`` (a SIXTEEN_SYMBOLS name;
    ``mixed``: the three in turn)."""
    folder = out / "sixteen"
    folder.mkdir(parents=True, exist_ok=True)
    names = tuple(SIXTEEN_SYMBOLS) if symbols == "mixed" else (symbols,)
    written: list[Path] = []
    for i in range(count):
        style = SIXTEEN_STYLES[i % len(SIXTEEN_STYLES)]
        made = render_sixteen_photo(seed * 100_000 + i, style, names[i % len(names)])
        written += write_photo(made, folder / f"sixteen_{i:04d}")
    return written


# The committed 16×16 samples: samples/sixteen/magazine (numbers 1-16), hex_bold (0-9 and
# A-F) and letters_shaded (A-P), each read exactly by tests/test_sixteen*.py
SIXTEEN_SAMPLE_MAX_BYTES = 190_000  # each committed 16×16 photo stays under 200 KB
SIXTEEN_SAMPLE: tuple[int, str] = (1_600_000, "magazine")  # seed, style
SIXTEEN_SAMPLE_OVERRIDES: dict[str, Any] = {"size": (1600, 1200), "shadow": 0.3, "roll_deg": 4.0}
SYMBOL_SAMPLE_OVERRIDES: dict[str, Any] = {"size": (1440, 1080), "shadow": 0.3, "roll_deg": -3.0}
# name -> seed, style, symbols (a SIXTEEN_SYMBOLS name)
SIXTEEN_SYMBOL_SAMPLES: dict[str, tuple[int, str, str]] = {
    "hex_bold": (1_600_001, "bold", "hex"),
    "letters_shaded": (1_600_002, "shaded", "letters"),
}


def write_sixteen_sample(folder: Path, max_bytes: int = SIXTEEN_SAMPLE_MAX_BYTES) -> list[Path]:
    """Render the committed 16×16 samples into ``folder`` (each a .jpg of at most
    ``max_bytes``): the numbers' (``SIXTEEN_SAMPLE``), then ``SIXTEEN_SYMBOL_SAMPLES``."""
    folder.mkdir(parents=True, exist_ok=True)
    seed, style = SIXTEEN_SAMPLE
    made = render_sixteen_photo(seed, style, **SIXTEEN_SAMPLE_OVERRIDES)
    made = replace(made, photo=fit_quality(made.photo, max_bytes))
    written = write_photo(made, folder / style)
    for name, (seed, style, symbols) in SIXTEEN_SYMBOL_SAMPLES.items():
        made = render_sixteen_photo(seed, style, symbols, **SYMBOL_SAMPLE_OVERRIDES)
        made = replace(made, photo=fit_quality(made.photo, max_bytes))
        written += write_photo(made, folder / name)
    return written
