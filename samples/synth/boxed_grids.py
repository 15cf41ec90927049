"""What the small (4×4, 6×6, 8×8) and 16×16 renderers share: n × n grids of boxes.

Both draw a grid of ``BOX_SHAPES[n]`` boxes (rows × columns) where a newspaper's 9×9
would stand, photograph the page and keep a ``SmallPhoto``'s truth: the lines thin
between cells and thick between boxes (``draw_box_lines``), every other box tinted
(``tint_boxes``), the solver's first grid shuffled box-wise (``shuffled_lines``), the
photo taken (``photographed``) and written with its truth (``write_photo``).
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...solver.geometry import BOX_SHAPES
from ...solver.variant import VariantPuzzle
from ...solver.variant_json import puzzle_to_json
from .camera import photograph
from .files import encode_jpeg
from .grid_drawing import GridStyle
from .newspaper_page import PageDraft
from .params import PhotoParams
from .sensor import develop
from .sheet import Sheet
from .truth import Photo, PhotoTruth, jsonable
from .types import RGB

GREY_TINT: RGB = (0.85, 0.85, 0.85)
KIDS_TINTS: tuple[RGB, ...] = ((0.99, 0.92, 0.75), (0.82, 0.92, 0.99), (0.88, 0.97, 0.84))


@dataclass(frozen=True)
class SmallPhoto:
    """A rendered photo of an n × n Sudoku, its truth, the puzzle it shows and the style."""

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


def shuffled_lines(rng: random.Random, size: int) -> tuple[list[int], list[int]]:
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


def tint_boxes(
    sheet: Sheet, rng: np.random.Generator, origin: tuple[float, float], cell: float, n: int,
    style: str,
) -> None:  # fmt: skip
    """Every other box tinted: grey (``shaded``) or in a light colour (``kids``, the
    colour drawn from ``rng``); any other style leaves the boxes white."""
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


def draw_box_lines(
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


def write_photo(made: SmallPhoto, name: Path) -> list[Path]:
    """``name``.jpg and its truth ``name``.json."""
    jpg, meta = name.with_suffix(".jpg"), name.with_suffix(".json")
    jpg.write_bytes(encode_jpeg(made.photo.image, made.photo.jpeg_quality))
    meta.write_text(json.dumps(made.truth_json(), indent=1) + "\n", encoding="utf-8")
    return [jpg, meta]
