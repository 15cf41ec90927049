"""Hints on a Sudoku X, jigsaw or Killer board: where to look, then the value and why.

The same two presses as a classic hint (`hints.py`): the first names the cells to look
at, the second gives the step (a single, a cage's combinations, the 45 rule). The step
is found in the server's search pool, within the app's search time limit.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from ....solver import Outcome, SearchTimeoutError
from ....solver.grid import SYMBOLS, value_word
from ....solver.logic.variant_hint import VariantHint, variant_hint
from ....solver.variant import VariantPuzzle
from ..state.backend import run_search
from ..state.settings import APP_CONFIG
from .hints import HintMarks, step_marks


def _find(
    puzzle: VariantPuzzle, entries: tuple[int, ...], solution: tuple[int, ...]
) -> VariantHint | None:
    """The next step in the search pool; None (said on the page) past the time limit."""
    limit = APP_CONFIG.search_time_limit_s
    try:
        return run_search(variant_hint, puzzle, entries, solution, said_of(puzzle), limit_s=limit)
    except SearchTimeoutError as exc:
        st.info(f"No hint: the solver {exc}.")
        return None


def said_of(puzzle: VariantPuzzle) -> Sequence[str] | None:
    """How a hint names values: as numbers (None) where the puzzle has the default symbols,
    as the board shows them (a 16×16's 10-16, not A-G); else in its own symbols (())."""
    return None if puzzle.symbols == SYMBOLS[: puzzle.size] else ()


def words_of(puzzle: VariantPuzzle) -> Sequence[str] | None:
    """The symbols ``value_word`` names a value of the puzzle with (None: numbers)."""
    said = said_of(puzzle)
    return puzzle.symbols if said == () else said


def marks_of(found: VariantHint, revealed: bool) -> HintMarks:
    """The board marks of a hint: the wrong entries, its target, or the whole step."""
    if found.status is Outcome.WRONG_ENTRIES:
        return HintMarks(wrong=frozenset(found.wrong))
    return step_marks(found.step, revealed)


def show_variant_hint(
    puzzle: VariantPuzzle, entries: tuple[int, ...], solution: tuple[int, ...], key: str
) -> HintMarks:
    """A 'Hint' button; once pressed, where to look, then the step on a second press."""
    asked_key, reveal_key = f"{key}_asked", f"{key}_revealed"
    if st.button("Hint: where can I go next?", key=f"{key}_button"):
        st.session_state[asked_key] = True
    if not st.session_state.get(asked_key):
        return HintMarks()
    found = _find(puzzle, entries, solution)
    if found is None or found.status is Outcome.SOLVED:
        return HintMarks()
    if found.status is Outcome.WRONG_ENTRIES:
        names = ", ".join(puzzle.cell_name(c) for c in found.wrong)
        st.warning(
            f"**First correct {names}** (in red on the board): a hint follows on from "
            "right digits only."
        )
        return marks_of(found, False)
    step = found.step
    if step is None:
        return HintMarks()
    cells = [c for c, _ in step.placements] or list(step.cells)
    where = ", ".join(puzzle.cell_name(c) for c in cells[:6])
    what = "its value can be worked out now" if step.placements else "some candidates go"
    st.info(f"**Look at {where}**: {what} ({step.technique}).")
    if st.button("Show the value and why", key=f"{key}_reveal"):
        st.session_state[reveal_key] = True
    revealed = bool(st.session_state.get(reveal_key))
    if revealed:
        placed = "; ".join(
            f"{puzzle.cell_name(c)} = {value_word(v, words_of(puzzle))}" for c, v in step.placements
        )
        st.success((f"**{placed}.** " if placed else "") + step.explanation)
    return marks_of(found, revealed)
