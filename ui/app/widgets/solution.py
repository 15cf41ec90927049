"""Show the outcome of solving a grid: the answer, or what is wrong and what to try."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

from ....solver import SolveResult, SolveStatus
from .grid_view import grid_line, show_grid


def given_classes(puzzle: Sequence[int]) -> dict[int, str]:
    """CSS classes that mark the givens of a puzzle and the cells it leaves to fill."""
    return {c: ("given" if v else "answer") for c, v in enumerate(puzzle)}


def problem_cells(result: SolveResult) -> set[int]:
    """The cells named by a failed solve: conflicting givens or dead cells."""
    return {c for conflict in result.conflicts for c in conflict.cells}


def show_result(
    result: SolveResult,
    extra_classes: Mapping[int, str] | None = None,
    fix_hint: str = "Correct the digits in the table.",
) -> None:
    """The answer grid when solved; otherwise a message and the cells at fault."""
    puzzle = list(result.puzzle.values)
    classes = given_classes(puzzle) | dict(extra_classes or {})
    legend = ["given", "answer", *sorted(set((extra_classes or {}).values()))]
    if result.status is SolveStatus.SOLVED and result.solution is not None:
        answer = list(result.solution.values)
        st.success("Solved: the puzzle has exactly one solution.")
        show_grid(answer, classes, legend=legend, label="Solution")
        with st.expander("The answer as text"):
            st.code(grid_line(answer), language=None)
        return
    if result.status is SolveStatus.MULTIPLE:
        first, second = (list(s.values) for s in result.solutions)
        differ = {c: "low" for c in range(len(first)) if first[c] != second[c]}
        st.warning(
            f"This puzzle has {result.message}. A proper Sudoku has one answer: "
            f"a digit is probably missing. {fix_hint}"
        )
        show_grid(first, classes | differ, legend=["given", "answer", "low"], label="One solution")
        return
    bad = {c: "conflict" for c in problem_cells(result)}
    st.error(f"This puzzle cannot be solved: {result.message}. {fix_hint}")
    show_grid(puzzle, classes | bad, label="Puzzle with its problems")
