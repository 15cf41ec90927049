"""The app's link to the photo pipeline: one reader per server, results kept per session."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import streamlit as st

from ....vision.draw import crop_box, draw_outline, draw_rings
from ....vision.load import ImageLoadError, load_image
from ....vision.results import PhotoResult
from ....vision.types import digits_of
from ..widgets.photo_input import PhotoInput
from .settings import APP_CONFIG

if TYPE_CHECKING:
    from ....vision.pipeline import Reader
    from ....vision.results import GridResult

OUTLINE_COLOR = (60, 180, 30)  # BGR green
UNSURE_COLOR = (0, 190, 255)  # BGR amber


@st.cache_resource(show_spinner="Loading the digit reader…")
def shared_reader() -> Reader:
    """The photo reader with the shipped model, built once per server; it reads every grid."""
    from ....vision.pipeline import EVERY_GRID_CONFIG, Reader

    return Reader(config=EVERY_GRID_CONFIG)


def read_photo(photo: PhotoInput, prefix: str) -> PhotoResult:
    """Read and solve a photo, reusing the result while the same photo stays on the page."""
    key = f"{prefix}_result"
    kept = st.session_state.get(key)
    if kept is not None and kept[0] == photo.digest:
        return kept[1]
    try:
        image = load_image(photo.data)
    except ImageLoadError as exc:
        result = PhotoResult(photo.name, None, (), str(exc))
    else:
        with st.spinner("Reading the photo…"):
            result = shared_reader().read(image, name=photo.name)
    st.session_state[key] = (photo.digest, result)
    return result


def unsure_cells(grid: GridResult) -> list[int]:
    """Cells read with too little confidence to trust without a look."""
    confidence = np.asarray(grid.confidence)
    return [int(c) for c in np.flatnonzero(confidence < APP_CONFIG.unsure_below)]


def outlined(image: np.ndarray, grid: GridResult) -> np.ndarray:
    """The photo with the grid found outlined and the unsure cells ringed."""
    side = max(image.shape[:2])
    thickness = max(2, round(side / 1000 * APP_CONFIG.outline_px_per_1000))
    out = draw_outline(image, grid.detection.corners, OUTLINE_COLOR, thickness)
    return draw_rings(out, grid.detection.lattice, unsure_cells(grid), UNSURE_COLOR)


def resolve(
    grid: GridResult, givens: list[int], handwritten: list[int] | None = None
) -> GridResult:
    """The grid solved again with the digits the person corrected (pen entries optional)."""
    line = digits_of(givens)
    hand = None if handwritten is None else digits_of(handwritten)
    if line == grid.givens and hand in (None, grid.handwritten):
        return grid
    return shared_reader().resolve(grid, line, hand)


def grid_region(image: np.ndarray, grid: GridResult) -> np.ndarray:
    """The part of the photo around the grid, so the digits show large on a phone."""
    x0, y0, x1, y1 = crop_box(grid.detection.corners, image.shape, APP_CONFIG.grid_margin_fraction)
    return image[y0:y1, x0:x1]
