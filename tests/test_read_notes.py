"""Candidate notes: cells taken for notes are never entries; real Times photos' notes are found."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from sudokucam.samples import progress_dataset
from sudokucam.vision.read.classifier import default_classifier
from sudokucam.vision.read.config import DEFAULT_READ_CONFIG
from sudokucam.vision.read.decide import DEFAULT_KIND_DECISION_CONFIG, decide_kinds
from sudokucam.vision.read.notes import NotesConfig, note_blobs, note_digits
from sudokucam.vision.repair import read_givens, repair_givens
from sudokucam.vision.types import CellScores, Kind


def scores_with_notes() -> CellScores:
    """81 cells all read as a sure handwritten 5, the first three marked as notes."""
    probs = np.full((81, 19), 1e-4, dtype=np.float32)
    probs[:, 14] = 1.0
    notes = np.zeros(81)
    notes[:3] = 1.0
    digits = ("12", "5", "") + ("",) * 78
    return CellScores(probs, None, notes_probability=notes, note_digits=digits)


def test_notes_cells_are_never_entries() -> None:
    reading = decide_kinds(scores_with_notes())
    assert list(reading.kinds[:3]) == [Kind.NOTES] * 3
    assert list(reading.digits[:3]) == [0, 0, 0]
    assert reading.notes[:3] == ("12", "5", "")
    assert read_givens(reading)[:3] == "000"
    outcome = repair_givens(reading)
    assert all(r.cell >= 3 for r in outcome.repairs)


def test_shipped_model_scores_notes() -> None:
    classifier = default_classifier()
    assert classifier.config.has_notes
    cells = np.zeros((81, 32, 32), dtype=np.float32)
    scores = classifier.score_cells(cells)
    notes = scores.notes_probability
    assert notes is not None and notes.shape == (81,)
    assert not DEFAULT_KIND_DECISION_CONFIG.notes(notes).any()  # blank cells are not notes
    assert np.allclose(scores.probs.sum(axis=1), 1.0, atol=1e-4)  # the 19 digit classes


def test_a_noted_digit_counts_only_where_the_base_reads_it_too() -> None:
    """Two blobs the model reads as a sure 2 and a sure 9; the base model reads the first
    as a 2 too, the second as an unsure 8: only the 2 is read, and the cell is not read
    whole. Without the rule (or with a model of one pair of nets) both are."""
    cell = np.zeros((96, 96), dtype=np.float32)
    cell[12:36, 15:24] = 1.0
    cell[12:36, 45:54] = 1.0
    joined = np.full((2, 21), 1e-4, dtype=np.float32)
    joined[0, 11], joined[1, 18] = 0.95, 0.9  # written 2, written 9
    base = np.full((2, 21), 1e-4, dtype=np.float32)
    base[0, 11], base[1, 17], base[1, 18] = 0.9, 0.45, 0.3  # written 2; written 8 over 9

    def predict(blobs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        assert blobs.shape == (2, 32, 32)
        return joined, base

    (noted,) = note_digits(cell[None], predict, 32)
    assert (noted.digits, noted.sure) == ("2", False)
    (alone,) = note_digits(cell[None], lambda b: (joined, joined), 32)
    assert (alone.digits, alone.sure) == ("29", True)
    (off,) = note_digits(cell[None], predict, 32, NotesConfig(base_agrees=False))
    assert off.digits == "29"


def test_shipped_model_gives_its_base_probabilities() -> None:
    """digits_v4's base_probs output is its base's own reading: where the reader runs,
    the joined digit shares differ from it; elsewhere (blank cells) they are the same."""
    classifier = default_classifier()
    assert classifier.config.base_probs_output == "base_probs"
    cells = np.zeros((2, 32, 32), dtype=np.float32)
    cells[1, 6:26, 14:18] = 1.0  # a 1
    probs, base = classifier.predict_notes(cells)
    assert probs.shape == base.shape == (2, 21)
    assert np.allclose(probs[0], base[0], atol=1e-6)
    assert np.allclose(probs[:, [0, 19, 20]], base[:, [0, 19, 20]], atol=1e-6)
    assert np.allclose(probs, classifier.predict(cells)[0])


def test_note_blobs_cut_each_small_digit() -> None:
    cell = np.zeros((96, 96), dtype=np.float32)
    cell[12:36, 15:24] = 1.0
    cell[12:36, 45:54] = 0.3  # a faint pencil note counts beside a dark one
    cell[60:62, 70:72] = 1.0  # a speck does not
    cell[0:96, 0:6] = 1.0  # a grid line at the edge is left out
    cell[30:60, 95:96] = 1.0  # and so is a sliver of one cut off by the cell's edge
    blobs, whole = note_blobs(cell, 32)
    assert len(blobs) == 2
    assert all(b.shape == (32, 32) for b in blobs)
    assert whole  # the speck is too little ink to be a digit not seen
    cell[60:84, 30:39] = 0.2  # a note too faint to be cut out: the cell is not read whole
    assert len(note_blobs(cell, 32)[0]) == 2
    assert not note_blobs(cell, 32)[1]


def test_notes_against_the_cells_edge_are_kept_and_joined_pairs_cut() -> None:
    """Real notes are mostly two digits side by side along the cell's top, often touching
    the edge and each other: both are cut out; the grid line beside them is not."""
    cell = np.zeros((96, 96), dtype=np.float32)
    cell[0:40, 10:34] = 0.8  # a digit against the top edge
    cell[2:42, 34:58] = 0.8  # a second one touching it: one blob 48 wide, 42 high
    cell[0:96, 92:96] = 1.0  # what is left of the grid line on the right
    blobs, _ = note_blobs(cell, 32)
    assert len(blobs) == 2
    lone = np.zeros((96, 96), dtype=np.float32)
    lone[4:64, 6:14] = 1.0  # a tall thin 1 near the left edge is a digit, not a line
    assert len(note_blobs(lone, 32)[0]) == 1
    dash = np.zeros((96, 96), dtype=np.float32)
    dash[40:44, 20:70] = 1.0  # a dash (or a stroke through notes) is not cut to pieces
    assert len(note_blobs(dash, 32)[0]) == 1


def test_what_a_cut_leaves_of_a_neighbour_is_no_digit() -> None:
    """A joined pair cut where the cut leaves a short stroke's end of one digit as a third
    part: the stroke's end is left out (it was read as an 8 or a 4 beside "26"); one wide
    digit whose cut would leave such an end is read whole."""
    cell = np.zeros((96, 96), dtype=np.float32)
    cell[60:84, 10:24] = 1.0  # a digit
    cell[74:78, 24:34] = 1.0  # its tail, joining the next digit low down
    cell[62:84, 34:48] = 1.0  # the next digit
    cell[72:84, 48:60] = 1.0  # a low loop of it, cut off as a part of its own
    blobs, _ = note_blobs(cell, 32)
    assert len(blobs) == 2
    wide = np.zeros((96, 96), dtype=np.float32)
    wide[40:60, 30:44] = 1.0  # one digit a little wider than high (a 2 with a long foot):
    wide[52:60, 44:52] = 1.0  # cut in two it leaves its foot, so it is read whole
    assert len(note_blobs(wide, 32)[0]) == 1


def test_a_thin_trail_across_the_cell_is_no_digit() -> None:
    """A trail one pixel wide falling across the cell's lower part (the edge of a shadow,
    once read as a 1 beside the notes "46") is no digit; a tall 1 still is."""
    trail = np.zeros((96, 96), dtype=np.float32)
    for x in range(50, 94):
        trail[66 + (x - 50) // 2, x] = 1.0
    assert not note_blobs(trail, 32)[0]
    one = np.zeros((96, 96), dtype=np.float32)
    one[10:40, 40:44] = 1.0
    assert len(note_blobs(one, 32)[0]) == 1


def test_a_rendered_notes_cell_comes_back_as_written() -> None:
    """A rendered page whose cell noted "3689" came back "34689" (a blob of joined notes
    was cut, and a stroke's end the cut left was read as a 4): read as written now, and
    no digit is read on the page that was not noted."""
    from sudokucam.samples.render import Marks, render_photo
    from sudokucam.vision.pipeline import Reader

    marks = Marks(notes_fill=0.6, notes_layout="free", notes_font="Breip", notes_pencil=True)
    photo = render_photo(300003, "progress", marks=marks)
    notes = photo.truth.notes
    assert notes is not None and notes[4, 7] == "3689"
    grid = Reader().read(photo.image).grids[0]
    assert grid.notes[43] == "3689"
    noted = [str(n) for row in notes for n in row]
    assert not [c for c in range(81) if set(grid.notes[c]) - set(noted[c])]


def test_joined_real_notes_are_read_as_two_digits() -> None:
    """Pairs of a committed sample's pen digits, scaled down to notes and written side by
    side at the top of a cell (touching or nearly), are read as both digits (before notes
    were cut apart and kept against the edge: 6 of 56)."""
    from itertools import combinations
    from pathlib import Path

    from sudokucam.vision.pipeline import Reader
    from sudokucam.vision.read.notes import note_digits

    sample = Path(__file__).resolve().parent.parent / "samples" / "progress" / "nearly_done"
    pen = "".join(sample.with_suffix(".pen.dat").read_text(encoding="utf-8").split())
    classifier = default_classifier()
    warped = Reader().read(sample.with_suffix(".jpg")).grids[0].detection.warped
    cells = classifier.fine_cells(warped, DEFAULT_READ_CONFIG.notes.detail)
    firsts = {d: c for c, d in reversed(list(enumerate(pen))) if d != "0"}
    read, tried = 0, 0
    for left, right in combinations("12345678", 2):
        for second_at in (36, 40):  # touching, nearly
            cell = np.zeros_like(cells[0])
            for digit, x in ((left, 14), (right, second_at)):
                small = cv2.resize(cells[firsts[digit]][12:84, 12:84], (36, 36))
                cell[0:36, x : x + 36] = np.maximum(cell[0:36, x : x + 36], small)
            (noted,) = note_digits(
                cell[None], classifier.predict_notes, classifier.config.input_size
            )
            read += noted.digits == left + right
            tried += 1
    assert read >= 0.85 * tried


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


def test_rendered_notes_are_read_as_notes_with_their_digits() -> None:
    """The committed half-solved sample: every notes cell is notes, most digits read."""
    from pathlib import Path

    from sudokucam.vision.pipeline import Reader

    sample = Path(__file__).resolve().parent.parent / "samples" / "progress" / "notes_half"
    truth = json.loads(sample.with_suffix(".json").read_text())
    noted = [n for row in truth["notes"] for n in row]
    grid = Reader().read(sample.with_suffix(".jpg")).grids[0]
    kinds = grid.contents
    assert all(kinds[c] == Kind.NOTES for c in range(81) if noted[c])
    assert not any(kinds[c] == Kind.NOTES for c in range(81) if not noted[c])
    found = sum(len(set(grid.notes[c]) & set(noted[c])) for c in range(81))
    extra = sum(len(set(grid.notes[c]) - set(noted[c])) for c in range(81))
    assert found >= 0.6 * sum(len(n) for n in noted) and extra <= 3
    assert noted[72] == "27" and set(grid.notes[72]) <= {"2", "7"}  # its 2 was read as a 9


@pytest.mark.slow
def test_notes_are_called_wrong_only_where_read_whole() -> None:
    """Rendered pages with two notes cells leaving out the answer: no other cell is named."""
    from sudokucam.samples.render import Marks, render_photo
    from sudokucam.vision.pipeline import Reader

    reader = Reader()
    for seed in (300200, 300201, 300203):
        marks = Marks(notes_fill=0.6, notes_wrong=2, notes_pencil=seed % 2 == 0)
        photo = render_photo(seed, "progress", marks=marks)
        grid = reader.read(photo.image).grids[0]
        wrong = {r * 9 + c for r, c in photo.truth.notes_wrong}
        assert set(grid.wrong_notes()) <= wrong
        assert grid.reading.notes_sure is not None
