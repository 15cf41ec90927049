"""Measure how well `sudokucam check` catches pen mistakes, with real handwriting.

Pen entries are re-read with the solved answer as prior (``vision/read/pen.py``): a stronger
prior rescues more unclear right entries but hides more real mistakes. The shared
photos have no wrong pen entries, so mistakes are simulated on their real handwriting:
each pen cell is checked once against its true answer (a right entry) and once against
each of the 8 other digits as the "answer" (a mistake: the person wrote the digit we
see, the answer was another). Both go through ``read_pen_entries``, the function the
pipeline uses, at several priors (0: the ink alone, as the classifier first read it).

    .venv/bin/python benchmarks/pen_check_eval.py                 # the validation split
    .venv/bin/python benchmarks/pen_check_eval.py --split training

Columns: right entries read as written; mistakes flagged (read as anything but the
answer); mistakes read exactly as written; then the cells a person would be misled on
per 1,000 entries (right ones called wrong + mistakes not flagged) for three mistake
rates.

A second table judges the entries as `sudokucam check` does (``vision/check``): an entry
that disagrees with the answer is called wrong only when read surely, else "unsure" (the
person is asked). It counts right entries called wrong (false alarms, the target is 0) and
unsure, and how the simulated mistakes come out. ``--progress`` does the same on the Times
progress photos' train split: every cell labelled with the answer's digit or with notes
that is called wrong is a false alarm.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sudokucam.benchmarks.common import script_parser
from sudokucam.samples.dataset import DATASET, SPLITS, photo_path, split_ids, truth
from sudokucam.samples.progress_dataset import available, load_split
from sudokucam.vision.check import DEFAULT_CHECK_CONFIG, entry_is_sure
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.read.classifier import DigitClassifier
from sudokucam.vision.read.pen import PenConfig, digit_evidence, read_pen_entries
from sudokucam.vision.types import CellReading

PRIORS = (0.0, 0.8, 0.9, 0.95, 0.97, 0.99)
MISTAKE_RATES = (0.01, 0.03, 0.10)
MIN_AGREEING_CELLS = 75  # below this the grid was found or turned wrongly: not a pen test


@dataclass(frozen=True)
class PenCells:
    """One photo's reading, its pen digits as first read and as true (81 chars, '0' else)."""

    reading: CellReading
    first_read: str
    pen: str
    solution: str


@dataclass(frozen=True)
class PriorScore:
    """Counts at one prior."""

    prior: float
    right_total: int
    right_kept: int
    mistakes_total: int
    mistakes_flagged: int
    mistakes_exact: int

    def misled_per_thousand(self, rate: float) -> float:
        """Cells per 1,000 entries on which a person is told the wrong thing."""
        false_alarms = 1.0 - self.right_kept / self.right_total
        missed = 1.0 - self.mistakes_flagged / self.mistakes_total
        return 1000.0 * ((1.0 - rate) * false_alarms + rate * missed)


def collect(reader: Reader, dataset: Path, ids: list[int]) -> tuple[list[PenCells], list[int]]:
    """The readings of the pen-filled photos whose grid was read in the right place."""
    kept, skipped = [], []
    for photo_id in ids:
        _, pen, solution = truth(photo_id, "mixed", dataset)
        result = reader.read(photo_path(photo_id, "mixed", dataset))
        if not result.grids:
            skipped.append(photo_id)
            continue
        grid = result.grids[0]
        read = [h if g == "0" else g for g, h in zip(grid.givens, grid.handwritten, strict=True)]
        agree = sum(r == t for r, t in zip(read, solution, strict=True))
        if agree < MIN_AGREEING_CELLS:
            skipped.append(photo_id)
            continue
        ink = np.argmax(digit_evidence(grid.reading), axis=1) + 1
        first = "".join("0" if d == "0" else str(ink[c]) for c, d in enumerate(pen))
        kept.append(PenCells(grid.reading, first, pen, solution))
    return kept, skipped


def score(photos: list[PenCells], prior: float) -> PriorScore:
    """Right entries kept and simulated mistakes flagged at one prior."""
    config = PenConfig(right_prior=prior)
    right_total = right_kept = mistakes_total = flagged = exact = 0
    for photo in photos:
        cells = [c for c, d in enumerate(photo.pen) if d != "0"]
        read, _ = read_pen_entries(photo.reading, photo.first_read, photo.solution, config)
        right_total += len(cells)
        right_kept += sum(read[c] == photo.pen[c] for c in cells)
        for answer in "123456789":
            # every pen cell whose digit differs from `answer` becomes a mistake at once:
            # read_pen_entries weighs each cell on its own
            wrong = [c for c in cells if photo.pen[c] != answer]
            fake = list(photo.solution)
            for c in wrong:
                fake[c] = answer
            read, _ = read_pen_entries(photo.reading, photo.first_read, "".join(fake), config)
            mistakes_total += len(wrong)
            flagged += sum(read[c] not in ("0", answer) for c in wrong)
            exact += sum(read[c] == photo.pen[c] for c in wrong)
    return PriorScore(prior, right_total, right_kept, mistakes_total, flagged, exact)


@dataclass(frozen=True)
class CheckScore:
    """How `check` judges right entries and simulated mistakes at the shipped prior."""

    right_total: int
    right_wrong: int  # false alarms
    right_unsure: int
    mistakes_total: int
    mistakes_wrong: int
    mistakes_unsure: int

    def table(self) -> str:
        """A Markdown table of the counts."""
        r, m = self.right_total, self.mistakes_total
        return "\n".join(
            [
                "| entries | called wrong | unsure (asked) | called right |",
                "|---|---|---|---|",
                f"| right ({r}) | {self.right_wrong} | {self.right_unsure} "
                f"| {r - self.right_wrong - self.right_unsure} |",
                f"| simulated mistakes ({m}) | {100 * self.mistakes_wrong / m:.2f}% "
                f"| {100 * self.mistakes_unsure / m:.2f}% "
                f"| {100 * (1 - (self.mistakes_wrong + self.mistakes_unsure) / m):.2f}% |",
            ]
        )


def judged(photo: PenCells, read: str, answers: str, cells: list[int]) -> tuple[int, int]:
    """Of ``cells``, how many `check` calls wrong surely and how many it is unsure of."""
    wrong = unsure = 0
    for c in cells:
        if read[c] in ("0", answers[c]):
            continue
        if entry_is_sure(photo.reading.probs[c], int(read[c]), int(answers[c])):
            wrong += 1
        else:
            unsure += 1
    return wrong, unsure


def check_score(photos: list[PenCells]) -> CheckScore:
    """Right entries and simulated mistakes judged as `sudokucam check` judges them."""
    counts = np.zeros(6, dtype=np.int64)
    for photo in photos:
        cells = [c for c, d in enumerate(photo.pen) if d != "0"]
        read, _ = read_pen_entries(photo.reading, photo.first_read, photo.solution)
        counts[:3] += (len(cells), *judged(photo, read, photo.solution, cells))
        for answer in "123456789":
            wrong = [c for c in cells if photo.pen[c] != answer]
            fake = "".join(answer if c in wrong else d for c, d in enumerate(photo.solution))
            read, _ = read_pen_entries(photo.reading, photo.first_read, fake)
            counts[3:] += (len(wrong), *judged(photo, read, fake, wrong))
    return CheckScore(*(int(n) for n in counts))


def progress_false_alarms(reader: Reader) -> str:
    """False alarms and unsure cells of `check` on the Times progress photos' train split."""
    photos = load_split("train")
    alarms, unsure, entries, checked = [], 0, 0, 0
    for photo in photos:
        result = reader.read(photo.path)
        solution = result.grids[0].solution if result.grids else None
        if solution is None:
            continue
        grid, checked = result.grids[0], checked + 1
        entries += len(grid.pen_cells)
        unsure += len(grid.unsure_entries())
        for c in grid.wrong_entries:
            label = int(photo.labels[c])
            if label == 10 or str(label) == solution[c]:
                alarms.append(f"{photo.name} cell {c}")
    return (
        f"Times progress train: {checked} of {len(photos)} photos solved, {entries} written "
        f"entries read, {len(alarms)} false alarms, {unsure} unsure"
        + "".join(f"\n  false alarm: {a}" for a in alarms)
    )


def table(scores: list[PriorScore]) -> str:
    """A Markdown table, one row per prior."""
    rates = " | ".join(f"misled /1000 at {r:.0%} mistakes" for r in MISTAKE_RATES)
    lines = [
        f"| prior | right entries kept | mistakes flagged | mistakes read exactly | {rates} |",
        "|---" * (4 + len(MISTAKE_RATES)) + "|",
    ]
    for s in scores:
        misled = " | ".join(f"{s.misled_per_thousand(r):.1f}" for r in MISTAKE_RATES)
        lines.append(
            f"| {s.prior:g} | {100 * s.right_kept / s.right_total:.2f}% "
            f"| {100 * s.mistakes_flagged / s.mistakes_total:.2f}% "
            f"| {100 * s.mistakes_exact / s.mistakes_total:.2f}% | {misled} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Read the pen-filled photos once, then score every prior."""
    parser = script_parser(__doc__)
    parser.add_argument("--split", choices=SPLITS, default="validation")
    parser.add_argument("--dataset", type=Path, default=DATASET)
    parser.add_argument("--progress", action="store_true", help="also the Times progress photos")
    parser.add_argument(
        "--model-dir", type=Path, default=None, help="a model folder other than the shipped one"
    )
    args = parser.parse_args(argv)
    if not args.dataset.is_dir():
        print(f"error: no dataset at {args.dataset}", file=sys.stderr)
        return 2
    reader = Reader(None if args.model_dir is None else DigitClassifier(args.model_dir))
    photos, skipped = collect(reader, args.dataset, split_ids(args.split, args.dataset))
    scores = [score(photos, prior) for prior in PRIORS]
    entries = scores[0].right_total
    print(f"{args.split} split: {len(photos)} pen-filled photos, {entries} pen entries")
    if skipped:
        print(f"skipped (grid not read in place): {', '.join(map(str, skipped))}")
    print(f"shipped prior: {PenConfig().right_prior:g}\n")
    print(table(scores))
    print(f"\ncheck ({DEFAULT_CHECK_CONFIG}):\n")
    print(check_score(photos).table())
    if args.progress and available():
        print("\n" + progress_false_alarms(reader))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
