"""Measure reading half-solved paper puzzles: the Times progress photos, notes included.

Reads every photo of a split of ``../shared/data/times_progress`` (default ``val``, the
held-out puzzles) end to end with the default Reader (load → find grid → classify →
repair → solve → check) and compares each cell with its label: empty, a digit (printed
and written count alike) or candidate notes. Prints a Markdown table and the failures.

    .venv/bin/python benchmarks/progress_eval.py                # held-out puzzles (val)
    .venv/bin/python benchmarks/progress_eval.py --split train  # the tuning puzzles

Figures: cells right; notes cells read as entries (a digit); grids found and exact (all
81 cells right); false alarms (a right entry reported wrong, counted on photos whose
labelled digits have exactly one solution); median seconds a photo.

The labels do not say printed or written, so kind errors cannot be counted against them.
What can be seen without labels: a Times puzzle's givens sit in a pattern symmetric under
a half turn, so on a page whose digits read as printed are mostly symmetric (at least
``SYMMETRIC_SHARE`` of at least ``MIN_PRINTED``), every cell whose half-turn partner was
read as another kind (printed against written, or printed against empty) holds at least
one kind error. ``--symmetry`` counts those pairs: a lower bound on the kind errors
(two errors in one pair, or a pair of pen digits both read as print, stay unseen).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sudokucam.benchmarks.common import script_parser
from sudokucam.samples.progress_dataset import NOTES, SPLITS, ProgressPhoto, load_split
from sudokucam.solver.geometry import cell_name
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.read.classifier import DigitClassifier
from sudokucam.vision.repair import solve_givens
from sudokucam.vision.results import GridResult
from sudokucam.vision.types import Kind

SYMMETRIC_SHARE = 0.85  # a page's printed cells this symmetric come from a symmetric puzzle
MIN_PRINTED = 17
CORNER_TOLERANCE = 0.05  # a found grid matches the labelled one within this share of its side
LABEL_TEXT = {0: ".", NOTES: "n"}


@dataclass(frozen=True)
class PhotoRecord:
    """How one photo was read against its labels."""

    name: str
    found: bool
    read: np.ndarray  # (81,) labels as read: 0 empty, 1-9 digit, 10 notes
    truth: np.ndarray
    false_alarms: int | None  # None when the labelled digits have no single solution
    seconds: float
    kinds: np.ndarray | None = None  # (81,) Kind as read, None when no grid was found

    @property
    def wrong(self) -> tuple[int, ...]:
        """The cells read differently from their label."""
        return tuple(int(c) for c in np.flatnonzero(self.read != self.truth))


def read_labels(grid: GridResult) -> np.ndarray:
    """(81,) what the reader took each cell for: 0 empty, 1-9 a digit, 10 notes."""
    kinds = np.asarray(grid.reading.kinds)
    notes_kind = getattr(Kind, "NOTES", None)
    labels = [
        NOTES
        if notes_kind is not None and kinds[c] == notes_kind
        else int(grid.givens[c]) or int(grid.handwritten[c])
        for c in range(81)
    ]
    return np.array(labels, dtype=np.int64)


def matches(grid: GridResult, photo: ProgressPhoto) -> bool:
    """True when the grid's corners lie on the labelled ones (any starting corner)."""
    side = float(np.linalg.norm(photo.corners[0] - photo.corners[1]))
    error = min(
        float(
            np.linalg.norm(np.roll(grid.detection.corners, k, axis=0) - photo.corners, axis=1).max()
        )
        for k in range(4)
    )
    return error <= CORNER_TOLERANCE * side


def entry_cells(grid: GridResult, name: str) -> tuple[int, ...]:
    """The cells a GridResult calls ``name`` (a property or a method, whichever it has)."""
    value: tuple[int, ...] | Callable[[], tuple[int, ...]] = getattr(grid, name)
    return value() if callable(value) else value


def false_alarms(grid: GridResult, photo: ProgressPhoto) -> int | None:
    """Right entries reported wrong; None when the labelled digits have no single answer."""
    answer = solve_givens(photo.digits, 10.0).solution
    if answer is None:
        return None
    return sum(1 for c in entry_cells(grid, "wrong_entries") if photo.digits[c] == answer[c] != "0")


def evaluate(reader: Reader, photo: ProgressPhoto) -> PhotoRecord:
    """Read and check one photo and compare it with its labels."""
    started = time.perf_counter()
    result, _ = reader.check(photo.path)
    seconds = time.perf_counter() - started
    grid = next((g for g in result.grids if matches(g, photo)), None)
    if grid is None:
        return PhotoRecord(photo.name, False, np.full(81, -1), photo.labels, None, seconds)
    read, kinds = read_labels(grid), np.asarray(grid.reading.kinds)
    alarms = false_alarms(grid, photo)
    return PhotoRecord(photo.name, True, read, photo.labels, alarms, seconds, kinds)


@dataclass(frozen=True)
class SymmetryBreaks:
    """Kind errors seen through the givens' half-turn symmetry, on one photo."""

    symmetric: bool  # the printed cells read are symmetric enough to judge
    printed_vs_written: int  # pairs read as one printed and one written digit
    printed_alone: int  # printed cells whose partner was read as empty (or notes)


def symmetry_breaks(kinds: np.ndarray) -> SymmetryBreaks:
    """The pairs of cells a half turn apart whose kinds as read break the givens' symmetry."""
    printed = kinds == Kind.PRINTED
    partner = printed[::-1]
    if printed.sum() < MIN_PRINTED or (printed & partner).sum() < SYMMETRIC_SHARE * printed.sum():
        return SymmetryBreaks(False, 0, 0)
    written = kinds == Kind.HANDWRITTEN
    mixed = int(np.sum(printed & written[::-1]))
    alone = int(np.sum(printed & ~partner & ~written[::-1]))
    return SymmetryBreaks(True, mixed, alone)


def summary(outcomes: Sequence[PhotoRecord]) -> dict[str, float]:
    """The headline figures of a list of outcomes."""
    read = np.concatenate([o.read for o in outcomes])
    truth = np.concatenate([o.truth for o in outcomes])
    notes = truth == NOTES
    alarms = [o.false_alarms for o in outcomes if o.false_alarms is not None]
    return {
        "photos": len(outcomes),
        "found": sum(o.found for o in outcomes) / len(outcomes),
        "cells_right": float(np.mean(read == truth)),
        "notes_cells": int(notes.sum()),
        "notes_as_entries": float(np.mean((read[notes] >= 1) & (read[notes] <= 9)))
        if notes.any()
        else 0.0,
        "notes_right": float(np.mean(read[notes] == NOTES)) if notes.any() else 0.0,
        "entries_as_notes": float(np.mean(read[(truth >= 1) & (truth <= 9)] == NOTES)),
        "exact": sum(not o.wrong for o in outcomes) / len(outcomes),
        "false_alarms": float(sum(alarms)),
        "alarm_photos": len(alarms),
        "median_s": statistics.median(o.seconds for o in outcomes),
    }


def table(outcomes: Sequence[PhotoRecord], split: str) -> str:
    """The Markdown summary table."""
    s = summary(outcomes)
    return "\n".join(
        [
            "| split | photos | grid found | cells right | notes cells read as entries "
            "| notes cells read as notes | entries read as notes | grids exact "
            "| false alarms | median s |",
            "|---|---|---|---|---|---|---|---|---|---|",
            f"| {split} | {s['photos']} | {s['found']:.1%} | {s['cells_right']:.2%} "
            f"| {s['notes_as_entries']:.1%} of {s['notes_cells']} | {s['notes_right']:.1%} "
            f"| {s['entries_as_notes']:.2%} | {s['exact']:.1%} "
            f"| {s['false_alarms']:.0f} (on {s['alarm_photos']} photos) "
            f"| {s['median_s']:.2f} |",
        ]
    )


def symmetry_table(outcomes: Sequence[PhotoRecord], split: str) -> str:
    """The Markdown table of kind errors seen through the givens' symmetry."""
    breaks = [symmetry_breaks(o.kinds) for o in outcomes if o.kinds is not None]
    judged = [b for b in breaks if b.symmetric]
    return "\n".join(
        [
            "",
            "| split | photos with symmetric printed cells | pairs printed vs written "
            "| printed with an empty partner | photos with any |",
            "|---|---|---|---|---|",
            f"| {split} | {len(judged)} of {len(breaks)} "
            f"| {sum(b.printed_vs_written for b in judged)} "
            f"| {sum(b.printed_alone for b in judged)} "
            f"| {sum(b.printed_vs_written + b.printed_alone > 0 for b in judged)} |",
        ]
    )


def failures(outcomes: Sequence[PhotoRecord]) -> str:
    """One line per photo not read exactly: cell, read → label."""
    lines = []
    for o in outcomes:
        if not o.found:
            lines.append(f"- {o.name}: grid not found")
        elif o.wrong:
            shown = ", ".join(
                f"{cell_name(c)} {_text(o.read[c])}→{_text(o.truth[c])}" for c in o.wrong[:8]
            )
            more = f" (+{len(o.wrong) - 8})" if len(o.wrong) > 8 else ""
            lines.append(f"- {o.name}: {shown}{more}")
    return "\n".join(lines) or "none"


def _text(label: int) -> str:
    """'.' empty, 'n' notes, the digit otherwise."""
    return LABEL_TEXT.get(int(label), str(int(label)))


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table and failures."""
    parser = script_parser(__doc__)
    parser.add_argument("--split", choices=SPLITS, default="val", help="default: val (held out)")
    parser.add_argument("--model-dir", type=Path, default=None, help="another digit model")
    parser.add_argument(
        "--symmetry", action="store_true", help="also count kind errors the symmetry shows"
    )
    args = parser.parse_args(argv)
    try:
        photos = load_split(args.split)
    except FileNotFoundError as exc:
        print(f"error: the progress photos are missing: {exc}", file=sys.stderr)
        return 1
    reader = Reader(None if args.model_dir is None else DigitClassifier(args.model_dir))
    outcomes = [evaluate(reader, p) for p in photos]
    print(table(outcomes, args.split))
    if args.symmetry:
        print(symmetry_table(outcomes, args.split))
    print("\nnot exact:\n" + failures(outcomes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
