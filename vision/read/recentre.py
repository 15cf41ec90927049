"""Read again, centred, a cell holding a digit's worth of ink but no legible digit.

A person writes where there is room: a 9 squeezed against the top of its cell, a 2 in a
corner. The classifier learnt digits near the middle of their cell, so such a cell comes
out as ink (not empty) with no digit it is sure of, and would be read as empty. Those
cells whose largest blob of ink is the size of a digit (specks, smudges and print showing
through from the other side never are: see the model card's "Known limits") are moved so
the blob lies in the middle and read again; the new reading replaces the old one only
where its digit is sure. Any other ink is left as the classifier read it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from .decide import digit_share
from .notes import Predict

# a model's raw (N, C) output -> (N, 19) digit probabilities: 0 empty, 1-9 printed, 10-18
# handwritten (the notes and crossed-out classes folded in as the classifier does)
DigitProbs = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class RecentreConfig:
    """Which cells are read again centred, and when the new reading counts.

    on: False reads no cell again.
    ink_threshold: a pixel is stroke from this ink (as ``kinds.InkShapeConfig``).
    border_px: ignored at the cell's edge (the grid line).
    min_height: the blob's height, as a share of the cell, from which it is a digit's size.
    min_area: the blob's pixels, as a share of the cell's, from which it is a digit's size.
    sure_share: the new reading counts when its digit holds at least this share of the
        digit probability (a cell's reading is legible from ``decide.LEGIBLE_FROM``) and
        the cell is less likely empty than ``empty_below``.
    """

    on: bool = True
    ink_threshold: float = 0.35
    border_px: int = 3
    min_height: float = 0.3
    min_area: float = 0.04
    sure_share: float = 0.6
    empty_below: float = 0.5

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if not 0.0 < self.sure_share <= 1.0:
            raise ValueError(f"sure_share must be in (0, 1], got {self.sure_share}")
        if self.border_px < 0:
            raise ValueError(f"border_px must not be negative, got {self.border_px}")


DEFAULT_RECENTRE_CONFIG = RecentreConfig()


def centred_blob(
    cell: np.ndarray, config: RecentreConfig = DEFAULT_RECENTRE_CONFIG
) -> np.ndarray | None:
    """The cell's ink, edge cleared, moved so its largest blob is centred; None when that
    blob is smaller than a digit (or there is no ink)."""
    side, b = cell.shape[0], config.border_px
    inner = np.zeros_like(cell)
    inner[b : side - b, b : side - b] = cell[b : side - b, b : side - b]
    stroke = (inner > config.ink_threshold).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(stroke, connectivity=8)
    if count <= 1:
        return None
    x, y, w, h, area = stats[1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))]
    if h < config.min_height * side or area < config.min_area * side * side:
        return None
    dx, dy = side / 2 - (x + w / 2), side / 2 - (y + h / 2)
    shift = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]], dtype=np.float32)
    moved = cv2.warpAffine(inner, shift, (side, side), flags=cv2.INTER_LINEAR, borderValue=0)
    return np.asarray(moved, dtype=cell.dtype)


@dataclass(frozen=True)
class Reread:
    """What reading cells again centred gave.

    cells: indices of the cells now read surely; probs: the model's raw output for them;
    images: their centred ink images; unreadable: indices of the cells holding a digit's
    size of ink that did not read surely even centred.
    """

    cells: np.ndarray
    probs: np.ndarray
    images: np.ndarray
    unreadable: np.ndarray


def reread_centred(
    cells: np.ndarray,
    todo: np.ndarray,
    predict: Predict,
    digit_probs: DigitProbs,
    config: RecentreConfig = DEFAULT_RECENTRE_CONFIG,
) -> Reread:
    """The cells in ``todo`` (bool per cell) with a digit-sized blob, read again centred in
    one ``predict`` call: those that read surely, and those that do not."""
    none = np.zeros(0, dtype=np.int64)
    nothing = Reread(none, np.zeros((0, 0), np.float32), cells[:0], none)
    if not config.on:
        return nothing
    moved = {int(c): centred_blob(cells[c], config) for c in np.flatnonzero(todo)}
    found = {c: image for c, image in moved.items() if image is not None}
    if not found:
        return nothing
    which, images = np.array(list(found), dtype=np.int64), np.stack(list(found.values()))
    probs, _ = predict(images)
    read = digit_probs(probs)
    sure = (digit_share(read) >= config.sure_share) & (read[:, 0] < config.empty_below)
    return Reread(which[sure], probs[sure], images[sure], which[~sure])
