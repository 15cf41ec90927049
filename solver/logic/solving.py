"""Logical solving from a puzzle, and hints for a puzzle with a person's own entries.

`hint`, `hint_all` and `grade_puzzle` take a time limit in seconds: one deadline covers
the whole answer (proving the puzzle unique, then the logical steps), checked every few
search nodes and before each technique is tried. A hint out of time has status TIMEOUT;
a grade out of time raises SearchTimeoutError.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..engine import find_solutions
from ..errors import SearchTimeoutError, timeout_message
from ..geometry import Cell, Shape, cell_name
from ..grid import Grid
from ..outcome import Outcome
from ..solve import deadline_after, solve_before
from ..validate import find_conflicts
from .candidates import Candidates
from .grade import Grade, GradeConfig, grade_solve
from .notes import (
    Notes,
    check_notes,
    missed_note_text,
    notes_missing_answer,
    notes_single,
    use_notes,
)
from .step import Step, Technique
from .strategy import ALL_TECHNIQUES, LogicSolve, next_step, solve_steps

WITH_GUESS: frozenset[Technique] = ALL_TECHNIQUES | {Technique.GUESS}


def unique_solution(
    shape: Shape, values: Sequence[int], deadline: float | None = None
) -> tuple[int, ...] | None:
    """The one solution of a puzzle, or None when it has none or several.

    deadline: a `time.monotonic()` time; SearchTimeoutError once the search passes it.
    """
    found = find_solutions(values, shape, limit=2, deadline=deadline)
    return tuple(found[0]) if len(found) == 1 else None


def logical_solve(
    shape: Shape,
    values: Sequence[int],
    techniques: Iterable[Technique] = WITH_GUESS,
    solution: Sequence[int] | None = None,
    deadline: float | None = None,
) -> LogicSolve:
    """Solve step by step like a person, guessing (with the known solution) only when stuck.

    deadline: a `time.monotonic()` time after which no further step is started (the
    solve ends marked timed_out; SearchTimeoutError when it passes while the solution
    for guessing is still being found).
    """
    allowed = frozenset(techniques)
    if solution is None and Technique.GUESS in allowed:
        solution = unique_solution(shape, values, deadline)
    return solve_steps(shape, values, allowed, solution, deadline=deadline)


@dataclass(frozen=True)
class Hint:
    """The answer to 'what next?': a step, or why there is none (with the cells concerned).

    status: STEP; SOLVED (the grid is already complete and right); WRONG_ENTRIES; how
    the puzzle itself failed (INVALID, NO_SOLUTION, MULTIPLE_SOLUTIONS); or TIMEOUT (no
    answer within the time limit).
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


def check_entries(puzzle: Grid, entries: Grid | None, deadline: float | None = None) -> Hint | None:
    """A Hint explaining why no step can be given, or None when givens and entries are fine.

    deadline: a `time.monotonic()` time; SearchTimeoutError once the solve passes it.
    """
    n = puzzle.size
    result = solve_before(puzzle, deadline)
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


def hint(
    puzzle: Grid,
    entries: Grid | None = None,
    time_limit: float | None = None,
    notes: Notes | None = None,
) -> Hint:
    """The next step a person can take, after checking the givens, their entries and notes.

    time_limit: seconds allowed for the whole answer; past them the hint's status is TIMEOUT.
    notes: the person's candidate notes, one string of digits per cell ("" where none): a
        cell whose notes leave out its answer is named first (WRONG_NOTES); otherwise the
        step is looked for with the notes narrowing the grid's candidates.
    """
    if notes is not None:
        check_notes(notes, puzzle.shape.ncells)
    try:
        return _hint_before(puzzle, entries, deadline_after(time_limit), notes)
    except SearchTimeoutError:
        return Hint(Outcome.TIMEOUT, timeout_message(time_limit))


def _hint_before(
    puzzle: Grid, entries: Grid | None, deadline: float | None, notes: Notes | None = None
) -> Hint:
    """hint with a deadline: SearchTimeoutError once it passes."""
    problem = check_entries(puzzle, entries, deadline)
    if problem is not None:
        return problem
    merged, _ = merge_entries(puzzle, entries)
    if 0 not in merged:
        return Hint(Outcome.SOLVED, "the grid is complete and correct", values=merged)
    solution = unique_solution(puzzle.shape, puzzle.values, deadline)
    cand = Candidates.from_values(puzzle.shape, merged)
    if notes is not None and solution is not None:
        missed = notes_missing_answer(cand, notes, solution)
        if missed:
            text = missed_note_text(cand, notes, missed)
            return Hint(Outcome.WRONG_NOTES, text, wrong=missed, values=merged)
        step = notes_single(cand, notes)
        if step is not None:
            return Hint(Outcome.STEP, str(step), step=step, values=merged)
        use_notes(cand, notes)
    step = next_step(cand, WITH_GUESS, solution, deadline)
    if step is None:  # cannot happen: a guess is always possible with the solution known
        return Hint(Outcome.NO_SOLUTION, "no step found", values=merged)
    return Hint(Outcome.STEP, str(step), step=step, values=merged)


def grade_puzzle(
    puzzle: Grid, config: GradeConfig | None = None, time_limit: float | None = None
) -> tuple[Grade | None, str]:
    """The grade of a puzzle, or None and why it cannot be graded (not exactly one solution).

    time_limit: seconds allowed for the uniqueness proof and the logical solve together;
    SearchTimeoutError (with `seconds`) when they run past it.
    """
    deadline = deadline_after(time_limit)
    try:
        result = solve_before(puzzle, deadline)
    except SearchTimeoutError as exc:
        raise SearchTimeoutError(time_limit) from exc
    if result.status is not Outcome.SOLVED:
        return None, result.message
    solution = result.solutions[0].values
    solve = logical_solve(puzzle.shape, puzzle.values, solution=solution, deadline=deadline)
    if solve.timed_out:
        raise SearchTimeoutError(time_limit)
    return grade_solve(solve, config), ""


def hint_all(
    puzzle: Grid, entries: Grid | None = None, time_limit: float | None = None
) -> tuple[Hint, tuple[Step, ...]]:
    """Every step from the current grid to the end (or why there are none).

    time_limit: seconds allowed for all of it; past them, a TIMEOUT hint and no steps.
    """
    deadline = deadline_after(time_limit)
    out_of_time = Hint(Outcome.TIMEOUT, timeout_message(time_limit))
    try:
        first = _hint_before(puzzle, entries, deadline)
        if first.status is not Outcome.STEP:
            return first, ()
        solution = unique_solution(puzzle.shape, puzzle.values, deadline)
    except SearchTimeoutError:
        return out_of_time, ()
    solve = logical_solve(puzzle.shape, first.values, solution=solution, deadline=deadline)
    return (out_of_time, ()) if solve.timed_out else (first, solve.steps)
