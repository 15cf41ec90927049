"""The Play page's board: the game drawn on the board widget, and the person's edits as moves.

Tapping a cell and a digit writes it in; in Notes mode (the board's Notes button, or
the N key) a digit adds or removes that candidate note; Erase clears the cell. Printed
digits never change.
"""

from __future__ import annotations

from ..state.game import CELLS, Board
from ..widgets.board import BoardEdit, BoardView, Look, board, pending_edit
from ..widgets.hints import HintMarks


def notes_of(board_state: Board) -> tuple[str, ...]:
    """The pencil marks of a board as 81 strings of digits."""
    return tuple("".join(map(str, sorted(m))) for m in board_state.marks)


def board_after(board_state: Board, edit: BoardEdit) -> Board:
    """The board with the digits and notes of an edit; printed digits stay as they are."""
    givens = board_state.givens
    entries = tuple(0 if givens[c] else int(edit.digits[c]) for c in range(CELLS))
    marks = tuple(
        frozenset() if givens[c] or entries[c] else frozenset(int(d) for d in edit.notes[c])
        for c in range(CELLS)
    )
    return Board(givens, entries, marks)


def board_key(game_id: str) -> str:
    """The key of a game's board widget."""
    return f"play_board_{game_id}"


def take_move(board_state: Board, game_id: str) -> Board | None:
    """The board after the person's newest edit, or None when there is no new edit."""
    edit = pending_edit(board_key(game_id))
    if edit is None:
        return None
    return board_after(board_state, edit)


def game_view(
    board_state: Board, wrong: list[int], hint: HintMarks, playing: bool = True
) -> BoardView:
    """What the board shows: givens, entries, notes, wrong entries and the hint's marks.

    playing: False once the game is over (the board no longer takes edits).
    """
    looks = {c: Look.GIVEN for c, g in enumerate(board_state.givens) if g}
    looks |= {c: Look.ENTRY for c, e in enumerate(board_state.entries) if e}
    looks |= dict.fromkeys(hint.cells, Look.HINT)
    looks |= dict.fromkeys(wrong, Look.WRONG)
    legend = [Look.GIVEN, Look.ENTRY]
    legend += [Look.WRONG] if wrong else []
    legend += [Look.HINT] if hint.cells else []
    return BoardView(
        "".join(map(str, board_state.values)),
        looks,
        printed=frozenset(c for c, g in enumerate(board_state.givens) if g),
        notes=notes_of(board_state),
        removed=hint.removed,
        editable=playing,
        lock_printed=True,
        can_note=True,
        legend=tuple(legend),
        label="Your board",
    )


def show_board(
    board_state: Board, game_id: str, wrong: list[int], hint: HintMarks, playing: bool = True
) -> None:
    """Draw the game's board (without the number pad once the game is over)."""
    board(game_view(board_state, wrong, hint, playing), key=board_key(game_id))
