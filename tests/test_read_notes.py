"""Candidate notes: cells taken for notes are never entries; real Times photos' notes are found."""

from __future__ import annotations

import numpy as np
import pytest

from sudokucam.samples import progress_dataset
from sudokucam.vision.read.classifier import default_classifier
from sudokucam.vision.read.decide import decide_kinds
from sudokucam.vision.read.notes import load_notes_model, note_blobs
from sudokucam.vision.repair import read_givens, repair_givens
from sudokucam.vision.types import CellScores, Kind


def scores_with_notes() -> CellScores:
    """81 cells all read as a sure handwritten 5, the first three marked as notes."""
    probs = np.full((81, 19), 1e-4, dtype=np.float32)
    probs[:, 14] = 1.0
    notes = np.zeros(81)
    notes[:3] = 1.0
    digits = ("12", "5", "") + ("",) * 78
    return CellScores(probs, None, notes=notes, note_digits=digits)


def test_notes_cells_are_never_entries() -> None:
    reading = decide_kinds(scores_with_notes())
    assert list(reading.kinds[:3]) == [Kind.NOTES] * 3
    assert list(reading.digits[:3]) == [0, 0, 0]
    assert reading.notes[:3] == ("12", "5", "")
    assert read_givens(reading)[:3] == "000"
    outcome = repair_givens(reading)
    assert all(r.cell >= 3 for r in outcome.repairs)


def test_shipped_notes_model_loads() -> None:
    model = load_notes_model()
    assert 0 < model.threshold < 1
    assert model.w1.shape[0] == model.mean.shape[0]


def test_note_blobs_cut_each_small_digit() -> None:
    cell = np.zeros((32, 32), dtype=np.float32)
    cell[4:12, 5:8] = 1.0
    cell[4:12, 15:18] = 1.0
    cell[0:32, 0:2] = 1.0  # a grid line at the edge is left out
    assert len(note_blobs(cell)) == 2


needs_data = pytest.mark.skipif(
    not progress_dataset.available(), reason="../shared/data/times_progress is absent"
)


@needs_data
def test_real_notes_cells_read_as_notes() -> None:
    from sudokucam.models.training.dataset import read_gray, warp

    photo = next(p for p in progress_dataset.load_split("val") if p.notes_cells.sum() >= 3)
    classifier = default_classifier()
    cells = classifier.cells(warp(read_gray(photo.path), photo.corners))
    reading = decide_kinds(classifier.score_cells(cells))
    taken = reading.kinds == Kind.NOTES
    assert taken[photo.notes_cells].mean() >= 0.6
    assert not np.any(taken & ~photo.notes_cells & (photo.labels == 0))
    assert not np.any(reading.digits[taken])
