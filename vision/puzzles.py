"""Which grids of a photo are puzzles, and in what order: one policy for every front-end.

A photo (a newspaper page, a puzzle book) can show several grids. The command line, the
app and the batch all say them the same way: top to bottom in rows, each row left to
right (``reading_order``), at most ``max_grids`` of them, and a grid printed (nearly) full
is yesterday's answer, a *solution grid*, not a puzzle: it is named apart and never
counted or numbered as a puzzle (``sort_grids``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .results import GridResult

CELLS = 81


@dataclass(frozen=True)
class PuzzlePolicyConfig:
    """How a photo's grids are told apart and ordered.

    solution_min_printed: a grid with at least this many printed digits is a printed
        answer (a puzzle never prints so many; a few of an answer's 81 may be missed).
    row_overlap: a grid whose centre lies less than this share of a grid's height below
        the top one left belongs to that one's row.
    """

    solution_min_printed: int = 72
    row_overlap: float = 0.5

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if not 17 <= self.solution_min_printed <= CELLS:
            raise ValueError(f"solution_min_printed must be 17-81, got {self.solution_min_printed}")
        if not 0 < self.row_overlap <= 1:
            raise ValueError(f"row_overlap must be in (0, 1], got {self.row_overlap}")


DEFAULT_PUZZLE_POLICY = PuzzlePolicyConfig()


@dataclass(frozen=True)
class SortedGrids:
    """A photo's grids as the policy says them.

    puzzles: the grids to solve, in reading order (numbered 1, 2, ... by every front-end).
    solutions: grids printed full (answers), in reading order; not puzzles.
    """

    puzzles: tuple[GridResult, ...]
    solutions: tuple[GridResult, ...] = ()


def reading_order(quads: Sequence[np.ndarray], row_overlap: float = 0.5) -> list[int]:
    """Indices of ``quads`` ((4, 2) corner arrays) top to bottom in rows, each row left to right."""
    centres = [np.asarray(q, np.float64).reshape(-1, 2) for q in quads]
    left = sorted(range(len(quads)), key=lambda i: float(centres[i][:, 1].mean()))
    ordered: list[int] = []
    while left:
        top = centres[left[0]]
        reach = float(np.ptp(top[:, 1])) * row_overlap
        row = [i for i in left if centres[i][:, 1].mean() - top[:, 1].mean() < reach]
        ordered += sorted(row, key=lambda i: float(centres[i][:, 0].mean()))
        left = [i for i in left if i not in row]
    return ordered


def is_solution_grid(grid: GridResult, config: PuzzlePolicyConfig = DEFAULT_PUZZLE_POLICY) -> bool:
    """True for a grid printed (nearly) full: an answer, nothing to solve."""
    return sum(1 for d in grid.givens if d != "0") >= config.solution_min_printed


def sort_grids(
    grids: Sequence[GridResult],
    max_grids: int,
    config: PuzzlePolicyConfig = DEFAULT_PUZZLE_POLICY,
) -> SortedGrids:
    """The puzzles of a photo in reading order, at most ``max_grids``, and its solution grids.

    A photo of solution grids only (a finished puzzle photographed) keeps them as its
    puzzles: they are what the person photographed.
    """
    if max_grids < 1:
        raise ValueError(f"max_grids must be at least 1, got {max_grids}")
    order = reading_order([g.detection.corners for g in grids], config.row_overlap)
    ordered = [grids[i] for i in order]
    puzzles = [g for g in ordered if not is_solution_grid(g, config)]
    solutions = [g for g in ordered if is_solution_grid(g, config)]
    if not puzzles:
        return SortedGrids(tuple(solutions[:max_grids]))
    return SortedGrids(tuple(puzzles[:max_grids]), tuple(solutions))
