"""What the live processor says about each frame."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from ..results import GridResult


class FrameState(StrEnum):
    """Where the processor stands on a frame."""

    SEARCHING = "searching"  # no grid known: the frame was searched for one
    READING = "reading"  # a grid is tracked and its cells are being read across frames
    TRACKING = "tracking"  # the grid's answer is known and the grid is followed
    LOST = "lost"  # the tracked grid was lost on this frame (searched again from the next)


@dataclass(frozen=True)
class FrameResult:
    """One processed frame.

    index: the frame's number from 0. lattice: (10, 10, 2) grid-line crossings in frame
    pixels ((n + 1, n + 1, 2) for a small grid or a 16×16), None when no grid is known.
    drawn: the answer is drawn on ``image`` (the frame, BGR uint8, with the answer when
    drawn). grid: the reading and answer being shown or last settled, None before any.
    seconds: the time processing took.
    """

    index: int
    state: FrameState
    lattice: np.ndarray | None
    drawn: bool
    image: np.ndarray
    grid: GridResult | None
    seconds: float

    @property
    def corners(self) -> np.ndarray | None:
        """(4, 2) TL, TR, BR, BL where the border lines' centres meet, or None."""
        if self.lattice is None:
            return None
        n = self.lattice.shape[0] - 1
        return self.lattice[[0, 0, n, n], [0, n, n, 0]]
