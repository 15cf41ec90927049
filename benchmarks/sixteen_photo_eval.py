"""Read rendered photos of 16×16 Sudokus (4×4 boxes; the numbers 1-16, or with
``--symbols`` the symbols 0-9 and A-F or the letters A-P) end to end.

Photos come from ``samples/synth/sixteen_drawing.py`` (through ``samples/render.py``),
the style alternating photo by photo (magazine, bold, shaded boxes, a narrow face), each
at a phone photo's size with the angles, light, shadows, blur and noise of the classic
rendered photos, passed through JPEG at its own quality. Each is read by the default
reader: grid found (16×16), cells right (every number exactly), solved right (the true
answer), and milliseconds per photo (reading only, process time, rendering aside).
``--turn`` turns every photo first (``small_photo_eval.TURNS``). ``--symbols`` says
what the pages print (``numbers``, ``hex``, ``letters``, or ``all``: the three in turn,
the table then a row per set and style and per set); for a symbol page, cells right also
asks that the grid says the page's symbols (``"symbols"`` of the JSON).

``--pen FILL`` draws the pages half solved in pen instead (FILL of the empty cells
written in, two of them wrong: ``render_sixteen_photo``'s ``pen_fill``; the symbols of
``--symbols`` written as printed, a row per set and style) and judges the check:
entries written, found (read as pen, as written), read as another number, right entries
called wrong (0 expected), wrong entries called wrong or unsure, answers right, and
milliseconds per photo.

``--nine`` checks the other way: no 9×9 photo may be taken for a 16×16. The 16×16
finder (``find_sixteen_grid``) is run alone on the shared sudoku_dataset's photos
(``--split``, both versions) and on rendered photos of every classic kind and of the
Killer (``small_photo_eval.nine_photos``), whatever the 9×9 reading; each is also read
by the default reader, and those read as a grid of another size are counted (0
expected for both).

    .venv/bin/python benchmarks/sixteen_photo_eval.py                  # 24 16×16 photos
    .venv/bin/python benchmarks/sixteen_photo_eval.py --count 0 --nine --per-kind 3
    .venv/bin/python benchmarks/sixteen_photo_eval.py --count 8 --turn 90cw
    .venv/bin/python benchmarks/sixteen_photo_eval.py --count 48 --symbols all
    .venv/bin/python benchmarks/sixteen_photo_eval.py --count 8 --pen 0.5
    .venv/bin/python benchmarks/sixteen_photo_eval.py --count 12 --pen 0.5 --symbols all
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

import numpy as np

from sudokucam.benchmarks.common import (
    add_photo_options,
    finish_photos,
    judge_photos,
    markdown_table,
    parse_photo_args,
    script_parser,
)
from sudokucam.benchmarks.small_photo_eval import (
    TURN_HELP,
    TURNS,
    Outcome,
    jpeg_round_trip,
    nine_photos,
    table,
    tally_nine,
    timed_read,
    turned,
)
from sudokucam.samples import dataset, render
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.small.sixteen import SIXTEEN, find_sixteen_grid
from sudokucam.vision.types import digit_values, digits_of


def read_one(
    reader: Reader, style: str, seed: int, turn: str = "none", symbols: str = "numbers"
) -> Outcome:
    """Render one 16×16 photo (printed with ``symbols``: a ``SIXTEEN_SYMBOLS`` name), pass
    it through JPEG, turn it (``TURNS``), read it and judge the reading (the outcome's
    style: "set style" where ``symbols`` is not the numbers)."""
    made = render.render_sixteen_photo(seed, style, symbols)
    label = style if symbols == "numbers" else f"{symbols} {style}"
    image = turned(jpeg_round_trip(made.photo.image, made.photo.jpeg_quality), turn)
    result, ms = timed_read(reader, image)
    grid = result.grids[0] if result.grids else None
    if grid is None or grid.structure.size != SIXTEEN:
        return Outcome(SIXTEEN, label, seed, False, False, False, ms, result.message or "")
    cells = grid.givens == digits_of(made.puzzle.givens) and set(grid.handwritten) == {"0"}
    cells = cells and grid.structure.symbols == made.puzzle.symbols
    solved = grid.solution == digits_of(made.answer) and grid.structure.symbols == (
        made.puzzle.symbols
    )
    return Outcome(SIXTEEN, label, seed, True, cells, solved, ms, grid.message)


PEN_MISTAKES = 2  # wrong entries written on each pen page


@dataclass(frozen=True)
class PenOutcome:
    """One pen page checked: entries written, found (read as written), read as another
    number; wrong entries written, called wrong, called unsure; right entries called
    wrong; the answer right; milliseconds."""

    style: str
    seed: int
    written: int
    found: int
    misread: int
    mistakes: int
    caught: int
    asked: int
    right_called_wrong: int
    solved: bool
    ms: float


def pen_one(
    reader: Reader, style: str, seed: int, fill: float, turn: str = "none", symbols: str = "numbers"
) -> PenOutcome:
    """Render one 16×16 half solved in pen (``fill``; printed and written with
    ``symbols``), read and check it (the outcome's style: "set style" past the numbers)."""
    made = render.render_sixteen_photo(seed, style, symbols, pen_fill=fill,
                                       pen_mistakes=PEN_MISTAKES)  # fmt: skip
    style = style if symbols == "numbers" else f"{symbols} {style}"
    truth = made.photo.truth
    image = turned(jpeg_round_trip(made.photo.image, made.photo.jpeg_quality), turn)
    result, ms = timed_read(reader, image)
    pen = truth.pen.ravel()
    mistakes = {r * SIXTEEN + c for r, c in truth.mistakes}
    grid = result.grids[0] if result.grids else None
    if grid is None or grid.structure.size != SIXTEEN:
        return PenOutcome(style, seed, int((pen > 0).sum()), 0, 0, len(mistakes), 0, 0, 0,
                          False, ms)  # fmt: skip
    found = np.array(digit_values(grid.handwritten))
    wrong, asked = set(grid.wrong_entries), {u.cell for u in grid.unsure_entries()}
    return PenOutcome(
        style, seed, int((pen > 0).sum()), int(((found > 0) & (found == pen)).sum()),
        int(((found > 0) & (found != pen)).sum()), len(mistakes), len(wrong & mistakes),
        len(asked & mistakes), len(wrong - mistakes), grid.solution == digits_of(made.answer),
        ms,
    )  # fmt: skip


def pen_table(outcomes: list[PenOutcome]) -> str:
    """A Markdown table of the pen pages, a row per style and one for all."""
    groups: dict[str, list[PenOutcome]] = {}
    for o in outcomes:
        for key in (o.style, "all"):
            groups.setdefault(key, []).append(o)
    rows = []
    for style, group in sorted(groups.items(), key=lambda kv: (kv[0] == "all", kv[0])):
        total = {k: sum(getattr(o, k) for o in group) for k in PenOutcome.__dataclass_fields__
                 if k not in ("style", "seed", "ms")}  # fmt: skip
        found = f"{total['found']} of {total['written']}"
        rows.append([style, len(group), found, total["misread"], total["right_called_wrong"],
                     f"{total['caught']} + {total['asked']} of {total['mistakes']}",
                     f"{total['solved']} of {len(group)}",
                     f"{statistics.median(o.ms for o in group):.0f}"])  # fmt: skip
    head = ["style", "photos", "entries found", "read as another", "right called wrong",
            "wrong: called wrong + unsure", "solved right", "ms per photo (median)"]  # fmt: skip
    return "\n".join(markdown_table(head, "lrrrrrrr", rows))


def run_pen(
    reader: Reader, count: int, seed: int, fill: float, turn: str, sets: tuple[str, ...]
) -> None:
    """Check ``count`` pen pages (styles in turn, then the symbol ``sets`` in turn) and
    print their table."""
    styles = render.SIXTEEN_STYLES
    outcomes = []
    for i in range(count):
        symbols = sets[i // len(styles) % len(sets)]
        outcome = pen_one(reader, styles[i % len(styles)], seed + i, fill, turn, symbols)
        print(f"16×16 pen {outcome.seed}: {outcome}", flush=True)
        outcomes.append(outcome)
    print(pen_table(outcomes))


def set_table(outcomes: list[Outcome]) -> str:
    """A Markdown table: per symbol set and style, per set, and all, the rates and the
    median milliseconds."""
    groups: dict[tuple[str, str], list[Outcome]] = {}
    for o in outcomes:
        kind, _, style = o.style.rpartition(" ")
        kind = kind or "numbers"
        for key in ((kind, style), (kind, "all"), ("all", "all")):
            groups.setdefault(key, []).append(o)
    rows = []
    for (kind, style), group in sorted(groups.items(), key=lambda kv: (kv[0][0] == "all", kv[0])):
        n = len(group)
        rates = [f"{100 * sum(getattr(o, k) for o in group) / n:.1f} %"
                 for k in ("found", "cells", "solved")]  # fmt: skip
        rows.append([kind, style, n, *rates, f"{statistics.median(o.ms for o in group):.0f}"])
    head = ["symbols", "style", "photos", "grid found", "cells right", "solved right",
            "ms per photo (median)"]  # fmt: skip
    return "\n".join(markdown_table(head, "llrrrrr", rows))


def check_nine(reader: Reader, split: str, per_kind: int, seed: int) -> int:
    """Run the 16×16 finder alone on every 9×9 photo and read each; print those in which
    it takes a quad for a 16×16 or read as another size; return how many were either."""

    def taken(name: str, _: Any) -> str:
        """The line for a photo in which the finder alone takes a grid."""
        return f"- {name}: the 16×16 finder alone takes a 16×16 grid in it"

    t = tally_nine(reader, nine_photos(split, per_kind, seed), find_sixteen_grid, taken)
    print(f"\n9×9 photos: {t.photos}; read as another size: {t.changed}; a 16×16 found by "
          f"its finder alone: {t.taken} (its median {t.median_ms:.0f} ms a photo)")  # fmt: skip
    return t.changed + t.taken


def main() -> None:
    """Render, read, print the table, the photos not read right, and the 9×9 check."""
    parser = script_parser(__doc__)
    add_photo_options(parser, (24, "16×16 photos (0: none)"), 1600, dataset.SPLITS)
    parser.add_argument("--turn", choices=tuple(TURNS), default="none", help=TURN_HELP)
    sets_help = "what the pages print (default numbers)"
    parser.add_argument("--symbols", choices=(*render.SIXTEEN_SYMBOLS, "all"), default="numbers",
                        help=sets_help)  # fmt: skip
    parser.add_argument("--pen", type=float, default=0.0,
                        help="pages half solved in pen: this share of the empty "
                        "cells written in, two wrong (default 0: none)")  # fmt: skip
    args = parse_photo_args(parser)
    reader = Reader()
    sets = tuple(render.SIXTEEN_SYMBOLS) if args.symbols == "all" else (args.symbols,)
    if args.pen > 0:
        run_pen(reader, args.count, args.seed, args.pen, args.turn, sets)
        return
    styles = render.SIXTEEN_STYLES
    reads = (
        read_one(
            reader,
            styles[i % len(styles)],
            args.seed + i,
            args.turn,
            sets[i // len(styles) % len(sets)],
        )
        for i in range(args.count)
    )
    names = (lambda o: f"16×16 {o.seed}", lambda o: f"{o.style} seed {o.seed}")
    outcomes = judge_photos(reads, names, table if args.symbols == "numbers" else set_table)
    finish_photos(args, outcomes, lambda: check_nine(reader, args.split, args.per_kind, args.seed))


if __name__ == "__main__":
    main()
