"""Read again, at its own contrast, a cell whose faint ink is as dark as the page's writing.

A cell's ink is measured against the grid's darkest ink (the print), so pencil so faint
that it is nearly invisible comes out as a tenth of a printed digit's ink and is read as
empty. Where the person's other entries on the page are just as faint, such a cell is one
of them: it is stretched to an entry's contrast and read again, and the new reading
replaces the old one only where it is a sure written digit.

Erased pencil leaves ghosts that read as sure digits when stretched too; they are told
apart by the page's own writing: a ghost is much lighter than the entries around it. On
the 345 shared photos (sudoku_dataset pen-filled, Times progress, wild) no empty cell
passes both tests; on a rendered page of faint pencil 3 of 7 lost entries do.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..grid.shift import percentile_along
from .notes import Predict
from .recentre import DigitProbs

WRITTEN = slice(10, 19)  # the handwritten digit classes of the 19 digit probabilities


@dataclass(frozen=True)
class FaintConfig:
    """Which cells read as empty are read again at their own contrast.

    on: False reads no cell again.
    border_px: ignored at the cell's edge (the grid line) when the ink is measured.
    ink_percentile: a cell's ink is this percentile of its pixels (a stroke's darkness).
    written_from: a cell counts as one of the page's written entries when its likeliest
        class is a written digit holding at least this probability.
    min_share: a cell is read again when its ink is at least this share of the median ink
        of the page's written entries (erasure ghosts stay below half).
    min_ink: ...and at least this ink (paper grain stretched reads as anything).
    stretch_to: the cell's ink is scaled so that its measured ink becomes this.
    sure_from: the new reading counts when one written digit holds this probability.
    empty_from: only cells at least this likely empty are looked at (less likely ones are
        settled by the kind decision or read again centred).
    other_below: ...and less likely than this to hold notes or a digit crossed out.
    """

    on: bool = True
    border_px: int = 3
    ink_percentile: float = 99.0
    written_from: float = 0.5
    min_share: float = 0.7
    min_ink: float = 0.05
    stretch_to: float = 0.8
    sure_from: float = 0.9
    empty_from: float = 0.5
    other_below: float = 0.2

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if not 0.0 < self.sure_from <= 1.0:
            raise ValueError(f"sure_from must be in (0, 1], got {self.sure_from}")
        if not 0.0 < self.stretch_to <= 1.0:
            raise ValueError(f"stretch_to must be in (0, 1], got {self.stretch_to}")
        if self.border_px < 0:
            raise ValueError(f"border_px must not be negative, got {self.border_px}")


DEFAULT_FAINT_CONFIG = FaintConfig()


@dataclass(frozen=True)
class FaintReread:
    """Cells read again at their own contrast that now read surely as written digits.

    cells: their indices; probs: the model's raw output for them; images: their
    stretched ink images.
    """

    cells: np.ndarray
    probs: np.ndarray
    images: np.ndarray


def cell_ink(cells: np.ndarray, config: FaintConfig = DEFAULT_FAINT_CONFIG) -> np.ndarray:
    """(N,) each cell's ink: a high percentile of its pixels inside the border."""
    b = config.border_px
    inner = cells[:, b : cells.shape[1] - b, b : cells.shape[2] - b].reshape(len(cells), -1)
    ink = percentile_along(inner[:, :, None], config.ink_percentile)[:, 0]  # np.percentile's
    return np.asarray(ink, dtype=np.float64)


def faint_candidates(
    digit: np.ndarray, other: np.ndarray, ink: np.ndarray, config: FaintConfig
) -> np.ndarray:
    """(N,) bool: cells likely empty whose ink is as dark as the page's written entries.

    digit: (N, 19) digit probabilities; other: (N,) probability of notes or a digit
    crossed out; ink: (N,) each cell's ink (``cell_ink``).
    """
    written = digit[:, WRITTEN].max(axis=1) >= config.written_from
    written &= digit.argmax(axis=1) >= WRITTEN.start
    if not written.any():
        return np.zeros(len(digit), dtype=bool)
    level = float(np.median(ink[written]))
    todo = (digit[:, 0] >= config.empty_from) & (other < config.other_below)
    return np.asarray(todo & (ink >= max(config.min_share * level, config.min_ink)))


def reread_faint(
    cells: np.ndarray,
    todo: np.ndarray,
    predict: Predict,
    digit_probs: DigitProbs,
    config: FaintConfig = DEFAULT_FAINT_CONFIG,
) -> FaintReread:
    """The cells in ``todo`` (bool per cell) stretched to an entry's contrast and read
    again in one ``predict`` call: those that read surely as a written digit."""
    which = np.flatnonzero(todo) if config.on else np.zeros(0, dtype=np.int64)
    if not which.size:
        return FaintReread(which, np.zeros((0, 0), np.float32), cells[:0])
    ink = cell_ink(cells[which], config)
    gain = (config.stretch_to / np.maximum(ink, config.min_ink))[:, None, None]
    images = np.clip(cells[which] * gain, 0.0, 1.0).astype(cells.dtype)
    probs, _ = predict(images)
    sure = digit_probs(probs)[:, WRITTEN].max(axis=1) >= config.sure_from
    return FaintReread(which[sure], probs[sure], images[sure])
