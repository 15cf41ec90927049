"""Small Sudokus as children's and puzzle books print them: 6×6 (and 4×4, 8×8) pages.

A small Sudoku has ``n`` cells a side and boxes of ``BOX_SHAPES[n]`` (rows × columns:
6×6 has boxes of 2 rows × 3 columns, 4×4 of 2 × 2, 8×8 of 2 × 4), digits 1 to ``n``.
The grid takes the place of a newspaper's 9×9 on the same page (heading, columns, a
footer around it; ``newspaper_page``), drawn in one of ``SMALL_STYLES``:

- ``newspaper``: thin cell lines, thick box lines, as a daily paper's 9×9;
- ``book``: a puzzle book's heavier lines and larger digits;
- ``shaded``: every other box tinted grey;
- ``kids``: a children's book, coloured lines and boxes tinted in light colours.

The puzzle is cut by ``solver/variant_sample.py`` (seeded, proved unique); a page may be
half filled in by pen (``pen_fill`` and ``pen_mistakes`` of the overrides: written as on a
9×9 progress page, ``pen.draw_pen``). The photo goes through the same camera, light and
sensor damage as every rendered photo. Its truth is a
``PhotoTruth`` whose arrays are n × n and whose lattice is (n + 1, n + 1, 2), with the
puzzle in the ``grid FILE.json`` form under ``"puzzle"`` and the answer as a string.
"""

from __future__ import annotations

import random
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import numpy as np

from ...solver.geometry import BOX_SHAPES
from ...solver.variant import Variant, VariantPuzzle
from ...solver.variant_sample import random_variant
from .boxed_grids import (
    SmallPhoto,
    draw_box_lines,
    photographed,
    shuffled_lines,
    tint_boxes,
    write_photo,
)
from .committed import fit_quality
from .grid_drawing import GridStyle, draw_digits, grid_lattice, sample_grid_style
from .marks import MarkedPage, Marks, choose_notes, draw_marks, marks_rng, pencilled
from .newspaper_page import PageDraft, draw_surroundings, sample_fonts, sample_frame
from .paper import paper, print_through
from .params import PhotoParams, sample_params
from .pen import choose_pen_entries, draw_pen, sample_pen_style
from .sheet import Sheet
from .truth import jsonable
from .types import RGB
from .words import instructions

SMALL_SIZES = (4, 6, 8)
TWELVE = 12  # a 12×12 of 3 × 4 boxes and the numbers 1-12, drawn as the small grids are
SMALL_STYLES = ("newspaper", "book", "shaded", "kids")
KIDS_INKS: tuple[RGB, ...] = ((0.12, 0.25, 0.6), (0.45, 0.15, 0.5), (0.1, 0.4, 0.35))
CLUE_SHARE = {4: (0.3, 0.45), 6: (0.33, 0.5), 8: (0.35, 0.5), 12: (0.4, 0.5)}  # givens / cells


def small_puzzle(seed: int, size: int) -> tuple[VariantPuzzle, tuple[int, ...]]:
    """A seeded unique classic Sudoku of ``size`` (4, 6 or 8, or ``TWELVE``) cells a side,
    and its answer.

    The solver's first grid is shuffled (rows within bands, bands, columns within stacks,
    stacks, and the digits) so that answers differ from seed to seed."""
    if size not in (*SMALL_SIZES, TWELVE):
        raise ValueError(f"size must be one of {SMALL_SIZES} or {TWELVE}; got {size}")
    rng = random.Random(seed)
    lo, hi = CLUE_SHARE[size]
    clues = round(rng.uniform(lo, hi) * size * size)
    made = random_variant(rng, size, Variant.CLASSIC, min_clues=clues)
    if made is None:  # an empty classic grid always has a solution
        raise ValueError(f"no {size}×{size} Sudoku could be made")
    puzzle, answer = made
    rows, cols = shuffled_lines(rng, size)
    moved = tuple(answer[rows[r] * size + cols[c]] for r in range(size) for c in range(size))
    givens = tuple(
        moved[i] if puzzle.givens[rows[i // size] * size + cols[i % size]] else 0
        for i in range(size * size)
    )
    return VariantPuzzle(size, givens, Variant.CLASSIC), moved


def render_small_photo(
    seed: int,
    grid_size: int = 6,
    style: str | None = None,
    *,
    marks: Marks | None = None,
    **overrides: Any,
) -> SmallPhoto:
    """A photo of a printed small Sudoku (``grid_size`` 4, 6 or 8 cells a side, or 12; ``style``
    one of SMALL_STYLES, default picked by the seed); ``overrides`` set PhotoParams fields
    by name (``size``: the photo's width and height; ``pen_fill``, ``pen_mistakes``: a
    page filled in by pen, none by default). ``marks``: candidate notes (``notes_fill``,
    ``notes_wrong``, ``notes_layout``), pencil and the rest, drawn with their own
    generator as on a 9×9 page (``marks.py``): the page is otherwise as without them."""
    puzzle, answer = small_puzzle(seed, grid_size)
    rng = np.random.default_rng(seed)
    style = style or str(rng.choice(SMALL_STYLES))
    if style not in SMALL_STYLES:
        raise ValueError(
            f"a small Sudoku's style is one of {', '.join(SMALL_STYLES)}; got {style!r}"
        )
    params = replace(sample_params("printed", rng), kind="small", **({"pen_fill": 0.0} | overrides))
    n = puzzle.size
    givens = np.asarray(puzzle.givens, np.int64).reshape(n, n)
    solution = np.asarray(answer, np.int64).reshape(n, n)
    pen = np.zeros_like(givens)
    mistakes: list[tuple[int, int]] = []
    if params.pen_fill > 0:  # no draw from rng otherwise: pages without pen stay as they were
        pen, mistakes = choose_pen_entries(rng, givens, solution, params.pen_fill,
                                           params.pen_mistakes)  # fmt: skip
    marked = None
    if marks is not None:
        mrng = marks_rng(seed)
        notes, notes_wrong = choose_notes(mrng, (givens > 0) | (pen > 0), solution, marks)
        marked = MarkedPage(mrng, notes, marks)
    page = compose_small_page(rng, puzzle, style, params, pen, marked)
    written = (pen, tuple(mistakes))
    made = photographed(rng, seed, "small", page, params, (puzzle, answer, style), written)
    if marked is None:
        return made
    effects = made.photo.truth.effects | {"marks": jsonable(asdict(marked.marks))}
    truth = replace(made.photo.truth, notes=marked.notes, notes_wrong=tuple(notes_wrong),
                    crossed_out=page.crossed_out, effects=effects)  # fmt: skip
    return replace(made, photo=replace(made.photo, truth=truth))


def small_grid_style(rng: np.random.Generator, font: str, style: str) -> GridStyle:
    """The grid's lines and digits in one of SMALL_STYLES (widths: fractions of a cell)."""
    base = replace(sample_grid_style(rng, font), shade="none")
    if style == "book":
        thick = float(rng.uniform(0.06, 0.09))
        return replace(base, thin=float(rng.uniform(0.02, 0.035)), thick=thick,
                       outer=thick * 1.3, digit_height=float(rng.uniform(0.55, 0.68)))  # fmt: skip
    if style == "kids":
        ink = KIDS_INKS[int(rng.integers(len(KIDS_INKS)))]
        return replace(base, line_ink=ink, thin=float(rng.uniform(0.015, 0.03)))
    return base


def compose_small_page(
    rng: np.random.Generator,
    puzzle: VariantPuzzle,
    style: str,
    p: PhotoParams,
    pen: np.ndarray | None = None,
    marked: MarkedPage | None = None,
) -> PageDraft:
    """The flat page: the small grid where a 9×9 would stand, with heading, columns and
    more around it, the ``pen`` entries (n × n, 0 where none) written in and the
    ``marked`` notes and the rest drawn; the draft's lattice is the small grid's (n + 1,
    n + 1, 2)."""
    cell9 = p.grid_fraction * min(p.size) / 9 * p.supersample
    frame = sample_frame(rng, cell9)
    fonts = sample_fonts(rng, p.print_font)
    sheet = Sheet(frame.width, frame.height)
    n = puzzle.size
    cell = 9 * cell9 / n
    grid_style = small_grid_style(rng, fonts["print"], style)
    tint_boxes(sheet, rng, (frame.left, frame.top), cell, n, style)
    draw_box_lines(sheet, (frame.left, frame.top), cell, n, grid_style)
    lattice = grid_lattice(frame.left, frame.top, cell, n)
    givens = np.asarray(puzzle.givens, np.int64).reshape(n, n)
    height = grid_style.digit_height * min(cell, 1.4 * cell9)  # a book's digits, not posters
    draw_digits(sheet, lattice, givens, grid_style.font, height, grid_style.digit_ink)
    draw_surroundings(sheet, rng, frame, cell9, fonts, instructions(n, BOX_SHAPES[n]))
    pen = np.zeros_like(givens) if pen is None else pen
    pen_style = None
    if pen.any():
        pen_style = sample_pen_style(rng, p.pen_font)
        pen_style = pen_style if marked is None else pencilled(pen_style, marked.marks)
        draw_pen(sheet, rng, lattice, pen, pen_style)
        fonts["pen"] = pen_style.font
    crossed: tuple[tuple[int, int], ...] = ()
    if marked is not None:  # the marks' own generator: the rest of the page is unchanged
        hand = pen_style or pencilled(sample_pen_style(marked.rng, p.pen_font), marked.marks)
        taken = (givens > 0) | (pen > 0)
        drawn = draw_marks(sheet, marked.rng, lattice, taken, marked.notes, marked.marks, hand)
        fonts |= drawn.fonts
        crossed = drawn.crossed_out
    sheet.ink *= print_through(sheet.ink, float(rng.uniform(0.01, 0.025)))
    rgb = paper(rng, frame.width, frame.height, p.paper_tone) * sheet.ink
    return PageDraft(rgb=rgb, lattice=lattice, fonts=fonts, crossed_out=crossed)


def render_small_batch(out: Path, seed: int, count: int, size: int = 6) -> list[Path]:
    """Render ``count`` photos of small Sudokus of ``size`` named small/small<n>_NNNN (a
    .jpg and its .json truth each), styles in turn."""
    folder = out / "small"
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for i in range(count):
        made = render_small_photo(seed * 100_000 + i, size, SMALL_STYLES[i % len(SMALL_STYLES)])
        written += write_photo(made, folder / f"small{size}_{i:04d}")
    return written


# The committed 6×6 and 12×12 samples: samples/small/six_<style> and twelve_<style>, read
# exactly by tests/test_small_grid.py and tests/test_twelve.py
SMALL_SAMPLE_MAX_BYTES = 140_000  # each committed small photo stays under 150 KB
SMALL_SAMPLE: tuple[int, int, str] = (400_000, 6, "book")  # seed, size, style
SMALL_SAMPLE_OVERRIDES: dict[str, Any] = {"size": (1024, 768), "shadow": 0.3, "roll_deg": 5.0}
TWELVE_SAMPLE: tuple[int, int, str] = (400_012, TWELVE, "newspaper")
TWELVE_SAMPLE_OVERRIDES: dict[str, Any] = {"size": (768, 1024), "shadow": 0.3, "roll_deg": -4.0}


def write_small_sample(folder: Path, max_bytes: int) -> list[Path]:
    """Render the committed 6×6 and 12×12 samples into ``folder`` (each a .jpg of at most
    ``max_bytes``)."""
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    samples = ((SMALL_SAMPLE, SMALL_SAMPLE_OVERRIDES, "six"),
               (TWELVE_SAMPLE, TWELVE_SAMPLE_OVERRIDES, "twelve"))  # fmt: skip
    for (seed, size, style), overrides, name in samples:
        made = render_small_photo(seed, size, style, **overrides)
        made = replace(made, photo=fit_quality(made.photo, max_bytes))
        written += write_photo(made, folder / f"{name}_{style}")
    return written
