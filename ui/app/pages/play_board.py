"""The Play page's board as an editable table: digits, pencil marks, and what typing means.

A cell's text is its digit, or its pencil marks in brackets, "(159)". Typing one digit
writes it in (or, in pencil mode, adds or removes that pencil mark); typing two or more
digits, or brackets, sets the pencil marks; clearing the text empties the cell.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ..state.game import CELLS, Board
from ..widgets.grid_editor import CELL_WIDTH_PX, COLUMNS, ROWS

DIGITS = "123456789"


def cell_text(board: Board, cell: int) -> str:
    """What the table shows in one cell."""
    value = board.givens[cell] or board.entries[cell]
    if value:
        return str(value)
    marks = board.marks[cell]
    return f"({''.join(map(str, sorted(marks)))})" if marks else ""


def board_frame(board: Board) -> pd.DataFrame:
    """The board as a 9×9 frame of strings."""
    text = [cell_text(board, c) for c in range(CELLS)]
    return pd.DataFrame(
        [text[r * 9 : (r + 1) * 9] for r in range(9)], index=ROWS, columns=COLUMNS, dtype="string"
    )


def apply_text(board: Board, cell: int, text: str, pencil: bool) -> Board:
    """The board after the person left `text` in `cell` (a given never changes)."""
    if board.givens[cell]:
        return board
    digits = [int(ch) for ch in text if ch in DIGITS]
    if not digits:
        return board.place(cell, 0) if board.entries[cell] else board.set_marks(cell, frozenset())
    if "(" in text or len(digits) > 1:
        return board.set_marks(cell, frozenset(digits))
    if pencil:
        return board.set_marks(cell, board.marks[cell] ^ {digits[0]})
    return board.place(cell, digits[0])


def apply_frame(board: Board, frame: pd.DataFrame, pencil: bool) -> tuple[Board, bool]:
    """The board after every changed cell of the edited frame; True if a given was touched."""
    new, touched_given = board, False
    for cell in range(CELLS):
        raw = frame.iat[cell // 9, cell % 9]
        text = "" if raw is None or raw is pd.NA else str(raw).strip()
        if text == cell_text(board, cell):
            continue
        if board.givens[cell]:
            touched_given = True
            continue
        new = apply_text(new, cell, text, pencil)
    return new, touched_given


def board_editor(board: Board, key: str) -> pd.DataFrame:
    """Show the editable board; returns the table as the person left it."""
    config = {
        col: st.column_config.TextColumn(col, width=CELL_WIDTH_PX, max_chars=11, alignment="center")
        for col in COLUMNS
    }
    return st.data_editor(
        board_frame(board),
        key=key,
        column_config=config,
        num_rows="fixed",
        hide_index=True,
        width="content",
    )
