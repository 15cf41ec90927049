"""Read the wild photos (papers the model never trained on) end to end against their truth.

``../shared/data/wild_photos`` holds 25 real photos from four other sources: Indian
newspapers, printed sheets (one curved), Romanian sheets, French papers outside the
sudoku_dataset's splits. Each photo is solved as ``sudokucam solve`` would; the first grid
in reading order is compared with the labels. Prints a Markdown table (grids exact,
printed digits taken as written and written taken as printed, handwritten digits right,
solved right) and one line per photo not read exactly.

    .venv/bin/python benchmarks/wild_eval.py
    .venv/bin/python benchmarks/wild_eval.py --json wild.json
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from sudokucam.benchmarks.common import json_text, script_parser
from sudokucam.samples.dataset import WILD, WildPhoto, kind_swaps, wild_photos
from sudokucam.solver import Outcome, as_grid, solve_grid
from sudokucam.solver.geometry import cell_name
from sudokucam.vision.pipeline import EVERY_GRID_CONFIG, Reader


@dataclass(frozen=True)
class WildRead:
    """How one wild photo was read against its labels."""

    name: str
    found: bool
    exact: bool
    print_as_pen: int
    pen_as_print: int
    pen_right: int
    pen_total: int
    solved_right: bool
    status: str
    seconds: float
    wrong: tuple[str, ...]


def true_solution(givens: str) -> str | None:
    """The one solution of the labelled givens (None if they have no single one)."""
    result = solve_grid(as_grid(givens))
    solution = result.solution if result.status is Outcome.SOLVED else None
    return None if solution is None else "".join(str(v) for v in solution.values)


def read_one(reader: Reader, photo: WildPhoto) -> WildRead:
    """Solve one photo and compare its first grid with the labels."""
    started = time.perf_counter()
    result, _ = reader.solve(photo.path)
    seconds = time.perf_counter() - started
    pen_total = sum(d != "0" for d in photo.handwritten)
    if not result.grids:
        return WildRead(photo.name, False, False, 0, 0, 0, pen_total, False, str(result.status),
                        seconds, ("no grid",))  # fmt: skip
    grid = result.grids[0]
    as_pen, as_print = kind_swaps(grid.givens, grid.handwritten, photo.givens, photo.handwritten)
    wrong = tuple(
        f"{cell_name(c)} read {grid.givens[c]}/{grid.handwritten[c]}p, "
        f"is {photo.givens[c]}/{photo.handwritten[c]}p"
        for c in range(81)
        if (grid.givens[c], grid.handwritten[c]) != (photo.givens[c], photo.handwritten[c])
    )
    pen_right = sum(
        t != "0" and h == t for t, h in zip(photo.handwritten, grid.handwritten, strict=True)
    )
    solved = grid.solution is not None and grid.solution == true_solution(photo.givens)
    return WildRead(photo.name, True, not wrong, as_pen, as_print, pen_right, pen_total, solved,
                    str(grid.status), seconds, wrong)  # fmt: skip


def table(reads: list[WildRead]) -> str:
    """The Markdown summary: one row for the whole set."""
    n = len(reads)
    pen_total = sum(r.pen_total for r in reads)
    pen = f"{sum(r.pen_right for r in reads)} / {pen_total}" if pen_total else "none labelled"
    return "\n".join(
        [
            "| photos | grid found | exact grids | printed taken as written | written taken as "
            "printed | handwritten digits right | solved right | median ms |",
            "|---|---|---|---|---|---|---|---|",
            f"| {n} | {sum(r.found for r in reads)} | {sum(r.exact for r in reads)} "
            f"| {sum(r.print_as_pen for r in reads)} | {sum(r.pen_as_print for r in reads)} "
            f"| {pen} | {sum(r.solved_right for r in reads)} "
            f"| {statistics.median(r.seconds for r in reads) * 1000:.0f} |",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    """Read every wild photo; print the table and the misses; exit 1 if the set is absent."""
    parser = script_parser(__doc__)
    parser.add_argument("--folder", type=Path, default=WILD, help="the wild_photos folder")
    parser.add_argument("--json", type=Path, help="also write every photo's result here")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"no wild photos at {args.folder}", file=sys.stderr)
        return 1
    reader = Reader(config=EVERY_GRID_CONFIG)
    reads = [read_one(reader, photo) for photo in wild_photos(args.folder)]
    print(table(reads))
    for r in reads:
        if not r.exact:
            print(f"- {r.name}: {r.status}; " + "; ".join(r.wrong[:8]))
    if args.json:
        args.json.write_text(json_text(reads))
    return 0


if __name__ == "__main__":
    sys.exit(main())
