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
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sudokucam.samples.dataset import DATASET, SPLITS, photo_path, split_ids, truth
from sudokucam.vision.pipeline import Reader
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=SPLITS, default="validation")
    parser.add_argument("--dataset", type=Path, default=DATASET)
    args = parser.parse_args(argv)
    if not args.dataset.is_dir():
        print(f"error: no dataset at {args.dataset}", file=sys.stderr)
        return 2
    photos, skipped = collect(Reader(), args.dataset, split_ids(args.split, args.dataset))
    scores = [score(photos, prior) for prior in PRIORS]
    entries = scores[0].right_total
    print(f"{args.split} split: {len(photos)} pen-filled photos, {entries} pen entries")
    if skipped:
        print(f"skipped (grid not read in place): {', '.join(map(str, skipped))}")
    print(f"shipped prior: {PenConfig().right_prior:g}\n")
    print(table(scores))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
