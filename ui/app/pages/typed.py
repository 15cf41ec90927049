"""Type a puzzle: paste 81 characters or fill in an empty grid, then solve and show the answer.

When the puzzle cannot be solved, the page says why and marks the cells at fault. The
search runs in the server's search pool and gives up after `APP_CONFIG.search_time_limit_s`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import streamlit as st

from ....solver import Outcome, PuzzleParseError, SolveResult, parse_grid
from ..state.backend import solve_values
from ..widgets.grid_editor import grid_editor
from ..widgets.grid_view import CELLS, grid_line, show_grid
from ..widgets.messages import friendly_errors

TEXT_KEY = "typed_text"
SOLVING_KEY = "typed_solving"
EXAMPLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
FIX_HINT = "Correct the digits in the grid above."
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
        with st.spinner("Solving…"):
            result = solve_values(values)
        show_result(result)


def given_classes(puzzle: Sequence[int]) -> dict[int, str]:
    """CSS classes that mark the givens of a puzzle and the cells it leaves to fill."""
    return {c: ("given" if v else "answer") for c, v in enumerate(puzzle)}


def problem_cells(result: SolveResult) -> set[int]:
    """The cells named by a failed solve: conflicting givens or dead cells."""
    return {c for conflict in result.conflicts for c in conflict.cells}


def show_result(result: SolveResult) -> None:
    """The answer grid when solved; otherwise a message and the cells at fault."""
    puzzle = list(result.puzzle.values)
    classes = given_classes(puzzle)
    if result.status is Outcome.SOLVED and result.solution is not None:
        answer = list(result.solution.values)
        st.success("Solved: the puzzle has exactly one solution.")
        show_grid(answer, classes, legend=["given", "answer"], label="Solution")
        with st.expander("The answer as text"):
            st.code(grid_line(answer), language=None)
        return
    if result.status is Outcome.MULTIPLE_SOLUTIONS:
        first, second = (list(s.values) for s in result.solutions)
        differ = {c: "low" for c in range(len(first)) if first[c] != second[c]}
        st.warning(
            f"This puzzle has {result.message}. A proper Sudoku has one answer: "
            f"a digit is probably missing. {FIX_HINT}"
        )
        show_grid(first, classes | differ, legend=["given", "answer", "low"], label="One solution")
        return
    if result.status is Outcome.TIMEOUT:
        st.error(f"No answer: the solver {result.message}. {MORE_TIME_HINT}")
        show_grid(puzzle, classes, label="Puzzle")
        return
    bad = {c: "conflict" for c in problem_cells(result)}
    st.error(f"This puzzle cannot be solved: {result.message}. {FIX_HINT}")
    show_grid(puzzle, classes | bad, label="Puzzle with its problems")
