"""`sudokucam hint FILE.json`: the next step on a Killer, X or jigsaw puzzle, explained.

The puzzle is first solved (uniqueness proved, within --time-limit); entries that differ
from its solution are reported before any step. Steps come from
solver.logic.variant_hint (singles, cage combinations, the 45 rule); where those find
nothing, the step says so and gives one value of the solution.
"""

from __future__ import annotations

import json
from typing import Any

import typer

from ...solver import Grid, Outcome, Wording
from ...solver.logic.variant_hint import VariantStep, stuck_step, variant_steps
from ...solver.variant import VariantPuzzle
from ...solver.variant_solve import solve_variant
from .common import fail


def hint_variant(
    puzzle: VariantPuzzle, entries: Grid | None, all_steps: bool, as_json: bool, time_limit: float
) -> bool:
    """Print the next step (or every step); True when there is one or the grid is done."""
    result = solve_variant(puzzle, time_limit)
    solution = result.solution
    if solution is None:
        return _report(puzzle, result.status, result.message, (), [], as_json, time_limit)
    values = _merged(puzzle, entries)
    wrong = tuple(c for c, v in enumerate(values) if v and v != solution.values[c])
    if wrong:
        names = ", ".join(puzzle.cell_name(c) for c in wrong)
        message = f"wrong entries at {names}"
        return _report(puzzle, Outcome.WRONG_ENTRIES, message, wrong, [], as_json, time_limit)
    if 0 not in values:
        return _report(puzzle, Outcome.SOLVED, "solved", (), [], as_json, time_limit)
    steps, done = variant_steps(puzzle, values, 10_000 if all_steps else 1)
    if not done and (all_steps or not steps):
        placed = frozenset(c for s in steps for c, _ in s.placements)
        steps.append(stuck_step(puzzle, values, solution.values, placed))
    return _report(puzzle, Outcome.STEP, str(steps[0]), (), steps, as_json, time_limit)


def _merged(puzzle: VariantPuzzle, entries: Grid | None) -> tuple[int, ...]:
    """The givens with the entries on top (a given always wins)."""
    if entries is None:
        return puzzle.givens
    return tuple(g or e for g, e in zip(puzzle.givens, entries.values, strict=True))


def _report(
    puzzle: VariantPuzzle,
    status: Outcome,
    message: str,
    wrong: tuple[int, ...],
    steps: list[VariantStep],
    as_json: bool,
    time_limit: float,
) -> bool:
    """Print the outcome as the classic hint does; True for a step or a finished grid."""
    ok = status in (Outcome.STEP, Outcome.SOLVED)
    if as_json:
        doc: dict[str, Any] = {
            "status": status.spelled(Wording.HINT),
            "message": message,
            "variant": puzzle.variant.value,
            "wrong": [puzzle.cell_name(c) for c in wrong],
            "steps": [s.to_dict(puzzle.size) for s in steps],
        }
        typer.echo(json.dumps(doc, indent=2))
    elif status is Outcome.TIMEOUT:
        fail(f"{message}; allow more time with --time-limit")
    elif not ok:
        fail(message)
    elif status is Outcome.SOLVED:
        typer.echo(message)
    else:
        many = len(steps) > 1
        for i, step in enumerate(steps, start=1):
            typer.echo(f"{i}. {step}" if many else str(step))
    return ok
