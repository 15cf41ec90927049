"""Validation report of a digit model: per-class accuracy, confusions, exact-grid rates.

Cells of the 30 validation photos (models/validation_ids.txt), both versions: v2 cut
with the annotated corners, mixed with corners registered from v2 (see dataset.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...samples.dataset import dat_grid, dataset_dir, validation_ids
from ...vision.read.classifier import (
    CROSSED_CLASS,
    NOTES_CLASS,
    NOTES_CLASS_NAMES,
    DigitClassifier,
)
from ...vision.read.config import DEFAULT_READ_CONFIG, ReadConfig
from ...vision.read.decide import (
    DEFAULT_KIND_DECISION_CONFIG,
    SHARE_FLOOR,
    KindDecisionConfig,
)
from ...vision.types import Kind
from .dataset import PhotoCells, class_labels, held_out_ids, load_all


@dataclass(frozen=True)
class Report:
    """Validation results of one model."""

    confusion: np.ndarray
    exact: dict[str, tuple[int, int]]
    wrong_cells: list[tuple[int, str, int, int, int]]


def classes_of(digits: np.ndarray, kinds: np.ndarray) -> np.ndarray:
    """Model classes from digits and kinds (0 empty, 1-9 printed, 10-18 written, 19 notes)."""
    classes = np.where(kinds == Kind.PRINTED, digits, digits + 9)
    return np.where(kinds == Kind.EMPTY, 0, np.where(kinds == Kind.NOTES, NOTES_CLASS, classes))


def evaluate_photos(
    classifier: DigitClassifier, photos: list[PhotoCells], config: ReadConfig = DEFAULT_READ_CONFIG
) -> Report:
    """Classify every photo's 81 cells (with the per-puzzle kind steps ``config`` sets) and
    tally."""
    confusion = np.zeros((NOTES_CLASS + 1,) * 2, dtype=np.int64)
    exact: dict[str, tuple[int, int]] = {}
    wrong: list[tuple[int, str, int, int, int]] = []
    for p in photos:
        reading = classifier.read_cells(p.cells, config)
        got = classes_of(reading.digits, reading.kinds)
        np.add.at(confusion, (p.labels, got), 1)
        ok, n = exact.get(p.version, (0, 0))
        exact[p.version] = (ok + int(np.array_equal(got, p.labels)), n + 1)
        wrong += [
            (p.photo_id, p.version, int(k), int(p.labels[k]), int(got[k]))
            for k in np.flatnonzero(got != p.labels)
        ]
    return Report(confusion, exact, wrong)


def evaluate_model(model_dir: Path, shared: Path, cache: Path | None = None) -> Report:
    """Report of the model in `model_dir` on the validation photos."""
    classifier = DigitClassifier(model_dir)
    held_out = held_out_ids()
    photos = [p for p in load_all(shared, classifier.config.cells, cache) if p.photo_id in held_out]
    return evaluate_photos(classifier, photos)


def evaluate_found_grids(model_dir: Path, shared: Path) -> Report:
    """Report on the validation photos warped by the pipeline's own `find_grid`.

    Cells are read with `read_upright`, as the grid finder does not know which way is up.

    A photo where no grid is found counts as an inexact grid with no cells tallied.
    """
    from ...vision.grid.find import find_grid
    from ...vision.load import load_image

    classifier = DigitClassifier(model_dir)
    root = dataset_dir(shared)
    confusion = np.zeros((NOTES_CLASS + 1,) * 2, dtype=np.int64)
    exact: dict[str, tuple[int, int]] = {}
    wrong: list[tuple[int, str, int, int, int]] = []
    for photo_id in sorted(validation_ids()):
        v2 = dat_grid(root / "v2" / "train" / f"image{photo_id}.dat")
        mixed = dat_grid(root / "mixed" / "train" / f"image{photo_id}.dat")
        for version, labels in (("v2", class_labels(v2, None)), ("mixed", class_labels(v2, mixed))):
            detection = find_grid(load_image(root / version / "train" / f"image{photo_id}.jpg"))
            ok, n = exact.get(version, (0, 0))
            if detection is None:
                exact[version] = (ok, n + 1)
                continue
            _, reading = classifier.read_upright(detection.warped)
            got = classes_of(reading.digits, reading.kinds)
            np.add.at(confusion, (labels, got), 1)
            exact[version] = (ok + int(np.array_equal(got, labels)), n + 1)
            wrong += [
                (photo_id, version, int(k), int(labels[k]), int(got[k]))
                for k in np.flatnonzero(got != labels)
            ]
    return Report(confusion, exact, wrong)


def evaluate_progress(model_dir: Path, shared: Path, split: str = "val") -> np.ndarray:
    """(11, 11) confusion of the Times progress cells of ``split`` (labelled corners).

    Classes as the labels have them: 0 empty, 1-9 a digit (printed or written alike),
    10 notes; a cell read as notes counts as 10.
    """
    from ...samples.progress_dataset import NOTES, load_split
    from .dataset import read_gray, warp

    classifier = DigitClassifier(model_dir)
    confusion = np.zeros((NOTES + 1, NOTES + 1), dtype=np.int64)
    for photo in load_split(split, shared):
        cells = classifier.cells(warp(read_gray(photo.path), photo.corners))
        reading = classifier.read_cells(cells)
        got = np.where(reading.kinds == Kind.NOTES, NOTES, reading.digits)
        np.add.at(confusion, (photo.labels, got), 1)
    return confusion


def print_progress_report(confusion: np.ndarray) -> None:
    """Per-class accuracy of the Times cells (empty, each digit, notes)."""
    names = ["empty", *(f"digit {d}" for d in range(1, 10)), "notes"]
    total = confusion.sum()
    print(f"cells: {total}, accuracy {np.trace(confusion) / max(total, 1):.5f}")
    for k, name in enumerate(names):
        if confusion[k].sum():
            print(f"  {name:>8}: {confusion[k, k]}/{confusion[k].sum()}"
                  f" = {confusion[k, k] / confusion[k].sum():.4f}")  # fmt: skip
    for t, g in zip(*np.nonzero(confusion - np.diag(np.diag(confusion))), strict=True):
        print(f"  confusion {names[t]} -> {names[g]}: {confusion[t, g]}")


def print_report(report: Report) -> None:
    """Print per-class accuracy, the confusions and the exact-grid rates."""
    c = report.confusion
    total = c.sum()
    print(f"validation cells: {total}, accuracy {np.trace(c) / max(total, 1):.5f}")
    print("per-class accuracy (class: correct/total):")
    for k, name in enumerate(NOTES_CLASS_NAMES):
        if c[k].sum():
            print(f"  {name:>14}: {c[k, k]}/{c[k].sum()} = {c[k, k] / c[k].sum():.4f}")
    for t, g in zip(*np.nonzero(c - np.diag(np.diag(c))), strict=True):
        print(f"  confusion {NOTES_CLASS_NAMES[t]} -> {NOTES_CLASS_NAMES[g]}: {c[t, g]}")
    for version, (ok, n) in sorted(report.exact.items()):
        print(f"exact grids {version}: {ok}/{n} = {ok / max(n, 1):.3f}")
    for photo_id, version, cell, truth, got in report.wrong_cells:
        print(
            f"  wrong: image{photo_id} {version} cell {cell}: "
            f"{NOTES_CLASS_NAMES[truth]} read as {NOTES_CLASS_NAMES[got]}"
        )


@dataclass(frozen=True)
class ThresholdReport:
    """How the reading's thresholds fall on one set of labelled cells.

    The thresholds are ``KindDecisionConfig``'s. notes_found: notes cells at or above
    ``notes_from``, of ``notes``; taken_for_notes: other cells there. illegible: entries
    (a digit's cell) whose likeliest digit holds less than ``legible_from`` of the digit
    probability; crossed: entries at or above ``crossed_from`` crossed-out probability, of
    ``entries``; crossed_found: crossed-out cells there, of ``crossed_out``;
    crossed_entered: crossed-out cells read as an entry (below ``empty_below``
    empty-or-crossed-out probability).
    """

    notes: int
    notes_found: int
    taken_for_notes: int
    entries: int
    illegible: int
    crossed: int
    crossed_out: int
    crossed_found: int
    crossed_entered: int


def threshold_report(
    classifier: DigitClassifier,
    cells: np.ndarray,
    classes: np.ndarray,
    config: KindDecisionConfig = DEFAULT_KIND_DECISION_CONFIG,
) -> ThresholdReport:
    """``config``'s thresholds on uint8 ``cells`` of training ``classes`` (a digit: 1-18
    or above)."""
    probs, _ = classifier.predict(cells.astype(np.float32) / 255)
    notes_p = probs[:, NOTES_CLASS] if classifier.config.has_notes else np.zeros(len(probs))
    crossed_p = (
        probs[:, CROSSED_CLASS] if classifier.config.has_crossed_out else np.zeros(len(probs))
    )
    digit = probs[:, 1:10] + probs[:, 10:19]
    blank = (probs[:, 0] + crossed_p) / np.maximum(
        probs[:, :19].sum(axis=1) + crossed_p, SHARE_FLOOR
    )
    share = digit.max(axis=1) / np.maximum(digit.sum(axis=1), SHARE_FLOOR)
    notes, crossed_out = classes == NOTES_CLASS, classes == CROSSED_CLASS
    entries = (classes > 0) & ~notes & ~crossed_out
    return ThresholdReport(
        notes=int(notes.sum()),
        notes_found=int((notes & (notes_p >= config.notes_from)).sum()),
        taken_for_notes=int((~notes & (notes_p >= config.notes_from)).sum()),
        entries=int(entries.sum()),
        illegible=int((entries & (share < config.legible_from)).sum()),
        crossed=int((entries & (crossed_p >= config.crossed_from)).sum()),
        crossed_out=int(crossed_out.sum()),
        crossed_found=int((crossed_out & (crossed_p >= config.crossed_from)).sum()),
        crossed_entered=int((crossed_out & (blank < config.empty_below)).sum()),
    )


def print_threshold_report(name: str, report: ThresholdReport) -> None:
    """One line: where the notes, legibility and crossed-out thresholds fall."""
    print(
        f"  {name}: notes cells >= notes_from {report.notes_found}/{report.notes}, other cells"
        f" taken for notes {report.taken_for_notes}; entries below legible_from"
        f" {report.illegible}/{report.entries}, taken for crossed out {report.crossed};"
        f" crossed-out cells >= crossed_from {report.crossed_found}/{report.crossed_out},"
        f" read as entries {report.crossed_entered}"
    )


@dataclass(frozen=True)
class SynthReport:
    """Reading of synthetic grids (model + per-puzzle kind steps, no solver).

    digits/digits_right: printed or written digit cells, and those read as their digit
    (either kind); printed_as_written / written_as_printed: right digit, wrong kind;
    grids_exact: grids whose 81 classes are all right, of ``grids``.
    """

    grids: int
    grids_exact: int
    printed: int
    printed_right: int
    written: int
    written_right: int
    printed_as_written: int
    written_as_printed: int
    empty_as_digit: int


def evaluate_synth(
    classifier: DigitClassifier, cells: np.ndarray, labels: np.ndarray
) -> SynthReport:
    """Read uint8 synthetic ``cells`` (81 a grid) of ``labels`` (0, 1-9 printed, 10-18 written)."""
    counts = np.zeros(7, dtype=np.int64)
    exact = 0
    for start in range(0, len(labels), 81):
        truth = labels[start : start + 81]
        reading = classifier.read_cells(cells[start : start + 81].astype(np.float32) / 255)
        got = classes_of(reading.digits, reading.kinds)
        exact += int(np.array_equal(got, truth))
        printed, written = (truth >= 1) & (truth <= 9), truth >= 10
        counts += [
            printed.sum(),
            (printed & (got == truth)).sum(),
            written.sum(),
            (written & (got == truth)).sum(),
            (printed & (got == truth + 9)).sum(),
            (written & (got == truth - 9)).sum(),
            ((truth == 0) & (got > 0)).sum(),
        ]
    return SynthReport(len(labels) // 81, exact, *(int(c) for c in counts))


def print_synth_report(name: str, r: SynthReport) -> None:
    """One line per synthetic set: grids exact, printed and written digits right, kind swaps."""
    print(
        f"  {name}: grids exact {r.grids_exact}/{r.grids}; printed right "
        f"{r.printed_right}/{r.printed} = {r.printed_right / max(r.printed, 1):.4f}, written "
        f"right {r.written_right}/{r.written} = {r.written_right / max(r.written, 1):.4f}; "
        f"printed read as written {r.printed_as_written}, written as printed "
        f"{r.written_as_printed}; empty read as a digit {r.empty_as_digit}"
    )
