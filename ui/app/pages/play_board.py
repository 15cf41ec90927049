"""The Play page's board: the game drawn on the board widget, and the person's edits as moves.

Tapping a cell and a digit writes it in; in Notes mode (the board's Notes button, or
the N key) a digit adds or removes that candidate note; Erase clears the cell. Printed
digits never change. A Sudoku X, jigsaw or Killer game's board draws its diagonals,
regions or cages, and its clashes follow its rules.
"""

from __future__ import annotations

from ....solver import Grid
from ....solver.validate import find_conflicts
from ....solver.variant import VariantPuzzle
from ....vision.types import VALUE_CHARS, digits_of
from ..state import variants
from ..state.game import Board
from ..widgets.board import (
    BoardEdit,
    BoardLayout,
    BoardView,
    Look,
    board,
    legend_of,
    pending_edit,
)
from ..widgets.hints import HintMarks


def notes_of(board_state: Board) -> tuple[str, ...]:
    """The pencil marks of a board as one string of values a cell (A-G for 10-16)."""
    return tuple("".join(VALUE_CHARS[v] for v in sorted(m)) for m in board_state.marks)


def board_after(board_state: Board, edit: BoardEdit) -> Board:
    """The board with the digits and notes of an edit; printed digits stay as they are."""
    givens = board_state.givens
    if len(edit.digits) != len(givens):
        return board_state  # an edit of another board (a game of another size): ignored
    cells = range(len(givens))
    entries = tuple(0 if givens[c] else VALUE_CHARS.index(edit.digits[c]) for c in cells)
    marks = tuple(
        frozenset()
        if givens[c] or entries[c]
        else frozenset(VALUE_CHARS.index(d) for d in edit.notes[c])
        for c in cells
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


def clashing_cells(board_state: Board, puzzle: VariantPuzzle | None = None) -> frozenset[int]:
    """The cells whose digit another cell of its row, column or box holds too; for a
    variant, of its regions, diagonals and cages too, and the cells of a full cage whose
    digits miss its sum."""
    if puzzle is not None:
        return variants.clashing_cells(puzzle, board_state.values)
    conflicts = find_conflicts(Grid.from_values(list(board_state.values)))
    return frozenset(c for k in conflicts if k.is_duplicate for c in k.cells)


def game_view(
    board_state: Board,
    wrong: list[int],
    hint: HintMarks,
    playing: bool = True,
    clashes: frozenset[int] = frozenset(),
    puzzle: VariantPuzzle | None = None,
) -> BoardView:
    """What the board shows: givens, entries, notes, wrong entries and the hint's marks.

    playing: False once the game is over (the board no longer takes edits).
    clashes: cells shown as breaking the rules (a digit twice in a row, column or box).
    puzzle: a variant whose diagonals, regions or cages the board draws.
    """
    looks = {c: Look.GIVEN for c, g in enumerate(board_state.givens) if g}
    looks |= {c: Look.ENTRY for c, e in enumerate(board_state.entries) if e}
    looks |= dict.fromkeys(hint.cells, Look.HINT)
    looks |= dict.fromkeys(clashes, Look.CONFLICT)
    looks |= dict.fromkeys([*wrong, *hint.wrong], Look.WRONG)
    legend = legend_of(looks, always=(Look.GIVEN, Look.ENTRY))
    return BoardView(
        digits_of(board_state.values),
        looks,
        printed=frozenset(c for c, g in enumerate(board_state.givens) if g),
        notes=notes_of(board_state),
        removed=hint.removed,
        editable=playing,
        lock_printed=True,
        can_note=True,
        legend=legend,
        label="Your board",
        layout=BoardLayout.of(puzzle),
    )


def show_board(view: BoardView, game_id: str) -> None:
    """Draw the game's board (``game_view``)."""
    board(view, key=board_key(game_id))
