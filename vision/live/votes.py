"""The most probable reading of a grid across frames: classifier log-probabilities summed."""

from __future__ import annotations

import numpy as np

from ..types import CellScores

LOG_FLOOR = 1e-6  # the least probability a class is given, so that one frame cannot veto it


class ReadingVotes:
    """Sums each cell's class log-probabilities over the frames it has seen."""

    def __init__(self) -> None:
        """No frames yet."""
        self.frames = 0
        self._log_probs: np.ndarray | None = None
        self._cells: np.ndarray | None = None
        self._last_classes: np.ndarray | None = None
        self.steady = False  # the best classes agree with those before the last frame

    def add(self, scores: CellScores) -> None:
        """Add one frame's classifier output."""
        log_probs = np.log(scores.probs.astype(np.float64) + LOG_FLOOR)
        self._log_probs = log_probs if self._log_probs is None else self._log_probs + log_probs
        self._cells = scores.cells
        classes = np.argmax(self._log_probs, axis=1)
        self.steady = self._last_classes is not None and bool(
            np.array_equal(classes, self._last_classes)
        )
        self._last_classes = classes
        self.frames += 1

    def digits(self) -> str:
        """The most probable digit of each cell, printed or written alike ("0": empty)."""
        if self._last_classes is None:
            raise ValueError("no frame has voted yet")
        return "".join(str(c - 9 if c > 9 else c) for c in self._last_classes)

    def scores(self) -> CellScores:
        """The summed reading as class probabilities (normalised per cell), last cell images."""
        if self._log_probs is None:
            raise ValueError("no frame has voted yet")
        shifted = self._log_probs / self.frames
        probs = np.exp(shifted - shifted.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        return CellScores(probs.astype(np.float32), self._cells)
