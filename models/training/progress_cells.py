"""Training cells of the Times progress photos and synthetic notes, for the digit model.

The Times photos' labels say which digit a cell holds but not whether it is printed or
written (pen or pencil), so a digit cell's target is *either kind of that digit*: class
``EITHER + d`` (see ``train.partial_cross_entropy``). Notes cells are the model's notes
class. Only the ``train`` split is ever used; ``val`` is held out.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np

from ...samples.progress_dataset import NOTES as NOTES_LABEL
from ...samples.progress_dataset import load_split
from ...vision.read.cells import DEFAULT_CELL_CONFIG, CellConfig, split_cells
from ...vision.read.classifier import NOTES_CLASS
from .dataset import cached_cells, read_gray, warp
from .notes_synth import NOTES_SYNTH_VERSION, notes_cells

EITHER = 100  # class EITHER + d: digit d, printed or written (the label does not say)
PROGRESS_VERSION = 2  # bump when cutting or labelling changes (names the cache)


def model_classes(labels: np.ndarray) -> np.ndarray:
    """Training classes of Times labels: 0 empty, EITHER + d a digit, NOTES_CLASS notes."""
    return np.where(
        labels == NOTES_LABEL, NOTES_CLASS, np.where(labels == 0, 0, EITHER + labels)
    ).astype(np.int64)


def with_kinds(
    classes: np.ndarray, puzzles: list[str], givens: Mapping[str, np.ndarray]
) -> np.ndarray:
    """Either-kind digit classes made exact where a photo's puzzle has derived ``givens``.

    ``classes``: the photos' cells in order (81 each); ``puzzles``: each photo's puzzle;
    ``givens``: (81,) bool printed cells by puzzle (``times_kinds.derive_split``).
    """
    out = classes.reshape(len(puzzles), 81).copy()
    for row, puzzle in zip(out, puzzles, strict=True):
        if puzzle not in givens:
            continue
        digit = row >= EITHER
        d = row - EITHER
        row[digit] = np.where(givens[puzzle][digit], d[digit], d[digit] + 9)
    return out.reshape(-1)


def progress_training_cells(
    shared: Path,
    cache: Path,
    givens: Mapping[str, np.ndarray] | None = None,
    config: CellConfig = DEFAULT_CELL_CONFIG,
) -> tuple[np.ndarray, np.ndarray]:
    """uint8 cells and training classes of the Times ``train`` photos (labelled corners).

    With ``givens`` (printed cells by puzzle), those puzzles' digits get their exact kind.
    """
    path = cache / f"progress_cells_v{PROGRESS_VERSION}_{config.cell_px}_{config.inset_px}.npz"

    def make() -> tuple[np.ndarray, np.ndarray]:
        cells, labels = [], []
        for photo in load_split("train", shared):
            ink = split_cells(warp(read_gray(photo.path), photo.corners), config)
            cells.append((ink * 255).round().astype(np.uint8))
            labels.append(model_classes(photo.labels))
        return np.concatenate(cells), np.concatenate(labels)

    cells, classes = cached_cells(path, make)
    if givens:
        classes = with_kinds(classes, [p.puzzle for p in load_split("train", shared)], givens)
    return cells, classes


def synthetic_notes_cells(n_grids: int, seed: int, cache: Path) -> tuple[np.ndarray, np.ndarray]:
    """uint8 synthetic notes cells (class NOTES_CLASS), cached under ``cache``."""
    from .notes_synth import NOTES

    path = cache / f"notes_synth_v{NOTES_SYNTH_VERSION}_{n_grids}_{seed}.npz"

    def make() -> tuple[np.ndarray, np.ndarray]:
        cells, labels = notes_cells(n_grids, seed)
        x = (cells[labels == NOTES] * 255).round().astype(np.uint8)
        return x, np.full(len(x), NOTES_CLASS, dtype=np.int64)

    return cached_cells(path, make)
