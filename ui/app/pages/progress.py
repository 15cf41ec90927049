"""Check my progress: tell printed digits from pen entries, ring the wrong ones, offer a hint."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import streamlit as st

from ....solver import cell_name
from ....vision.types import digit_values
from ..state.backend import grid_region, read_photo, resolve, unsure_cells
from ..widgets.grid_editor import UNSURE_MARK, grid_editor
from ..widgets.grid_view import show_grid
from ..widgets.hints import show_hint
from ..widgets.images import shrink, to_rgb
from ..widgets.photo_input import PhotoInput, photo_input
from ..widgets.photo_status import (
    failure_caption,
    show_grid_status,
    show_more_puzzles,
    show_photo_failure,
)

if TYPE_CHECKING:
    from ....vision.results import GridResult

PREFIX = "progress"


def board_classes(grid: GridResult) -> dict[int, str]:
    """CSS classes: printed digits, right pen entries, wrong pen entries."""
    classes = {c: "given" for c, d in enumerate(grid.givens) if d != "0"}
    classes |= {c: "right" for c in grid.right_entries}
    classes |= {c: "wrong" for c in grid.wrong_entries}
    return classes


def board_values(grid: GridResult) -> list[int]:
    """What is on the paper: printed digits and pen entries together."""
    return [
        int(g) if g != "0" else int(h) for g, h in zip(grid.givens, grid.handwritten, strict=True)
    ]


def render() -> None:
    """The 'Check my progress' page."""
    st.subheader("Check my progress")
    photo = photo_input(PREFIX, sample_kinds=("progress",))
    if photo is None:
        st.info(
            "Photograph a puzzle you have started in pen or pencil. Printed digits and your "
            "own entries are told apart; wrong entries are ringed red, right ones green."
        )
        return
    result = read_photo(photo, PREFIX)
    if show_photo_failure(result) or result.image is None:
        return
    show_more_puzzles(result)
    first = result.grids[0]
    top = st.container()  # filled below, once the corrections are known
    givens, pen = _corrections(first, photo)
    grid = resolve(first, givens, pen)
    with top:
        if grid.solution is None:
            show_grid_status(grid, edited=grid is not first)
            drawn = grid_region(grid.draw(result.image, "solution"), grid)
            st.image(to_rgb(shrink(drawn)), caption=failure_caption(grid))
        else:
            _checked(result.image, grid)
            hint_key = f"{PREFIX}_hint_{photo.digest}_{hash((grid.givens, grid.handwritten))}"
            show_hint(digit_values(grid.givens), digit_values(grid.kept_entries), key=hint_key)


def _checked(image: np.ndarray, grid: GridResult) -> None:
    """The photo with entries ringed, the grid drawn, and the counts."""
    left, right = st.columns(2, gap="medium")
    with left:
        checked = grid.draw(image, "check")
        st.image(to_rgb(shrink(checked)), caption="Red rings: wrong entries · green: right")
    with right:
        show_grid(
            board_values(grid),
            board_classes(grid),
            legend=("given", "right", "wrong"),
            label="Your grid, checked",
        )
        _summary(grid)


def _corrections(grid: GridResult, photo: PhotoInput) -> tuple[list[int], list[int]]:
    """Two tables, printed digits and pen entries, for fixing what was misread."""
    bad = grid.solution is None
    unsure = unsure_cells(grid)
    with st.expander("Correct the reading (printed digits and pen entries)", expanded=bad):
        st.caption(f"{UNSURE_MARK} marks an unsure reading. Move a digit between the tables if "
                   "a printed digit was taken for a pen entry or the other way round.")  # fmt: skip
        left, right = st.columns(2, gap="small")
        with left:
            st.markdown("**Printed**")
            givens = grid_editor(
                digit_values(grid.givens),
                key=f"{PREFIX}_givens_{photo.digest}",
                marks={c: UNSURE_MARK for c in unsure if grid.handwritten[c] == "0"},
            )
        with right:
            st.markdown("**Pen**")
            pen = grid_editor(
                digit_values(grid.handwritten),
                key=f"{PREFIX}_pen_{photo.digest}",
                marks={c: UNSURE_MARK for c in unsure if grid.handwritten[c] != "0"},
            )
    return givens, pen


def _summary(grid: GridResult) -> None:
    """The counts (as ``sudokucam check`` gives them), and one sentence on how it goes."""
    counts = grid.entry_counts
    a, b, c = st.columns(3)
    a.metric("Cells empty", counts.empty)
    b.metric("Entries wrong", counts.wrong)
    c.metric("Entries right", counts.right)
    st.caption(grid.check_message)  # the line `sudokucam check` prints
    if counts.wrong:
        names = ", ".join(cell_name(c) for c in grid.wrong_entries)
        st.warning(
            f"{counts.wrong} of your entries {'is' if counts.wrong == 1 else 'are'} wrong: "
            f"{names}. Rub them out before going on."
        )
    elif counts.empty == 0:
        st.success("Complete and correct. Well done!")
    else:
        st.success("Every entry so far is right. Keep going!")
