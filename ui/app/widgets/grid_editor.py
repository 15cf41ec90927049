"""An editable 9×9 table (st.data_editor) for reading and correcting a grid.

Each cell is text: a digit, or empty. A cell may carry a mark after its digit, "?" for a
reading the classifier was unsure of and "*" for a digit the repair changed, so that the
cells to check stand out in the table itself. Typing a plain digit clears the mark.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd
import streamlit as st

from .grid_view import CELLS, SIZE

UNSURE_MARK = "?"
REPAIRED_MARK = "*"
COLUMNS = [str(c + 1) for c in range(SIZE)]
ROWS = [f"r{r + 1}" for r in range(SIZE)]
CELL_PATTERN = r"^\s*[0-9.]?\s*[?*]?\s*$"
CELL_WIDTH_PX = 36  # nine columns fit half the page, and a 390-pixel phone screen


def editor_frame(values: Sequence[int], marks: Mapping[int, str] | None = None) -> pd.DataFrame:
    """A 9×9 frame of strings: '' for empty, the digit, plus its mark if any."""
    if len(values) != CELLS:
        raise ValueError(f"values must hold {CELLS} cells, got {len(values)}")
    marks = marks or {}
    text = [(str(v) if v else "") + (marks.get(i, "") if v else "") for i, v in enumerate(values)]
    rows = [text[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]
    return pd.DataFrame(rows, index=ROWS, columns=COLUMNS, dtype="string")


def cell_value(text: object) -> int:
    """The digit a person left in a cell: the first of 1-9 in its text, else 0 (empty)."""
    if text is None or text is pd.NA:
        return 0
    for ch in str(text):
        if ch in "123456789":
            return int(ch)
    return 0


def frame_values(frame: pd.DataFrame) -> list[int]:
    """The 81 values of an edited frame, row by row (0 for empty)."""
    if frame.shape != (SIZE, SIZE):
        raise ValueError(f"frame must be {SIZE}×{SIZE}, got {frame.shape}")
    return [cell_value(frame.iat[r, c]) for r in range(SIZE) for c in range(SIZE)]


def grid_editor(
    values: Sequence[int],
    key: str,
    marks: Mapping[int, str] | None = None,
    disabled: bool = False,
) -> list[int]:
    """Show the editable table and return the values as the person left them."""
    config = {
        col: st.column_config.TextColumn(
            col, width=CELL_WIDTH_PX, max_chars=2, validate=CELL_PATTERN, alignment="center"
        )
        for col in COLUMNS
    }
    edited = st.data_editor(
        editor_frame(values, marks),
        key=key,
        column_config=config,
        num_rows="fixed",
        hide_index=True,
        disabled=disabled,
        width="content",
    )
    return frame_values(edited)
