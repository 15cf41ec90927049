"""Read rendered half-solved small Sudokus (4×4, 6×6, 8×8) holding candidate notes.

Photos come from ``samples/synth/small_drawing.py`` with pen entries (``--pen-fill``, one
of them wrong) and the person's pencil notes (``samples/synth/marks.py``: ``--notes-fill``
of the cells left, one cell's notes leaving out the answer, the 3×3 spot layout and the
free row in turn), the style alternating photo by photo. Each is read by the default
reader and judged cell by cell against the truth:

- notes as entries: notes cells read as a given or a pen entry (0 expected: a notes cell
  is never an entry);
- notes read: notes cells read as notes, and of those, their digits read exactly;
- entries right: pen cells read as the person's entry with the digit written; checked
  right: every entry written wrong on purpose named wrong or asked about (an unsure
  reading: "r1c2: 1 or 2?"), and no other entry named wrong;
- solved right, and a hint given (``GridResult.next_hint``: a step, as for a typed grid).

    .venv/bin/python benchmarks/small_notes_eval.py                      # 8 photos a size
    .venv/bin/python benchmarks/small_notes_eval.py --sizes 6 --count 24 --seed 900
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

import cv2
import numpy as np

from sudokucam.benchmarks.common import markdown_table, script_parser
from sudokucam.samples import render
from sudokucam.samples.synth.marks import NOTE_LAYOUTS, Marks
from sudokucam.solver.outcome import Outcome as Status
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.types import Kind


@dataclass(frozen=True)
class NotesOutcome:
    """One photo judged: counts of cells by what they hold and how they were read."""

    size: int
    seed: int
    solved: bool
    hinted: bool
    notes: int  # notes cells in the truth
    notes_as_entries: int
    notes_read: int  # read as notes
    notes_exact: int  # read as notes, digits exactly
    pen: int  # pen cells in the truth
    pen_right: int  # read as the person's entry, the digit written
    checked_right: bool  # the wrong entries named wrong or asked about, no right one wrong
    ms: float


def read_one(
    reader: Reader, size: int, seed: int, pen_fill: float, notes_fill: float
) -> NotesOutcome:
    """Render one half-solved small page with notes, pass it through JPEG, read and judge it."""
    styles = render.SMALL_STYLES
    marks = Marks(notes_fill=notes_fill, notes_wrong=1, notes_layout=NOTE_LAYOUTS[seed % 2])
    made = render.render_small_photo(
        seed, size, styles[seed % len(styles)], marks=marks, pen_fill=pen_fill, pen_mistakes=1
    )
    ok, encoded = cv2.imencode(".jpg", made.photo.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR) if ok else None
    image = made.photo.image if decoded is None else np.asarray(decoded)
    started = time.process_time()
    result = reader.read(image)
    ms = 1000 * (time.process_time() - started)
    truth = made.photo.truth
    notes = np.asarray(truth.notes, dtype=object).ravel()
    pen = truth.pen.ravel()
    grid = result.grids[0] if result.grids else None
    if grid is None or grid.structure.size != size:
        return NotesOutcome(size, seed, False, False, int((notes != "").sum()), 0, 0, 0,
                            int((pen > 0).sum()), 0, False, ms)  # fmt: skip
    noted = [c for c in range(size * size) if notes[c]]
    kinds = grid.contents
    as_entries = sum(1 for c in noted if kinds[c] in (Kind.PRINTED, Kind.HANDWRITTEN))
    read = [c for c in noted if kinds[c] == Kind.NOTES]
    exact = sum(1 for c in read if grid.notes[c] == notes[c])
    written = [c for c in range(size * size) if pen[c]]
    right = sum(1 for c in written if grid.handwritten[c] == str(pen[c]))
    wrong = {r * size + c for r, c in truth.mistakes}
    named = set(grid.wrong_entries)
    asked = named | {u.cell for u in grid.unsure_entries()}
    answer = "".join(map(str, made.answer))
    found = grid.next_hint()
    return NotesOutcome(
        size, seed, grid.solution == answer,
        found is not None and found.status is Status.STEP,
        len(noted), as_entries, len(read), exact, len(written), right,
        wrong <= asked and named <= wrong, ms,
    )  # fmt: skip


def table(outcomes: list[NotesOutcome]) -> str:
    """A Markdown table, one row a size and one for all."""
    groups: dict[str, list[NotesOutcome]] = {}
    for o in outcomes:
        groups.setdefault(f"{o.size}×{o.size}", []).append(o)
        groups.setdefault("all", []).append(o)
    rows = []
    for name, g in sorted(groups.items(), key=lambda item: item[0] == "all"):
        notes, pen = sum(o.notes for o in g), sum(o.pen for o in g)
        rows.append([
            name, len(g), f"{sum(o.solved for o in g)}/{len(g)}",
            f"{sum(o.notes_as_entries for o in g)}/{notes}",
            f"{sum(o.notes_read for o in g)}/{notes}",
            f"{sum(o.notes_exact for o in g)}/{sum(o.notes_read for o in g)}",
            f"{sum(o.pen_right for o in g)}/{pen}",
            f"{sum(o.checked_right for o in g)}/{len(g)}",
            f"{sum(o.hinted for o in g)}/{len(g)}",
            f"{statistics.median(o.ms for o in g):.0f}",
        ])  # fmt: skip
    head = ["grid", "photos", "solved right", "notes cells read as entries",
            "notes cells read as notes", "their digits exact", "pen entries read right",
            "entries checked right", "hint given", "ms per photo (median)"]  # fmt: skip
    return "\n".join(markdown_table(head, "lrrrrrrrrr", rows))


def main() -> None:
    """Render, read and judge the photos; print each one's line and the table."""
    parser = script_parser(__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", choices=render.SMALL_SIZES,
                        default=list(render.SMALL_SIZES))  # fmt: skip
    parser.add_argument("--count", type=int, default=8, help="photos per size")
    parser.add_argument("--seed", type=int, default=800, help="first seed")
    parser.add_argument("--pen-fill", type=float, default=0.4, help="share of cells in pen")
    parser.add_argument("--notes-fill", type=float, default=0.7, help="share left with notes")
    args = parser.parse_args()
    if args.count < 1:
        parser.error("--count must be at least 1")
    reader = Reader()
    outcomes = []
    for size in args.sizes:
        for seed in range(args.seed, args.seed + args.count):
            o = read_one(reader, size, seed, args.pen_fill, args.notes_fill)
            print(f"{size}×{size} seed {seed}: {o}", flush=True)
            outcomes.append(o)
    print(table(outcomes))


if __name__ == "__main__":
    main()
