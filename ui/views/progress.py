"""Check my progress: tell printed digits from pen entries, ring the wrong ones, offer a hint."""

from __future__ import annotations

from typing import TYPE_CHECKING

import streamlit as st

from ...solver import cell_name
from .backend import read_photo
from .grid_view import show_grid
from .hints import show_hint
from .images import shrink, to_rgb
from .photo_input import photo_input
from .photo_status import show_grid_status, show_photo_failure

if TYPE_CHECKING:
    from ...vision.results import GridResult

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
    grid = result.grids[0]
    if grid.solution is None:
        show_grid_status(grid, edited=False)
        st.image(to_rgb(shrink(grid.draw(result.image, "solution"))), caption="Cells at fault")
        return
    left, right = st.columns(2, gap="medium")
    with left:
        checked = grid.draw(result.image, "check")
        st.image(to_rgb(shrink(checked)), caption="Red rings: wrong entries · green: right")
    with right:
        show_grid(
            board_values(grid),
            board_classes(grid),
            legend=("given", "right", "wrong"),
            label="Your grid, checked",
        )
        _summary(grid)
    right_only = [
        int(h) if c not in grid.wrong_entries else 0 for c, h in enumerate(grid.handwritten)
    ]
    show_hint([int(d) for d in grid.givens], right_only, key=f"{PREFIX}_hint_{photo.digest}")


def _summary(grid: GridResult) -> None:
    """Counts, and one sentence on how the person is doing."""
    wrong, right, empty = len(grid.wrong_entries), len(grid.right_entries), len(grid.empty_cells)
    a, b, c = st.columns(3)
    a.metric("Wrong", wrong)
    b.metric("Right", right)
    c.metric("Cells left", empty + wrong)
    if wrong:
        names = ", ".join(cell_name(c) for c in grid.wrong_entries)
        st.warning(
            f"{wrong} of your entries {'is' if wrong == 1 else 'are'} wrong: {names}. "
            "Rub them out before going on."
        )
    elif empty == 0:
        st.success("Complete and correct. Well done!")
    else:
        st.success(f"Every entry so far is right. {empty} cells remain.")
