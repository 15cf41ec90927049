"""Read rendered photos of Sudoku variants end to end: grid, rules, cells and answer.

Photos come from ``samples/synth/variant_drawing.py`` (through ``samples/render.py``):
Sudoku X (diagonals drawn as lines, or their cells shaded) and jigsaw (regions drawn
thick, or thick and every other region tinted), the style alternating photo by photo,
each photographed at the angles, light, shadows, blur and noise of the classic rendered
photos and passed through JPEG at its own quality. Each is read by the default reader:
grid found, structure right (the variant, and a jigsaw's regions exactly), cells right
(the printed digits exactly, no pen digit invented), solved right (the true answer), and
seconds per photo (reading only, rendering aside). ``--pen-fill F`` writes a fraction F
of the empty cells in by pen (``--pen-mistakes`` of them wrong), as a person half way
through: cells right then means the printed digits and the pen digits exactly.

    .venv/bin/python benchmarks/variant_photo_eval.py                 # 20 of each
    .venv/bin/python benchmarks/variant_photo_eval.py --count 40 --seed 1000
    .venv/bin/python benchmarks/variant_photo_eval.py --variants x --json /tmp/x.json
    .venv/bin/python benchmarks/variant_photo_eval.py --variants x --styles lines --count 30
    .venv/bin/python benchmarks/variant_photo_eval.py --variants jigsaw --pen-fill 0.5
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from sudokucam.benchmarks.common import add_pen_options, json_text, script_parser
from sudokucam.samples import render
from sudokucam.vision.pipeline import Reader


@dataclass(frozen=True)
class Outcome:
    """One photo read: what was right, and how long reading took."""

    variant: str
    style: str
    seed: int
    found: bool
    structure: bool
    cells: bool
    solved: bool
    seconds: float
    message: str


def canonical(labels: tuple[int, ...]) -> tuple[int, ...]:
    """Region labels renumbered in reading order (one partition, one spelling)."""
    names = list(dict.fromkeys(labels))
    return tuple(names.index(x) for x in labels)


def read_one(
    reader: Reader, variant: str, style: str, seed: int, pen: tuple[float, int] = (0.0, 0)
) -> Outcome:
    """Render one photo (``pen``: the fraction of empty cells filled in by pen, and how
    many of those wrong), pass it through JPEG, read it and judge the reading."""
    made = render.render_variant_photo(seed, variant, style, pen_fill=pen[0], pen_mistakes=pen[1])
    quality = made.photo.jpeg_quality
    ok, encoded = cv2.imencode(".jpg", made.photo.image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR) if ok else None
    image = made.photo.image if decoded is None else np.asarray(decoded)
    started = time.process_time()
    result = reader.read(image)
    seconds = time.process_time() - started
    if not result.grids:
        return Outcome(
            variant, style, seed, False, False, False, False, seconds, result.message or ""
        )
    grid, puzzle = result.grids[0], made.puzzle
    structure = (
        grid.structure.variant.value == variant and grid.structure.diagonals == puzzle.diagonals
    )
    if puzzle.regions:
        structure = structure and canonical(grid.structure.regions) == canonical(puzzle.regions)
    written = "".join(str(v) for v in made.photo.truth.pen.ravel())
    cells = grid.givens == "".join(map(str, puzzle.givens)) and grid.handwritten == written
    answer = "".join(str(v) for v in made.photo.truth.solution.ravel())
    return Outcome(
        variant, style, seed, True, structure, cells, grid.solution == answer, seconds, grid.message
    )


def table(outcomes: list[Outcome]) -> str:
    """A Markdown table: per variant and style, then per variant, the rates and timing."""
    head = ["variant", "style", "photos", "grid found", "structure right", "cells right",
            "solved right", "s per photo (median)"]  # fmt: skip
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    groups: dict[tuple[str, str], list[Outcome]] = {}
    for o in outcomes:
        groups.setdefault((o.variant, o.style), []).append(o)
        groups.setdefault((o.variant, "all"), []).append(o)
    for (variant, style), group in sorted(groups.items()):
        n = len(group)

        def rate(key: str, group: list[Outcome] = group, n: int = n) -> str:
            return f"{100 * sum(getattr(o, key) for o in group) / n:.1f} %"

        seconds = statistics.median(o.seconds for o in group)
        rows.append(f"| {variant} | {style} | {n} | {rate('found')} | {rate('structure')} | "
                    f"{rate('cells')} | {rate('solved')} | {seconds:.2f} |")  # fmt: skip
    return "\n".join(rows)


def chosen_styles(variant: str, wanted: list[str] | None) -> tuple[str, ...]:
    """The styles of a variant to render in turn: all of them, or those in ``wanted``."""
    styles = render.VARIANT_STYLES[variant]
    return styles if wanted is None else tuple(s for s in styles if s in wanted)


def main() -> None:
    """Render, read, print the table and the photos not solved right."""
    parser = script_parser(__doc__)
    parser.add_argument("--variants", nargs="+", choices=sorted(render.VARIANT_STYLES),
                        default=sorted(render.VARIANT_STYLES))  # fmt: skip
    parser.add_argument(
        "--styles",
        nargs="+",
        default=None,
        help="only these styles, taken in turn (default: each variant's all)",
    )
    parser.add_argument("--count", type=int, default=20, help="photos per variant")
    parser.add_argument("--seed", type=int, default=500, help="first seed")
    parser.add_argument("--json", type=Path, default=None, help="also write every outcome here")
    add_pen_options(parser, mistakes=0)
    args = parser.parse_args()
    if args.count < 1:
        parser.error(f"--count must be at least 1, got {args.count}")
    reader = Reader()
    outcomes = []
    for variant in args.variants:
        styles = chosen_styles(variant, args.styles)
        if not styles:
            parser.error(f"no style of {variant} among --styles {' '.join(args.styles)}")
        for i in range(args.count):
            seed = args.seed + i
            pen = (args.pen_fill, args.pen_mistakes)
            outcomes.append(read_one(reader, variant, styles[i % len(styles)], seed, pen))
            print(f"{variant} {seed}: solved={outcomes[-1].solved}", file=sys.stderr, flush=True)
    print(table(outcomes))
    wrong = [o for o in outcomes if not (o.solved and o.structure and o.cells)]
    print(f"\n{len(outcomes)} photos; not all right: {len(wrong)}")
    for o in wrong:
        print(f"- {o.variant}/{o.style} seed {o.seed}: found={o.found} structure={o.structure} "
              f"cells={o.cells} solved={o.solved}: {o.message}")  # fmt: skip
    if args.json is not None:
        args.json.write_text(json_text([o for o in outcomes]))


if __name__ == "__main__":
    main()
