"""One hint at a time: where to look next, with the digit hidden until the person asks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import streamlit as st

from ....solver import Grid, Outcome, SearchTimeoutError, cell_name
from ....solver.logic.solving import Hint, hint
from ..state.backend import run_search
from ..state.settings import APP_CONFIG


@dataclass(frozen=True)
class HintMarks:
    """What a hint shows on the board: the cells it names and the candidates it removes.

    cells: the cells to look at (before the digit is revealed: only the target).
    removed: candidates the step rules out, by cell, as digit strings ("38").
    wrong: entries to correct before a hint can be given (shown as wrong).
    """

    cells: frozenset[int] = frozenset()
    removed: dict[int, str] = field(default_factory=dict)
    wrong: frozenset[int] = frozenset()


def hint_marks(found: Hint | None, revealed: bool) -> HintMarks:
    """The board marks of a hint: its target first, the whole pattern once revealed; the
    cells whose notes leave out the answer, for a hint that names them."""
    if found is not None and found.status is Outcome.WRONG_NOTES:
        return HintMarks(frozenset(found.wrong))
    if found is not None and found.status is Outcome.WRONG_ENTRIES:
        return HintMarks(wrong=frozenset(found.wrong))
    return step_marks(None if found is None else found.step, revealed)


class MarkedStep(Protocol):
    """A hint's step as the board marks it (a classic ``Step`` or a variant's)."""

    @property
    def cells(self) -> tuple[int, ...]: ...
    @property
    def placements(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def eliminations(self) -> tuple[tuple[int, int], ...]: ...


def step_marks(step: MarkedStep | None, revealed: bool) -> HintMarks:
    """The board marks of a step: its target before the digit is revealed, then every
    cell it names and the candidates it rules out."""
    if step is None:
        return HintMarks()
    placed = {c for c, _ in step.placements}
    if not revealed:
        return HintMarks(frozenset(placed or step.cells))
    removed: dict[int, str] = {}
    for cell, value in sorted(step.eliminations):
        removed[cell] = removed.get(cell, "") + str(value)
    return HintMarks(frozenset(placed | set(step.cells)), removed)


def hint_revealed(key: str) -> bool:
    """True once the person asked for the digit and the reason of the hint with this key."""
    return bool(st.session_state.get(f"{key}_revealed"))


def find_hint(
    givens: Sequence[int], entries: Sequence[int], notes: Sequence[str] | None = None
) -> Hint:
    """The human-style solver's next step for givens plus a person's entries (0 = empty)
    and candidate notes ("" where none; None: no notes).

    It runs in the server's search pool, within the app's search time limit (a hint
    with status TIMEOUT after that).
    """
    limit = APP_CONFIG.search_time_limit_s
    puzzle, entered = Grid.from_values(list(givens)), Grid.from_values(list(entries))
    noted = None if notes is None else tuple(notes)
    try:
        return run_search(hint, puzzle, entered, limit, noted, limit_s=limit)
    except SearchTimeoutError as exc:
        return Hint(Outcome.TIMEOUT, str(exc))


def hint_target(found: Hint) -> str:
    """Where the hint points: the cell to fill, or the cells of the pattern."""
    step = found.step
    if step is None:
        return ""
    if step.placements:
        return cell_name(step.placements[0][0])
    return ", ".join(cell_name(c) for c in step.cells[:6])


def show_hint(
    givens: Sequence[int],
    entries: Sequence[int],
    key: str,
    notes: Sequence[str] | None = None,
) -> Hint | None:
    """A 'Hint' button; once pressed, where to look, then the digit and why on a second press.

    With the person's ``notes``, a cell whose notes leave out its answer is named first.
    """
    asked_key, reveal_key = f"{key}_asked", f"{key}_revealed"
    if st.button("Hint: where can I go next?", key=f"{key}_button"):
        st.session_state[asked_key] = True
    if not st.session_state.get(asked_key):
        return None
    found = find_hint(givens, entries, notes)
    if found.status is Outcome.WRONG_NOTES:
        st.warning(f"**{found.message[:1].upper()}{found.message[1:]}.**")
        return found
    if found.status is Outcome.WRONG_ENTRIES:
        names = ", ".join(cell_name(c) for c in found.wrong)
        one = len(found.wrong) == 1
        st.warning(
            f"**First correct {names}: {'it is' if one else 'they are'} wrong** (in red on the "
            "board). Change or erase "
            f"{'it' if one else 'them'}, or use Undo: the hint then shows here."
        )
        return found
    if found.status is not Outcome.STEP or found.step is None:
        st.info(f"No hint: {found.message}.")
        return found
    step = found.step
    target = hint_target(found)
    if step.placements:
        st.info(f"**Look at {target}**: its digit can be worked out now ({step.technique.value}).")
    else:
        st.info(f"**Look at {target}**: a {step.technique.value} rules out some candidates there.")
    if st.button("Show the digit and why", key=f"{key}_reveal"):
        st.session_state[reveal_key] = True
    if st.session_state.get(reveal_key):
        placed = "; ".join(f"{cell_name(c)} = {v}" for c, v in step.placements)
        st.success((f"**{placed}.** " if placed else "") + step.explanation)
    return found
