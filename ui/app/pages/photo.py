"""Solve a photo: read the grid, let the person correct it, draw the answer on the photo."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import streamlit as st

from ....vision.types import digit_values
from ..state.backend import grid_region, outlined, read_photo, resolve, unsure_cells
from ..widgets.grid_editor import REPAIRED_MARK, UNSURE_MARK, grid_editor
from ..widgets.images import png_bytes, shrink, to_rgb
from ..widgets.photo_input import PhotoInput, photo_input
from ..widgets.photo_status import (
    failure_caption,
    show_grid_status,
    show_more_puzzles,
    show_photo_failure,
)

if TYPE_CHECKING:
    from ....vision.results import GridResult

PREFIX = "photo"


def cell_marks(grid: GridResult) -> dict[int, str]:
    """The table marks: '?' on unsure readings, '*' on digits the repair changed."""
    marks = {c: UNSURE_MARK for c in unsure_cells(grid)}
    marks |= {r.cell: REPAIRED_MARK for r in grid.repairs}
    return marks


def render() -> None:
    """The 'Solve a photo' page."""
    st.subheader("Solve a photo")
    photo = photo_input(PREFIX, sample_kinds=("printed",))
    if photo is None:
        st.info(
            "Upload a photo of a Sudoku, take one with the camera, or pick a sample. "
            "Shoot from straight above with the whole grid in the frame."
        )
        return
    result = read_photo(photo, PREFIX)
    if show_photo_failure(result) or result.image is None:
        return
    show_more_puzzles(result)
    first = result.grids[0]
    left, right = st.columns(2, gap="medium")
    with left:
        st.image(
            to_rgb(shrink(outlined(result.image, first))),
            caption="The grid found (amber rings: digits to check)",
        )
    with right:
        values = _editor(first, photo)
    grid = resolve(first, values)
    show_grid_status(grid, edited=grid is not first)
    _show_solved(result.image, grid, photo)


def _editor(grid: GridResult, photo: PhotoInput) -> list[int]:
    """The editable table of the printed digits read; returns them as corrected."""
    st.markdown("**Digits read.** Correct any mistake: the answer updates at once.")
    values = grid_editor(
        digit_values(grid.givens), key=f"{PREFIX}_grid_{photo.digest}", marks=cell_marks(grid)
    )
    st.caption(f"{UNSURE_MARK} unsure reading · {REPAIRED_MARK} changed by the solver's repair")
    return values


def _show_solved(image: np.ndarray, grid: GridResult, photo: PhotoInput) -> None:
    """The photo with the answer written in (the grid close up, or all of it), and a button."""
    drawn = grid.draw(image, "solution")
    whole = st.toggle("Show the whole photo", key=f"{PREFIX}_whole")
    shown = drawn if whole else grid_region(drawn, grid)
    if grid.solution is None:
        st.image(to_rgb(shrink(shown)), caption=failure_caption(grid))
        return
    st.image(to_rgb(shrink(shown)), caption="Solved: the answer drawn in blue")
    st.download_button(
        "Download the solved photo",
        data=png_bytes(drawn),
        file_name=f"{Path(photo.name).stem}-solved.png",
        mime="image/png",
        type="primary",
        key=f"{PREFIX}_download",
    )
    with st.expander("The answer as text"):
        st.code(grid.solution, language=None)  # a solution has no empty cell to write as "."
