"""Solving puzzles of every size: results with an Outcome, and the string-level API."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from .engine import find_solutions
from .errors import (
    InvalidPuzzleError,
    MultipleSolutionsError,
    NoSolutionError,
    SearchTimeoutError,
    timeout_message,
)
from .grid import Grid, Puzzle, as_grid
from .outcome import Outcome
from .validate import Conflict, find_conflicts, find_dead_cells


@dataclass(frozen=True)
class SolveResult:
    """The outcome for one puzzle.

    status: SOLVED, MULTIPLE_SOLUTIONS, NO_SOLUTION, INVALID, or TIMEOUT (the search ran
        past the time limit it was given; nothing is known about the solutions).
    solutions: the unique solution (SOLVED), two differing ones (MULTIPLE_SOLUTIONS), else none.
    conflicts: duplicate givens (INVALID), or cells left without a candidate (NO_SOLUTION).
    time_limit: the seconds the search was allowed (None: no limit).
    """

    puzzle: Grid
    status: Outcome
    solutions: tuple[Grid, ...] = ()
    conflicts: tuple[Conflict, ...] = ()
    time_limit: float | None = None

    @property
    def solution(self) -> Grid | None:
        """The unique solution, or None."""
        return self.solutions[0] if self.status is Outcome.SOLVED else None

    @property
    def message(self) -> str:
        """One sentence for a person."""
        if self.status is Outcome.SOLVED:
            return "solved: exactly one solution"
        if self.status is Outcome.MULTIPLE_SOLUTIONS:
            cells = _differing_cells(self.solutions[0], self.solutions[1])
            return f"more than one solution (they differ at {cells})"
        if self.status is Outcome.TIMEOUT:
            return timeout_message(self.time_limit)
        reason = "; ".join(str(c) for c in self.conflicts)
        if self.status is Outcome.INVALID:
            return f"invalid givens: {reason}"
        return f"no solution: {reason}" if reason else "no solution"


def deadline_after(seconds: float | None) -> float | None:
    """The `time.monotonic()` time `seconds` from now (None: no limit)."""
    if seconds is None:
        return None
    if seconds <= 0:
        raise ValueError(f"time_limit must be positive; got {seconds}")
    return time.monotonic() + seconds


def solve_grid(puzzle: Puzzle, time_limit: float | None = None) -> SolveResult:
    """Validate then solve, proving the solution unique (or finding two).

    time_limit: seconds the search may take; past them the result's status is TIMEOUT.
    """
    try:
        return solve_before(puzzle, deadline_after(time_limit))
    except SearchTimeoutError:
        return SolveResult(as_grid(puzzle), Outcome.TIMEOUT, time_limit=time_limit)


def solve_before(
    puzzle: Puzzle, deadline: float | None, symbols: Sequence[str] | None = None
) -> SolveResult:
    """solve_grid with a `time.monotonic()` deadline: SearchTimeoutError once it passes.
    ``symbols``: how the grid prints its values, for the conflicts' words (``value_word``)."""
    grid = as_grid(puzzle)
    conflicts = find_conflicts(grid, symbols)
    if conflicts:
        return SolveResult(grid, Outcome.INVALID, conflicts=conflicts)
    found = find_solutions(grid.values, grid.shape, limit=2, deadline=deadline)
    solutions = tuple(Grid(grid.shape, tuple(s)) for s in found)
    if not solutions:  # the cells left without a candidate, if any, say why
        return SolveResult(grid, Outcome.NO_SOLUTION, conflicts=find_dead_cells(grid))
    status = Outcome.SOLVED if len(solutions) == 1 else Outcome.MULTIPLE_SOLUTIONS
    return SolveResult(grid, status, solutions)


def count_solutions(puzzle: Puzzle, limit: int = 2, time_limit: float | None = None) -> int:
    """The number of solutions, counting no further than limit (limit=2 proves uniqueness).

    Raises SearchTimeoutError (with `seconds`) when counting takes longer than time_limit.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1; got {limit}")
    deadline = deadline_after(time_limit)
    grid = as_grid(puzzle)
    if find_conflicts(grid):
        return 0
    try:
        return len(find_solutions(grid.values, grid.shape, limit=limit, deadline=deadline))
    except SearchTimeoutError as exc:
        raise SearchTimeoutError(time_limit) from exc


def solve(puzzle: Grid | str) -> str:
    """The unique solution as one compact line; raises a PuzzleError subclass otherwise."""
    result = solve_grid(puzzle)
    if result.status is Outcome.SOLVED:
        return result.solutions[0].to_string()
    if result.status is Outcome.INVALID:
        raise InvalidPuzzleError(result.conflicts)
    if result.status is Outcome.MULTIPLE_SOLUTIONS:
        first, second = (s.to_string() for s in result.solutions)
        raise MultipleSolutionsError((first, second), result.message)
    raise NoSolutionError(result.message)


def _differing_cells(a: Grid, b: Grid, shown: int = 4) -> str:
    """The first few cells where two grids differ, named r1c1-style."""
    pairs = enumerate(zip(a.values, b.values, strict=True))
    cells = [a.cell_name(c) for c, (x, y) in pairs if x != y]
    more = f" and {len(cells) - shown} more" if len(cells) > shown else ""
    return ", ".join(cells[:shown]) + more
