"""Measure reading the digits of candidate notes: rendered pages against truth, real photos
by what their digits must be.

Rendered: half-solved pages (``samples/render.py``, kind ``progress``) with notes in both
layouts (3×3 spots and a free row), pencil and pen, in several hands; every noted digit
is known. Reported: noted digits read, digits read that were not noted, and of those how
many are added (a cell read with more digits than it holds: a speck, a stroke left by a
cut, a digit read twice) rather than a noted digit misread as another.

Real: the Times progress photos (``../shared/data/times_progress``), whose labels say
which cells hold notes but not which digits. Of the cells labelled notes and read as
notes: the share with any digit read; the read digits that are candidates (no digit of
the cell's row, column or box is the same: a misread digit often is not); the cells whose
read notes hold the answer (solved from the labelled digits). A person's notes hold the
answer unless they are wrong, so that is a floor on how many are read whole. Last, how many
cells the check says rule out the answer: each is likely a misread note (a person's notes
seldom leave out the answer), so it should stay near 0.

    .venv/bin/python benchmarks/notes_eval.py                  # 24 rendered pages, Times val
    .venv/bin/python benchmarks/notes_eval.py --split train --pages 48
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence

from sudokucam.benchmarks.common import script_parser
from sudokucam.samples.progress_dataset import NOTES, SPLITS, available, load_split
from sudokucam.samples.render import Marks, render_photo
from sudokucam.solver.geometry import shape_for_size
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.repair import solve_givens
from sudokucam.vision.types import Kind

FIRST_SEED = 300000
NOTE_HANDS = ("dkg", "Breip", "Comic Neue")  # the renderer's handwriting faces
PEERS = shape_for_size(9).peers


def rendered(reader: Reader, pages: int, seed: int) -> Counter[str]:
    """Noted digits, those read, and those read but not noted, over rendered pages."""
    counts: Counter[str] = Counter()
    for i in range(pages):
        marks = Marks(
            notes_fill=0.6,
            notes_layout=("grid", "free")[i % 2],
            notes_font=NOTE_HANDS[(i // 2) % len(NOTE_HANDS)],
            notes_pencil=(i // 6) % 2 == 0,
        )
        photo = render_photo(seed + i, "progress", marks=marks)
        grids = reader.read(photo.image).grids
        notes = photo.truth.notes
        if notes is None:  # the truth of a photo drawn with marks always has notes
            raise RuntimeError(f"seed {seed + i}: rendered with notes but no notes in its truth")
        noted = [str(n) for row in notes for n in row]
        read = grids[0].notes if grids else ("",) * 81
        counts["pages"] += 1
        counts["noted"] += sum(len(n) for n in noted)
        counts["found"] += sum(len(set(r) & set(n)) for r, n in zip(read, noted, strict=True))
        for r, n in zip(read, noted, strict=True):
            extra, missed = len(set(r) - set(n)), len(set(n) - set(r))
            counts["extra"] += extra
            counts["added"] += max(0, extra - missed)
    return counts


def real(reader: Reader, split: str) -> Counter[str]:
    """Over the photos of a Times split: notes cells read as notes, with digits, candidates,
    holding the answer."""
    counts: Counter[str] = Counter()
    for photo in load_split(split):
        result = reader.read(photo.path)
        if not result.grids:
            continue
        grid = result.grids[0]
        labels = photo.labels
        digits = "".join(str(d) if 1 <= d <= 9 else "0" for d in labels)
        answer = solve_givens(digits, 10.0).solution
        counts["ruled_out"] += len(grid.wrong_notes())
        for cell in range(81):
            if labels[cell] != NOTES or grid.contents[cell] != Kind.NOTES:
                continue
            notes = grid.notes[cell]
            placed = {digits[p] for p in PEERS[cell]} - {"0"}
            counts["cells"] += 1
            counts["with_digits"] += bool(notes)
            counts["digits"] += len(notes)
            counts["candidates"] += sum(d not in placed for d in notes)
            if answer is not None:
                counts["solvable"] += 1
                counts["answer"] += answer[cell] in notes
    return counts


def share(part: int, whole: int) -> str:
    """'12.3 %', or '-' of nothing."""
    return f"{100 * part / whole:.1f} %" if whole else "-"


def main(argv: Sequence[str] | None = None) -> int:
    """Print both tables."""
    parser = script_parser(__doc__)
    parser.add_argument("--pages", type=int, default=24, help="rendered pages")
    parser.add_argument("--seed", type=int, default=FIRST_SEED, help="the first page's seed")
    parser.add_argument("--split", choices=SPLITS, default="val", help="the Times split")
    args = parser.parse_args(argv)
    reader = Reader()
    r = rendered(reader, args.pages, args.seed)
    print("| rendered pages | noted digits | read | read, not noted | of them added |")
    print("|---|---|---|---|---|")
    print(f"| {r['pages']} | {r['noted']} | {r['found']} ({share(r['found'], r['noted'])}) "
          f"| {r['extra']} | {r['added']} |")  # fmt: skip
    if not available():
        print("\n(../shared/data/times_progress absent: real photos skipped)")
        return 0
    t = real(reader, args.split)
    head = ("notes cells read as notes", "with a digit read", "digits read", "of them candidates",
            "cells whose notes hold the answer", "said to rule out the answer")  # fmt: skip
    row = (t["cells"], f"{t['with_digits']} ({share(t['with_digits'], t['cells'])})",
           t["digits"], share(t["candidates"], t["digits"]),
           f"{t['answer']} ({share(t['answer'], t['solvable'])})", t["ruled_out"])  # fmt: skip
    print(f"\nTimes {args.split}:\n\n| " + " | ".join(head) + " |")
    print("|---" * len(head) + "|")
    print("| " + " | ".join(str(v) for v in row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
