"""Killer Sudoku pages as newspapers print them: dashed or dotted cages and small sums.

A Killer is cut by ``solver/variant_sample.py`` (``random_killer``): each cage is outlined
by a dashed or dotted line set inside its cells (``KillerStyle.inset`` of a cell from the
grid lines), its sum printed small in the top-left corner of its top-left cell, the line
broken around it. One style fills the cages with light colours (no two touching cages
alike); another (``tinted``, drawn only when asked for by name) fills them so and draws no
outline at all, as some puzzle books and apps print them. A few givens may be printed as
well. The page is then photographed as every other kind (``camera.photograph``,
``sensor.develop``); the truth adds the cages.
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from sudokucam.solver.variant import Cage, Variant, VariantPuzzle
from sudokucam.solver.variant_json import puzzle_to_json

from .camera import photograph
from .files import encode_jpeg, write_photo
from .fonts import font_for_height
from .grid_drawing import draw_digits, draw_grid_lines, grid_lattice, sample_grid_style
from .newspaper_page import PageDraft, draw_surroundings, sample_fonts, sample_frame
from .paper import paper, print_through
from .params import PhotoParams, sample_params
from .pen import write_pen, written_in
from .sensor import develop
from .sheet import INK, Sheet
from .truth import Photo, PhotoTruth, jsonable
from .types import RGB

KILLER_STYLES = ("dashed", "grey", "dotted", "coloured")
TINTED = "tinted"  # cages told by their colour alone: asked for by name, never drawn at random
FILLS: tuple[RGB, ...] = (
    (0.99, 0.93, 0.78),
    (0.84, 0.93, 0.99),
    (0.88, 0.97, 0.86),
    (0.98, 0.87, 0.90),
    (0.92, 0.89, 0.99),
)
SIZES = ((1024, 768), (768, 1024), (1280, 960), (960, 1280))  # a Killer's sums need pixels
SUM_FONTS = ("Nimbus Sans", "Liberation Sans", "DejaVu Sans", "Nimbus Sans Bold", "Nimbus Roman")
Segment = tuple[tuple[float, float], tuple[float, float]]


@dataclass(frozen=True)
class KillerStyle:
    """How a newspaper prints its cages (lengths are fractions of a cell side).

    inset: the cage line's distance inside the grid lines; width: its stroke; dash and
    gap: the pattern (a dot is a dash as long as the stroke is wide); ink: its colour;
    fill: whether cages are tinted; sum_height: the sum's digit height; givens: how many
    digits of the answer are printed; outlined: whether the cage lines are drawn.
    """

    name: str
    inset: float
    width: float
    dash: float
    gap: float
    ink: RGB
    fill: bool
    sum_height: float
    sum_font: str
    givens: int
    outlined: bool = True


def sample_killer_style(rng: np.random.Generator, name: str | None = None) -> KillerStyle:
    """A random but plausible newspaper Killer style: ``name`` (one of ``KILLER_STYLES`` or
    ``TINTED``), or one of ``KILLER_STYLES`` drawn at random."""
    drawn = KILLER_STYLES[int(rng.integers(len(KILLER_STYLES)))]
    if name is not None and name not in (*KILLER_STYLES, TINTED):
        raise ValueError(f"style must be one of {(*KILLER_STYLES, TINTED)}, got {name!r}")
    name = name or drawn
    width = float(rng.uniform(0.018, 0.03))
    dash, gap = float(rng.uniform(0.06, 0.14)), float(rng.uniform(0.04, 0.08))
    if name == "dotted":
        width = float(rng.uniform(0.024, 0.034))
        dash, gap = width, float(rng.uniform(0.035, 0.06))
    grey = float(rng.uniform(0.35, 0.5))
    return KillerStyle(
        name=name,
        inset=float(rng.uniform(0.08, 0.14)),
        width=width,
        dash=dash,
        gap=gap,
        ink=(grey, grey, grey) if name == "grey" else INK,
        fill=name in ("coloured", TINTED),
        sum_height=float(rng.uniform(0.2, 0.27)),
        sum_font=str(rng.choice(SUM_FONTS)),
        givens=int(rng.choice([0, 0, 0, 2, 4, 6])),
        outlined=name != TINTED,
    )


def owners(cages: tuple[Cage, ...]) -> dict[int, int]:
    """Each cell's cage index."""
    return {cell: k for k, cage in enumerate(cages) for cell in cage.cells}


def cage_segments(cage: Cage, owner: dict[int, int], inset: float) -> list[Segment]:
    """The cage's outline set ``inset`` inside its cells, as segments in cell units (x, y)."""
    k, segs = owner[cage.cells[0]], []
    inside = lambda r, c: 0 <= r < 9 and 0 <= c < 9 and owner.get(r * 9 + c) == k  # noqa: E731
    for cell in cage.cells:
        r, c = divmod(cell, 9)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if inside(r + dr, c + dc):
                continue
            segs.append(_side(r, c, (dr, dc), inside, inset))
    return segs


def _side(r: int, c: int, side: tuple[int, int], inside: Any, d: float) -> Segment:
    """One side of cell (r, c) on the cage's edge, inset by d, to where it meets the next."""
    dr, dc = side
    ends = []
    for sign in (-1, 1):
        ar, ac = (0, sign) if dr else (sign, 0)  # the neighbour along the side
        if not inside(r + ar, c + ac):
            reach = 0.5 - d  # a convex corner
        elif inside(r + ar + dr, c + ac + dc):
            reach = 0.5 + d  # a concave corner: on to the turn
        else:
            reach = 0.5  # straight on into the neighbour's side
        ends.append(sign * reach)
    cx, cy = c + 0.5 + dc * (0.5 - d), r + 0.5 + dr * (0.5 - d)
    if dr:
        return (cx + ends[0], cy), (cx + ends[1], cy)
    return (cx, cy + ends[0]), (cx, cy + ends[1])


def dashes(seg: Segment, dash: float, gap: float) -> list[Segment]:
    """The dashes of a segment (cell units), centred so both ends look alike."""
    (x0, y0), (x1, y1) = seg
    length = float(np.hypot(x1 - x0, y1 - y0))
    period = dash + gap
    count = max(1, round((length + gap) / period))
    start = (length - (count * period - gap)) / 2
    ux, uy = (x1 - x0) / max(length, 1e-9), (y1 - y0) / max(length, 1e-9)
    out = []
    for i in range(count):
        a = max(0.0, start + i * period)
        b = min(length, a + dash)
        if b > a:
            out.append(((x0 + ux * a, y0 + uy * a), (x0 + ux * b, y0 + uy * b)))
    return out


def fill_colours(
    cages: tuple[Cage, ...], rng: np.random.Generator, sided: bool = False
) -> list[RGB]:
    """A light colour per cage, no two touching cages alike (greedy, in cage order) where
    the colours go round; where they do not, the first colour, or (``sided``: the cages
    are told by their colour alone) one that no cage sharing a side with it has."""
    owner, picked = owners(cages), [-1] * len(cages)
    for k, cage in enumerate(cages):
        near, beside = (
            {
                picked[owner[n]]
                for cell in cage.cells
                for n in around(cell)
                if owner[n] != k and picked[owner[n]] >= 0
            }
            for around in (_around, _beside)
        )
        free = [i for i in range(len(FILLS)) if i not in near]
        if not free and sided:
            free = [i for i in range(len(FILLS)) if i not in beside]
        free = free or [0]
        picked[k] = free[int(rng.integers(len(free)))]
    return [FILLS[i] for i in picked]


def _beside(cell: int) -> list[int]:
    """The up to four cells sharing a side with a cell."""
    r, c = divmod(cell, 9)
    return [(r + dr) * 9 + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < 9 and 0 <= c + dc < 9]  # fmt: skip


def _around(cell: int) -> list[int]:
    """The up to eight cells touching a cell (corners included)."""
    r, c = divmod(cell, 9)
    return [
        (r + dr) * 9 + c + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < 9 and 0 <= c + dc < 9
    ]


def draw_cages(
    sheet: Sheet,
    rng: np.random.Generator,
    origin: tuple[float, float],
    cell: float,
    cages: tuple[Cage, ...],
    style: KillerStyle,
) -> None:
    """Fills (coloured and tinted styles), dashed outlines (not the tinted style's) and each
    cage's sum in its top-left corner."""
    x0, y0 = origin
    owner = owners(cages)
    if style.fill:
        for cage, colour in zip(cages, fill_colours(cages, rng, not style.outlined), strict=True):
            for c in cage.cells:
                r, col = divmod(c, 9)
                sheet.rect(x0 + col * cell, y0 + r * cell, x0 + (col + 1) * cell,
                           y0 + (r + 1) * cell, colour)  # fmt: skip
    for cage in cages if style.outlined else ():
        for seg in cage_segments(cage, owner, style.inset):
            for (ax, ay), (bx, by) in dashes(seg, style.dash, style.gap):
                sheet.line((x0 + ax * cell, y0 + ay * cell), (x0 + bx * cell, y0 + by * cell),
                           style.width * cell, style.ink)  # fmt: skip
    for cage in cages:
        draw_sum(sheet, (x0, y0), cell, cage, style)


def draw_sum(
    sheet: Sheet, origin: tuple[float, float], cell: float, cage: Cage, style: KillerStyle
) -> None:
    """The cage's sum in its top-left cell's corner, the cage line cleared around it."""
    r, c = divmod(min(cage.cells), 9)
    font = font_for_height(style.sum_font, style.sum_height * cell)
    text = str(cage.total)
    left, top, right, bottom = font.getbbox(text)
    x = origin[0] + (c + style.inset * 0.6) * cell
    y = origin[1] + (r + style.inset * 0.6) * cell
    pad = 0.05 * cell
    box = sheet.ink[
        round(y - pad) : round(y + bottom - top + pad) + 1,
        round(x - pad) : round(x + right - left + pad) + 1,
    ]
    box[:] = np.max(box, axis=(0, 1), keepdims=True) if style.fill else 1.0  # the fill stays
    sheet.text(x - left, y - top, text, font, INK)


@dataclass(frozen=True)
class KillerTruth(PhotoTruth):
    """A rendered Killer photo's truth: the photo's, with the cages and the style."""

    cages: tuple[Cage, ...] = ()
    style: str = ""

    def to_json(self) -> dict[str, Any]:
        """The photo's truth with ``variant``, ``cages`` (the JSON contract's form), style,
        and the puzzle in the ``grid FILE.json`` form under ``puzzle`` (as every variant's)."""
        cages = [
            {"sum": g.total, "cells": [f"r{c // 9 + 1}c{c % 9 + 1}" for c in g.cells]}
            for g in self.cages
        ]
        givens = tuple(int(v) for v in self.givens.ravel())
        puzzle = VariantPuzzle(9, givens, Variant.KILLER, cages=self.cages)
        return super().to_json() | {
            "variant": "killer", "cages": cages, "killer_style": self.style,
            "puzzle": puzzle_to_json(puzzle),
        }  # fmt: skip


def killer_puzzle(
    seed: int, style: KillerStyle, rng: np.random.Generator
) -> tuple[VariantPuzzle, np.ndarray, np.ndarray]:
    """A unique Killer (seeded), its printed givens (9, 9) and solution (9, 9)."""
    from sudokucam.solver.variant_sample import random_killer

    puzzle, solution = random_killer(random.Random(seed))
    sol = np.array(solution, dtype=np.int64).reshape(9, 9)
    givens = np.zeros((9, 9), dtype=np.int64)
    for cell in rng.choice(81, size=style.givens, replace=False):
        givens.flat[int(cell)] = sol.flat[int(cell)]
    return puzzle, givens, sol


def compose_killer_page(
    rng: np.random.Generator, puzzle: VariantPuzzle, givens: np.ndarray, p: PhotoParams,
    style: KillerStyle, pen: np.ndarray | None = None,
) -> PageDraft:  # fmt: skip
    """Print the page: the Killer grid with its cages in the middle, columns around it,
    and the ``pen`` entries (9 × 9, 0 where none) written in."""
    cell = p.grid_fraction * min(p.size) / 9 * p.supersample
    frame = sample_frame(rng, cell)
    fonts = sample_fonts(rng, p.print_font) | {"sum": style.sum_font}
    sheet = Sheet(frame.width, frame.height)
    grid = replace(sample_grid_style(rng, fonts["print"]), shade="none", digit_height=0.44)
    draw_cages(sheet, rng, (frame.left, frame.top), cell, puzzle.cages, style)
    draw_grid_lines(sheet, frame.left, frame.top, cell, grid)
    lattice = grid_lattice(frame.left, frame.top, cell)
    draw_digits(sheet, lattice, givens, grid.font, grid.digit_height * cell, grid.digit_ink)
    draw_surroundings(sheet, rng, frame, cell, fonts)
    if pen is not None:
        fonts |= write_pen(sheet, rng, lattice, pen, p.pen_font)
    sheet.ink *= print_through(sheet.ink, float(rng.uniform(0.01, 0.025)))
    rgb = paper(rng, frame.width, frame.height, p.paper_tone) * sheet.ink
    return PageDraft(rgb=rgb, lattice=lattice, fonts=fonts)


def render_killer(seed: int, style_name: str | None = None, **overrides: Any) -> Photo:
    """Render one photo of a printed Killer (``style_name`` one of KILLER_STYLES or TINTED,
    else one of KILLER_STYLES drawn;
    ``overrides`` set PhotoParams fields, ``pen_fill`` and ``pen_mistakes`` a page filled
    in by pen)."""
    rng = np.random.default_rng(seed)
    params = replace(sample_params("printed", rng), kind="killer", pen_fill=0.0)
    size = SIZES[int(rng.integers(len(SIZES)))]
    params = replace(params, **({"size": size} | overrides))
    style = sample_killer_style(rng, style_name)
    puzzle, givens, solution = killer_puzzle(seed, style, rng)
    pen, mistakes = written_in(rng, givens, solution, params.pen_fill, params.pen_mistakes)
    page = compose_killer_page(rng, puzzle, givens, params, style, pen)
    rgb, lattice = photograph(rng, page, params)
    image = develop(rng, rgb, params)
    truth = KillerTruth(
        seed=seed, kind="killer", size=params.size, givens=givens, solution=solution,
        pen=pen, mistakes=tuple(mistakes), lattice=lattice, fonts=page.fonts,
        effects=jsonable(asdict(params) | {"killer": asdict(style)}),
        cages=puzzle.cages, style=style.name,
    )  # fmt: skip
    return Photo(image=image, truth=truth, jpeg_quality=params.jpeg_quality)


def render_killer_batch(
    out: Path, seed: int, count: int, styles: tuple[str, ...] = KILLER_STYLES
) -> list[Path]:
    """Render `count` Killer photos named killer/killer_NNNN, ``styles`` in turn."""
    written: list[Path] = []
    for i in range(count):
        style = styles[i % len(styles)]
        photo = render_killer(seed * 100_000 + i, style)
        written += write_photo(photo, out / "killer", f"killer_{i:04d}")
    return written


KILLER_SAMPLES = {"dashed": 300_000, TINTED: 300_004}  # read exactly by test_killer_sample.py


def write_killer_sample(folder: Path) -> list[Path]:
    """The committed Killer samples: ``dashed.jpg`` and ``tinted.jpg`` (cages told by
    colour alone), each with its truth ``.json`` (no ``.dat``: that format holds givens
    only, and a Killer's puzzle is its cages)."""
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for style, seed in KILLER_SAMPLES.items():
        photo = render_killer(seed, style)
        jpg, truth = folder / f"{style}.jpg", folder / f"{style}.json"
        jpg.write_bytes(encode_jpeg(photo.image, photo.jpeg_quality))
        text = json.dumps(photo.truth.to_json(), indent=1, ensure_ascii=False) + "\n"
        truth.write_text(text, encoding="utf-8")
        written += [jpg, truth]
    return written
