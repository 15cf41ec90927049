"""Logical solving from a puzzle, and hints for a puzzle with a person's own entries."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..engine import find_solutions
from ..geometry import Cell, Shape, cell_name
from ..grid import Grid
from ..outcome import Outcome
from ..solve import solve_grid
from ..validate import find_conflicts
from .candidates import Candidates
from .grade import Grade, GradeConfig, grade_solve
from .step import Step, Technique
from .strategy import ALL_TECHNIQUES, LogicSolve, next_step, solve_steps

WITH_GUESS: frozenset[Technique] = ALL_TECHNIQUES | {Technique.GUESS}


def unique_solution(shape: Shape, values: Sequence[int]) -> tuple[int, ...] | None:
    """The one solution of a puzzle, or None when it has none or several."""
    found = find_solutions(values, shape, limit=2)
    return tuple(found[0]) if len(found) == 1 else None


def logical_solve(
    shape: Shape,
    values: Sequence[int],
    techniques: Iterable[Technique] = WITH_GUESS,
    solution: Sequence[int] | None = None,
    deadline: float | None = None,
) -> LogicSolve:
    """Solve step by step like a person, guessing (with the known solution) only when stuck.

    deadline: a `time.monotonic()` time after which no further step is started.
    """
    allowed = frozenset(techniques)
    if solution is None and Technique.GUESS in allowed:
        solution = unique_solution(shape, values)
    return solve_steps(shape, values, allowed, solution, deadline=deadline)


@dataclass(frozen=True)
class Hint:
    """The answer to 'what next?': a step, or why there is none (with the cells concerned).

    status: STEP; SOLVED (the grid is already complete and right); WRONG_ENTRIES; or how
    the puzzle itself failed (INVALID, NO_SOLUTION, MULTIPLE_SOLUTIONS).
    """

    status: Outcome
    message: str
    step: Step | None = None
    wrong: tuple[Cell, ...] = ()
    values: tuple[int, ...] = ()  # givens plus entries, as the hint sees the grid


def merge_entries(puzzle: Grid, entries: Grid | None) -> tuple[tuple[int, ...], tuple[Cell, ...]]:
    """Givens with the entries on top, and the entries that overwrite a different given."""
    if entries is None:
        return puzzle.values, ()
    if entries.size != puzzle.size:
        raise ValueError(
            f"entries must be {puzzle.size}×{puzzle.size}; got {entries.size}×{entries.size}"
        )
    merged = list(puzzle.values)
    clash = []
    for c, (g, e) in enumerate(zip(puzzle.values, entries.values, strict=True)):
        if e and g and e != g:
            clash.append(c)
        elif e and not g:
            merged[c] = e
    return tuple(merged), tuple(clash)


def check_entries(puzzle: Grid, entries: Grid | None) -> Hint | None:
    """A Hint explaining why no step can be given, or None when givens and entries are fine."""
    n = puzzle.size
    result = solve_grid(puzzle)
    if result.status is not Outcome.SOLVED:
        cells = tuple(sorted({c for k in result.conflicts for c in k.cells}))
        return Hint(result.status, f"the puzzle itself: {result.message}", wrong=cells)
    merged, clash = merge_entries(puzzle, entries)
    solution = result.solutions[0].values
    entered = [c for c, (g, m) in enumerate(zip(puzzle.values, merged, strict=True)) if m and not g]
    broken = {c for k in find_conflicts(Grid(puzzle.shape, merged)) for c in k.cells}
    wrong = sorted({*clash, *(c for c in entered if merged[c] != solution[c] or c in broken)})
    if wrong:
        names = ", ".join(
            f"{cell_name(c, n)}={entries.values[c] if entries else '?'}" for c in wrong
        )
        return Hint(
            Outcome.WRONG_ENTRIES,
            f"{len(wrong)} wrong entr{'y' if len(wrong) == 1 else 'ies'}: {names}",
            wrong=tuple(wrong),
            values=merged,
        )
    return None


def hint(puzzle: Grid, entries: Grid | None = None) -> Hint:
    """The next step a person can take, after checking the givens and their entries."""
    problem = check_entries(puzzle, entries)
    if problem is not None:
        return problem
    merged, _ = merge_entries(puzzle, entries)
    if 0 not in merged:
        return Hint(Outcome.SOLVED, "the grid is complete and correct", values=merged)
    solution = unique_solution(puzzle.shape, puzzle.values)
    cand = Candidates.from_values(puzzle.shape, merged)
    step = next_step(cand, WITH_GUESS, solution)
    if step is None:  # cannot happen: a guess is always possible with the solution known
        return Hint(Outcome.NO_SOLUTION, "no step found", values=merged)
    return Hint(Outcome.STEP, str(step), step=step, values=merged)


def grade_puzzle(puzzle: Grid, config: GradeConfig | None = None) -> tuple[Grade | None, str]:
    """The grade of a puzzle, or None and why it cannot be graded (not exactly one solution)."""
    result = solve_grid(puzzle)
    if result.status is not Outcome.SOLVED:
        return None, result.message
    solve = logical_solve(puzzle.shape, puzzle.values, solution=result.solutions[0].values)
    return grade_solve(solve, config), ""


def hint_all(puzzle: Grid, entries: Grid | None = None) -> tuple[Hint, tuple[Step, ...]]:
    """Every step from the current grid to the end (or why there are none)."""
    first = hint(puzzle, entries)
    if first.status is not Outcome.STEP:
        return first, ()
    solution = unique_solution(puzzle.shape, puzzle.values)
    solve = logical_solve(puzzle.shape, first.values, solution=solution)
    return first, solve.steps
