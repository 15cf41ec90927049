"""Image helpers for the page: BGR arrays to RGB for display and to PNG for download."""

from __future__ import annotations

import cv2
import numpy as np

MAX_SHOWN_SIDE = 1600


def to_rgb(image: np.ndarray) -> np.ndarray:
    """An RGB copy of a BGR or grayscale uint8 image, for st.image."""
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2RGB)
    return cv2.cvtColor(image, cv2.COLOR_BGR2RGB)


def shrink(image: np.ndarray, max_side: int = MAX_SHOWN_SIDE) -> np.ndarray:
    """The image scaled down so that its longer side is at most max_side."""
    h, w = image.shape[:2]
    scale = max_side / max(h, w)
    if scale >= 1:
        return image
    return cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)


def png_bytes(image: np.ndarray) -> bytes:
    """The BGR image encoded as PNG."""
    ok, buf = cv2.imencode(".png", image)
    if not ok:
        raise ValueError("image could not be encoded as PNG")
    return bytes(buf.tobytes())
