"""A grid found in one decode of a photo, straightened again from a finer decode.

The small-grid finder straightens a grid at ``SmallGridConfig.cell_px`` a cell from the
photo as the grid search saw it; that is enough for a cell's one digit, not for the small
candidate notes in it (a noted digit spans a fifth of the cell: 8 pixels of 40, where the
photo may hold 25). ``straightened`` cuts the grid again, as finely as asked, from the
photo decoded finer (a 16×16's numbers are read so too: ``sixteen.straightened_from``),
and ``Straightener`` does it only when asked (a photo is decoded finer only where a page
holds notes).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from ..grid.warp import to_gray
from ..load import ScaledImage
from ..types import GridDetection

# a grid's detection and the side of its straightened square -> that square, from the
# photo decoded finer
Straighten = Callable[[GridDetection, int], np.ndarray]


def page_to_finer(page: ScaledImage, finer: ScaledImage) -> np.ndarray:
    """The 3×3 map from ``finer``'s pixels to ``page``'s (two decodes of one photo)."""
    scale = finer.factor / page.factor
    shift = [(f - o) / page.factor for f, o in zip(finer.offset, page.offset, strict=True)]
    return np.array([[scale, 0.0, shift[0]], [0.0, scale, shift[1]], [0.0, 0.0, 1.0]])


def straightened(
    detection: GridDetection, side: int, page: ScaledImage, finer: ScaledImage
) -> np.ndarray:
    """The grid of ``detection`` (found in ``page``) straightened to a square of ``side``
    pixels from ``finer`` (the same photo decoded finer), as its ``warped`` image lies
    (turned as it was turned)."""
    if side < 8:
        raise ValueError(f"side must be at least 8 pixels, got {side}")
    scale = side / detection.warped.shape[0]
    centre = (scale - 1.0) / 2.0  # pixel centres kept: pixel 0 spans [-0.5, 0.5) either way
    grow = np.array([[scale, 0.0, centre], [0.0, scale, centre], [0.0, 0.0, 1.0]])
    return cv2.warpPerspective(
        to_gray(finer.pixels),
        grow @ detection.homography @ page_to_finer(page, finer),
        (side, side),
        flags=cv2.INTER_AREA,
        borderMode=cv2.BORDER_REPLICATE,
    )


def straightener(page: ScaledImage, decode: Callable[[], ScaledImage]) -> Straighten:
    """Straightens grids found in ``page`` from the photo as ``decode`` gives it (called
    once, at the first grid asked for)."""
    decoded: list[ScaledImage] = []

    def straighten(detection: GridDetection, side: int) -> np.ndarray:
        """The grid straightened to ``side`` pixels from the finer decode."""
        if not decoded:
            decoded.append(decode())
        return straightened(detection, side, page, decoded[0])

    return straighten
