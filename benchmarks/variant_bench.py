"""Time the variant solver (Killer, Sudoku X, jigsaw) per puzzle, uniqueness proof included.

Usage: .venv/bin/python benchmarks/variant_bench.py [--count 30] [--seed 0] [--json]
       [--kinds killer,killer_big,killer_6x6,x,jigsaw]

Puzzles are made here, seeded, by solver/variant_sample.py: Killers cut from a random
solved grid into cages of 2-5 cells (killer: as newspapers print them, no givens),
of 3-6 cells (killer_big: about 25 larger cages, harder), 6×6 Killers; Sudoku X and jigsaw
(random regions) puzzles with clues removed in random order while unique, down to 24
(printed ones keep 22-30). Each is timed through solve_variant (validation, search,
uniqueness proof), with the variant tables built afresh (as for a new puzzle at the
command line), and its answer checked against the grid it was made from. Times are CPU
seconds of this process (time.process_time).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from sudokucam.benchmarks.common import json_text, markdown_table, script_parser
from sudokucam.solver.variant import Variant, VariantPuzzle
from sudokucam.solver.variant_sample import (
    KillerConfig,
    VariantConfig,
    random_jigsaw,
    random_killer,
    random_variant,
)
from sudokucam.solver.variant_search import variant_tables
from sudokucam.solver.variant_solve import solve_variant

Made = tuple[VariantPuzzle, tuple[int, ...]]
PRINTED_CLUES = 24  # X and jigsaw puzzles keep this many clues (or more where needed)


@dataclass(frozen=True)
class Row:
    """One kind of puzzle: how many, and the solve times."""

    kind: str
    puzzles: int
    median_ms: float
    p90_ms: float
    max_ms: float
    mean_cages_or_clues: float


def _killer(size: int, sizes: tuple[int, ...]) -> Callable[[random.Random], Made]:
    """A maker of Killers of one size and cage sizes."""
    cfg = KillerConfig(cage_sizes=sizes, tries=400, seconds_per_try=1.0, time_limit_s=120.0)
    return lambda rng: random_killer(rng, size, cfg)


def _x(rng: random.Random) -> Made:
    """A Sudoku X with PRINTED_CLUES clues."""
    made = random_variant(rng, 9, Variant.X, (), True, PRINTED_CLUES)
    assert made is not None  # an empty X grid always has solutions
    return made


def _jigsaw(rng: random.Random) -> Made:
    """A jigsaw with PRINTED_CLUES clues on random regions (new regions until a layout has
    a solution)."""
    return random_jigsaw(rng, 9, PRINTED_CLUES, VariantConfig(time_limit_s=120.0, layouts=100))


KINDS: dict[str, Callable[[random.Random], Made]] = {
    "killer": _killer(9, (2, 2, 2, 3, 3, 3, 4, 4, 5)),
    "killer_big": _killer(9, (3, 3, 4, 4, 5, 6)),
    "killer_6x6": _killer(6, (2, 2, 3, 3, 4)),
    "x": _x,
    "jigsaw": _jigsaw,
}


def time_kind(kind: str, count: int, seed: int) -> Row:
    """Make `count` puzzles of a kind and time solving each; fail loudly on a wrong answer."""
    rng = random.Random(seed)
    times: list[float] = []
    sizes: list[int] = []
    for _ in range(count):
        puzzle, solution = KINDS[kind](rng)
        variant_tables.cache_clear()
        start = time.process_time()
        result = solve_variant(puzzle)
        times.append(time.process_time() - start)
        if result.solution is None or result.solution.values != solution:
            raise AssertionError(f"{kind}: {result.message} for {puzzle}")
        sizes.append(len(puzzle.cages) or sum(1 for v in puzzle.givens if v))
    ordered = sorted(times)
    return Row(
        kind,
        count,
        round(statistics.median(ordered) * 1e3, 2),
        round(ordered[int(0.9 * (count - 1))] * 1e3, 2),
        round(ordered[-1] * 1e3, 2),
        round(statistics.mean(sizes), 1),
    )


def markdown(rows: list[Row]) -> str:
    """The table."""
    columns = ["kind", "puzzles", "median ms", "p90 ms", "max ms", "cages (killer) or clues"]
    cells = [
        (r.kind, r.puzzles, f"{r.median_ms:.2f}", f"{r.p90_ms:.2f}", f"{r.max_ms:.2f}",
         r.mean_cages_or_clues)
        for r in rows
    ]  # fmt: skip
    return "\n".join(markdown_table(columns, "lrrrrr", cells))


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command-line options."""
    ap = script_parser(__doc__)
    ap.add_argument("--count", type=int, default=30, help="puzzles per kind")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--kinds", default=",".join(KINDS), help="comma-separated kinds")
    ap.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Time every kind asked for and print the table."""
    args = parse_args(argv)
    rows = []
    for kind in args.kinds.split(","):
        if kind not in KINDS:
            print(f"unknown kind {kind!r}; known: {', '.join(KINDS)}", file=sys.stderr)
            return 2
        rows.append(time_kind(kind, args.count, args.seed))
        print(f"done {kind}", file=sys.stderr, flush=True)
    print(json_text(rows) if args.json else markdown(rows), end="\n" if not args.json else "")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
