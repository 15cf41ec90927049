"""Puzzles that look like a Sudoku but are not one: named for what they look like.

A Samurai (five 9×9 grids overlapping at their corner boxes), a Kakuro (black cells, its
top row and left column all clue cells), a KenKen (cages drawn thick, no boxes, no givens)
and a crossword (black squares among white ones) hold a lattice of cells but no Sudoku
this reader can solve. A 12×12 Sudoku (3 × 4 boxes: lines at every twelfth of its outline
both ways) is read by ``vision/small/sixteen.py``; where that reader found none, such an
outline is named too, never misread as a 9×9 or a 4×4. When a photo
gives no grid, or no grid it could solve, the largest grid-like outline on it (where grids
were found, the largest holding all of them: a crossword beside a Sudoku that failed to
read is never measured) is straightened and measured: its cells a side (the period of its
lines), how many cells are black, whether the notches of a Samurai are blank paper, and
how its thick borders part the cells. Only a sure match is named; anything else keeps the
usual answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import StrEnum

import cv2
import numpy as np

from ..grid.candidates import find_candidates
from .borders import border_ink, piece_roots, regions_from_borders, thick_borders
from .config import DEFAULT_LOOKALIKE_CONFIG, BorderConfig, LookalikeConfig


class Lookalike(StrEnum):
    """What a puzzle that is no Sudoku looks like."""

    SAMURAI = "Samurai Sudoku (five overlapping grids)"
    KAKURO = "Kakuro"
    KENKEN = "KenKen"
    CROSSWORD = "crossword"
    TWELVE = "12×12 Sudoku"

    @property
    def message(self) -> str:
        """The one line a person reads."""
        if self is Lookalike.TWELVE:
            return (
                f"this looks like a {self.value}, but its grid could not be read: take the "
                "photo again straight on, or type it in (sudokucam grid)"
            )
        return f"this looks like a {self.value}: sudokucam reads Sudoku variants only"


def page_lookalike(
    gray: np.ndarray,
    config: LookalikeConfig = DEFAULT_LOOKALIKE_CONFIG,
    grids: Sequence[np.ndarray] = (),
) -> Lookalike | None:
    """What the largest grid-like outline on a gray page looks like, if surely no Sudoku.

    ``grids``: the corners ((4, 2), page pixels) of the grids found on the page and not
    solved. Then only an outline holding every one of them is measured: the grid itself
    (or a Samurai around it), never a crossword beside it.
    """
    shrink = 1000.0 / max(gray.shape)
    small = cv2.resize(gray, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    centres = [np.asarray(g, np.float64).mean(axis=0) * shrink for g in grids]
    quads = [q for q in find_candidates(small, config.search) if _holds(q, centres)]
    if not quads:
        return None
    quad = max(quads, key=lambda q: cv2.contourArea(q.astype(np.float32)))
    s = config.side - 1
    square = np.array([[0, 0], [s, 0], [s, s], [0, s]], np.float32)
    h = cv2.getPerspectiveTransform(quad.astype(np.float32), square)
    return square_lookalike(cv2.warpPerspective(small, h, (config.side, config.side)), config)


def _holds(quad: np.ndarray, points: Sequence[np.ndarray]) -> bool:
    """Whether every point lies inside (or on) the outline ``quad``."""
    outline = quad.astype(np.float32).reshape(-1, 1, 2)
    return all(cv2.pointPolygonTest(outline, (float(x), float(y)), False) >= 0 for x, y in points)


def square_lookalike(square: np.ndarray, config: LookalikeConfig) -> Lookalike | None:
    """What a straightened outline (uint8 gray, square) looks like, if surely no Sudoku."""
    ink = cv2.adaptiveThreshold(
        square, 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 31, 12
    )
    if samurai_notches(ink, config):
        return Lookalike.SAMURAI
    if lines_at(ink, config.twelve, config) and not lines_at(ink, config.sixteen, config):
        return Lookalike.TWELVE
    n = cells_a_side(ink, config)
    if n is None:
        return None
    black = black_cells(square, n, config)
    if black.mean() >= config.min_black:
        edge = np.concatenate([black[0, 1:], black[1:, 0]])
        return Lookalike.KAKURO if edge.mean() >= config.kakuro_edge else Lookalike.CROSSWORD
    if not black.any() and n <= 9 and kenken_cages(square, n, config):
        return Lookalike.KENKEN
    return None


def lines_at(ink: np.ndarray, n: int, config: LookalikeConfig) -> bool:
    """Whether a line crosses the outline at every n-th of it, both ways: each of the
    n - 1 inner lines inked (within ``line_band``) over ``line_cover`` of its length."""
    side = ink.shape[0]
    band = max(2, round(config.line_band * side))
    ends = round(config.line_band * side * 2)
    for image in (ink, ink.T):
        for k in range(1, n):
            x = round(k * side / n)
            strip = image[ends : side - ends, max(0, x - band) : x + band + 1]
            if strip.max(axis=1).mean() < config.line_cover:
                return False
    return True


def cells_a_side(ink: np.ndarray, config: LookalikeConfig) -> int | None:
    """The number of cells a side: the strongest period of the line ink, rows and columns
    agreeing (None when they do not)."""
    found = []
    for axis in (0, 1):
        profile = ink.sum(axis=axis).astype(np.float64)
        power = np.abs(np.fft.rfft(profile - profile.mean()))
        found.append(fundamental(power, config))
    return found[0] if abs(found[0] - found[1]) <= 1 else None


def fundamental(power: np.ndarray, config: LookalikeConfig) -> int:
    """The strongest period's count in ``power`` (a spectrum), taken down to its
    fundamental where a half or a third of it is strong too (thin lines ring in harmonics)."""
    band = power[config.min_cells : config.max_cells + 1]
    best = config.min_cells + int(np.argmax(band))
    for divisor in (3, 2):
        low = best // divisor
        strong = power[low] >= config.harmonic_share * power[best]
        if best % divisor == 0 and low >= config.min_cells and strong:
            return low
    return best


def black_cells(square: np.ndarray, n: int, config: LookalikeConfig) -> np.ndarray:
    """(n, n) bool: the cells darker than ``black_level`` of the paper."""
    side = square.shape[0] // n
    inner = cv2.resize(square, (n * side, n * side)).astype(np.float64)
    cells = inner.reshape(n, side, n, side)[:, side // 4 : -side // 4, :, side // 4 : -side // 4]
    level = np.median(cells, axis=(1, 3))
    paper = float(np.percentile(level, 90))
    return np.asarray(level < config.black_level * paper)


def samurai_notches(ink: np.ndarray, config: LookalikeConfig) -> bool:
    """Whether the outline is a Samurai's: the four notches between its corner grids blank
    paper, its five grids inked."""
    n, side = config.samurai_cells, ink.shape[0] / config.samurai_cells

    def part(r0: float, r1: float, c0: float, c1: float) -> float:
        return float(
            ink[round(r0 * side) : round(r1 * side), round(c0 * side) : round(c1 * side)].mean()
        )

    notches = [part(0.5, 5.5, 9.5, 11.5), part(15.5, 20.5, 9.5, 11.5),
               part(9.5, 11.5, 0.5, 5.5), part(9.5, 11.5, 15.5, 20.5)]  # fmt: skip
    grids = [part(0, 9, 0, 9), part(0, 9, 12, n), part(12, n, 0, 9), part(12, n, 12, n),
             part(6, 15, 6, 15)]  # fmt: skip
    return max(notches) < config.blank_ink and min(grids) > config.min_ink


def kenken_cages(square: np.ndarray, n: int, config: LookalikeConfig) -> bool:
    """Whether thick borders part the n×n cells into many small cages (no boxes): cages of
    different sizes, not the equal boxes of a larger grid whose cells were counted at a
    half of their number (a 16×16 with shaded boxes measured as 8 cells a side), most of
    them more than one cell (``kenken_singles``: not every border of a grid read thick)."""
    side = max(8, square.shape[0] // n)
    grid = cv2.resize(square, (n * side, n * side), interpolation=cv2.INTER_AREA)
    across, down = border_ink(grid, n, BorderConfig())
    thick = thick_borders(across, down, BorderConfig())
    if thick is None:
        return False
    sizes = Counter(piece_roots(*thick, n)).values()
    singles = sum(1 for s in sizes if s == 1)
    return (
        len(sizes) >= config.kenken_cages * n
        and singles <= config.kenken_singles * len(sizes)
        and len(set(sizes)) > 1
        and regions_from_borders(*thick, n) is None
    )
