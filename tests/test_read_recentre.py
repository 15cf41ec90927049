"""Entries written off the middle of their cell are read again centred (``recentre.py``)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

from sudokucam.samples.dataset import photo_path, truth, validation_ids
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.read.classifier import DigitClassifier
from sudokucam.vision.read.config import ReadConfig
from sudokucam.vision.read.decide import DEFAULT_KIND_DECISION_CONFIG, decide_kinds
from sudokucam.vision.read.recentre import RecentreConfig, centred_blob
from sudokucam.vision.types import Kind

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
# committed samples with pen entries (samples/render.py), and how each entry is moved
PEN_SAMPLES = ("progress/half_blue", "progress/nearly_done", "webcam/pen", "progress/pencil")
SHIFTS = ((-7, 0), (-6, -6), (0, 7), (7, 7))
BORDER = 3


PLAIN = ReadConfig(recentre=RecentreConfig(on=False))  # off-centre ink is not read again


@cache
def classifier() -> DigitClassifier:
    """The shipped model."""
    return DigitClassifier()


def moved(cell: np.ndarray, dy: int, dx: int) -> np.ndarray:
    """The cell's ink (edge cleared) moved by (dy, dx) pixels, ink pushed off the edge lost."""
    inner = np.zeros_like(cell)
    inner[BORDER:-BORDER, BORDER:-BORDER] = cell[BORDER:-BORDER, BORDER:-BORDER]
    out = np.roll(np.roll(inner, dy, axis=0), dx, axis=1)
    out[:BORDER], out[-BORDER:], out[:, :BORDER], out[:, -BORDER:] = 0, 0, 0, 0
    return out


def pen_cells(name: str) -> tuple[np.ndarray, dict[int, int]]:
    """A committed sample's 81 cell images and its pen entries (cell -> digit)."""
    grid = Reader().read(SAMPLES / f"{name}.jpg").grids[0]
    pen = "".join((SAMPLES / f"{name}.pen.dat").read_text(encoding="utf-8").split())
    cells = classifier().cells(grid.detection.warped)
    return cells, {i: int(d) for i, d in enumerate(pen) if d != "0"}


def illegible(probs: np.ndarray) -> np.ndarray:
    """(N,) the cells read as ink but no legible digit (so far read as empty)."""
    kinds = DEFAULT_KIND_DECISION_CONFIG
    return (probs[:, 0] < kinds.empty_below) & ~kinds.filled(probs)


@pytest.mark.slow
def test_entries_pushed_to_an_edge_are_read_centred() -> None:
    """Pen entries of committed samples moved towards a cell edge: where the model alone
    reads no legible digit, the entry read again centred is its digit, or (ink lost past the
    edge) the cell is asked about; never another digit."""
    right, asked = 0, 0
    for name in PEN_SAMPLES:
        cells, pen = pen_cells(name)
        for dy, dx in SHIFTS:
            shifted = cells.copy()
            for cell in pen:
                shifted[cell] = moved(cells[cell], dy, dx)
            before = classifier().score_cells(shifted, config=PLAIN).probs
            scores = classifier().score_cells(shifted)
            after = scores.probs
            for cell, digit in pen.items():
                if (
                    illegible(before[cell : cell + 1])[0]
                    and centred_blob(shifted[cell]) is not None
                ):
                    by_digit = after[cell, 1:10] + after[cell, 10:19]
                    if illegible(after[cell : cell + 1])[0]:
                        assert scores.unreadable is not None and scores.unreadable[cell]
                        asked += 1
                    else:
                        assert int(np.argmax(by_digit)) + 1 == digit, (name, dy, dx, cell)
                        right += 1
                else:  # a legible reading, or too little ink left, is never read again
                    assert np.array_equal(after[cell], before[cell])
    assert right + asked >= 2  # the model alone cannot read some of them
    assert right >= asked  # of those, reading centred names the digit at least as often


@pytest.mark.slow
def test_two_digits_written_over_each_other_are_no_entry_but_asked_about() -> None:
    """Two pen digits of a committed sample laid over each other in one cell: where no
    digit is read even centred, the cell is no entry and is marked unreadable."""
    cells, pen = pen_cells("progress/nearly_done")
    entries = sorted(pen.items())
    unreadable = 0
    for i, (first, a) in enumerate(entries):
        for second, b in entries[i + 1 :: 7]:
            if a == b:
                continue
            both = cells.copy()
            both[first] = np.maximum(cells[first], cells[second])
            reading = decide_kinds(classifier().score_cells(both))
            assert reading.unreadable is not None
            if reading.unreadable[first]:
                unreadable += 1
                assert reading.digits[first] == 0 and reading.kinds[first] == Kind.EMPTY
            assert sum(reading.unreadable) <= 1  # the untouched cells are read as before
    assert unreadable >= 1


def test_specks_and_empty_cells_are_not_moved() -> None:
    cell = np.zeros((32, 32), dtype=np.float32)
    assert centred_blob(cell) is None
    cell[5:7, 6:8] = 1.0  # a speck
    assert centred_blob(cell) is None
    cell[0:32, 0] = 1.0  # a grid line at the edge is cleared, not a blob
    assert centred_blob(cell) is None


def test_a_digit_sized_blob_is_centred() -> None:
    cell = np.zeros((32, 32), dtype=np.float32)
    cell[4:18, 5:13] = 0.9  # a stroke-sized block in the top-left corner
    out = centred_blob(cell)
    assert out is not None
    rows, cols = np.nonzero(out > 0.35)
    assert abs((rows.min() + rows.max()) / 2 - 15.5) <= 1
    assert abs((cols.min() + cols.max()) / 2 - 15.5) <= 1
    assert out.sum() == pytest.approx(cell.sum(), rel=0.05)


def test_sure_share_outside_zero_one_is_rejected() -> None:
    with pytest.raises(ValueError, match="sure_share"):
        RecentreConfig(sure_share=0.0)


@pytest.mark.shared
@pytest.mark.slow
def test_a_pen_nine_against_the_top_of_its_cell_is_read(photos_dir: Path) -> None:
    """Validation photo 119: a pen 9 written high in r1c7, once read as an empty cell."""
    if 119 not in validation_ids():
        pytest.skip("photo 119 is not in the validation split")
    givens, pen, _ = truth(119, "mixed")
    grid = Reader().read(photo_path(119, "mixed", photos_dir)).grids[0]
    assert pen[6] == "9"
    assert grid.handwritten[6] == "9"
    assert grid.givens == givens
