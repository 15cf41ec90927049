"""The Times progress photos' truth: where they live, their splits, labels and corners.

160 phone photos of half-solved Times Sudokus (A. Kubiesa's sudoku-scanner, MIT) lie in
the shared data folder (``samples.dataset.SHARED``) under ``data/times_progress``:
``SPLIT/images/NAME.jpg``, the cells in ``SPLIT/labels/NAME.txt`` (9 rows of 9
integers: 0 empty, 1-9 a digit, printed or written, 10 candidate notes) and
``SPLIT/metadata.csv`` (phone, puzzle date, corners). The two splits share no puzzle:
``train`` is for training and tuning, ``val`` is held out (never trained or tuned on).
Tests, benchmarks and the training code read the truth through this module; the
sudokucam package itself never does.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .dataset import SHARED

SPLITS = ("train", "val")  # tuning; held out
EMPTY, NOTES = 0, 10  # label values besides the digits 1-9
# metadata.csv corner columns, in its order: top-left, bottom-left, bottom-right, top-right
CSV_CORNERS = ("topleft", "bottomleft", "bottomright", "topright")
# the project's order (top-left, top-right, bottom-right, bottom-left) as CSV positions
PROJECT_ORDER = (0, 3, 2, 1)


def progress_dir(shared: Path = SHARED) -> Path:
    """The progress photos folder inside a shared data folder."""
    return shared / "data" / "times_progress"


@dataclass(frozen=True)
class ProgressPhoto:
    """One photo and its truth.

    labels: (81,) int64 row-major, 0 empty, 1-9 a digit, 10 notes only.
    corners: (4, 2) float64 pixels of the photo on disk, in the project's order
        (top-left, top-right, bottom-right, bottom-left).
    puzzle: the puzzle's date ``MM_DD``, shared by its four photos.
    """

    name: str
    split: str
    path: Path
    phone: str
    puzzle: str
    labels: np.ndarray
    corners: np.ndarray

    @property
    def digits(self) -> str:
        """The 81 cells as Digits: the entries and givens, '0' for empty and notes cells."""
        return "".join(str(v) if 1 <= v <= 9 else "0" for v in self.labels)

    @property
    def notes_cells(self) -> np.ndarray:
        """(81,) bool, the cells holding candidate notes only."""
        return np.asarray(self.labels == NOTES)


def read_labels(path: Path) -> np.ndarray:
    """The 81 cell labels of a label file (9 rows of 9 integers 0-10)."""
    values = [int(v) for v in path.read_text().split()]
    if len(values) != 81 or not all(0 <= v <= NOTES for v in values):
        raise ValueError(f"{path}: expected 81 integers 0-10, got {len(values)} values")
    return np.array(values, dtype=np.int64)


def corners_of(row: dict[str, str]) -> np.ndarray:
    """A metadata row's corners in pixels, in the project's order."""
    points = [(float(row[f"x_{c}_absolute"]), float(row[f"y_{c}_absolute"])) for c in CSV_CORNERS]
    return np.array([points[i] for i in PROJECT_ORDER], dtype=np.float64)


def load_split(split: str, shared: Path = SHARED) -> list[ProgressPhoto]:
    """Every photo of a split ("train" or "val") with its truth, in metadata order."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    folder = progress_dir(shared) / split
    with (folder / "metadata.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    return [
        ProgressPhoto(
            name=row["Name"],
            split=split,
            path=folder / "images" / row["Name"],
            phone=row["Source"],
            puzzle=row["Puzzle"],
            labels=read_labels(folder / "labels" / Path(row["Name"]).with_suffix(".txt")),
            corners=corners_of(row),
        )
        for row in rows
    ]


def available(shared: Path = SHARED) -> bool:
    """True when the progress photos are present."""
    return all((progress_dir(shared) / s / "metadata.csv").is_file() for s in SPLITS)
