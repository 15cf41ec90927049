"""Cutting a warped grid into 81 normalised cells, on tiny synthetic grids."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sudokucam.vision.read.cells import (
    DEFAULT_CELL_CONFIG,
    CellConfig,
    ink_image,
    split_cells,
)


def blank_grid(side: int = 360, paper: int = 220, line: int = 40) -> np.ndarray:
    """A warped grid image: paper with dark grid lines on multiples of side / 9."""
    img = np.full((side, side), paper, dtype=np.uint8)
    for i in range(10):
        p = min(side - 2, round(i * side / 9))
        img[max(0, p - 1) : p + 2, :] = line
        img[:, max(0, p - 1) : p + 2] = line
    return img


def with_blob(img: np.ndarray, row: int, col: int, radius: int = 6) -> np.ndarray:
    """A copy of `img` with a dark square centred in cell (row, col)."""
    out = img.copy()
    cell = img.shape[0] / 9
    cy, cx = round((row + 0.5) * cell), round((col + 0.5) * cell)
    out[cy - radius : cy + radius, cx - radius : cx + radius] = 30
    return out


def test_shape_dtype_and_range() -> None:
    cells = split_cells(blank_grid())
    n = DEFAULT_CELL_CONFIG.output_size
    assert cells.shape == (81, n, n)
    assert cells.dtype == np.float32
    assert cells.min() >= 0.0 and cells.max() <= 1.0


@pytest.mark.parametrize("side", [180, 324, 360, 500])
def test_blob_lands_centred_in_its_cell(side: int) -> None:
    cells = split_cells(with_blob(blank_grid(side), 4, 7, radius=side // 60))
    k = 4 * 9 + 7
    ink = cells[k, 5:-5, 5:-5]  # the middle, free of grid lines
    ys, xs = np.nonzero(ink > 0.5)
    centre = (ink.shape[0] - 1) / 2
    assert abs(ys.mean() - centre) < 1.0 and abs(xs.mean() - centre) < 1.0
    others = np.delete(cells, k, axis=0)
    assert others[:, 4:-4, 4:-4].max() < 0.2


def test_empty_cells_are_nearly_blank_in_their_middle() -> None:
    cells = split_cells(blank_grid())
    assert cells[:, 4:-4, 4:-4].max() < 0.05


def test_shading_is_removed() -> None:
    img = blank_grid().astype(np.float32)
    img *= np.linspace(0.45, 1.0, img.shape[1])[None, :]
    shaded = with_blob(img.astype(np.uint8), 2, 0)
    shaded = with_blob(shaded, 2, 8)
    cells = split_cells(shaded)
    left, right = cells[2 * 9 + 0], cells[2 * 9 + 8]
    assert left.max() > 0.8 and right.max() > 0.8
    assert cells[4 * 9 + 0, 4:-4, 4:-4].max() < 0.1


def test_blank_noisy_page_is_not_amplified() -> None:
    rng = np.random.default_rng(0)
    noise = np.clip(200 + rng.normal(0, 3, (360, 360)), 0, 255).astype(np.uint8)
    assert ink_image(noise).max() < 0.5


def test_custom_config_changes_output_size() -> None:
    cells = split_cells(blank_grid(), CellConfig(cell_px=28, inset_px=0))
    assert cells.shape == (81, 28, 28)


@pytest.mark.parametrize(
    ("image", "error"),
    [
        (np.zeros((360, 300), np.uint8), ValueError),
        (np.zeros((360, 360, 3), np.uint8), ValueError),
        (np.zeros((360, 360), np.float32), ValueError),
        (np.zeros((40, 40), np.uint8), ValueError),
        ([[0] * 100] * 100, TypeError),
    ],
)
def test_bad_input_raises(image: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="warped"):
        split_cells(image)  # type: ignore[arg-type]


def test_bad_config_raises() -> None:
    with pytest.raises(ValueError, match="inset_px"):
        CellConfig(cell_px=16, inset_px=8)


def test_ink_is_scaled_by_numpys_percentile_of_the_grid() -> None:
    """The ink image is the darkness over the paper scaled by ``np.percentile`` of it (the
    ``ink_scale_percentile``), to the last bit."""
    rng = np.random.default_rng(3)
    warped = rng.integers(120, 256, (360, 360), dtype=np.uint8)
    warped[rng.random((360, 360)) < 0.05] = 20
    config = CellConfig()
    side = 9 * config.cell_px
    gray = cv2.resize(warped, (side, side), interpolation=cv2.INTER_AREA).astype(np.float32)
    k = max(3, round(config.background_kernel_cells * config.cell_px) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    background = cv2.GaussianBlur(cv2.dilate(gray, kernel), (k, k), 0)
    ink = np.clip((background - gray) / np.maximum(background, 1.0), 0.0, 1.0)
    scale = max(float(np.percentile(ink, config.ink_scale_percentile)), config.min_ink_scale)
    assert np.array_equal(ink_image(warped, config), np.minimum(ink / scale, 1.0))
