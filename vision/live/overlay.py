"""The answer drawn once on a straight grid, then warped onto each frame in one step."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import cv2
import numpy as np

from ..draw import (
    DEFAULT_DRAW_CONFIG,
    CheckMarks,
    Color,
    DrawConfig,
    check_rings,
    digit_stamp,
    ring_stamp,
)


class AnswerOverlay:
    """Digits and rings on a square of size × size cells (9 × 9 for a classic grid), with
    their coverage (alpha)."""

    def __init__(
        self, cell_px: int, config: DrawConfig = DEFAULT_DRAW_CONFIG, size: int = 9
    ) -> None:
        """An empty overlay of ``size`` cells a side, each ``cell_px`` pixels wide."""
        self.cell_px = cell_px
        self.config = config
        self.size = size
        side = size * cell_px
        self._bgra = np.zeros((side, side, 4), np.float32)

    def add_digits(self, digits: Mapping[int, int], color: Color | None = None) -> None:
        """Write ``digits`` ({cell: 1-9, or 1-16 on a 16×16}) in their cells."""
        c = self.config
        for cell, digit in digits.items():
            stamp = digit_stamp(
                digit, self.cell_px, c.digit_height_fraction, c.digit_stroke_fraction
            )
            self._paste(cell, stamp, color or c.answer_color)

    def add_rings(self, cells: Iterable[int], color: Color) -> None:
        """Put a ring around each of ``cells``."""
        stamp = ring_stamp(self.cell_px, self.config.ring_radius_fraction,
                           self.config.ring_width_fraction)  # fmt: skip
        for cell in cells:
            self._paste(cell, stamp, color)

    def add_check_marks(self, marks: CheckMarks) -> None:
        """Ring the check's cells in the colours photos and the app use (``check_rings``)."""
        for cells, color in check_rings(marks, self.config):
            self.add_rings(cells, color)

    def _paste(self, cell: int, stamp: np.ndarray, color: Color) -> None:
        """Lay the alpha ``stamp`` in ``color`` over one cell."""
        r, c = divmod(cell, self.size)
        p = self.cell_px
        view = self._bgra[r * p : (r + 1) * p, c * p : (c + 1) * p]
        alpha = np.maximum(view[..., 3], stamp)
        view[..., :3] = np.where(stamp[..., None] > 0, color, view[..., :3])
        view[..., 3] = alpha

    def draw(self, frame: np.ndarray, grid_to_frame: np.ndarray) -> np.ndarray:
        """A copy of the frame with the overlay warped onto the grid (grid coordinates
        0..size)."""
        out = frame.copy()
        height, width = frame.shape[:2]
        n = self.size
        corners = cv2.perspectiveTransform(
            np.array([[[0, 0]], [[n, 0]], [[n, n]], [[0, n]]], np.float64), grid_to_frame
        ).reshape(-1, 2)
        x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 1, [width, height])
        if x1 <= x0 or y1 <= y0:
            return out
        scale = np.diag([1.0 / self.cell_px, 1.0 / self.cell_px, 1.0])
        shift = np.array([[1.0, 0, -x0], [0, 1.0, -y0], [0, 0, 1.0]])
        warped = cv2.warpPerspective(
            self._bgra, shift @ grid_to_frame @ scale, (int(x1 - x0), int(y1 - y0)),
            flags=cv2.INTER_LINEAR,
        )  # fmt: skip
        alpha = warped[..., 3:] * self.config.opacity
        roi = out[y0:y1, x0:x1].astype(np.float32)
        out[y0:y1, x0:x1] = (roi * (1 - alpha) + warped[..., :3] * alpha + 0.5).astype(np.uint8)
        return out
