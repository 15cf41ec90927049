"""Read rendered photos of small Sudokus (6×6 with 2×3 boxes; 4×4, 8×8; and 12×12 with 3×4
boxes and the numbers 1-12) end to end.

Photos come from ``samples/synth/small_drawing.py`` (through ``samples/render.py``), the
style alternating photo by photo (newspaper, book, shaded boxes, a children's book's
coloured lines and boxes), each photographed at the angles, light, shadows, blur and
noise of the classic rendered photos and passed through JPEG at its own quality. Each is
read by the default reader: grid found (its size right), cells right (the printed digits
exactly), solved right (the true answer), and milliseconds per photo (reading only,
process time, rendering aside). ``--turn`` turns every photo first (a page photographed
sideways or upside down: ``cv2.rotate``).

``--pen-fill`` half-solves every page first: that share of its empty cells written in pen
(one of them wrong, ``--pen-mistakes``), in the pen inks of the 9×9 progress pages. The
cells are then right when the printed digits are read as givens and every pen entry as
the person's entry (its digit as written); the table adds the pen entries taken for print
(read as givens: the reading then solves a different puzzle, or none), read right, and
the right entries called wrong (``GridResult.wrong_entries`` beyond the ones written wrong
on purpose: 0 expected) and the entries written wrong that the reading names wrong or asks
about (``unsure_entries``: not taken for the answer's value).

``--nine`` checks the other way: 9×9 photos must never be read as a small grid. It reads
the shared sudoku_dataset's photos (``--split``, both versions) and rendered photos of
every classic kind and of the Killer, and counts those read as a grid of another size
(0 expected; a small grid is only looked for where no 9×9 is solved, so nothing else can
change). As that search runs on few of them, the small-grid finder is also run alone on
every one of these photos (``find_small_grid``, whatever the 9×9 reading): the photos in
which it takes a quad for a small grid are counted too (0 expected), and so is the 12×12
finder (``find_sixteen_grid`` with ``DEFAULT_TWELVE_CONFIG``).

    .venv/bin/python benchmarks/small_photo_eval.py                     # 24 6×6 photos
    .venv/bin/python benchmarks/small_photo_eval.py --sizes 4 6 8 --count 12
    .venv/bin/python benchmarks/small_photo_eval.py --sizes 4 6 8 --count 12 --turn 90cw
    .venv/bin/python benchmarks/small_photo_eval.py --count 0 --nine --per-kind 6
    .venv/bin/python benchmarks/small_photo_eval.py --sizes 4 6 8 --count 8 --pen-fill 0.4
    .venv/bin/python benchmarks/small_photo_eval.py --sizes 12 --count 40 --seed 1000
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from sudokucam.benchmarks.common import (
    add_pen_options,
    add_photo_options,
    finish_photos,
    judge_photos,
    markdown_table,
    parse_photo_args,
    script_parser,
)
from sudokucam.samples import dataset, render
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.results import PhotoResult
from sudokucam.vision.small.find import SmallGrid, find_small_grid
from sudokucam.vision.small.sixteen import find_sixteen_grid
from sudokucam.vision.small.sixteen_config import DEFAULT_TWELVE_CONFIG
from sudokucam.vision.types import digits_of

SIZES = (*render.SMALL_SIZES, 12)  # a 12×12 (3×4 boxes, the numbers 1-12) drawn too

TURNS = {
    "none": None,
    "90cw": cv2.ROTATE_90_CLOCKWISE,
    "180": cv2.ROTATE_180,
    "90ccw": cv2.ROTATE_90_COUNTERCLOCKWISE,
}  # --turn: how every photo is turned before it is read


TURN_HELP = "turn every photo before reading it (a page photographed sideways or upside down)"


def turned(image: np.ndarray, turn: str) -> np.ndarray:
    """The photo turned as ``--turn`` says (one of ``TURNS``)."""
    code = TURNS[turn]
    return image if code is None else cv2.rotate(image, code)


@dataclass(frozen=True)
class Outcome:
    """One small photo read: what was right, and how long reading took."""

    size: int
    style: str
    seed: int
    found: bool
    cells: bool
    solved: bool
    ms: float
    message: str
    pen: int = 0  # pen entries on the page
    pen_as_print: int = 0  # of them, read as printed givens
    pen_right: int = 0  # of them, read as the person's entry with the digit written
    right_called_wrong: int = 0  # entries written right but named wrong
    mistakes: int = 0  # entries written wrong
    mistakes_caught: int = 0  # of them, named wrong or asked about


def jpeg_round_trip(image: np.ndarray, quality: int) -> np.ndarray:
    """The image as its JPEG file would give it back."""
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR) if ok else None
    return image if decoded is None else np.asarray(decoded)


def timed_read(reader: Reader, image: np.ndarray) -> tuple[PhotoResult, float]:
    """The photo read, and the process milliseconds it took."""
    started = time.process_time()
    result = reader.read(image)
    return result, 1000 * (time.process_time() - started)


@dataclass(frozen=True)
class PenPage:
    """How the pages are half-solved before they are photographed (``--pen-fill``)."""

    fill: float = 0.0  # share of the empty cells written in pen (0: none)
    mistakes: int = 1  # of them, written wrong

    def overrides(self) -> dict[str, Any]:
        """The rendering overrides (none for a page without pen: it stays as it was)."""
        return {"pen_fill": self.fill, "pen_mistakes": self.mistakes} if self.fill > 0 else {}


def read_one(
    reader: Reader,
    size: int,
    style: str,
    seed: int,
    turn: str = "none",
    pen: PenPage = PenPage(),
) -> Outcome:
    """Render one small photo (half-solved in pen where ``pen`` says), pass it through
    JPEG, turn it (``TURNS``), read it and judge the reading."""
    made = render.render_small_photo(seed, size, style, **pen.overrides())
    image = turned(jpeg_round_trip(made.photo.image, made.photo.jpeg_quality), turn)
    result, ms = timed_read(reader, image)
    written = made.photo.truth.pen.ravel()
    entries = int((written > 0).sum())
    grid = result.grids[0] if result.grids else None
    if grid is None or grid.structure.size != size:
        message = result.message or ""
        return Outcome(size, style, seed, False, False, False, ms, message, entries)
    givens, answer = digits_of(made.puzzle.givens), digits_of(made.answer)
    hand = digits_of(int(d) for d in written)
    cells = grid.givens == givens and grid.handwritten == hand
    as_print = sum(1 for c, d in enumerate(written) if d and grid.givens[c] != "0")
    right = sum(1 for c, d in enumerate(written) if d and grid.handwritten[c] == hand[c])
    mistakes = {r * size + c for r, c in made.photo.truth.mistakes}
    called = len(set(grid.wrong_entries) - mistakes)
    alerted = set(grid.wrong_entries) | {u.cell for u in grid.unsure_entries()}
    solved = grid.solution == answer
    return Outcome(size, style, seed, True, cells, solved, ms, grid.message, entries, as_print,
                   right, called, len(mistakes), len(mistakes & alerted))  # fmt: skip


def table(outcomes: list[Outcome]) -> str:
    """A Markdown table: per size and style, then per size, the rates and timing."""
    groups: dict[tuple[int, str], list[Outcome]] = {}
    for o in outcomes:
        groups.setdefault((o.size, o.style), []).append(o)
        groups.setdefault((o.size, "all"), []).append(o)
    rows = []
    for (size, style), group in sorted(groups.items()):
        n = len(group)
        rates = [f"{100 * sum(getattr(o, k) for o in group) / n:.1f} %"
                 for k in ("found", "cells", "solved")]  # fmt: skip
        ms = statistics.median(o.ms for o in group)
        pen = [f"{sum(getattr(o, k) for o in group)}/{sum(o.pen for o in group)}"
               for k in ("pen_as_print", "pen_right")]  # fmt: skip
        called = sum(o.right_called_wrong for o in group)
        caught = f"{sum(o.mistakes_caught for o in group)}/{sum(o.mistakes for o in group)}"
        rows.append([f"{size}×{size}", style, n, *rates, *pen, called, caught, f"{ms:.0f}"])
    head = ["grid", "style", "photos", "grid found (size right)", "cells right",
            "solved right", "pen taken for print", "pen read right",
            "right entries called wrong", "mistakes called wrong or asked",
            "ms per photo (median)"]  # fmt: skip
    return "\n".join(markdown_table(head, "llrrrrrrrrr", rows))


def nine_photos(split: str, per_kind: int, seed: int) -> Iterator[tuple[str, np.ndarray]]:
    """The 9×9 photos to check: the dataset's photos of ``split``, then ``per_kind``
    rendered photos of each classic kind and of the Killer."""
    if dataset.DATASET.is_dir():
        for photo_id in dataset.split_ids(split):
            for version in dataset.VERSIONS:
                image = cv2.imread(str(dataset.photo_path(photo_id, version)))
                if image is not None:
                    yield f"dataset {version} {photo_id}", image
    else:
        print(f"no dataset at {dataset.DATASET}: rendered photos only", file=sys.stderr)
    for kind in sorted(render.KINDS):
        for i in range(per_kind):
            photo = render.render_photo(seed + i, kind)
            yield f"{kind} {seed + i}", jpeg_round_trip(photo.image, photo.jpeg_quality)
    for i in range(per_kind):
        photo = render.render_killer(seed + i)
        yield f"killer {seed + i}", jpeg_round_trip(photo.image, photo.jpeg_quality)


@dataclass
class NineTally:
    """What the 9×9 check saw: photos read, solved, read as another size, in which a
    finder alone took a grid, and that finder's process milliseconds a photo."""

    photos: int = 0
    solved: int = 0
    changed: int = 0
    taken: int = 0
    ms: list[float] = field(default_factory=list)

    @property
    def median_ms(self) -> float:
        """The finder's median milliseconds a photo (0 without photos)."""
        return statistics.median(self.ms or [0.0])


def tally_nine(
    reader: Reader,
    photos: Iterable[tuple[str, np.ndarray]],
    finder: Callable[[np.ndarray], object | None],
    taken_line: Callable[[str, Any], str],
) -> NineTally:
    """Read every 9×9 photo and run ``finder`` alone on it; print (``taken_line``) those in
    which the finder takes a grid, and those read as another size."""
    tally = NineTally()
    for name, image in photos:
        result, _ = timed_read(reader, image)
        tally.photos += 1
        tally.solved += result.ok
        other = [g.structure.size for g in result.grids if g.structure.size != 9]
        started = time.process_time()
        alone = finder(image)
        tally.ms.append(1000 * (time.process_time() - started))
        if alone is not None:
            tally.taken += 1
            print(taken_line(name, alone))
        if other:
            tally.changed += 1
            print(f"- {name}: read as {other[0]}×{other[0]}: {result.message}")
    return tally


def check_nine(reader: Reader, split: str, per_kind: int, seed: int) -> int:
    """Read every 9×9 photo and run the small-grid and 12×12 finders alone on it; print
    those read as another size or in which a finder took a quad for a small grid or a
    12×12; return how many photos were either."""

    def taken(name: str, grid: Any) -> str:
        """The line for a photo in which the finder alone takes a grid."""
        return f"- {name}: the finder alone takes a {grid.size}×{grid.size} grid in it"

    def finder(image: np.ndarray) -> SmallGrid | None:
        """The small grid, else the 12×12, the finders alone take in a photo."""
        return find_small_grid(image) or find_sixteen_grid(image, config=DEFAULT_TWELVE_CONFIG)

    t = tally_nine(reader, nine_photos(split, per_kind, seed), finder, taken)
    print(f"\n9×9 photos read: {t.photos}; solved: {t.solved}; read as a small grid: "
          f"{t.changed}; a small grid found by the finder alone: {t.taken} "
          f"(its median {t.median_ms:.0f} ms a photo)")  # fmt: skip
    return t.changed + t.taken


def main() -> None:
    """Render, read, print the table, the photos not solved right, and the 9×9 check."""
    parser = script_parser(__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", choices=SIZES, default=[6])
    add_photo_options(parser, (24, "photos per size (0: none)"), 700, dataset.SPLITS)
    parser.add_argument("--turn", choices=tuple(TURNS), default="none", help=TURN_HELP)
    add_pen_options(parser)
    args = parse_photo_args(parser)
    if not 0.0 <= args.pen_fill < 1.0 or args.pen_mistakes < 0:
        parser.error("--pen-fill must be in [0, 1) and --pen-mistakes at least 0")
    pen = PenPage(args.pen_fill, args.pen_mistakes)
    reader = Reader()
    styles = render.SMALL_STYLES
    reads = (
        read_one(reader, size, styles[i % len(styles)], args.seed + i, args.turn, pen)
        for size in args.sizes
        for i in range(args.count)
    )
    names = (lambda o: f"{o.size}×{o.size} {o.seed}",
             lambda o: f"{o.size}×{o.size}/{o.style} seed {o.seed}")  # fmt: skip
    outcomes = judge_photos(reads, names, table)
    finish_photos(args, outcomes, lambda: check_nine(reader, args.split, args.per_kind, args.seed))


if __name__ == "__main__":
    main()
