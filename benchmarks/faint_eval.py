"""Measure reading half-solved pages filled in pencil so faint it is nearly invisible.

Renders half-solved pages (``samples/render.py``, kind ``progress``: 60 % of the empty
cells filled in pencil, one entry wrong), as ``tests/test_bad_pages.py`` does, with the
pencil at each grey asked (0.86 is that test's: a seventh of a pencil's usual darkness
against the paper), writes each as a JPEG and reads it with the default reader. Counted
against the truth, per grey: entries; lost (read empty); of those, asked about (the check
names the cell as writing it cannot read, or as unsure); read as another digit; made up
(a digit read in a cell the person left empty); cells left empty asked about; printed
givens read wrong; right entries called wrong; the person's mistakes called right (read
as the answer's digit).

    .venv/bin/python benchmarks/faint_eval.py                         # grey 0.86, 8 pages
    .venv/bin/python benchmarks/faint_eval.py --greys 0.7 0.8 0.9 --pages 5
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence

import cv2

from sudokucam.benchmarks.common import markdown_table, script_parser
from sudokucam.samples.render import Marks, render_photo
from sudokucam.vision.pipeline import Reader

FIRST_SEED = 2600  # tests/test_bad_pages.py's page first
SIZE = (1024, 768)
COLUMNS = ("grey", "pages", "entries", "lost", "lost but asked", "another digit", "made up",
           "empty asked", "givens wrong", "right called wrong",
           "mistakes called right")  # fmt: skip


def page_counts(reader: Reader, seed: int, grey: float) -> Counter[str]:
    """What one rendered page at pencil ``grey`` reads against its truth."""
    marks = Marks(pencil=True, pencil_ink=(grey, grey, min(1.0, grey + 0.02)))
    photo = render_photo(seed, "progress", size=SIZE, pen_fill=0.6, pen_mistakes=1, marks=marks)
    ok, jpeg = cv2.imencode(".jpg", photo.image)
    if not ok:
        raise RuntimeError(f"seed {seed}: the page could not be written as a JPEG")
    grids = reader.read(jpeg.tobytes()).grids
    pen = "".join(str(int(d)) for d in photo.truth.pen.ravel())
    counts: Counter[str] = Counter(pages=1, entries=sum(d != "0" for d in pen))
    if not grids:
        counts["lost"] += counts["entries"]
        return counts
    grid = grids[0]
    read = grid.handwritten
    givens = "".join(str(int(d)) for d in photo.truth.givens.ravel())
    counts["lost"] += sum(p != "0" and r == "0" for p, r in zip(pen, read, strict=True))
    counts["another digit"] += sum(
        p != "0" and r not in ("0", p) for p, r in zip(pen, read, strict=True)
    )
    counts["made up"] += sum(p == "0" and r != "0" for p, r in zip(pen, read, strict=True))
    asked = set(grid.unreadable_cells) | {u.cell for u in grid.unsure_entries()}
    counts["lost but asked"] += sum(pen[c] != "0" and read[c] == "0" for c in asked)
    empty = "".join("0" if p != "0" or g != "0" else "1" for p, g in zip(pen, givens, strict=True))
    counts["empty asked"] += sum(empty[c] == "1" for c in asked)
    counts["givens wrong"] += sum(a != b for a, b in zip(grid.givens, givens, strict=True))
    mistakes = {r * 9 + c for r, c in photo.truth.mistakes}
    counts["right called wrong"] += len(set(grid.wrong_entries) - mistakes)
    counts["mistakes called right"] += len(set(grid.right_entries) & mistakes)
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    """Print one row per grey."""
    parser = script_parser(__doc__)
    parser.add_argument("--greys", type=float, nargs="+", default=[0.86], help="pencil grey")
    parser.add_argument("--pages", type=int, default=8, help="pages per grey")
    parser.add_argument("--seed", type=int, default=FIRST_SEED, help="the first page's seed")
    args = parser.parse_args(argv)
    if args.pages < 1 or not all(0.0 <= g <= 1.0 for g in args.greys):
        parser.error("--pages must be at least 1 and every grey in [0, 1]")
    reader = Reader()
    rows = []
    for grey in args.greys:
        total: Counter[str] = Counter()
        for seed in range(args.seed, args.seed + args.pages):
            total += page_counts(reader, seed, grey)
        rows.append([f"{grey:g}", *(str(total[c]) for c in COLUMNS[1:])])
    print("\n".join(markdown_table(COLUMNS, "l" + "r" * (len(COLUMNS) - 1), rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
