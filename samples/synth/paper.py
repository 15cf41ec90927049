"""Materials: newsprint texture, print-through from the back, the table or scanner lid."""

from __future__ import annotations

import cv2
import numpy as np

from .types import RGB


def paper(rng: np.random.Generator, width: int, height: int, tone: RGB) -> np.ndarray:
    """Newsprint: a tone with blotchy low-frequency variation and fine grain."""
    blotches = rng.normal(0, 1, (height // 48 + 2, width // 48 + 2)).astype(np.float32)
    low = cv2.resize(blotches, (width, height), interpolation=cv2.INTER_CUBIC)
    grain = cv2.GaussianBlur(rng.normal(0, 1, (height, width)).astype(np.float32), (0, 0), 0.8)
    lum = 1.0 + 0.022 * low + 0.016 * grain
    return np.asarray(tone, np.float32)[None, None, :] * lum[..., None]


def print_through(ink: np.ndarray, strength: float) -> np.ndarray:
    """The faint mirrored print of the other side of the page, as a multiplicative layer."""
    front = 1.0 - ink.mean(axis=2)
    back = np.roll(front[:, ::-1], (front.shape[0] // 3, front.shape[1] // 5), axis=(0, 1))
    back = cv2.GaussianBlur(np.ascontiguousarray(back), (0, 0), 2.5)
    return (1.0 - strength * back)[..., None]


def table_surface(rng: np.random.Generator, width: int, height: int, kind: str) -> np.ndarray:
    """What lies around the page: a wooden or grey table, or a white scanner lid."""
    if kind == "lid":
        base: RGB = (0.97, 0.97, 0.96)
    else:
        options: tuple[RGB, ...] = ((0.42, 0.29, 0.18), (0.35, 0.35, 0.37), (0.6, 0.52, 0.42))
        base = options[int(rng.integers(len(options)))]
    low = cv2.resize(
        rng.normal(0, 1, (8, 8)).astype(np.float32), (width, height), interpolation=cv2.INTER_CUBIC
    )
    streaks = cv2.resize(rng.normal(0, 1, (height // 4 + 1, 1)).astype(np.float32), (width, height))
    lum = 1.0 + (0.0 if kind == "lid" else 1.0) * (0.08 * low + 0.05 * streaks)
    return np.asarray(base, np.float32)[None, None, :] * lum[..., None]
