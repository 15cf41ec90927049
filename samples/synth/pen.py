"""Pen fill-ins: which empty cells get a digit (some wrong on purpose) and the handwriting."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .fonts import PEN_FONTS, PEN_STROKE, font_for_height, resolve_font
from .hand import hand_rng, write_glyph
from .sheet import Sheet
from .types import RGB

PEN_INKS: tuple[RGB, ...] = ((0.14, 0.22, 0.62), (0.08, 0.12, 0.42), (0.12, 0.12, 0.15))


@dataclass(frozen=True)
class PenStyle:
    """How one person writes digits into the cells (sizes are fractions of a cell)."""

    font: str
    ink: RGB
    height: float
    jitter: float
    tilt_deg: float


def sample_pen_style(rng: np.random.Generator, font: str) -> PenStyle:
    """A random writer with a preferred handwriting face (or an installed stand-in)."""
    return PenStyle(
        font=resolve_font(font, PEN_FONTS),
        ink=PEN_INKS[int(rng.integers(len(PEN_INKS)))],
        height=float(rng.uniform(0.5, 0.7)),
        jitter=float(rng.uniform(0.04, 0.12)),
        tilt_deg=float(rng.uniform(3.0, 12.0)),
    )


def draw_pen(
    sheet: Sheet,
    rng: np.random.Generator,
    lattice: np.ndarray,
    pen: np.ndarray,
    style: PenStyle,
    symbols: str = "",
) -> None:
    """Handwritten digits: each one a little off-centre, tilted, sized and inked differently,
    and its shape varied as a hand varies it (``hand.write_glyph``). ``symbols``: how the
    page prints the values (value v written as ``symbols[v - 1]``; "" the numbers)."""
    cell = float(np.linalg.norm(lattice[0, 1] - lattice[0, 0]))
    hand = hand_rng(rng)
    stroke = round(PEN_STROKE.get(style.font.split(" ")[0], 0.004) * cell)
    for r, c in np.argwhere(pen > 0):
        cx, cy = lattice[r : r + 2, c : c + 2].reshape(4, 2).mean(axis=0)
        dx, dy = rng.uniform(-1, 1, 2) * style.jitter * cell
        height = style.height * cell * float(rng.uniform(0.85, 1.12))
        angle = float(rng.uniform(-style.tilt_deg, style.tilt_deg))
        font = font_for_height(style.font, height)
        value = int(pen[r, c])
        text = symbols[value - 1] if symbols else str(value)
        write_glyph(sheet, hand, (cx + dx, cy + dy), text, font, style.ink,
                    angle, stroke, float(rng.uniform(0.82, 1.0)))  # fmt: skip


def choose_pen_entries(
    rng: np.random.Generator, givens: np.ndarray, solution: np.ndarray, fill: float, mistakes: int
) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Pen digits in a fraction of the empty cells, `mistakes` of them wrong on purpose (a
    grid of any size: the givens' n × n, digits 1 to n)."""
    empty = np.argwhere(givens == 0)
    n_fill = round(fill * len(empty))
    chosen = empty[rng.permutation(len(empty))[:n_fill]]
    pen = np.zeros(givens.shape, np.int64)
    for r, c in chosen:
        pen[r, c] = solution[r, c]
    wrong: list[tuple[int, int]] = []
    for r, c in chosen[rng.permutation(len(chosen))[: min(mistakes, len(chosen))]]:
        choices = [d for d in range(1, len(givens) + 1) if d != solution[r, c]]
        pen[r, c] = choices[int(rng.integers(len(choices)))]
        wrong.append((int(r), int(c)))
    return pen, sorted(wrong)


def written_in(
    rng: np.random.Generator, givens: np.ndarray, solution: np.ndarray, fill: float, mistakes: int
) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """The pen entries (0 where none) and the wrong ones, as choose_pen_entries makes them;
    no draw from rng when ``fill`` is 0, so pages without pen stay as they were."""
    if fill <= 0:
        return np.zeros_like(givens), []
    return choose_pen_entries(rng, givens, solution, fill, mistakes)


def write_pen(sheet: Sheet, rng: np.random.Generator, lattice: np.ndarray, pen: np.ndarray,
              font: str) -> dict[str, str]:  # fmt: skip
    """Write the pen entries in (none: no draw from rng); the pen's font by name."""
    if not pen.any():
        return {}
    style = sample_pen_style(rng, font)
    draw_pen(sheet, rng, lattice, pen, style)
    return {"pen": style.font}
