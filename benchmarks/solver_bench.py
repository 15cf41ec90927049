"""Time the sudokucam solver per puzzle beside a Norvig-style reference and PyPI peers.

Usage: .venv/bin/python benchmarks/solver_bench.py [--limit 1000] [--peer-limit 100]
       [--generated 20] [--seed 0] [--sets 17_clue,top1465] [--no-peers] [--full-scan]
       [--json]

Both sudokucam and the reference (benchmarks/norvig_reference.py: Peter Norvig's
constraint propagation and search, written from his essay, extended to prove
uniqueness) do the whole job from the same 81-character line: parse, solve, and go on
until a second solution is found or shown not to exist. They run on each puzzle in
turn, one after the other, so the machine's load falls on both alike; the ratio is of
the per-puzzle medians. Times are CPU seconds of this process (time.process_time;
--wall for wall-clock). Every answer of ours is checked with is_solution, and its
solution count against the reference's.
Peers: dlxsudoku (Sudoku(text).solve(), which also proves uniqueness when it has to
guess) and py-sudoku (Sudoku(...).solve(), one solution, no uniqueness proof), on the
first --peer-limit puzzles of each sample. --full-scan times sudokucam alone on every
puzzle of every file and prints the slowest five of each.
"""

from __future__ import annotations

import argparse
import random
import signal
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from sudokucam.benchmarks import norvig_reference  # the yardstick, beside this file
from sudokucam.benchmarks.common import json_text, markdown_table, script_parser
from sudokucam.samples.dataset import PUZZLES
from sudokucam.solver import (
    Grid,
    Outcome,
    SolveResult,
    count_solutions,
    is_solution,
    solve_grid,
)
from sudokucam.solver.geometry import shape_for_size
from sudokucam.solver.sample import random_puzzle

CLUE_FRACTION = {16: 0.45, 25: 0.5}  # generated puzzles keep this share of clues (unique)
SLOWEST = 5  # slowest puzzles printed per set
IMPOSSIBLE = ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4........."
STATUS_COUNT = {Outcome.SOLVED: 1, Outcome.MULTIPLE_SOLUTIONS: 2, Outcome.NO_SOLUTION: 0}
CLOCK: Callable[[], float] = time.process_time  # CPU seconds: fair on a shared machine


@dataclass(frozen=True)
class Row:
    """One line of the table: a solver on a puzzle set."""

    puzzle_set: str
    solver: str
    puzzles: int
    median_ms: float
    p99_ms: float
    max_ms: float
    total_s: float
    note: str


@dataclass(frozen=True)
class Comparison:
    """sudokucam beside the reference on one set, and its slowest puzzles."""

    puzzle_set: str
    puzzles: int
    ours_median_ms: float
    reference_median_ms: float | None
    ratio: float | None  # reference median / ours
    slowest: tuple[tuple[str, float], ...]  # (puzzle, ms), slowest first


def load_lines(path: Path, limit: int, seed: int) -> list[str]:
    """A seeded sample of up to `limit` puzzle lines from a one-per-line file (0: all)."""
    lines = [s for s in (raw.strip() for raw in path.read_text().splitlines()) if s]
    if limit and len(lines) > limit:
        lines = random.Random(seed).sample(lines, limit)
    return lines


def generated_lines(size: int, count: int, seed: int) -> list[str]:
    """Seeded random unique puzzles of one size, as compact lines."""
    rng = random.Random(seed)
    shape = shape_for_size(size)
    return [random_puzzle(shape, rng, CLUE_FRACTION[size]).to_string() for _ in range(count)]


def check(line: str, result: SolveResult, reference: int | None) -> None:
    """Fail loudly on a wrong solution or a solution count unlike the reference's."""
    puzzle = Grid.parse(line)
    if not all(is_solution(s, puzzle) for s in result.solutions):
        raise AssertionError(f"wrong solution for {line}")
    ours = STATUS_COUNT.get(result.status)
    if reference is not None and ours != reference:
        raise AssertionError(f"{line}: {result.status} but the reference counts {reference}")


def compare(name: str, lines: list[str], with_reference: bool) -> Comparison:
    """Solve each puzzle with sudokucam, then with the reference, timing both."""
    ours: list[float] = []
    theirs: list[float] = []
    for line in lines:
        start = CLOCK()
        result = solve_grid(line)
        ours.append(CLOCK() - start)
        count: int | None = None
        if with_reference:
            start = CLOCK()
            count = norvig_reference.count_solutions(line, 2)
            theirs.append(CLOCK() - start)
        check(line, result, count)
    slowest = sorted(zip(ours, lines, strict=True), reverse=True)[:SLOWEST]
    ours_ms = statistics.median(ours) * 1e3
    ref_ms = statistics.median(theirs) * 1e3 if theirs else None
    return Comparison(
        name,
        len(lines),
        round(ours_ms, 3),
        None if ref_ms is None else round(ref_ms, 3),
        None if ref_ms is None else round(ref_ms / ours_ms, 2),
        tuple((line, round(t * 1e3, 2)) for t, line in slowest),
    )


class PeerTimeoutError(Exception):
    """A peer ran past --peer-timeout on one puzzle."""


def _alarm(signum: int, frame: object) -> None:
    raise PeerTimeoutError


def time_each(
    puzzles: list[Grid], run: Callable[[Grid], object], timeout: float = 0.0
) -> tuple[list[float], int]:
    """Seconds taken by run on each puzzle, and how many ran past timeout (0 = none).

    A puzzle that runs past the timeout counts as `timeout` seconds; after two such
    puzzles the rest of the set is skipped.
    """
    times: list[float] = []
    late = 0
    if timeout:
        signal.signal(signal.SIGALRM, _alarm)
    for p in puzzles:
        start = CLOCK()
        try:
            if timeout:
                signal.setitimer(signal.ITIMER_REAL, timeout)
            run(p)
            times.append(CLOCK() - start)
        except PeerTimeoutError:
            times.append(timeout)
            late += 1
            if late == 2:
                break
        finally:
            if timeout:
                signal.setitimer(signal.ITIMER_REAL, 0)
    return times, late


def summarise(name: str, solver: str, times: list[float], note: str = "") -> Row:
    """Median, p99 and max in milliseconds."""
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return Row(
        name,
        solver,
        len(times),
        round(statistics.median(ordered) * 1e3, 3),
        round(p99 * 1e3, 3),
        round(ordered[-1] * 1e3, 3),
        round(sum(times), 3),
        note,
    )


def run_ours(name: str, puzzles: list[Grid]) -> Row:
    """Time count_solutions(limit=2) on parsed grids (the search without validation)."""
    counts, _ = time_each(puzzles, lambda p: count_solutions(p, 2))
    return summarise(name, "sudokucam count_solutions(limit=2)", counts)


def run_peers(name: str, puzzles: list[Grid], timeout: float) -> list[Row]:
    """Time dlxsudoku and py-sudoku on the same puzzles (9×9 only for dlxsudoku)."""
    rows: list[Row] = []
    try:
        import dlxsudoku
        import sudoku
    except ImportError as exc:
        print(f"peers skipped: {exc} (install the 'bench' extra)", file=sys.stderr)
        return rows
    if puzzles[0].size == 9:
        rows.append(_peer_row(name, "dlxsudoku", puzzles, _dlx(dlxsudoku), timeout, ""))
    rows.append(_peer_row(name, "py-sudoku", puzzles, _pysudoku(sudoku), timeout, "no proof"))
    return rows


def _peer_row(
    name: str,
    solver: str,
    puzzles: list[Grid],
    run: Callable[[Grid], object],
    timeout: float,
    note: str,
) -> Row:
    """Time one peer; the note says how many puzzles ran past the timeout."""
    times, late = time_each(puzzles, run, timeout)
    if late:
        note = f"{note}; {late} over {timeout:g} s (counted as {timeout:g} s), set cut short"
    return summarise(name, solver, times, note.strip("; "))


def _dlx(module: object) -> Callable[[Grid], object]:
    """A runner for dlxsudoku; errors on multiple solutions are part of its answer."""
    from dlxsudoku.exceptions import SudokuException

    def run(p: Grid) -> object:
        try:
            return module.Sudoku(p.to_string().replace(".", "0")).solve()  # type: ignore[attr-defined]
        except SudokuException as exc:
            return exc

    return run


def _pysudoku(module: object) -> Callable[[Grid], object]:
    """A runner for py-sudoku (boxes given as width × height)."""

    def run(p: Grid) -> object:
        board = [list(row) for row in p.rows()]
        s = module.Sudoku(p.shape.box_cols, p.shape.box_rows, board=board)  # type: ignore[attr-defined]
        return s.solve()

    return run


def markdown(comparisons: list[Comparison], rows: list[Row]) -> str:
    """The comparison table, the slowest puzzles of each set, and the other rows."""
    columns = ["set", "puzzles", "sudokucam median ms", "reference median ms", "ratio",
               "slowest ms"]  # fmt: skip
    lines = markdown_table(columns, "lrrrrr", [
        (c.puzzle_set, c.puzzles, f"{c.ours_median_ms:.3f}",
         "" if c.reference_median_ms is None else f"{c.reference_median_ms:.3f}",
         "" if c.ratio is None else f"{c.ratio:.1f}×", c.slowest[0][1] if c.slowest else 0.0)
        for c in comparisons
    ])  # fmt: skip
    for c in comparisons:
        lines.append(f"\nslowest of {c.puzzle_set} (sudokucam ms):")
        lines += [f"  {ms:10.2f}  {line}" for line, ms in c.slowest]
    if rows:
        columns = ["set", "solver", "puzzles", "median ms", "p99 ms", "max ms", "total s", "note"]
        lines += ["", *markdown_table(columns, "llrrrrrl", [
            (r.puzzle_set, r.solver, r.puzzles, f"{r.median_ms:.3f}", f"{r.p99_ms:.3f}",
             f"{r.max_ms:.3f}", f"{r.total_s:.2f}", r.note)
            for r in rows
        ])]  # fmt: skip
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command-line options."""
    ap = script_parser(__doc__)
    ap.add_argument("--limit", type=int, default=1000, help="puzzles sampled per set (0: all)")
    ap.add_argument("--peer-limit", type=int, default=100, help="puzzles per set for peers")
    ap.add_argument("--generated", type=int, default=20, help="16×16 and 25×25 puzzles each")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sets", default="", help="comma-separated substrings of set names")
    ap.add_argument("--peer-timeout", type=float, default=10.0, help="seconds per peer puzzle")
    ap.add_argument("--wall", action="store_true", help="wall-clock time instead of CPU time")
    ap.add_argument("--no-peers", action="store_true", help="no PyPI peers")
    ap.add_argument("--full-scan", action="store_true", help="sudokucam alone on every puzzle")
    ap.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    return ap.parse_args(argv)


def puzzle_sets(args: argparse.Namespace) -> list[tuple[str, Callable[[], list[str]]]]:
    """The sets asked for, each with a loader of its puzzle lines."""
    limit = 0 if args.full_scan else args.limit
    sets: list[tuple[str, Callable[[], list[str]]]] = [
        (path.stem, partial(load_lines, path, limit, args.seed))
        for path in sorted(PUZZLES.glob("*.txt"))
    ]
    sets.append(("norvig_impossible", lambda: [IMPOSSIBLE]))
    if args.generated:
        for size in (16, 25):
            name = f"generated_{size}x{size}"
            sets.append((name, partial(generated_lines, size, args.generated, args.seed)))
    wanted = [w for w in args.sets.split(",") if w]
    return [(n, load) for n, load in sets if not wanted or any(w in n for w in wanted)]


def main(argv: list[str] | None = None) -> int:
    """Run every set and print the tables."""
    args = parse_args(argv)
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter
    comparisons: list[Comparison] = []
    rows: list[Row] = []
    for name, load in puzzle_sets(args):
        lines = load()
        nine = len(lines[0]) == 81 and name != "norvig_impossible"  # the reference: 9×9 only
        comparisons.append(compare(name, lines, nine and not args.full_scan))
        if not args.full_scan:
            grids = [Grid.parse(line) for line in lines]
            rows.append(run_ours(name, grids))
            if not args.no_peers:
                rows += run_peers(name, grids[: args.peer_limit], args.peer_timeout)
        print(f"done {name}", file=sys.stderr, flush=True)
    if args.json:
        print(json_text([*comparisons, *rows]), end="")
    else:
        print(markdown(comparisons, rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
