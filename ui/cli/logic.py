"""`sudokucam hint`, `grade` and `generate`: solving like a person, step by step."""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from ...limits import MAX_TIME_LIMIT_S
from ...solver import (
    Grid,
    Outcome,
    PuzzleParseError,
    SearchTimeoutError,
    Wording,
    parse_puzzles,
    shape_for_size,
)
from .common import JsonOpt, check_size, fail, read_stdin, read_text_file, say, usage_error
from .grid import SEARCH_TIME_LIMIT_S, SearchTimeLimitOpt, out_of_time
from .grid_variant import looks_like_json, read_variant

if TYPE_CHECKING:
    from ...solver import Shape
    from ...solver.logic import Generated, Hint, Step

SizeOpt = Annotated[
    int | None,
    typer.Option("--size", metavar="N", help="Force the grid size (4, 6, 8, 9, 12, 16)."),
]
LevelOpt = Annotated[
    str,
    typer.Option(
        "--level",
        metavar="LEVEL",
        help="Easy, Medium, Difficult (or Hard) or 'Extremely Difficult' (or Expert); "
        "any case, or a unique start ('med', 'ext').",
    ),
]
GenerateSizeOpt = Annotated[
    int,
    typer.Option(
        "--size",
        metavar="N",
        help="Grid size: 4, 6, 8, 9, 12, 16 or 25 (25×25 above Easy seldom "
        "finishes within the default time limit).",
    ),
]
CountOpt = Annotated[int, typer.Option("--count", min=1, metavar="N", help="How many puzzles.")]
SymmetricOpt = Annotated[
    bool, typer.Option("--symmetric", help="Givens symmetric under a half turn.")
]
SeedOpt = Annotated[
    int | None, typer.Option("--seed", metavar="N", help="Random seed (repeatable).")
]
TimeLimitOpt = Annotated[
    float,
    typer.Option(
        "--time-limit",
        min=0.1,
        max=MAX_TIME_LIMIT_S,
        metavar="SECONDS",
        help="Seconds allowed per puzzle, a hard limit: when they run out, generate "
        "stops with one line on stderr and exit status 1 (puzzles already made are "
        "printed).",
    ),
]
# Words people use for a level, beside the grader's own labels (which any case matches).
LEVEL_ALIASES = {
    "hard": "Difficult",
    "very hard": "Extremely Difficult",
    "expert": "Extremely Difficult",
}
MAX_PUZZLE_PATH = 300  # a longer argument is taken as puzzle text, never as a file name


def register(app: typer.Typer) -> None:
    """Add the `hint`, `grade` and `generate` commands to the app."""
    app.command("hint")(hint_command)
    app.command("grade")(grade_command)
    app.command("generate")(generate_command)


def _arg_text(arg: str) -> str:
    """The text of '-' (stdin), a file, or the argument itself."""
    if arg == "-":
        return read_stdin()
    if _is_file(arg):
        return read_text_file(arg)
    return arg


def _is_file(arg: str) -> bool:
    """True when the argument names a file (not '-', nor puzzle text)."""
    return len(arg) < MAX_PUZZLE_PATH and Path(arg).is_file()


def _source(arg: str) -> str:
    """Where a puzzle argument's text came from, as an error names it: the file, or stdin."""
    if arg == "-":
        return "stdin"
    return arg if _is_file(arg) else "puzzle"


def _read_grids(arg: str, size: int | None, what: str, text: str | None = None) -> list[Grid]:
    """Puzzles from '-' (stdin), a file, or the argument itself (or the text already read
    from it); exit 2 when unreadable."""
    if text is None:
        text = _arg_text(arg)
    try:
        return parse_puzzles(text, size)
    except PuzzleParseError as exc:
        usage_error(f"{what}: {exc}")


def _read_one(arg: str, size: int | None, what: str, text: str | None = None) -> Grid:
    """Exactly one puzzle, or exit 2."""
    grids = _read_grids(arg, size, what, text)
    if len(grids) != 1:
        usage_error(f"{what}: expected one grid, found {len(grids)}")
    return grids[0]


def hint_command(
    puzzle: Annotated[
        str,
        typer.Argument(
            metavar="PUZZLE",
            help="The puzzle (givens), a file, a JSON file of a Killer, X or jigsaw "
            "puzzle (see docs/json.md), or '-' for stdin.",
        ),
    ],
    entries: Annotated[
        str | None,
        typer.Option(
            "--entries",
            metavar="GRID",
            help="Your own pen entries on top of the givens: a grid of the same size "
            "(e.g. from `sudokucam check`), or a file holding one.",
        ),
    ] = None,
    all_steps: Annotated[bool, typer.Option("--all", help="List every step to the end.")] = False,
    as_json: JsonOpt = False,
    size: SizeOpt = None,
    time_limit: SearchTimeLimitOpt = SEARCH_TIME_LIMIT_S,
) -> None:
    """Give the next step for a puzzle, explained; wrong entries are reported first.

    Exit status: 0 with a step (or an already complete grid), 1 when an entry is wrong,
    the puzzle is invalid, unsolvable or not unique, or the search ran past
    --time-limit, 2 for bad usage.
    """
    from ...solver.logic import hint, hint_all

    check_size(size)
    text = _arg_text(puzzle)
    if looks_like_json(text):
        _hint_variant(text, _source(puzzle), size, entries, all_steps, as_json, time_limit)
    grid = _read_one(puzzle, size, "puzzle", text)
    extra = _read_one(entries, grid.size, "--entries") if entries is not None else None
    if extra is not None and extra.size != grid.size:
        usage_error(f"--entries must be {grid.size}×{grid.size}; got {extra.size}×{extra.size}")
    if all_steps:
        first, steps = hint_all(grid, extra, time_limit)
    else:
        first = hint(grid, extra, time_limit)
        steps = (first.step,) if first.step is not None else ()
    ok = first.status in (Outcome.STEP, Outcome.SOLVED)
    if as_json:
        typer.echo(json.dumps(_hint_json(grid, first, steps), indent=2))
    elif first.status is Outcome.TIMEOUT:
        fail(out_of_time(first.message))
    elif not ok:
        typer.echo(first.message, err=True)
    elif first.status is Outcome.SOLVED:
        typer.echo(first.message)
    else:
        for i, step in enumerate(steps, start=1):
            typer.echo(f"{i}. {step}" if all_steps else str(step))
    raise typer.Exit(0 if ok else 1)


def _hint_variant(
    text: str,
    source: str,
    size: int | None,
    entries: str | None,
    all_steps: bool,
    as_json: bool,
    time_limit: float,
) -> NoReturn:
    """The hint for a puzzle given as a JSON object (Killer, X, jigsaw); exits."""
    from .hint_variant import hint_variant

    puzzle = read_variant(text, source, size)
    extra = _read_one(entries, puzzle.size, "--entries") if entries is not None else None
    ok = hint_variant(puzzle, extra, all_steps, as_json, time_limit)
    raise typer.Exit(0 if ok else 1)


def _hint_json(grid: Grid, first: Hint, steps: tuple[Step, ...]) -> dict[str, Any]:
    """The hint (and the steps after it) as plain JSON data."""
    return {
        "status": first.status.spelled(Wording.HINT),
        "message": first.message,
        "wrong": [grid.cell_name(c) for c in first.wrong],
        "steps": [s.to_dict(grid.shape) for s in steps],
    }


def grade_command(
    puzzle_or_file: Annotated[
        str,
        typer.Argument(
            metavar="PUZZLE", help="A puzzle, a file of puzzles (one a line), or '-' for stdin."
        ),
    ],
    as_json: JsonOpt = False,
    size: SizeOpt = None,
    time_limit: SearchTimeLimitOpt = SEARCH_TIME_LIMIT_S,
) -> None:
    """Grade puzzles: Easy, Medium, Difficult or Extremely Difficult, with a score.

    The level comes from the hardest technique a step-by-step solve needs and how often
    it needs it. For many puzzles, one line each and a summary on stderr.
    Exit status: 0 when every puzzle has exactly one solution and was graded within
    --time-limit, 1 otherwise, 2 for bad usage.
    """
    from ...solver.logic import Level

    check_size(size)
    grids = _read_grids(puzzle_or_file, size, "puzzle")
    start = time.perf_counter()
    docs = [_grade_doc(g, time_limit) for g in grids]
    elapsed = time.perf_counter() - start
    if len(docs) == 1 and docs[0].get("status") == Outcome.TIMEOUT.value and not as_json:
        fail(docs[0]["error"])
    levels = Counter(d["level"] for d in docs)
    summary = {lv.label: levels.get(lv.label, 0) for lv in Level}
    if as_json:
        out: Any = docs[0] if len(docs) == 1 else {"results": docs, "summary": summary}
        typer.echo(json.dumps(out, indent=2 if len(docs) == 1 else None))
    else:
        _print_grades(docs, summary, elapsed)
    raise typer.Exit(1 if any(d["level"] is None for d in docs) else 0)


def _grade_doc(grid: Grid, time_limit: float) -> dict[str, Any]:
    """One grade as plain JSON data: the grade, or "level": null and the error.

    A puzzle whose grading ran out of time also carries "status": "timeout".
    """
    from ...solver.logic import grade_puzzle

    doc: dict[str, Any] = {"puzzle": grid.to_string()}
    try:
        grade, why = grade_puzzle(grid, time_limit=time_limit)
    except SearchTimeoutError as exc:
        return doc | {"level": None, "error": out_of_time(str(exc)),
                      "status": Outcome.TIMEOUT.value}  # fmt: skip
    return doc | (grade.to_dict() if grade else {"level": None, "error": why})


def _print_grades(docs: list[dict[str, Any]], summary: dict[str, int], elapsed: float) -> None:
    """One line per puzzle; for many, a summary line on stderr."""
    for d in docs:
        if d["level"] is None:
            typer.echo(f"{d['puzzle']}  error: {d['error']}")
        else:
            typer.echo(f"{d['puzzle']}  {d['level']:<19}  {d['score']:>6}  {d['hardest']}")
    if len(docs) > 1:
        failed = sum(1 for d in docs if d["level"] is None)
        parts = ", ".join(f"{k} {v} ({100 * v / len(docs):.0f}%)" for k, v in summary.items())
        bad = f", {failed} not gradable" if failed else ""
        say(f"{len(docs)} puzzles in {elapsed:.1f} s: {parts}{bad}")


def generate_command(
    level: LevelOpt,
    size: GenerateSizeOpt = 9,
    count: CountOpt = 1,
    symmetric: SymmetricOpt = False,
    seed: SeedOpt = None,
    time_limit: TimeLimitOpt = 60.0,
    as_json: JsonOpt = False,
) -> None:
    """Make new puzzles with exactly one solution at the level asked, one line each.

    Exit status: 0 on success, 1 when no puzzle at that level was found within
    --time-limit (or the size has none that hard), 2 for bad usage (an unknown or
    ambiguous level, an unsupported size).
    """
    from ...solver.logic import GenerateConfig, GenerationTimeoutError, Level, generate

    try:
        lv = Level.parse(LEVEL_ALIASES.get(" ".join(level.lower().split()), level))
        shape = shape_for_size(size)
    except ValueError as exc:
        usage_error(f"--{exc}")  # "--level must be one of ...", "--size must be one of ..."
    rng = random.Random(seed)
    cfg = GenerateConfig(time_limit_s=time_limit)
    docs = []
    for _ in range(count):
        try:
            made = generate(shape, lv, rng, symmetric=symmetric, config=cfg)
        except GenerationTimeoutError as exc:
            fail(f"time limit reached: {exc} with --time-limit")
        except ValueError as exc:
            fail(str(exc))
        if as_json:
            docs.append(_generated_json(shape, made))
        else:
            typer.echo(Grid(shape, made.puzzle).to_string())
    if as_json:
        typer.echo(json.dumps(docs[0] if count == 1 else docs, indent=2))


def _generated_json(shape: Shape, made: Generated) -> dict[str, Any]:
    """A new puzzle, its solution, clue count and grade as plain JSON data."""
    return {
        "puzzle": Grid(shape, made.puzzle).to_string(),
        "solution": Grid(shape, made.solution).to_string(),
        "clues": made.clues,
        **made.grade.to_dict(),
    }
