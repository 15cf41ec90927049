"""Solve a photo: the answer drawn on the photo first, then the board to correct the reading."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import streamlit as st

from ..state.backend import grid_region, outlined, read_photo, resolve, unsure_cells
from ..widgets.board import BoardView, Look, board, latest_edit
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
ANSWER_SHARE = 3  # the answer's column is this many times ...
BOARD_SHARE = 2  # ... as wide as this, for the board's (side by side on a wide screen)


def board_key(photo: PhotoInput) -> str:
    """The corrections board's key: one board per photo."""
    return f"{PREFIX}_grid_{photo.digest}"


def reading_looks(read: GridResult, shown: GridResult, digits: str) -> dict[int, Look]:
    """How each cell of the corrections board is drawn.

    read: the grid as first read; shown: as solved with the corrections; digits: the
    board's digits now. Printed digits are GIVEN; unsure readings, the repair's changes,
    the person's corrections and the cells that break the rules stand out.
    """
    looks = {c: Look.GIVEN for c, d in enumerate(digits) if d != "0"}
    looks |= {c: Look.UNSURE for c in unsure_cells(read)}
    looks |= {r.cell: Look.REPAIRED for r in read.repairs}
    looks |= {c: Look.EDITED for c, d in enumerate(digits) if d != read.givens[c]}
    if shown.solution is None:
        looks |= {c: Look.CONFLICT for c in shown.conflict_cells}
    return looks


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
    edit = latest_edit(board_key(photo))
    digits = edit.digits if edit is not None else first.givens
    grid = resolve(first, [int(d) for d in digits])
    answer, side = st.columns([ANSWER_SHARE, BOARD_SHARE], gap="medium")
    with answer:
        _show_answer(result.image, grid, photo)
        show_grid_status(grid, edited=grid is not first)
    with side:
        _corrections(first, grid, digits, photo)
    _details(result.image, first, grid)


def _show_answer(image: np.ndarray, grid: GridResult, photo: PhotoInput) -> None:
    """The answer written on the photo, cropped to the grid (or all of it), and a download."""
    drawn = grid.draw(image, "solution")
    whole = bool(st.session_state.get(f"{PREFIX}_whole"))
    shown = drawn if whole else grid_region(drawn, grid)
    if grid.solution is None:
        st.image(to_rgb(shrink(shown)), caption=failure_caption(grid), width="stretch")
    else:
        st.image(to_rgb(shrink(shown)), caption="Solved: the answer drawn in blue",
                 width="stretch")  # fmt: skip
        st.download_button(
            "Download the solved photo",
            data=lambda: png_bytes(drawn),  # encoded only when clicked
            file_name=f"{Path(photo.name).stem}-solved.png",
            mime="image/png",
            type="primary",
            key=f"{PREFIX}_download",
        )
    st.toggle("Show the whole photo", key=f"{PREFIX}_whole")


def _corrections(read: GridResult, shown: GridResult, digits: str, photo: PhotoInput) -> None:
    """The board of the printed digits read, to correct a misreading by tapping."""
    st.markdown("**Digits read.** Tap a cell, then its digit: the answer updates at once.")
    looks = reading_looks(read, shown, digits)
    shown_looks = (Look.UNSURE, Look.REPAIRED, Look.EDITED, Look.CONFLICT)
    legend = [Look.GIVEN, *(look for look in shown_looks if look in looks.values())]
    view = BoardView(
        digits,
        looks,
        printed=frozenset(c for c, d in enumerate(digits) if d != "0"),
        editable=True,
        typed_printed=True,
        legend=tuple(legend),
        label="Digits read from the photo",
    )
    board(view, key=board_key(photo))


def _details(image: np.ndarray, read: GridResult, grid: GridResult) -> None:
    """How the grid was found, and the answer as text."""
    with st.expander("How it was read"):
        st.image(
            to_rgb(shrink(outlined(image, read))),
            caption="The grid found (amber rings: digits to check)",
        )
    if grid.solution is not None:
        with st.expander("The answer as text"):
            st.code(grid.solution, language=None)  # a solution has no empty cell to write as "."
