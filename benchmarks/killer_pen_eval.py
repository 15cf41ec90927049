"""Read rendered Killer Sudokus half solved in pen end to end, as `sudokucam check` reads them.

Photos come from ``samples/render.py``'s ``render_killer`` with ``pen_fill`` (that share of
the empty cells written in, ``--pen-mistakes`` of them wrong; the pen inks of the 9×9
progress pages, two blues and a near-black), the four cage styles in turn (dashed, grey,
dotted, coloured fills; or the ``--styles`` named, ``tinted`` among them: cages told by
their colour alone), through JPEG at their own quality. Each is read by the default
reader; per style and in all: cages outlined right and summed right (of the truth's
cages), photos solved right and solved wrong, pen entries read right and taken for
print (as givens), and right entries called wrong (0 expected).

    .venv/bin/python benchmarks/killer_pen_eval.py --count 16 --seed 790000
    .venv/bin/python benchmarks/killer_pen_eval.py --count 16 --seed 790000 --pen-fill 0
    .venv/bin/python benchmarks/killer_pen_eval.py --count 16 --seed 881000 --styles tinted
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, fields

import cv2
import numpy as np

from sudokucam.benchmarks.common import (
    add_killer_styles,
    add_pen_options,
    markdown_table,
    script_parser,
)
from sudokucam.samples.render import KILLER_STYLES, TINTED, KillerTruth, render_killer
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.types import digits_of


@dataclass(frozen=True)
class PenKiller:
    """One photo's counts (every field but ``style`` and ``seed`` is summed in a table)."""

    style: str
    seed: int
    cages: int
    outlined: int
    summed: int
    solved: int
    wrong: int
    pen: int
    pen_right: int
    pen_as_print: int
    right_called_wrong: int


def read_one(reader: Reader, seed: int, style: str, fill: float, wrong: int) -> PenKiller:
    """Render, JPEG, read and judge one Killer photo (``wrong`` pen entries written wrong)."""
    extra = {"pen_fill": fill, "pen_mistakes": wrong} if fill > 0 else {}
    photo = render_killer(seed, style, **extra)
    ok, data = cv2.imencode(".jpg", photo.image, [cv2.IMWRITE_JPEG_QUALITY, photo.jpeg_quality])
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
    truth = photo.truth
    if image is None or not isinstance(truth, KillerTruth):
        raise OSError("the rendered Killer could not be passed through JPEG")
    result = reader.read(image)
    pen = np.asarray(truth.pen).ravel()
    cages = {tuple(c.cells): c.total for c in truth.cages}
    grid = result.grids[0] if result.grids else None
    if grid is None:
        return PenKiller(style, seed, len(cages), 0, 0, 0, 0, int((pen > 0).sum()), 0, 0, 0)
    got = {tuple(c.cells): c.total for c in grid.structure.cages}
    answer = digits_of(int(v) for v in np.asarray(truth.solution).ravel())
    mistakes = {r * 9 + c for r, c in truth.mistakes}
    hand = digits_of(int(v) for v in pen)
    right = sum(1 for c, d in enumerate(pen) if d and grid.handwritten[c] == hand[c])
    return PenKiller(
        style, seed, len(cages), len(set(cages) & set(got)),
        sum(1 for k, v in cages.items() if got.get(k) == v),
        int(grid.solution == answer), int(grid.solution is not None and grid.solution != answer),
        int((pen > 0).sum()), right,
        sum(1 for c, d in enumerate(pen) if d and grid.givens[c] != "0"),
        len(set(grid.wrong_entries) - mistakes),
    )  # fmt: skip


def table(outcomes: list[PenKiller]) -> str:
    """A Markdown table: a row per style and one for all."""
    groups: dict[str, list[PenKiller]] = defaultdict(list)
    for o in outcomes:
        groups[o.style].append(o)
        groups["all"].append(o)
    names = [f.name for f in fields(PenKiller)][2:]
    rows = []
    for style in [*KILLER_STYLES, TINTED, "all"]:
        group = groups.get(style, [])
        if not group:
            continue
        t = {k: sum(getattr(o, k) for o in group) for k in names}
        rows.append([style, len(group), f"{t['outlined']} / {t['cages']}",
                     f"{t['summed']} / {t['cages']}", f"{t['solved']} / {len(group)}",
                     t["wrong"], f"{t['pen_right']} / {t['pen']}", t["pen_as_print"],
                     t["right_called_wrong"]])  # fmt: skip
    head = ["style", "photos", "cages outlined right", "summed right", "solved right",
            "solved wrong", "pen read right", "pen taken for print",
            "right entries called wrong"]  # fmt: skip
    return "\n".join(markdown_table(head, "lrrrrrrrr", rows))


def main() -> None:
    """Read the photos, print one line each and the table."""
    parser = script_parser(__doc__)
    parser.add_argument("--count", type=int, default=16, help="photos (styles in turn)")
    parser.add_argument("--seed", type=int, default=790000, help="first seed")
    add_pen_options(parser, fill=0.4)
    add_killer_styles(parser, (*KILLER_STYLES, TINTED))
    args = parser.parse_args()
    if args.count < 1 or not 0 <= args.pen_fill < 1 or args.pen_mistakes < 0:
        parser.error("--count must be positive, --pen-fill in [0, 1), --pen-mistakes at least 0")
    reader = Reader()
    outcomes = []
    for i in range(args.count):
        style = args.styles[i % len(args.styles)]
        outcome = read_one(reader, args.seed + i, style, args.pen_fill, args.pen_mistakes)
        print(outcome, flush=True)
        outcomes.append(outcome)
    print(table(outcomes))


if __name__ == "__main__":
    main()
