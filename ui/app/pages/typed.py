"""Type a puzzle: paste 81 characters or fill in an empty grid, then solve."""

from __future__ import annotations

import hashlib

import streamlit as st

from ....solver import PuzzleParseError, parse_grid, solve_grid
from ..widgets.grid_editor import grid_editor
from ..widgets.grid_view import CELLS
from ..widgets.messages import friendly_errors
from ..widgets.solution import show_result

TEXT_KEY = "typed_text"
SOLVING_KEY = "typed_solving"
EXAMPLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def parsed_text(text: str) -> list[int] | None:
    """The values of a pasted 9×9 puzzle, None when nothing is pasted; errors are shown."""
    if not text.strip():
        return None
    try:
        grid = parse_grid(text, 9)
    except PuzzleParseError as exc:
        st.error(
            f"That text is not a 9×9 puzzle: {exc}. Paste 81 characters, row by row, "
            "with 1-9 for digits and . or 0 for empty cells."
        )
        return None
    return list(grid.values)


def render() -> None:
    """The 'Type a puzzle' page."""
    st.subheader("Type a puzzle")
    st.caption("Paste 81 characters (1-9, and . or 0 for empty), or type the digits into the grid.")
    text = st.text_area("Puzzle as text", key=TEXT_KEY, height=80, placeholder=EXAMPLE)
    start = parsed_text(text) or [0] * CELLS
    digest = hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:10]
    values = grid_editor(start, key=f"typed_grid_{digest}")
    if st.button("Solve", type="primary", key="typed_solve"):
        st.session_state[SOLVING_KEY] = True
    if not st.session_state.get(SOLVING_KEY):
        return
    given = sum(1 for v in values if v)
    if given == 0:
        st.info("The grid is empty: paste a puzzle or type its digits first.")
        return
    with friendly_errors("solve the puzzle"):
        show_result(solve_grid(values), fix_hint="Correct the digits in the grid above.")
