"""A person's candidate notes: where they leave out the answer, and steps that use them.

Notes are the small digits a person writes in a cell they have not filled in yet. Given as
one string per cell ("" where none, "137" for 1, 3 and 7), they narrow the grid's own
candidates (a note for a digit the grid already rules out adds nothing); a cell whose
notes leave out its answer is named before any step, since every step built on it would
mislead.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..geometry import Cell
from .candidates import Candidates, Mask, bit, values_of
from .step import Step, Technique

Notes = Sequence[str]  # one string of noted digits per cell, "" where none


def notes_mask(noted: str) -> Mask:
    """The candidate bitmask of one cell's notes ("137" → bits of 1, 3 and 7)."""
    mask = 0
    for ch in noted:
        mask |= bit(int(ch))
    return mask


def check_notes(notes: Notes, ncells: int) -> None:
    """Refuse notes that are not one string of digits 1-9 per cell (ValueError)."""
    if len(notes) != ncells:
        raise ValueError(f"notes must hold {ncells} cells; got {len(notes)}")
    for c, noted in enumerate(notes):
        if any(ch not in "123456789" for ch in noted):
            raise ValueError(f"notes of cell {c} must be digits 1-9, got {noted!r}")


def notes_missing_answer(
    cand: Candidates, notes: Notes, solution: Sequence[int]
) -> tuple[Cell, ...]:
    """Open cells whose notes leave out the digit of the solution."""
    return tuple(
        c for c in cand.open_cells()
        if notes[c] and not notes_mask(notes[c]) & bit(solution[c])
    )  # fmt: skip


def left_out(cand: Candidates, notes: Notes, cell: Cell) -> tuple[int, ...]:
    """The digits a cell can still take that its notes leave out."""
    return values_of(cand.masks[cell] & ~notes_mask(notes[cell]))


def missed_note_text(cand: Candidates, notes: Notes, cells: Sequence[Cell]) -> str:
    """'r4c5: your notes rule out the answer; 7 can still go there, not in your notes'."""
    parts = []
    for c in cells:
        missing = " or ".join(map(str, left_out(cand, notes, c)))
        parts.append(
            f"{cand.layout.name(c)}: your notes rule out the answer; "
            f"{missing} can still go there, not in your notes"
        )
    return "; ".join(parts)


def use_notes(cand: Candidates, notes: Notes) -> tuple[Cell, ...]:
    """Narrow each open noted cell's candidates to its notes; the cells narrowed.

    A cell keeps the grid's candidates where its notes hold none of them.
    """
    narrowed = []
    for c in cand.open_cells():
        if not notes[c]:
            continue
        kept = cand.masks[c] & notes_mask(notes[c])
        if kept and kept != cand.masks[c]:
            cand.masks[c] = kept
            narrowed.append(c)
    return tuple(narrowed)


def struck_by(cand: Candidates, cell: Cell, value: int) -> str:
    """Why ``value`` cannot go in ``cell``: 'r1c4 holds 5 (row 1)' for the first peer holding it."""
    lay = cand.layout
    for unit in lay.units_of[cell]:
        for peer in lay.units[unit]:
            if peer != cell and cand.values[peer] == value:
                return f"{lay.name(peer)} holds {value} ({lay.unit_name(unit)})"
    return f"{value} cannot go there"


def notes_single(cand: Candidates, notes: Notes) -> Step | None:
    """A noted cell where only one of its notes can still go: the digit, and why the rest can't.

    The step a person makes when they bring their notes up to date.
    """
    lay = cand.layout
    for c in cand.open_cells():
        if not notes[c]:
            continue
        noted = notes_mask(notes[c])
        kept = values_of(cand.masks[c] & noted)
        if len(kept) != 1 or noted == bit(kept[0]):
            continue
        value, struck = kept[0], values_of(noted & ~cand.masks[c])
        reasons = "; ".join(struck_by(cand, c, v) for v in struck)
        shown = "".join(sorted(notes[c]))
        return Step(
            Technique.NAKED_SINGLE,
            placements=((c, value),),
            eliminations=tuple((c, v) for v in struck),
            cells=(c,),
            units=lay.units_of[c],
            explanation=f"{lay.name(c)} must be {value}: of your notes {shown} only "
            f"{value} can still go there ({reasons})",
        )
    return None
