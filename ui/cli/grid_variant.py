"""`sudokucam grid FILE.json`: solve one typed variant puzzle (Killer, X, jigsaw, classic).

The JSON object is solver.variant_json's contract. A puzzle that breaks its own rules (a
cage sum out of reach, a region of the wrong size, a symbol outside the set) is refused
with one "error: ..." line naming the file and the cage, region or cell, exit status 1, as
is JSON that is no puzzle (a list, JSON nested too deep, a number too long); JSON that
cannot be parsed at all is unreadable input, exit status 2. The JSON that `read`, `solve`
and `check` print for a photo of one grid is taken as that grid's puzzle.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import typer

from ...solver import SearchTimeoutError, SolveResult, Wording
from ...solver.grid import value_word
from ...solver.outcome import Outcome
from ...solver.solve import deadline_after
from ...solver.variant import VariantError, VariantPuzzle
from ...solver.variant_json import NotJsonError, load_puzzle_json, puzzle_to_json
from ...solver.variant_solve import count_variant, is_classic, solve_variant
from .common import fail, usage_error


def looks_like_json(text: str) -> bool:
    """True when a puzzle text is JSON: its first character is '{' or '[' (a photo's JSON
    from `read`); a byte-order mark before it is skipped."""
    return text.lstrip("\ufeff \t\r\n").startswith(("{", "["))


def read_variant(text: str, source: str, size: int | None) -> VariantPuzzle:
    """The puzzle of a JSON text; exit 2 when it is not JSON, 1 when it is no puzzle or
    breaks its rules (the error names ``source``, the file)."""
    try:
        puzzle = load_puzzle_json(text)
    except NotJsonError as exc:
        usage_error(f"{source}: {exc}")
    except VariantError as exc:
        fail(f"{source}: {exc}")
    if size is not None and size != puzzle.size:
        usage_error(f"--size {size} disagrees with the puzzle's size {puzzle.size}")
    return puzzle


def solve_and_print(puzzle: VariantPuzzle, line: bool, as_json: bool, time_limit: float) -> bool:
    """Solve one variant puzzle and print the answer (or why there is none); True if solved."""
    result = solve_variant(puzzle, time_limit)
    if as_json:
        typer.echo(json.dumps(result_json(puzzle, result), indent=2))
    elif result.status is Outcome.TIMEOUT:
        fail(f"{result.message}; allow more time with --time-limit")
    elif result.solution is None:
        fail(result.message)
    else:
        values = result.solution.values
        typer.echo(puzzle.write(values) if line else pretty(puzzle, values))
    return result.status is Outcome.SOLVED


def count_and_print(puzzle: VariantPuzzle, limit: int, as_json: bool, time_limit: float) -> bool:
    """Count the solutions up to limit and print the count; True if exactly one."""
    try:
        if is_classic(puzzle):
            from ...solver import count_solutions

            n: int | None = count_solutions(list(puzzle.givens), limit, time_limit)
        else:
            n = len(count_variant(puzzle, limit, deadline_after(time_limit)))
    except SearchTimeoutError:
        n = None
    if as_json:
        doc = {"puzzle": puzzle.write(puzzle.givens), "count": n,
               "limit_reached": n is not None and n >= limit}  # fmt: skip
        if n is None:
            doc["status"] = Outcome.TIMEOUT.spelled(Wording.GRID)
        typer.echo(json.dumps(doc))
    elif n is None:
        fail(f"{SearchTimeoutError(time_limit)}; allow more time with --time-limit")
    else:
        typer.echo(f"{n}+" if n >= limit and limit > 1 else str(n))
    return n == 1


def result_json(puzzle: VariantPuzzle, result: SolveResult) -> dict[str, Any]:
    """The puzzle's keys echoed, with the status, solutions, conflicts and message."""
    return {
        "puzzle": puzzle.write(puzzle.givens),
        **puzzle_to_json(puzzle),
        "status": result.status.spelled(Wording.GRID),
        "solutions": [puzzle.write(s.values) for s in result.solutions],
        "conflicts": [
            {"cells": [puzzle.cell_name(c) for c in k.cells], "text": k.text}
            for k in result.conflicts
        ],
        "message": result.message,
    }


def pretty(puzzle: VariantPuzzle, values: Sequence[int]) -> str:
    """The answer as rows; boxes ruled as on paper, or a jigsaw's region map beside it."""
    n = puzzle.size
    cells = [value_word(v, puzzle.symbols) for v in values]
    if puzzle.regions:
        regions = puzzle_to_json(puzzle)["regions"]
        rows = [" ".join(cells[r * n : (r + 1) * n]) for r in range(n)]
        return "\n".join(f"{row}    {' '.join(regions[r])}" for r, row in enumerate(rows))
    from ...solver import shape_for_size

    shape = shape_for_size(n)
    bc, br = shape.box_cols, shape.box_rows
    rule = "+" + "+".join("-" * (2 * bc + 1) for _ in range(n // bc)) + "+"
    lines = [rule]
    for r in range(n):
        row = cells[r * n : (r + 1) * n]
        lines.append("| " + " | ".join(" ".join(row[b : b + bc]) for b in range(0, n, bc)) + " |")
        if (r + 1) % br == 0:
            lines.append(rule)
    return "\n".join(lines)
