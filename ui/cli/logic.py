"""`sudokucam hint`, `grade` and `generate`: solving like a person, step by step."""

from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from ...solver import BOX_SHAPES, Grid, PuzzleParseError, parse_puzzles, shape_for_size

_SIZE_HELP = "Force the grid size (4, 6, 8, 9, 12, 16)."


def register(app: typer.Typer) -> None:
    """Add the `hint`, `grade` and `generate` commands to the app."""
    app.command("hint")(hint_command)
    app.command("grade")(grade_command)
    app.command("generate")(generate_command)


def _usage_error(message: str) -> NoReturn:
    """Print one line on stderr and exit with status 2."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _fail(message: str) -> NoReturn:
    """Print one line on stderr and exit with status 1 (the puzzle, not the usage)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(1)


def _check_size(size: int | None) -> None:
    """Exit 2 for an unsupported --size."""
    if size is not None and size not in BOX_SHAPES:
        _usage_error(f"--size must be one of {', '.join(map(str, BOX_SHAPES))}; got {size}")


def _read_grids(arg: str, size: int | None, what: str) -> list[Grid]:
    """Puzzles from '-' (stdin), a file, or the argument itself; exit 2 when unreadable."""
    if arg == "-":
        text = sys.stdin.read()
    elif len(arg) < 300 and Path(arg).is_file():
        try:
            text = Path(arg).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            _usage_error(f"cannot read {arg}: {exc}")
    else:
        text = arg
    try:
        return parse_puzzles(text, size)
    except PuzzleParseError as exc:
        _usage_error(f"{what}: {exc}")


def _read_one(arg: str, size: int | None, what: str) -> Grid:
    """Exactly one puzzle, or exit 2."""
    grids = _read_grids(arg, size, what)
    if len(grids) != 1:
        _usage_error(f"{what}: expected one grid, found {len(grids)}")
    return grids[0]


def hint_command(
    puzzle: Annotated[str, typer.Argument(help="The puzzle (givens), a file, or '-' for stdin.")],
    entries: Annotated[
        str | None,
        typer.Option(
            "--entries",
            help="Your own pen entries on top of the givens: a grid of the same size "
            "(e.g. from `sudokucam check`), or a file holding one.",
        ),
    ] = None,
    all_steps: Annotated[bool, typer.Option("--all", help="List every step to the end.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    size: Annotated[int | None, typer.Option("--size", help=_SIZE_HELP)] = None,
) -> None:
    """Give the next step for a puzzle, explained; wrong entries are reported first.

    Exit status: 0 with a step (or an already complete grid), 1 when an entry is wrong
    or the puzzle is invalid, unsolvable or not unique, 2 for bad usage.
    """
    from ...solver.logic import HintStatus, hint, hint_all

    _check_size(size)
    grid = _read_one(puzzle, size, "puzzle")
    extra = _read_one(entries, grid.size, "--entries") if entries is not None else None
    if extra is not None and extra.size != grid.size:
        _usage_error(f"--entries must be {grid.size}×{grid.size}; got {extra.size}×{extra.size}")
    if all_steps:
        first, steps = hint_all(grid, extra)
    else:
        first = hint(grid, extra)
        steps = (first.step,) if first.step is not None else ()
    ok = first.status in (HintStatus.STEP, HintStatus.SOLVED)
    if as_json:
        doc: dict[str, Any] = {
            "status": first.status.value,
            "message": first.message,
            "wrong": [grid.cell_name(c) for c in first.wrong],
            "steps": [s.to_dict(grid.shape) for s in steps],
        }
        typer.echo(json.dumps(doc, indent=2))
    elif not ok:
        typer.echo(first.message, err=True)
    elif first.status is HintStatus.SOLVED:
        typer.echo(first.message)
    else:
        for i, step in enumerate(steps, start=1):
            typer.echo(f"{i}. {step}" if all_steps else str(step))
    raise typer.Exit(0 if ok else 1)


def grade_command(
    puzzle_or_file: Annotated[
        str, typer.Argument(help="A puzzle, a file of puzzles (one a line), or '-' for stdin.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    size: Annotated[int | None, typer.Option("--size", help=_SIZE_HELP)] = None,
) -> None:
    """Grade puzzles: Easy, Medium, Difficult or Extremely Difficult, with a score.

    The level comes from the hardest technique a step-by-step solve needs and how often
    it needs it. For many puzzles, one line each and a summary on stderr.
    Exit status: 0 when every puzzle has exactly one solution, 1 otherwise, 2 for bad usage.
    """
    from ...solver.logic import Level, grade_puzzle

    _check_size(size)
    grids = _read_grids(puzzle_or_file, size, "puzzle")
    start = time.perf_counter()
    grades = [grade_puzzle(g) for g in grids]
    elapsed = time.perf_counter() - start
    docs = [
        {"puzzle": g.to_string(), **(gr.to_dict() if gr else {"level": None, "error": msg})}
        for g, (gr, msg) in zip(grids, grades, strict=True)
    ]
    levels = Counter(d["level"] for d in docs)
    summary = {lv.label: levels.get(lv.label, 0) for lv in Level}
    failed = sum(1 for gr, _ in grades if gr is None)
    if as_json:
        out: Any = docs[0] if len(docs) == 1 else {"results": docs, "summary": summary}
        typer.echo(json.dumps(out, indent=2 if len(docs) == 1 else None))
    else:
        for d in docs:
            if d["level"] is None:
                typer.echo(f"{d['puzzle']}  error: {d['error']}")
            else:
                typer.echo(f"{d['puzzle']}  {d['level']:<19}  {d['score']:>6}  {d['hardest']}")
        if len(docs) > 1:
            parts = ", ".join(f"{k} {v} ({100 * v / len(docs):.0f}%)" for k, v in summary.items())
            bad = f", {failed} not gradable" if failed else ""
            typer.echo(f"{len(docs)} puzzles in {elapsed:.1f} s: {parts}{bad}", err=True)
    raise typer.Exit(1 if failed else 0)


def generate_command(
    level: Annotated[
        str, typer.Option("--level", help="Easy, Medium, Difficult or 'Extremely Difficult'.")
    ],
    size: Annotated[int, typer.Option("--size", help="Grid size: 4, 6, 8, 9, 12 or 16.")] = 9,
    count: Annotated[int, typer.Option("--count", min=1, help="How many puzzles.")] = 1,
    symmetric: Annotated[
        bool, typer.Option("--symmetric", help="Givens symmetric under a half turn.")
    ] = False,
    seed: Annotated[int | None, typer.Option("--seed", help="Random seed (repeatable).")] = None,
    time_limit: Annotated[
        float, typer.Option("--time-limit", min=0.1, help="Seconds allowed per puzzle.")
    ] = 60.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Make new puzzles with exactly one solution at the level asked, one line each.

    Exit status: 0 on success, 1 when no puzzle at that level was found in time,
    2 for bad usage.
    """
    from ...solver.logic import GenerateConfig, GenerationTimeoutError, Level, generate

    try:
        lv = Level.parse(level)
        shape = shape_for_size(size)
    except ValueError as exc:
        _usage_error(str(exc))
    rng = random.Random(seed)
    cfg = GenerateConfig(time_limit_s=time_limit)
    docs = []
    for _ in range(count):
        try:
            made = generate(shape, lv, rng, symmetric=symmetric, config=cfg)
        except (GenerationTimeoutError, ValueError) as exc:
            _fail(str(exc))
        line = Grid(shape, made.puzzle).to_string()
        if as_json:
            docs.append(
                {
                    "puzzle": line,
                    "solution": Grid(shape, made.solution).to_string(),
                    "clues": made.clues,
                    **made.grade.to_dict(),
                }
            )
        else:
            typer.echo(line)
    if as_json:
        typer.echo(json.dumps(docs[0] if count == 1 else docs, indent=2))
