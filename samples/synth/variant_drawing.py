"""Printed Sudoku variants: Sudoku X and jigsaw pages, photographed like the classic ones.

A variant page is a classic page (``newspaper_page``) whose grid is drawn with the
variant's marks, in one of two styles each:

- Sudoku X: ``lines`` (both diagonals drawn as thin grey lines through the grid) or
  ``shaded`` (the diagonals' cells tinted grey);
- jigsaw: ``thick`` (region borders drawn thick, cell borders thin) or ``tinted`` (the
  same borders, every other region tinted as well).

The puzzle comes from ``solver/variant_sample.py`` (seeded, proved unique); the photo
goes through the same camera, light and sensor damage as every rendered photo, and its
truth records the puzzle's variant, regions and diagonals beside the usual fields.
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ...solver.variant import Variant, VariantPuzzle
from ...solver.variant_json import puzzle_to_json
from ...solver.variant_sample import VariantConfig, random_jigsaw, random_variant
from .camera import photograph
from .committed import fit_quality
from .files import encode_jpeg
from .grid_drawing import GridStyle, draw_digits, grid_lattice, sample_grid_style
from .newspaper_page import PageDraft, draw_surroundings, sample_fonts, sample_frame
from .paper import paper, print_through
from .params import PhotoParams, sample_params
from .pen import write_pen, written_in
from .sensor import develop
from .sheet import Sheet
from .truth import Photo, PhotoTruth, jsonable
from .types import RGB

VARIANT_STYLES: dict[str, tuple[str, ...]] = {
    "x": ("lines", "shaded"),
    "jigsaw": ("thick", "tinted"),
}
SHADE: RGB = (0.8, 0.8, 0.8)
# a jigsaw layout not completed within a second is cut again; rendering allows many layouts
MAKING = VariantConfig(time_limit_s=120.0, layouts=100, layout_seconds=1.0)


@dataclass(frozen=True)
class VariantPhoto:
    """A rendered variant photo, its truth, the puzzle it shows and the style drawn."""

    photo: Photo
    puzzle: VariantPuzzle
    style: str

    def truth_json(self) -> dict[str, Any]:
        """The photo's truth with the puzzle's variant keys ("variant", "regions", ...)."""
        return self.photo.truth.to_json() | {
            "style": self.style,
            "puzzle": puzzle_to_json(self.puzzle),
        }


def variant_puzzle(seed: int, variant: str) -> tuple[VariantPuzzle, tuple[int, ...]]:
    """A seeded unique Sudoku X or jigsaw and its solution (GenerationTimeoutError when
    none is made within ``MAKING``'s limits)."""
    rng = random.Random(seed)
    clues = rng.randint(24, 30)
    if variant == "jigsaw":
        return random_jigsaw(rng, 9, clues, MAKING)
    if variant != "x":
        raise ValueError(f"variant must be one of {', '.join(VARIANT_STYLES)}; got {variant!r}")
    made = random_variant(rng, 9, Variant.X, diagonals=True, min_clues=clues, config=MAKING)
    if made is None:  # an empty X grid has solutions: never
        raise ValueError("the Sudoku X rules left no solution")
    return made


def render_variant_photo(
    seed: int, variant: str, style: str | None = None, **overrides: Any
) -> VariantPhoto:
    """A photo of a printed Sudoku X or jigsaw (``style``: one of VARIANT_STYLES[variant],
    default picked by the seed); ``overrides`` set PhotoParams fields by name
    (``pen_fill``, ``pen_mistakes``: a page half filled in by pen, none by default)."""
    puzzle, solution = variant_puzzle(seed, variant)
    rng = np.random.default_rng(seed)
    style = style or str(rng.choice(VARIANT_STYLES[variant]))
    if style not in VARIANT_STYLES[variant]:
        raise ValueError(
            f"a {variant} style is one of {', '.join(VARIANT_STYLES[variant])}; got {style!r}"
        )
    params = replace(sample_params("printed", rng), **overrides)
    givens = np.asarray(puzzle.givens, np.int64).reshape(9, 9)
    answer = np.asarray(solution, np.int64).reshape(9, 9)
    pen, mistakes = written_in(rng, givens, answer, params.pen_fill, params.pen_mistakes)
    page = compose_variant_page(rng, puzzle, style, params, pen)
    rgb, lattice = photograph(rng, page, params)
    image = develop(rng, rgb, params)
    truth = PhotoTruth(
        seed=seed, kind=variant, size=params.size, givens=givens, solution=answer, pen=pen,
        mistakes=tuple(mistakes), lattice=lattice, fonts=page.fonts,
        effects=jsonable(asdict(params)),
    )  # fmt: skip
    return VariantPhoto(Photo(image, truth, params.jpeg_quality), puzzle, style)


def compose_variant_page(
    rng: np.random.Generator,
    puzzle: VariantPuzzle,
    style: str,
    p: PhotoParams,
    pen: np.ndarray | None = None,
) -> PageDraft:
    """The flat page: the variant grid with heading, columns and more around it, and the
    ``pen`` entries (9 × 9, 0 where none) written in."""
    cell = p.grid_fraction * min(p.size) / 9 * p.supersample
    frame = sample_frame(rng, cell)
    fonts = sample_fonts(rng, p.print_font)
    sheet = Sheet(frame.width, frame.height)
    grid_style = replace(sample_grid_style(rng, fonts["print"]), shade="none")
    lattice = draw_variant_grid(
        sheet, rng, (frame.left, frame.top), cell, puzzle, style, grid_style
    )
    draw_surroundings(sheet, rng, frame, cell, fonts)
    if pen is not None:
        fonts |= write_pen(sheet, rng, lattice, pen, p.pen_font)
    sheet.ink *= print_through(sheet.ink, float(rng.uniform(0.01, 0.025)))
    rgb = paper(rng, frame.width, frame.height, p.paper_tone) * sheet.ink
    return PageDraft(rgb=rgb, lattice=lattice, fonts=fonts)


def draw_variant_grid(
    sheet: Sheet,
    rng: np.random.Generator,
    origin: tuple[float, float],
    cell: float,
    puzzle: VariantPuzzle,
    style: str,
    grid_style: GridStyle,
) -> np.ndarray:
    """The grid with its variant's marks and givens; returns its (10, 10, 2) lattice."""
    x0, y0 = origin
    labels = puzzle.regions or tuple((r // 3) * 3 + c // 3 for r in range(9) for c in range(9))
    if style == "shaded":
        for i in range(9):
            for c in {i, 8 - i}:
                sheet.rect(
                    x0 + c * cell, y0 + i * cell, x0 + (c + 1) * cell, y0 + (i + 1) * cell, SHADE
                )
    if style == "tinted":
        for cell_index, region in enumerate(labels):
            if region % 2:
                r, c = divmod(cell_index, 9)
                sheet.rect(
                    x0 + c * cell, y0 + r * cell, x0 + (c + 1) * cell, y0 + (r + 1) * cell, SHADE
                )
    if style == "lines":
        _draw_diagonal_lines(sheet, rng, origin, cell)
    _draw_borders(sheet, origin, cell, labels, grid_style)
    lattice = grid_lattice(x0, y0, cell)
    grid = np.asarray(puzzle.givens, np.int64).reshape(9, 9)
    draw_digits(
        sheet, lattice, grid, grid_style.font, grid_style.digit_height * cell, grid_style.digit_ink
    )
    return lattice


def _draw_diagonal_lines(
    sheet: Sheet, rng: np.random.Generator, origin: tuple[float, float], cell: float
) -> None:
    """Both main diagonals as thin grey lines corner to corner."""
    x0, y0 = origin
    width = cell * float(rng.uniform(0.02, 0.04))
    grey = float(rng.uniform(0.35, 0.6))
    colour: RGB = (grey, grey, grey)
    sheet.line((x0, y0), (x0 + 9 * cell, y0 + 9 * cell), width, colour)
    sheet.line((x0 + 9 * cell, y0), (x0, y0 + 9 * cell), width, colour)


def _draw_borders(
    sheet: Sheet,
    origin: tuple[float, float],
    cell: float,
    labels: tuple[int, ...],
    style: GridStyle,
) -> None:
    """Every cell border, thick where it parts two regions, and the outer frame."""
    x0, y0 = origin
    ink = style.line_ink
    for r in range(9):
        for c in range(9):
            x, y = x0 + c * cell, y0 + r * cell
            if c < 8:
                w = (
                    (style.thick if labels[r * 9 + c] != labels[r * 9 + c + 1] else style.thin)
                    * cell
                    / 2
                )
                sheet.rect(x + cell - w, y - w, x + cell + w, y + cell + w, ink)
            if r < 8:
                w = (
                    (style.thick if labels[r * 9 + c] != labels[r * 9 + c + 9] else style.thin)
                    * cell
                    / 2
                )
                sheet.rect(x - w, y + cell - w, x + cell + w, y + cell + w, ink)
    half, side = style.outer * cell / 2, 9 * cell
    for a in (0.0, side):
        sheet.rect(x0 + a - half, y0 - half, x0 + a + half, y0 + side + half, ink)
        sheet.rect(x0 - half, y0 + a - half, x0 + side + half, y0 + a + half, ink)


# The committed variant samples: (variant, style, seed) -> samples/variants/<variant>_<style>
VARIANT_SAMPLES: tuple[tuple[str, str, int], ...] = (("x", "shaded", 11), ("jigsaw", "thick", 12))
SAMPLE_OVERRIDES: dict[str, Any] = {"size": (1024, 768), "shadow": 0.3, "roll_deg": 6.0}


def write_variant_samples(folder: Path, max_bytes: int) -> list[Path]:
    """Render the committed variant samples into ``folder``: a .jpg (at most ``max_bytes``)
    and a .json truth (the puzzle, its variant, regions and diagonals) each."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for variant, style, seed in VARIANT_SAMPLES:
        made = render_variant_photo(seed, variant, style, **SAMPLE_OVERRIDES)
        made = replace(made, photo=fit_quality(made.photo, max_bytes))
        name = folder / f"{variant}_{style}"
        jpg, meta = name.with_suffix(".jpg"), name.with_suffix(".json")
        jpg.write_bytes(encode_jpeg(made.photo.image, made.photo.jpeg_quality))
        meta.write_text(json.dumps(made.truth_json(), indent=1) + "\n", encoding="utf-8")
        written += [jpg, meta]
    return written
