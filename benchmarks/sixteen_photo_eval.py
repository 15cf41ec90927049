"""Read rendered photos of 16×16 Sudokus (4×4 boxes, the numbers 1-16) end to end.

Photos come from ``samples/synth/sixteen_drawing.py`` (through ``samples/render.py``),
the style alternating photo by photo (magazine, bold, shaded boxes, a narrow face), each
at a phone photo's size with the angles, light, shadows, blur and noise of the classic
rendered photos, passed through JPEG at its own quality. Each is read by the default
reader: grid found (16×16), cells right (every number exactly), solved right (the true
answer), and milliseconds per photo (reading only, process time, rendering aside).

``--nine`` checks the other way: no 9×9 photo may be taken for a 16×16. The 16×16
finder (``find_sixteen_grid``) is run alone on the shared sudoku_dataset's photos
(``--split``, both versions) and on rendered photos of every classic kind and of the
Killer (``small_photo_eval.nine_photos``), whatever the 9×9 reading; each is also read
by the default reader, and those read as a grid of another size are counted (0
expected for both).

    .venv/bin/python benchmarks/sixteen_photo_eval.py                  # 24 16×16 photos
    .venv/bin/python benchmarks/sixteen_photo_eval.py --count 0 --nine --per-kind 3
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from sudokucam.benchmarks.common import json_text, script_parser
from sudokucam.benchmarks.small_photo_eval import (
    Outcome,
    jpeg_round_trip,
    nine_photos,
    table,
    timed_read,
)
from sudokucam.samples import dataset, render
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.small.sixteen import SIXTEEN, find_sixteen_grid
from sudokucam.vision.types import digits_of


def read_one(reader: Reader, style: str, seed: int) -> Outcome:
    """Render one 16×16 photo, pass it through JPEG, read it and judge the reading."""
    made = render.render_sixteen_photo(seed, style)
    image = jpeg_round_trip(made.photo.image, made.photo.jpeg_quality)
    result, ms = timed_read(reader, image)
    grid = result.grids[0] if result.grids else None
    if grid is None or grid.structure.size != SIXTEEN:
        return Outcome(SIXTEEN, style, seed, False, False, False, ms, result.message or "")
    cells = grid.givens == digits_of(made.puzzle.givens) and set(grid.handwritten) == {"0"}
    solved = grid.solution == digits_of(made.answer)
    return Outcome(SIXTEEN, style, seed, True, cells, solved, ms, grid.message)


def check_nine(reader: Reader, split: str, per_kind: int, seed: int) -> int:
    """Run the 16×16 finder alone on every 9×9 photo and read each; print those in which
    it takes a quad for a 16×16 or read as another size; return how many were either."""
    photos, changed, taken, ms = 0, 0, 0, []
    for name, image in nine_photos(split, per_kind, seed):
        photos += 1
        started = time.process_time()
        alone = find_sixteen_grid(image)
        ms.append(1000 * (time.process_time() - started))
        if alone is not None:
            taken += 1
            print(f"- {name}: the 16×16 finder alone takes a 16×16 grid in it")
        result, _ = timed_read(reader, image)
        other = [g.structure.size for g in result.grids if g.structure.size != 9]
        if other:
            changed += 1
            print(f"- {name}: read as {other[0]}×{other[0]}: {result.message}")
    print(f"\n9×9 photos: {photos}; read as another size: {changed}; a 16×16 found by its "
          f"finder alone: {taken} (its median {statistics.median(ms or [0.0]):.0f} ms a "
          "photo)")  # fmt: skip
    return changed + taken


def main() -> None:
    """Render, read, print the table, the photos not read right, and the 9×9 check."""
    parser = script_parser(__doc__)
    parser.add_argument("--count", type=int, default=24, help="16×16 photos (0: none)")
    parser.add_argument("--seed", type=int, default=1600, help="first seed")
    parser.add_argument("--nine", action="store_true", help="also check 9×9 photos stay 9×9")
    parser.add_argument("--per-kind", type=int, default=4, help="rendered 9×9 photos per kind")
    parser.add_argument("--split", choices=dataset.SPLITS, default="validation",
                        help="the dataset's photos --nine reads (default validation)")  # fmt: skip
    parser.add_argument("--json", type=Path, default=None, help="also write every outcome here")
    args = parser.parse_args()
    if args.count < 0 or args.per_kind < 0:
        parser.error("--count and --per-kind must be at least 0")
    reader = Reader()
    outcomes = []
    for i in range(args.count):
        style = render.SIXTEEN_STYLES[i % len(render.SIXTEEN_STYLES)]
        outcomes.append(read_one(reader, style, args.seed + i))
        print(f"16×16 {args.seed + i}: solved={outcomes[-1].solved}", file=sys.stderr)
    if outcomes:
        print(table(outcomes))
        wrong = [o for o in outcomes if not (o.solved and o.cells)]
        print(f"\n{len(outcomes)} photos; not all right: {len(wrong)}")
        for o in wrong:
            print(f"- {o.style} seed {o.seed}: found={o.found} cells={o.cells} "
                  f"solved={o.solved}: {o.message}")  # fmt: skip
    if args.nine:
        check_nine(reader, args.split, args.per_kind, args.seed)
    if args.json is not None:
        args.json.write_text(json_text(outcomes))


if __name__ == "__main__":
    main()
