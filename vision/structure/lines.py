"""Reading the cells of a grid whose diagonals are drawn as lines (one Sudoku X style).

A diagonal line crossing an empty cell looks like a stroke of ink: the classifier may take
it for a written 1 or a digit crossed out. ``DiagonalLinesAside`` scores the grid twice,
as it is and with the diagonal lines painted out (each pixel of the lines' band set to the
lightest paper around it), and keeps the second reading for the diagonal cells it finds
empty; a digit on the diagonal, crossed by the paint, keeps its first reading, and so does a
cell first read as a printed digit.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

import cv2
import numpy as np

from ..read.config import ReadConfig
from ..read.reading import CellScorer
from ..types import CellScores
from .config import DiagonalConfig


def diagonal_cells(size: int = 9) -> tuple[int, ...]:
    """The cells of both main diagonals, row by row."""
    return tuple(sorted({i * size + i for i in range(size)} | {i * size + size - 1 - i
                                                              for i in range(size)}))  # fmt: skip


def without_diagonal_lines(warped: np.ndarray, size: int, config: DiagonalConfig) -> np.ndarray:
    """The straightened grid with both main diagonals' lines painted out in the paper's tone."""
    side = warped.shape[0]
    half = max(1, round(config.erase_width * side / size))
    band = np.zeros_like(warped)
    cv2.line(band, (0, 0), (side - 1, side - 1), 255, 2 * half + 1)
    cv2.line(band, (side - 1, 0), (0, side - 1), 255, 2 * half + 1)
    paper = cv2.dilate(warped, np.ones((2 * half + 3, 2 * half + 3), np.uint8))
    return np.where(band > 0, paper, warped)


@dataclass(frozen=True)
class DiagonalLinesAside:
    """A CellScorer for a grid with diagonal lines: its diagonal cells that hold nothing but
    the line are read empty (``empty_from``: the empty probability, lines painted out, that
    makes them so). A cell read as a printed digit (``printed_from``) keeps its reading: a
    line is a slanted stroke, never an upright printed digit, and painting the line out
    may cut a digit's strokes."""

    scorer: CellScorer
    config: DiagonalConfig
    empty_from: float = 0.5
    printed_from: float = 0.5

    def score(self, warped: np.ndarray, config: ReadConfig) -> CellScores:
        """The scores of every cell, the diagonal cells holding only the line read empty."""
        return self._merged(self.scorer.score(warped, config), warped, 0, config)

    def score_upright(self, warped: np.ndarray, config: ReadConfig) -> tuple[int, CellScores]:
        """The quarter turns that make the grid upright and its scores (lines aside)."""
        turns, scores = self.scorer.score_upright(warped, config)
        return turns, self._merged(scores, warped, turns, config)

    def _merged(
        self, scores: CellScores, warped: np.ndarray, turns: int, config: ReadConfig
    ) -> CellScores:
        """``scores`` with the diagonal cells the painted-out grid reads empty taken from it."""
        size = round(np.sqrt(scores.probs.shape[0]))
        clean = np.ascontiguousarray(
            np.rot90(without_diagonal_lines(warped, size, self.config), turns)
        )
        other = self.scorer.score(clean, config)
        printed = scores.probs[:, 1 : size + 1].max(axis=1)
        take = [
            c
            for c in diagonal_cells(size)
            if other.probs[c, 0] >= self.empty_from and printed[c] < self.printed_from
        ]
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
