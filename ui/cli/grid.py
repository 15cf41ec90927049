"""`sudokucam grid`: solve puzzles typed in or read from a file (one or many)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from ...limits import MAX_TIME_LIMIT_S
from ...solver import (
    SPELLING,
    Grid,
    Outcome,
    PuzzleParseError,
    SearchTimeoutError,
    SolveResult,
    Wording,
    count_solutions,
    parse_puzzles,
    solve_grid,
)
from .common import JsonOpt, check_size, fail, read_stdin, read_text_file, say, usage_error
from .grid_variant import count_and_print, looks_like_json, read_variant, solve_and_print

_PUZZLE_CHARS = frozenset("0123456789.abcdefghijklmnopABCDEFGHIJKLMNOP_-|+ \t\r\n")
SEARCH_TIME_LIMIT_S = 10.0  # default --time-limit of grid, hint and grade, per puzzle
MORE_TIME = "allow more time with --time-limit"
SearchTimeLimitOpt = Annotated[
    float,
    typer.Option(
        "--time-limit",
        min=0.01,
        max=MAX_TIME_LIMIT_S,
        metavar="SECONDS",
        help=f"Seconds the search may take per puzzle (default {SEARCH_TIME_LIMIT_S:g}), "
        f"at most {MAX_TIME_LIMIT_S:g} (a day). "
        "A puzzle that needs longer is given up: one 'error: gave up after ...' line and "
        'exit status 1 (with --json, status "timeout" for that puzzle; the others in a '
        "file are still reported).",
        show_default=False,
    ),
]


@dataclass(frozen=True)
class _Input:
    """The puzzles to solve and where they came from."""

    puzzles: list[Grid]
    source: str


def register(app: typer.Typer) -> None:
    """Add the `grid` command to the app."""
    app.command("grid")(grid_command)


def grid_command(
    puzzle_or_file: Annotated[
        str,
        typer.Argument(
            metavar="PUZZLE",
            help="A puzzle (81 characters, '.' or '0' empty), a file of puzzles, a JSON "
            "file of one variant puzzle (Killer, X, jigsaw; see docs/json.md), or '-' for stdin.",
        ),
    ],
    line: Annotated[bool, typer.Option("--line", help="One line per solution.")] = False,
    as_json: JsonOpt = False,
    count: Annotated[
        bool, typer.Option("--count", help="Count solutions (up to --limit) instead of solving.")
    ] = False,
    limit: Annotated[
        int,
        typer.Option("--limit", min=1, metavar="N", help="Stop counting at this many solutions."),
    ] = 2,
    size: Annotated[
        int | None,
        typer.Option("--size", metavar="N", help="Force the grid size (4, 6, 8, 9, 12, 16, 25)."),
    ] = None,
    time_limit: SearchTimeLimitOpt = SEARCH_TIME_LIMIT_S,
) -> None:
    """Solve Sudoku puzzles and prove each solution unique.

    A JSON file (or argument) holds one typed variant puzzle: Killer cages, Sudoku X
    diagonals, jigsaw regions, any symbols (keys in docs/json.md).
    Exit status: 0 when every puzzle has exactly one solution, 1 when one is invalid,
    unsolvable or not unique, breaks its own rules (a cage, region or symbol, named), or
    its search ran past --time-limit, 2 for bad usage or unreadable input.
    """
    if line and as_json:
        usage_error("choose one of --line and --json")
    check_size(size)
    text, where = _read_text(puzzle_or_file)
    if looks_like_json(text):
        _run_variant(text, where, size, line, as_json, count, limit, time_limit)
    source = _parse_input(text, where, size)
    if count:
        ok = _run_count(source, limit, as_json, time_limit)
    else:
        ok = _run_solve(source, line, as_json, time_limit)
    raise typer.Exit(0 if ok else 1)


def out_of_time(message: str) -> str:
    """A time-out message with the advice to allow more time."""
    return f"{message}; {MORE_TIME}"


def _read_text(arg: str) -> tuple[str, str]:
    """The text of the puzzles (stdin, a file, or the argument itself) and where it came from."""
    if arg == "-":
        return read_stdin(), "stdin"
    if _is_file(arg):
        return read_text_file(arg), arg
    if set(arg) <= _PUZZLE_CHARS or looks_like_json(arg):
        return arg, "argument"
    usage_error(f"cannot read {arg!r}: no such file, and not a puzzle")


def _parse_input(text: str, source: str, size: int | None) -> _Input:
    """The puzzles of a text, or a usage error naming the first problem."""
    try:
        return _Input(parse_puzzles(text, size), source)
    except PuzzleParseError as exc:
        usage_error(f"{source}: {exc}")


def _run_variant(
    text: str,
    source: str,
    size: int | None,
    line: bool,
    as_json: bool,
    count: bool,
    limit: int,
    time_limit: float,
) -> NoReturn:
    """Solve (or count) one puzzle given as a JSON object (Killer, X, jigsaw, classic)."""
    puzzle = read_variant(text, source, size)
    if count:
        ok = count_and_print(puzzle, limit, as_json, time_limit)
    else:
        ok = solve_and_print(puzzle, line, as_json, time_limit)
    raise typer.Exit(0 if ok else 1)


def _is_file(arg: str) -> bool:
    """True when arg names a file (a 25×25 puzzle is too long to be a file name)."""
    try:
        return Path(arg).is_file()
    except OSError:
        return False


def _run_solve(source: _Input, line: bool, as_json: bool, time_limit: float) -> bool:
    """Solve every puzzle, print the answers and (for many) a summary; True if all solved."""
    start = time.perf_counter()
    results = [solve_grid(p, time_limit) for p in source.puzzles]
    elapsed = time.perf_counter() - start
    single = len(results) == 1
    if as_json:
        docs = [_result_json(r) for r in results]
        out: Any = docs[0] if single else {"results": docs, "summary": _summary(results, elapsed)}
        typer.echo(json.dumps(out, indent=None if not single else 2))
    else:
        for i, result in enumerate(results, start=1):
            _print_result(result, i, single, line)
    if not single and not as_json:
        say(_summary_line(results, elapsed))
    return all(r.status is Outcome.SOLVED for r in results)


def _print_result(result: SolveResult, index: int, single: bool, line: bool) -> None:
    """Print one solution, or say on stderr (single) / in a '#' line (many) why there is none."""
    solution = result.solution
    timed_out = result.status is Outcome.TIMEOUT
    if single and timed_out:
        fail(out_of_time(result.message))
    if single:
        if solution is None:
            typer.echo(result.message, err=True)
        else:
            typer.echo(solution.to_string() if line else solution.pretty())
        return
    if solution is None:
        message = out_of_time(result.message) if timed_out else result.message
        typer.echo(f"# puzzle {index}: {message}")
    elif line:
        typer.echo(solution.to_string())
    else:
        typer.echo(f"# puzzle {index}: solved\n{solution.pretty()}\n")


def _result_json(result: SolveResult) -> dict[str, Any]:
    """One result as plain JSON data."""
    return {
        "puzzle": result.puzzle.to_string(),
        "size": result.puzzle.size,
        "status": result.status.spelled(Wording.GRID),
        "solutions": [s.to_string() for s in result.solutions],
        "conflicts": [
            {"cells": [result.puzzle.cell_name(c) for c in k.cells], "text": k.text}
            for k in result.conflicts
        ],
        "message": result.message,
    }


def _summary(results: list[SolveResult], elapsed: float) -> dict[str, Any]:
    """Counts per status and the time taken."""
    words = SPELLING[Wording.GRID]
    counts = {word: sum(r.status is s for r in results) for s, word in words.items()}
    return {"puzzles": len(results), **counts, "seconds": round(elapsed, 4)}


def _summary_line(results: list[SolveResult], elapsed: float) -> str:
    """The summary as one sentence."""
    s = _summary(results, elapsed)
    per = elapsed / len(results) * 1000
    late = f", {s['timeout']} timed out" if s["timeout"] else ""
    return (
        f"{s['puzzles']} puzzles: {s['solved']} solved, {s['multiple']} multiple, "
        f"{s['no solution']} no solution, {s['invalid']} invalid{late} "
        f"in {elapsed:.3f} s ({per:.2f} ms each)"
    )


def _count_or_none(puzzle: Grid, limit: int, time_limit: float) -> int | None:
    """The number of solutions up to limit, or None when counting ran out of time."""
    try:
        return count_solutions(puzzle, limit, time_limit)
    except SearchTimeoutError:
        return None


def _run_count(source: _Input, limit: int, as_json: bool, time_limit: float) -> bool:
    """Print the number of solutions of every puzzle; True if each has exactly one.

    A puzzle whose count ran out of time is "timeout" (JSON status, or the text line);
    one puzzle alone then fails with the time-out error line.
    """
    counts = [_count_or_none(p, limit, time_limit) for p in source.puzzles]
    if not as_json and len(counts) == 1 and counts[0] is None:
        fail(out_of_time(str(SearchTimeoutError(time_limit))))
    if as_json:
        docs = [_count_json(p, n, limit) for p, n in zip(source.puzzles, counts, strict=True)]
        typer.echo(json.dumps(docs[0] if len(docs) == 1 else docs))
    else:
        for n in counts:
            typer.echo(_count_text(n, limit))
    return all(n == 1 for n in counts)


def _count_json(puzzle: Grid, n: int | None, limit: int) -> dict[str, Any]:
    """One count as plain JSON data ("status": "timeout" and no count when out of time)."""
    if n is None:
        return {"puzzle": puzzle.to_string(), "count": None, "limit_reached": False,
                "status": Outcome.TIMEOUT.spelled(Wording.GRID)}  # fmt: skip
    return {"puzzle": puzzle.to_string(), "count": n, "limit_reached": n >= limit}


def _count_text(n: int | None, limit: int) -> str:
    """One count as printed: "3", "2+" at the limit, "timeout" when out of time."""
    if n is None:
        return Outcome.TIMEOUT.spelled(Wording.GRID)
    return f"{n}+" if n >= limit and limit > 1 else str(n)
