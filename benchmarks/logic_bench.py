"""Logic-solve rate and speed on the shared sets, beside dokusan's step solver; generation speed.

    .venv/bin/python benchmarks/logic_bench.py [--sample 200] [--hardest-sample 100]
        [--gen-count 5] [--write]

"Solved by logic" means filled without guessing. Because techniques are tried easiest
first, the share solved without forcing chains/nets is read off the same solves.
--write puts the table into benchmarks/README.md (its own section, others kept).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from sudokucam.benchmarks.common import script_parser
from sudokucam.samples.dataset import PUZZLES
from sudokucam.solver import shape_for_size
from sudokucam.solver.logic import ALL_TECHNIQUES, Level, Technique, generate, solve_steps

REPO = Path(__file__).resolve().parent.parent
FORCING = {Technique.FORCING_CHAIN, Technique.FORCING_NET, Technique.NESTED_FORCING}
SECTION = "## Logic solver: solving like a person"


def load(name: str, sample: int | None, seed: int = 2024) -> list[str]:
    """The puzzles of a set, or a seeded random sample of them."""
    lines = [s for s in (PUZZLES / name).read_text().split() if len(s) == 81]
    if sample is not None and sample < len(lines):
        lines = random.Random(seed).sample(lines, sample)
    return lines


def values(line: str) -> list[int]:
    """81 characters to values."""
    return [int(ch) if ch.isdigit() else 0 for ch in line]


def ours(line: str) -> tuple[bool, bool, float]:
    """(solved by logic, solved without forcing chains/nets, seconds)."""
    shape = shape_for_size(9)
    start = time.perf_counter()
    result = solve_steps(shape, values(line), ALL_TECHNIQUES)
    took = time.perf_counter() - start
    plain = result.solved and not any(s.technique in FORCING for s in result.steps)
    return result.solved, plain, took


def dokusan_steps(line: str) -> tuple[bool, float]:
    """(solved by dokusan's step solver, seconds)."""
    from dokusan import exceptions, solvers
    from dokusan.boards import BoxSize, Sudoku

    sudoku = Sudoku.from_string(line.replace(".", "0"), box_size=BoxSize(3, 3))
    start = time.perf_counter()
    try:
        for _ in solvers.steps(sudoku):
            pass
        ok = True
    except (exceptions.Unsolvable, exceptions.InvalidSudoku, exceptions.NoCandidates):
        ok = False
    return ok, time.perf_counter() - start


def run_set(name: str, lines: list[str]) -> dict[str, float]:
    """Rates and median times for one set."""
    mine = [ours(p) for p in lines]
    theirs = [dokusan_steps(p) for p in lines]
    n = len(lines)
    return {
        "n": n,
        "ours": 100 * sum(m[0] for m in mine) / n,
        "ours_plain": 100 * sum(m[1] for m in mine) / n,
        "ours_ms": 1000 * statistics.median(m[2] for m in mine),
        "dokusan": 100 * sum(t[0] for t in theirs) / n,
        "dokusan_ms": 1000 * statistics.median(t[1] for t in theirs),
    }


def gen_rate(size: int, level: Level, count: int) -> float:
    """Puzzles per second at a level."""
    rng = random.Random(7)
    start = time.perf_counter()
    for _ in range(count):
        generate(shape_for_size(size), level, rng)
    return count / (time.perf_counter() - start)


def table(rows: dict[str, dict[str, float]], gen: dict[tuple[int, Level], float]) -> str:
    """The Markdown section."""
    out = [
        SECTION,
        "",
        "`benchmarks/logic_bench.py`: share of puzzles filled by logic alone (no guessing) and",
        "median time per puzzle, ours beside dokusan's step solver (`dokusan.solvers.steps`),",
        'same puzzles, same run, one core. "No forcing" counts the puzzles ours solves without',
        "forcing chains or nets (patterns, wings, fish, colouring and chains only).",
        "",
        "| set | puzzles | ours: by logic | ours: no forcing | ours: median ms "
        "| dokusan: by logic | dokusan: median ms |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, r in rows.items():
        out.append(
            f"| {name} | {r['n']:.0f} | {r['ours']:.1f}% | {r['ours_plain']:.1f}% "
            f"| {r['ours_ms']:.1f} | {r['dokusan']:.1f}% | {r['dokusan_ms']:.1f} |"
        )
    out += [
        "",
        "Generation (puzzles per second, one core):",
        "",
        "| size | level | puzzles/s |",
        "|---|---|---:|",
    ]
    for (size, level), rate in gen.items():
        out.append(f"| {size}×{size} | {level.label} | {rate:.2f} |")
    return "\n".join(out) + "\n"


def write_section(text: str) -> None:
    """Replace (or append) this benchmark's section of benchmarks/README.md."""
    path = REPO / "benchmarks" / "README.md"
    old = path.read_text() if path.exists() else "# Benchmarks\n"
    if SECTION in old:
        head, _, rest = old.partition(SECTION)
        nxt = rest.find("\n## ")
        tail = rest[nxt + 1 :] if nxt >= 0 else ""
        new = head + text + ("\n" + tail if tail else "")
    else:
        new = old.rstrip() + "\n\n" + text
    path.write_text(new)


def main() -> None:
    """Run everything and print the table."""
    ap = script_parser(__doc__)
    ap.add_argument("--sample", type=int, default=200, help="puzzles from each big set")
    ap.add_argument("--hardest-sample", type=int, default=100, help="from forum_hardest")
    ap.add_argument("--gen-count", type=int, default=5, help="puzzles per level timed")
    ap.add_argument("--write", action="store_true", help="update benchmarks/README.md")
    args = ap.parse_args()
    sets: dict[str, Callable[[], list[str]]] = {
        "norvig_easy50": lambda: load("norvig_easy50.txt", None),
        f"tdoku_17_clue (sample {args.sample})": lambda: load("tdoku_17_clue.txt", args.sample),
        f"tdoku_magictour_top1465 (sample {args.sample})": lambda: load(
            "tdoku_magictour_top1465.txt", args.sample
        ),
        f"tdoku_forum_hardest_1905_11plus (sample {args.hardest_sample})": lambda: load(
            "tdoku_forum_hardest_1905_11plus.txt", args.hardest_sample
        ),
    }
    rows = {}
    for name, get in sets.items():
        rows[name] = run_set(name, get())
        print(name, rows[name], flush=True)
    gen = {(9, lv): gen_rate(9, lv, args.gen_count) for lv in Level}
    gen[(16, Level.EASY)] = gen_rate(16, Level.EASY, max(1, args.gen_count // 2))
    text = table(rows, gen)
    print(text)
    if args.write:
        write_section(text)


if __name__ == "__main__":
    main()
