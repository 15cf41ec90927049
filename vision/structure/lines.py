"""Reading the cells of a grid whose diagonals are drawn as lines (one Sudoku X style).

A diagonal line crossing a cell looks like a stroke of ink: the classifier may take an
empty cell for a written 1, and a printed digit crossed by the line for a digit crossed
out (empty). ``DiagonalLinesAside`` scores the grid twice, as it is and with the diagonal
lines taken out, and keeps the second reading for the diagonal cells not surely read as a
printed digit the first time.

The lines are taken out where they lie, not where they should: in each diagonal cell the
line is found near the cell's corners (where digits seldom reach) within a few pixels of
the ideal diagonal, and a straight line fitted through those places. Along that thin
band, every pixel lighter than halfway between the line's tone and the ink's is set to
the paper around it; a digit's strokes, darker than a grey line, are kept where the line
crosses them (a line as dark as the ink is taken out whole).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

import cv2
import numpy as np

from ..read.config import ReadConfig
from ..read.reading import CellScorer
from ..types import CellScores
from .config import DiagonalConfig
from .diagonals import corner_points, path_darkness

SUBPIXEL = 16  # cv2.line's fixed-point scale (4 fractional bits)


def diagonal_cells(size: int = 9) -> tuple[int, ...]:
    """The cells of both main diagonals, row by row."""
    return tuple(sorted({i * size + i for i in range(size)} | {i * size + size - 1 - i
                                                              for i in range(size)}))  # fmt: skip


@dataclass(frozen=True)
class DrawnLine:
    """A diagonal line as found: its shift off the ideal diagonal (pixels along the normal,
    over √2) at the grid's first and last corner, how dark its middle is (0-255), and its
    width (pixels across, where at least half as dark as its middle)."""

    start: float
    end: float
    darkness: float
    width: float


def find_line(dark: np.ndarray, size: int, anti: bool, config: DiagonalConfig) -> DrawnLine:
    """Where one diagonal line lies: the darkest shift in each cell, and the straight line
    most of them lie within ``fit_tolerance`` of a cell of (``straight_fit``); its width
    is the median cell's run of shifts half as dark as its peak (a shift moves √2 times
    as far across the line)."""
    cell = dark.shape[0] / size
    along = corner_points(dark.shape[0], size, config)
    reach = config.line_search * cell
    shifts = np.linspace(-reach, reach, config.line_shifts)
    profile = path_darkness(dark, along, anti, shifts[:, None, None])  # (shifts, size)
    by_cell = profile.T.tolist()
    peaks = [_peak(d) for d in by_cell]
    slope, at0 = straight_fit(shifts[peaks], config.fit_tolerance * cell)
    darkness = float(np.median([d[k] for d, k in zip(by_cell, peaks, strict=True)]))
    widths = [_run(d, k) for d, k in zip(by_cell, peaks, strict=True)]
    width = float(np.median(widths)) * float(shifts[1] - shifts[0]) * float(np.sqrt(2.0))
    return DrawnLine(at0, slope * size + at0, darkness, width)


def _peak(darkness: list[float]) -> int:
    """The darkest shift of one cell that is darker than both its neighbours (the ends of
    the search, where a grid line comes near the corner points, are never one)."""
    d = darkness
    inner = [k for k in range(1, len(d) - 1) if d[k] >= d[k - 1] and d[k] >= d[k + 1]]
    return max(inner, key=d.__getitem__) if inner else len(d) // 2


def _run(darkness: list[float], peak: int) -> int:
    """How many shifts in a row around ``peak`` are at least half as dark above the
    cell's lightest as the peak is."""
    d = darkness
    half = min(d) + (d[peak] - min(d)) / 2.0
    lo, hi = peak, peak
    while lo > 0 and d[lo - 1] >= half:
        lo -= 1
    while hi < len(d) - 1 and d[hi + 1] >= half:
        hi += 1
    return hi - lo + 1


def straight_fit(shifts: np.ndarray, tolerance: float) -> tuple[float, float]:
    """(slope, shift at 0) of the straight line through the most cells' shifts (cell i at
    i + 0.5), within ``tolerance`` of it: each pair of cells proposes a line, the one
    most cells agree with is fitted again through them (a grid line or a digit that
    drew a cell's darkest shift aside is left out)."""
    n = len(shifts)
    middle = np.arange(n) + 0.5
    first, second = np.triu_indices(n, 1)
    slopes = (shifts[second] - shifts[first]) / (second - first)
    lines = shifts[first, None] + slopes[:, None] * (middle[None, :] - middle[first, None])
    near = np.abs(shifts[None, :] - lines) <= tolerance  # (pairs, cells)
    best = near[int(np.argmax(near.sum(axis=1)))]
    slope, at0 = np.polyfit(middle[best], shifts[best], 1)
    return float(slope), float(at0)


def tone_percentile(gray: np.ndarray, q: float) -> float:
    """The ``q``-th percentile of a uint8 image's tones (from its histogram: fast)."""
    counts = np.cumsum(np.bincount(gray.ravel(), minlength=256))
    return float(np.searchsorted(counts, q / 100.0 * counts[-1]))


def line_mask(shape: tuple[int, ...], line: DrawnLine, anti: bool, width: int) -> np.ndarray:
    """uint8 mask (255 on) of a found diagonal line, ``width`` pixels thick."""
    side = shape[0]
    if anti:
        ends = ((side + line.start, line.start), (line.end, side + line.end))
    else:
        ends = ((-line.start, line.start), (side - line.end, side + line.end))
    p0, p1 = (tuple(round(v * SUBPIXEL) for v in end) for end in ends)
    mask = np.zeros(shape[:2], np.uint8)
    cv2.line(mask, p0, p1, 255, width, cv2.LINE_8, 4)
    return mask


def without_diagonal_lines(warped: np.ndarray, size: int, config: DiagonalConfig) -> np.ndarray:
    """The straightened grid with both main diagonals' lines taken out (see the module)."""
    dark = 255.0 - warped.astype(np.float32)
    least = config.erase_width * warped.shape[0] / size
    lines = [(find_line(dark, size, anti, config), anti) for anti in (False, True)]
    band = np.zeros(warped.shape[:2], np.uint8)
    for line, anti in lines:
        band |= line_mask(warped.shape, line, anti, max(1, round(max(least, line.width + 1))))
    width = max(1, round(least))
    line_tone = 255.0 - min(line.darkness for line, _ in lines)
    ink_tone = tone_percentile(warped, config.ink_percentile)
    lighter = warped > (line_tone + ink_tone) / 2.0
    paper = cv2.dilate(warped, np.ones((2 * width + 1, 2 * width + 1), np.uint8))
    return np.where((band > 0) & lighter, paper, warped)


@dataclass(frozen=True)
class DiagonalLinesAside:
    """A CellScorer for a grid with diagonal lines: its diagonal cells are read with the
    lines taken out (an empty cell holding only the line reads empty, a printed digit
    crossed by it reads as that digit), except a cell the grid as it is reads surely as a
    printed digit (``printed_from``): a line is a slanted stroke, never an upright printed
    digit, and that reading stands."""

    scorer: CellScorer
    config: DiagonalConfig
    printed_from: float = 0.5

    def score(self, warped: np.ndarray, config: ReadConfig) -> CellScores:
        """The scores of every cell, the diagonal cells holding only the line read empty."""
        return self._merged(self.scorer.score(warped, config), warped, 0, config)

    def score_upright(
        self, warped: np.ndarray, config: ReadConfig, upright: CellScores | None = None
    ) -> tuple[int, CellScores]:
        """The quarter turns that make the grid upright and its scores (lines aside).
        ``upright`` is not passed on: its diagonal cells were read with the lines aside."""
        turns, scores = self.scorer.score_upright(warped, config)
        return turns, self._merged(scores, warped, turns, config)

    def _merged(
        self, scores: CellScores, warped: np.ndarray, turns: int, config: ReadConfig
    ) -> CellScores:
        """``scores`` with the diagonal cells not surely printed taken from the grid read
        again with its lines taken out."""
        size = round(np.sqrt(scores.probs.shape[0]))
        clean = np.ascontiguousarray(
            np.rot90(without_diagonal_lines(warped, size, self.config), turns)
        )
        other = self.scorer.score(clean, config)
        printed = scores.probs[:, 1 : size + 1].max(axis=1)
        take = [c for c in diagonal_cells(size) if printed[c] < self.printed_from]
        return merge_cells(scores, other, take) if take else scores


def merge_cells(scores: CellScores, other: CellScores, cells: list[int]) -> CellScores:
    """``scores`` with every per-cell field of ``cells`` taken from ``other``."""
    changes: dict[str, object] = {}
    for f in fields(CellScores):
        mine, theirs = getattr(scores, f.name), getattr(other, f.name)
        if mine is None or theirs is None:
            continue
        if isinstance(mine, np.ndarray):
            merged = mine.copy()
            merged[cells] = theirs[cells]
            changes[f.name] = merged
        else:
            changes[f.name] = tuple(theirs[c] if c in cells else v for c, v in enumerate(mine))
    return replace(scores, **changes)  # type: ignore[arg-type]
