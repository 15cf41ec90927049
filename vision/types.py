"""Plain data passed between the reading stages: small frozen dataclasses of numpy arrays."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np

NUM_CLASSES = 19  # 0 empty, 1-9 printed 1-9, 10-18 handwritten 1-9


class Kind(IntEnum):
    """What a cell holds."""

    EMPTY = 0
    PRINTED = 1
    HANDWRITTEN = 2


@dataclass(frozen=True)
class GridDetection:
    """Where a 9×9 grid lies in a photo.

    corners: (4, 2) float64, top-left, top-right, bottom-right, bottom-left, original pixels.
    lattice: (10, 10, 2) float64, the grid-line intersections in original pixels
        (row-major: lattice[i, j] is where horizontal line i meets vertical line j).
        For a flat page it follows from the homography; for a bent page it is measured.
    homography: (3, 3) maps original pixels to the warped square image.
    inverse: (3, 3) maps warped pixels back to the original.
    warped: (S, S) uint8 grayscale, the grid straightened (cell by cell on bent pages).
    score: how grid-like the detection is, 0..1.
    """

    corners: np.ndarray
    lattice: np.ndarray
    homography: np.ndarray
    inverse: np.ndarray
    warped: np.ndarray
    score: float


@dataclass(frozen=True)
class CellReading:
    """What the classifier read in the 81 cells (row-major).

    probs: (81, 19) float32 class probabilities (0 empty, 1-9 printed, 10-18 handwritten).
    digits: (81,) int64, 0 for empty.
    kinds: (81,) int64 of Kind values.
    kind_log_odds: (81,) float64 log p(printed) / p(handwritten) behind each filled cell's
        kind, after the per-puzzle evidence (0 for empty cells); None when not known.
    """

    probs: np.ndarray
    digits: np.ndarray
    kinds: np.ndarray
    kind_log_odds: np.ndarray | None = None

    @property
    def confidence(self) -> np.ndarray:
        """(81,) probability of the chosen class of each cell."""
        chosen = np.where(
            self.kinds == Kind.EMPTY,
            0,
            np.where(self.kinds == Kind.PRINTED, self.digits, self.digits + 9),
        )
        return self.probs[np.arange(81), chosen]
