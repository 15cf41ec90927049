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

import json
import random
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ...solver.geometry import BOX_SHAPES
from ...solver.variant import Variant, VariantPuzzle
from ...solver.variant_json import puzzle_to_json
from ...solver.variant_sample import random_variant
from .camera import photograph
from .committed import fit_quality
from .files import encode_jpeg
from .grid_drawing import GridStyle, draw_digits, grid_lattice, sample_grid_style
from .newspaper_page import PageDraft, draw_surroundings, sample_fonts, sample_frame
from .paper import paper, print_through
from .params import PhotoParams, sample_params
from .pen import choose_pen_entries, draw_pen, sample_pen_style
from .sensor import develop
from .sheet import Sheet
from .truth import Photo, PhotoTruth, jsonable
from .types import RGB

SMALL_SIZES = (4, 6, 8)
SMALL_STYLES = ("newspaper", "book", "shaded", "kids")
GREY_TINT: RGB = (0.85, 0.85, 0.85)
KIDS_INKS: tuple[RGB, ...] = ((0.12, 0.25, 0.6), (0.45, 0.15, 0.5), (0.1, 0.4, 0.35))
KIDS_TINTS: tuple[RGB, ...] = ((0.99, 0.92, 0.75), (0.82, 0.92, 0.99), (0.88, 0.97, 0.84))
CLUE_SHARE = {4: (0.3, 0.45), 6: (0.33, 0.5), 8: (0.35, 0.5)}  # givens / cells, by size


@dataclass(frozen=True)
class SmallPhoto:
    """A rendered photo of a small Sudoku, its truth, the puzzle it shows and the style."""

    photo: Photo
    puzzle: VariantPuzzle
    answer: tuple[int, ...]
    style: str

    def truth_json(self) -> dict[str, Any]:
        """The photo's truth (its n × n givens, solution, lattice ...) with ``grid_size``,
        the ``answer`` as a string and the ``puzzle`` in the ``grid FILE.json`` form."""
        return self.photo.truth.to_json() | {
            "grid_size": self.puzzle.size,
            "style": self.style,
            "answer": self.puzzle.write(self.answer),
            "puzzle": puzzle_to_json(self.puzzle),
        }


def small_puzzle(seed: int, size: int) -> tuple[VariantPuzzle, tuple[int, ...]]:
    """A seeded unique classic Sudoku of ``size`` (4, 6 or 8) cells a side, and its answer.

    The solver's first grid is shuffled (rows within bands, bands, columns within stacks,
    stacks, and the digits) so that answers differ from seed to seed."""
    if size not in SMALL_SIZES:
        raise ValueError(f"size must be one of {SMALL_SIZES}; got {size}")
    rng = random.Random(seed)
    lo, hi = CLUE_SHARE[size]
    clues = round(rng.uniform(lo, hi) * size * size)
    made = random_variant(rng, size, Variant.CLASSIC, min_clues=clues)
    if made is None:  # an empty classic grid always has a solution
        raise ValueError(f"no {size}×{size} Sudoku could be made")
    puzzle, answer = made
    rows, cols = _shuffled_lines(rng, size)
    moved = tuple(answer[rows[r] * size + cols[c]] for r in range(size) for c in range(size))
    givens = tuple(
        moved[i] if puzzle.givens[rows[i // size] * size + cols[i % size]] else 0
        for i in range(size * size)
    )
    return VariantPuzzle(size, givens, Variant.CLASSIC), moved


def _shuffled_lines(rng: random.Random, size: int) -> tuple[list[int], list[int]]:
    """A row order and a column order that keep every box whole (bands and stacks moved
    whole, lines moved within them): any solved grid stays solved."""
    box_rows, box_cols = BOX_SHAPES[size]

    def order(step: int) -> list[int]:
        """Groups of ``step`` lines shuffled whole, and the lines within each."""
        groups = list(range(size // step))
        rng.shuffle(groups)
        out = []
        for g in groups:
            inner = list(range(step))
            rng.shuffle(inner)
            out += [g * step + i for i in inner]
        return out

    return order(box_rows), order(box_cols)


def render_small_photo(
    seed: int, grid_size: int = 6, style: str | None = None, **overrides: Any
) -> SmallPhoto:
    """A photo of a printed small Sudoku (``grid_size`` 4, 6 or 8 cells a side; ``style``
    one of SMALL_STYLES, default picked by the seed); ``overrides`` set PhotoParams fields
    by name (``size``: the photo's width and height; ``pen_fill``, ``pen_mistakes``: a
    page filled in by pen, none by default)."""
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
    page = compose_small_page(rng, puzzle, style, params, pen)
    written = (pen, tuple(mistakes))
    return photographed(rng, seed, "small", page, params, (puzzle, answer, style), written)


def photographed(
    rng: np.random.Generator,
    seed: int,
    kind: str,
    page: PageDraft,
    params: PhotoParams,
    drawn: tuple[VariantPuzzle, tuple[int, ...], str],
    written: tuple[np.ndarray, tuple[tuple[int, int], ...]] | None = None,
) -> SmallPhoto:
    """The photo of a flat ``page`` taken and developed, with its truth (a ``kind``
    photo); ``drawn``: the puzzle on the page, its answer and the page's style;
    ``written``: the pen entries (n × n, 0 where none) and the wrong ones, if any."""
    puzzle, answer, style = drawn
    rgb, lattice = photograph(rng, page, params)
    image = develop(rng, rgb, params)
    shape = (puzzle.size, puzzle.size)
    pen, mistakes = written or (np.zeros(shape, np.int64), ())
    truth = PhotoTruth(
        seed=seed, kind=kind, size=params.size,
        givens=np.asarray(puzzle.givens, np.int64).reshape(shape),
        solution=np.asarray(answer, np.int64).reshape(shape), pen=pen,
        mistakes=mistakes, lattice=lattice, fonts=page.fonts,
        effects=jsonable(asdict(params) | {"style": style}),
    )  # fmt: skip
    return SmallPhoto(Photo(image, truth, params.jpeg_quality), puzzle, answer, style)


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
) -> PageDraft:
    """The flat page: the small grid where a 9×9 would stand, with heading, columns and
    more around it, and the ``pen`` entries (n × n, 0 where none) written in; the draft's
    lattice is the small grid's (n + 1, n + 1, 2)."""
    cell9 = p.grid_fraction * min(p.size) / 9 * p.supersample
    frame = sample_frame(rng, cell9)
    fonts = sample_fonts(rng, p.print_font)
    sheet = Sheet(frame.width, frame.height)
    n = puzzle.size
    cell = 9 * cell9 / n
    grid_style = small_grid_style(rng, fonts["print"], style)
    _tint_boxes(sheet, rng, (frame.left, frame.top), cell, n, style)
    _draw_lines(sheet, (frame.left, frame.top), cell, n, grid_style)
    lattice = grid_lattice(frame.left, frame.top, cell, n)
    givens = np.asarray(puzzle.givens, np.int64).reshape(n, n)
    height = grid_style.digit_height * min(cell, 1.4 * cell9)  # a book's digits, not posters
    draw_digits(sheet, lattice, givens, grid_style.font, height, grid_style.digit_ink)
    draw_surroundings(sheet, rng, frame, cell9, fonts)
    if pen is not None and pen.any():
        pen_style = sample_pen_style(rng, p.pen_font)
        draw_pen(sheet, rng, lattice, pen, pen_style)
        fonts["pen"] = pen_style.font
    sheet.ink *= print_through(sheet.ink, float(rng.uniform(0.01, 0.025)))
    rgb = paper(rng, frame.width, frame.height, p.paper_tone) * sheet.ink
    return PageDraft(rgb=rgb, lattice=lattice, fonts=fonts)


def _tint_boxes(
    sheet: Sheet, rng: np.random.Generator, origin: tuple[float, float], cell: float, n: int,
    style: str,
) -> None:  # fmt: skip
    """Every other box tinted: grey (``shaded``) or in a light colour (``kids``)."""
    if style not in ("shaded", "kids"):
        return
    tint = GREY_TINT if style == "shaded" else KIDS_TINTS[int(rng.integers(len(KIDS_TINTS)))]
    box_rows, box_cols = BOX_SHAPES[n]
    x0, y0 = origin
    for br in range(n // box_rows):
        for bc in range(n // box_cols):
            if (br + bc) % 2:
                continue
            left, top = x0 + bc * box_cols * cell, y0 + br * box_rows * cell
            sheet.rect(left, top, left + box_cols * cell, top + box_rows * cell, tint)


def _draw_lines(
    sheet: Sheet, origin: tuple[float, float], cell: float, n: int, style: GridStyle
) -> None:
    """The n + 1 lines each way: thin between cells, thick between boxes, the outer frame
    (widths are fractions of a 9×9 grid's cell, so lines print as thick as a 9×9's)."""
    x0, y0 = origin
    box_rows, box_cols = BOX_SHAPES[n]
    unit = cell * n / 9  # the 9×9 cell the widths are fractions of
    side, half_outer = n * cell, style.outer * unit / 2
    for i in range(n + 1):
        for along_x, box in ((True, box_cols), (False, box_rows)):
            edge = i in (0, n)
            width = style.outer if edge else style.thick if i % box == 0 else style.thin
            half, pos = width * unit / 2, (x0 if along_x else y0) + i * cell
            if along_x:  # a vertical line at x = pos
                sheet.rect(pos - half, y0 - half_outer, pos + half, y0 + side + half_outer,
                           style.line_ink)  # fmt: skip
            else:
                sheet.rect(x0 - half_outer, pos - half, x0 + side + half_outer, pos + half,
                           style.line_ink)  # fmt: skip


def render_small_batch(out: Path, seed: int, count: int, size: int = 6) -> list[Path]:
    """Render ``count`` photos of small Sudokus of ``size`` named small/small<n>_NNNN (a
    .jpg and its .json truth each), styles in turn."""
    folder = out / "small"
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for i in range(count):
        made = render_small_photo(seed * 100_000 + i, size, SMALL_STYLES[i % len(SMALL_STYLES)])
        written += _write(made, folder / f"small{size}_{i:04d}")
    return written


def _write(made: SmallPhoto, name: Path) -> list[Path]:
    """``name``.jpg and its truth ``name``.json."""
    jpg, meta = name.with_suffix(".jpg"), name.with_suffix(".json")
    jpg.write_bytes(encode_jpeg(made.photo.image, made.photo.jpeg_quality))
    meta.write_text(json.dumps(made.truth_json(), indent=1) + "\n", encoding="utf-8")
    return [jpg, meta]


# The committed 6×6 sample: samples/small/six_<style>, read exactly by tests/test_small_grid.py
SMALL_SAMPLE_MAX_BYTES = 140_000  # the committed 6×6 photo stays under 150 KB
SMALL_SAMPLE: tuple[int, int, str] = (400_000, 6, "book")  # seed, size, style
SMALL_SAMPLE_OVERRIDES: dict[str, Any] = {"size": (1024, 768), "shadow": 0.3, "roll_deg": 5.0}


def write_small_sample(folder: Path, max_bytes: int) -> list[Path]:
    """Render the committed 6×6 sample into ``folder`` (a .jpg of at most ``max_bytes``)."""
    folder.mkdir(parents=True, exist_ok=True)
    seed, size, style = SMALL_SAMPLE
    made = render_small_photo(seed, size, style, **SMALL_SAMPLE_OVERRIDES)
    made = replace(made, photo=fit_quality(made.photo, max_bytes))
    return _write(made, folder / f"six_{style}")
