"""Time the sudokucam solver per puzzle, side by side with PyPI peers.

Usage: .venv/bin/python benchmarks/solver_bench.py [--limit 1000] [--peer-limit 100]
       [--generated 20] [--seed 0] [--sets 17_clue,top1465] [--no-peers] [--json]

Times are CPU seconds of this process (time.process_time; --wall for wall-clock), which
stay fair while other jobs share the machine. Ours is timed on solve_grid (validation,
solution, and the uniqueness proof: the search runs on until it has shown there is no
second solution) and on count_solutions(limit=2).
Peers: dlxsudoku (Sudoku(text).solve(), which also proves uniqueness when it has to
guess) and py-sudoku (Sudoku(...).solve(), one solution, no uniqueness proof). Peers run on
the first --peer-limit puzzles of each sample, which is slow for them on hard sets.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

from sudokucam.samples.dataset import PUZZLES
from sudokucam.solver import Grid, Outcome, Wording, count_solutions, is_solution, solve_grid
from sudokucam.solver.geometry import shape_for_size
from sudokucam.solver.sample import random_puzzle

CLUE_FRACTION = {16: 0.45, 25: 0.5}  # generated puzzles keep this share of clues (unique)


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


def load_set(path: Path, limit: int, seed: int) -> list[Grid]:
    """A seeded sample of up to `limit` puzzles from a one-per-line file."""
    lines = [s for s in (raw.strip() for raw in path.read_text().splitlines()) if s]
    if len(lines) > limit:
        lines = random.Random(seed).sample(lines, limit)
    return [Grid.parse(line) for line in lines]


def generated_set(size: int, count: int, seed: int) -> list[Grid]:
    """Seeded random unique puzzles of one size."""
    rng = random.Random(seed)
    shape = shape_for_size(size)
    return [random_puzzle(shape, rng, CLUE_FRACTION[size]) for _ in range(count)]


CLOCK: Callable[[], float] = time.process_time  # CPU seconds: fair on a shared machine


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


def run_ours(name: str, puzzles: list[Grid]) -> list[Row]:
    """Time solve_grid and count_solutions, checking every answer with the oracle."""
    results: dict[Outcome, int] = {}

    def solve_and_check(p: Grid) -> None:
        r = solve_grid(p)
        results[r.status] = results.get(r.status, 0) + 1
        if not all(is_solution(s, p) for s in r.solutions):
            raise AssertionError(f"wrong solution for {p.to_string()}")

    times, _ = time_each(puzzles, solve_grid)
    for p in puzzles:
        solve_and_check(p)
    note = ", ".join(f"{n} {s.spelled(Wording.GRID)}" for s, n in results.items())
    counts, _ = time_each(puzzles, lambda p: count_solutions(p, 2))
    return [
        summarise(name, "sudokucam solve_grid (unique proof)", times, note),
        summarise(name, "sudokucam count_solutions(limit=2)", counts),
    ]


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


def markdown(rows: list[Row]) -> str:
    """The rows as a Markdown table."""
    head = "| set | solver | puzzles | median ms | p99 ms | max ms | total s | note |"
    lines = [head, "|---|---|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append(
            f"| {r.puzzle_set} | {r.solver} | {r.puzzles} | {r.median_ms:.3f} | {r.p99_ms:.3f} "
            f"| {r.max_ms:.3f} | {r.total_s:.2f} | {r.note} |"
        )
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command-line options."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=1000, help="puzzles sampled per set")
    ap.add_argument("--peer-limit", type=int, default=100, help="puzzles per set for peers")
    ap.add_argument("--generated", type=int, default=20, help="16×16 and 25×25 puzzles each")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sets", default="", help="comma-separated substrings of set names")
    ap.add_argument("--peer-timeout", type=float, default=10.0, help="seconds per peer puzzle")
    ap.add_argument("--wall", action="store_true", help="wall-clock time instead of CPU time")
    ap.add_argument("--no-peers", action="store_true", help="time sudokucam only")
    ap.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run every set and print the table."""
    args = parse_args(argv)
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter
    wanted = [w for w in args.sets.split(",") if w]
    sets: list[tuple[str, Callable[[], list[Grid]]]] = [
        (path.stem, partial(load_set, path, args.limit, args.seed))
        for path in sorted(PUZZLES.glob("*.txt"))
    ]
    if args.generated:
        for size in (16, 25):
            name = f"generated_{size}x{size}"
            sets.append((name, partial(generated_set, size, args.generated, args.seed)))
    rows: list[Row] = []
    for name, load in sets:
        if wanted and not any(w in name for w in wanted):
            continue
        puzzles = load()
        rows += run_ours(name, puzzles)
        if not args.no_peers:
            rows += run_peers(name, puzzles[: args.peer_limit], args.peer_timeout)
        print(f"done {name}", file=sys.stderr, flush=True)
    print(json.dumps([asdict(r) for r in rows], indent=2) if args.json else markdown(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
