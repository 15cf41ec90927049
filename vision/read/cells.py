"""Cut a straightened grid into 81 normalised cell images for the digit classifier."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..grid.shift import percentile_along


@dataclass(frozen=True)
class CellConfig:
    """How the warped grid becomes 81 ink images.

    The grid is resampled so each cell spans ``cell_px`` pixels, ``inset_px`` are cut from
    every side of a cell (most of the grid line), leaving ``cell_px - 2 * inset_px``.
    Ink is darkness relative to the local paper brightness (a grey dilation over
    ``background_kernel_cells`` of a cell), scaled so the ``ink_scale_percentile`` of the
    whole grid (grid lines, printed digits) maps to 1; the scale never drops below
    ``min_ink_scale`` so a blank, noisy page is not amplified.
    """

    cell_px: int = 36
    inset_px: int = 2
    background_kernel_cells: float = 0.35
    ink_scale_percentile: float = 99.0
    min_ink_scale: float = 0.2

    @property
    def output_size(self) -> int:
        """Side in pixels of one cell image."""
        return self.cell_px - 2 * self.inset_px

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if self.cell_px < 8:
            raise ValueError(f"cell_px must be at least 8, got {self.cell_px}")
        if not 0 <= 2 * self.inset_px < self.cell_px // 2:
            raise ValueError(f"inset_px must leave most of the cell, got {self.inset_px}")
        if not 0 < self.min_ink_scale <= 1:
            raise ValueError(f"min_ink_scale must be in (0, 1], got {self.min_ink_scale}")


DEFAULT_CELL_CONFIG = CellConfig()


def ink_image(
    warped: np.ndarray, config: CellConfig = DEFAULT_CELL_CONFIG, n: int = 9
) -> np.ndarray:
    """The grid of ``n`` cells a side resampled to n * cell_px pixels as float32 ink in
    [0, 1] (1 = darkest ink)."""
    _check_warped(warped)
    side = n * config.cell_px
    interpolation = cv2.INTER_AREA if warped.shape[0] > side else cv2.INTER_LINEAR
    gray = cv2.resize(warped, (side, side), interpolation=interpolation).astype(np.float32)
    k = max(3, round(config.background_kernel_cells * config.cell_px) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    background = cv2.GaussianBlur(cv2.dilate(gray, kernel), (k, k), 0)
    ink = np.clip((background - gray) / np.maximum(background, 1.0), 0.0, 1.0)
    top = percentile_along(ink.reshape(1, -1, 1), config.ink_scale_percentile)  # np.percentile's
    scale = max(float(top[0, 0]), config.min_ink_scale)
    return np.minimum(ink / scale, 1.0).astype(np.float32)


def split_cells(
    warped: np.ndarray, config: CellConfig = DEFAULT_CELL_CONFIG, n: int = 9
) -> np.ndarray:
    """The 81 cells of a warped grid (n² of a grid of ``n`` cells a side), row-major, as
    (81, N, N) float32 ink images in [0, 1]."""
    p, i = config.cell_px, config.inset_px
    ink = ink_image(warped, config, n)
    cells = ink.reshape(n, p, n, p).transpose(0, 2, 1, 3).reshape(n * n, p, p)
    return np.ascontiguousarray(cells[:, i : p - i, i : p - i])


def _check_warped(warped: np.ndarray) -> None:
    """Raise if `warped` is not a square 2-D uint8 image."""
    if not isinstance(warped, np.ndarray):
        raise TypeError(f"warped must be a numpy array, got {type(warped).__name__}")
    if warped.ndim != 2 or warped.shape[0] != warped.shape[1]:
        raise ValueError(f"warped must be a square 2-D grayscale image, got {warped.shape}")
    if warped.dtype != np.uint8:
        raise ValueError(f"warped must be uint8, got {warped.dtype}")
    if warped.shape[0] < 9 * 8:
        raise ValueError(f"warped must be at least 72 pixels wide, got {warped.shape[0]}")
