"""Type a puzzle: paste 81 characters or fill in an empty grid, then solve and show the answer.

When the puzzle cannot be solved, the page says why and marks the cells at fault. The
search runs in the server's search pool and gives up after `APP_CONFIG.search_time_limit_s`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import streamlit as st

from ....solver import Outcome, PuzzleParseError, SolveResult, parse_grid
from ....vision.types import digits_of
from ..state.backend import solve_values
from ..widgets.board import BoardView, Look, board, latest_edit, legend_of
from ..widgets.messages import friendly_errors

TEXT_KEY = "typed_text"
SOLVING_KEY = "typed_solving"
EXAMPLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
CELLS = 81
SHOWN = (Outcome.SOLVED, Outcome.MULTIPLE_SOLUTIONS, Outcome.TIMEOUT)  # no cells to blame
FIX_HINT = "The cells at fault are outlined in red on the grid above: correct them."
NO_CELLS_HINT = "Check each digit against the puzzle: one is probably mistyped."
MULTIPLE_HINT = "The cells that differ between two answers are shown in amber."
MORE_TIME_HINT = (
    "A puzzle this slow to solve usually has a mistyped digit or no solution. "
    "On the command line, `sudokucam grid PUZZLE --time-limit 120` allows more time."
)


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


def board_key(text: str) -> str:
    """The typing board's key: a fresh board for each pasted text."""
    digest = hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:10]
    return f"typed_grid_{digest}"


def _start_solving() -> None:
    """Remember that the person asked for the answer (runs before the page is drawn)."""
    st.session_state[SOLVING_KEY] = True


def render() -> None:
    """The 'Type a puzzle' page."""
    st.subheader("Type a puzzle")
    st.caption(
        "Paste 81 characters (1-9, and . or 0 for empty), or tap a cell of the grid and "
        "then a digit of the number pad (a keyboard's digits and arrows work too)."
    )
    text = st.text_area("Puzzle as text", key=TEXT_KEY, height=80, placeholder=EXAMPLE)
    start = parsed_text(text) or [0] * CELLS
    key = board_key(text)
    edit = latest_edit(key)
    values = edit.values if edit is not None else start
    result = _solved(values) if st.session_state.get(SOLVING_KEY) else None
    bad = problem_cells(result) if result is not None and result.status not in SHOWN else set()
    looks = {c: Look.GIVEN for c, v in enumerate(values) if v} | dict.fromkeys(bad, Look.CONFLICT)
    view = BoardView(digits_of(values), looks, editable=True, typed_printed=True,
                     legend=legend_of(looks, always=()), label="Puzzle to solve")  # fmt: skip
    board(view, key=key)
    st.button("Solve", type="primary", key="typed_solve", on_click=_start_solving)
    if not st.session_state.get(SOLVING_KEY):
        return
    if not any(values):
        st.info("The grid is empty: paste a puzzle or tap its digits in first.")
    elif result is not None:
        show_result(result)


def _solved(values: Sequence[int]) -> SolveResult | None:
    """The solver's answer for the grid, or None when it is empty or the search failed."""
    if not any(values):
        return None
    with friendly_errors("solve the puzzle"), st.spinner("Solving…"):
        return solve_values(values)
    return None


def given_classes(puzzle: Sequence[int]) -> dict[int, Look]:
    """The looks that mark the givens of a puzzle and the cells it leaves to fill."""
    return {c: (Look.GIVEN if v else Look.ANSWER) for c, v in enumerate(puzzle)}


def problem_cells(result: SolveResult) -> set[int]:
    """The cells named by a failed solve: conflicting givens or dead cells."""
    return {c for conflict in result.conflicts for c in conflict.cells}


def show_board(values: Sequence[int], looks: dict[int, Look], label: str) -> None:
    """A board that only shows a grid (no number pad)."""
    legend = legend_of(looks, always=())
    key = "typed_" + label.lower().replace(" ", "_")
    board(BoardView(digits_of(values), looks, legend=legend, label=label), key=key)


def show_result(result: SolveResult) -> None:
    """The answer grid when solved; otherwise a message, with the cells at fault marked."""
    puzzle = list(result.puzzle.values)
    looks = given_classes(puzzle)
    if result.status is Outcome.SOLVED and result.solution is not None:
        answer = list(result.solution.values)
        st.success("Solved: the puzzle has exactly one solution.")
        show_board(answer, looks, label="Solution")
        with st.expander("The answer as text"):
            st.code(grid_line(answer), language=None)
        return
    if result.status is Outcome.MULTIPLE_SOLUTIONS:
        first, second = (list(s.values) for s in result.solutions)
        differ = {c: Look.UNSURE for c in range(len(first)) if first[c] != second[c]}
        st.warning(
            f"This puzzle has {result.message}. A proper Sudoku has one answer: "
            f"a digit is probably missing. {MULTIPLE_HINT}"
        )
        show_board(first, looks | differ, label="One solution")
        return
    if result.status is Outcome.TIMEOUT:
        st.error(f"No answer: the solver {result.message}. {MORE_TIME_HINT}")
        return
    fix = FIX_HINT if problem_cells(result) else NO_CELLS_HINT
    st.error(f"This puzzle cannot be solved: {result.message}. {fix}")


def grid_line(values: Sequence[int]) -> str:
    """The grid as one line of 81 characters, '.' for empty."""
    return "".join(str(v) if v else "." for v in values)
