"""The board: the one Sudoku grid widget of every page, a Streamlit component.

The frontend (``frontend/index.html``, ``board.js``, ``board.css``) is plain HTML, CSS
and JavaScript shipped inside the package: no build step, nothing fetched from the
network. A person taps a cell and a digit of the number pad (or types digits, arrows,
Delete); the board sends back the whole grid after each edit, numbered, so that a rerun
never applies one edit twice.

Pages describe what to draw with a `BoardView` and read edits with `latest_edit` (the
grid as the person left it) or `pending_edit` (each edit once, for moves in a game).
A variant puzzle's `BoardLayout` draws jigsaw regions as thick borders, Sudoku X's
diagonals as a light shading and Killer cages as dashed outlines with their sums.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.components.v1 import declare_component

from .....solver.variant import Cage, VariantPuzzle

FRONTEND = Path(__file__).resolve().parent / "frontend"
COMPONENT_NAME = "board"
SIZE = 9
CELLS = SIZE * SIZE
DIGITS = "0123456789"
NO_NOTES: tuple[str, ...] = ("",) * CELLS
SEEN_KEY = "_board_seen"  # session_state: board key → the latest BoardEdit seen
HANDED_KEY = "_board_handed"  # session_state: board key → seq of the last edit handed out


class Look(StrEnum):
    """How a cell is drawn; the value is the CSS class of the frontend."""

    GIVEN = "given"
    ENTRY = "entry"
    EDITED = "edited"
    ANSWER = "answer"
    UNSURE = "unsure"
    REPAIRED = "repaired"
    RIGHT = "right"
    WRONG = "wrong"
    CONFLICT = "conflict"
    HINT = "hint"


LOOK_WORDS: dict[Look, str] = {
    Look.GIVEN: "printed",
    Look.ENTRY: "your entry",
    Look.EDITED: "corrected",
    Look.ANSWER: "answer",
    Look.UNSURE: "unsure reading",
    Look.REPAIRED: "changed by the repair",
    Look.RIGHT: "right",
    Look.WRONG: "wrong",
    Look.CONFLICT: "breaks the rules",
    Look.HINT: "hint",
}


# The colour each look is drawn in, as a sentence on the page names it (board.css).
LOOK_COLOURS: dict[Look, str] = {
    Look.GIVEN: "black",
    Look.ENTRY: "blue",
    Look.EDITED: "blue on a light blue ground",
    Look.ANSWER: "blue",
    Look.UNSURE: "amber",
    Look.REPAIRED: "orange",
    Look.RIGHT: "green",
    Look.WRONG: "red",
    Look.CONFLICT: "red",
    Look.HINT: "blue",
}
LEGEND_ORDER = tuple(Look)


def legend_of(
    looks: Mapping[int, Look], always: tuple[Look, ...] = (Look.GIVEN,)
) -> tuple[Look, ...]:
    """The legend of a board: ``always``, then every other look its cells use, in one order."""
    used = set(looks.values()) | set(always)
    return tuple(look for look in LEGEND_ORDER if look in used)


@dataclass(frozen=True)
class BoardLayout:
    """The lines a variant adds to the board (all empty: a classic board with 3×3 boxes).

    regions: 81 region numbers (jigsaw), or () for the boxes.
    diagonals: shade both main diagonals (Sudoku X).
    cages: Killer cages, drawn dashed with their sums.
    """

    regions: tuple[int, ...] = ()
    diagonals: bool = False
    cages: tuple[Cage, ...] = ()

    def __post_init__(self) -> None:
        """Check the layout fits a 9×9 board."""
        if self.regions and len(self.regions) != CELLS:
            raise ValueError(f"regions must label {CELLS} cells, got {len(self.regions)}")
        if any(not 0 <= c < CELLS for cage in self.cages for c in cage.cells):
            raise ValueError("cage cells must be 0-80")

    @classmethod
    def of(cls, puzzle: VariantPuzzle | None) -> BoardLayout:
        """The layout of a 9×9 variant puzzle (None: a classic board)."""
        if puzzle is None:
            return CLASSIC_LAYOUT
        if puzzle.size != SIZE:
            n = puzzle.size
            raise ValueError(f"the board draws 9×9 puzzles; this one is {n}×{n}")
        return cls(puzzle.regions, puzzle.diagonals, puzzle.cages)

    def args(self) -> dict[str, Any]:
        """The JSON arguments of the frontend: regions, diagonals, and cages with their sums."""
        return {
            "regions": list(self.regions),
            "diagonals": self.diagonals,
            "cages": [{"sum": k.total, "cells": list(k.cells)} for k in self.cages],
        }


CLASSIC_LAYOUT = BoardLayout()


@dataclass(frozen=True)
class BoardView:
    """What the board shows and what it lets the person do.

    digits: 81 characters, "0" for empty.
    looks: how each cell is drawn (cells left out: plain).
    printed: cells whose digit is printed (default: the cells drawn as GIVEN).
    notes: 81 strings, the candidate digits noted in each cell.
    removed: candidates the hint rules out, by cell, shown struck through.
    editable: show the number pad and accept edits.
    lock_printed: printed digits cannot be changed (a game).
    can_note: offer the Notes mode (digits become candidate notes).
    can_swap: offer the "printed / pen" button (the Check page's corrections).
    typed_printed: a digit typed into an empty cell counts as printed (a typed puzzle).
    legend: the looks explained under the board.
    label: the board's accessible name.
    focus: the cell selected when the board first appears (-1: none).
    layout: a variant's regions, diagonals and cages (default: classic boxes).
    """

    digits: str
    looks: Mapping[int, Look] = field(default_factory=dict)
    printed: frozenset[int] | None = None
    notes: tuple[str, ...] = NO_NOTES
    removed: Mapping[int, str] = field(default_factory=dict)
    editable: bool = False
    lock_printed: bool = False
    can_note: bool = False
    can_swap: bool = False
    typed_printed: bool = False
    legend: tuple[Look, ...] = ()
    label: str = "Sudoku board"
    focus: int = -1
    layout: BoardLayout = CLASSIC_LAYOUT

    def __post_init__(self) -> None:
        """Check the grid has 81 cells of 0-9 and 81 notes."""
        if len(self.digits) != CELLS or any(ch not in DIGITS for ch in self.digits):
            raise ValueError(f"digits must be {CELLS} characters 0-9, got {self.digits!r}")
        if len(self.notes) != CELLS:
            raise ValueError(f"notes must hold {CELLS} strings, got {len(self.notes)}")
        if any(not 0 <= c < CELLS for c in [*self.looks, *self.removed]):
            raise ValueError("looks and removed must be keyed by cells 0-80")

    def printed_cells(self) -> frozenset[int]:
        """The cells whose digit is printed."""
        if self.printed is not None:
            return self.printed
        return frozenset(c for c, look in self.looks.items() if look is Look.GIVEN)

    def args(self, ack: int) -> dict[str, Any]:
        """The JSON arguments of the frontend."""
        printed = self.printed_cells()
        return {
            "digits": self.digits,
            "printed": "".join("1" if c in printed else "0" for c in range(CELLS)),
            "looks": [str(self.looks.get(c, "")) for c in range(CELLS)],
            "notes": list(self.notes),
            "removed": [self.removed.get(c, "") for c in range(CELLS)],
            "editable": self.editable,
            "lock_printed": self.lock_printed,
            "can_note": self.can_note,
            "can_swap": self.can_swap,
            "typed_printed": self.typed_printed,
            "legend": [str(look) for look in self.legend],
            "words": {str(look): word for look, word in LOOK_WORDS.items()},
            "label": self.label,
            "focus": self.focus,
            "ack": ack,
            **self.layout.args(),
        }


@dataclass(frozen=True)
class BoardEdit:
    """The grid as the board sent it after an edit.

    seq: the edit's number on this board (1, 2, ...); a later edit has a larger one.
    cell: the cell changed (-1 when the change came from the page, not a tap).
    digits: 81 characters, "0" for empty.
    printed: 81 characters, "1" where the digit is printed.
    notes: 81 strings of candidate digits.
    """

    seq: int
    cell: int
    digits: str
    printed: str
    notes: tuple[str, ...]

    @classmethod
    def parse(cls, raw: object) -> BoardEdit | None:
        """The edit in a value sent by the frontend; None when there is none or it is malformed."""
        if not isinstance(raw, Mapping):
            return None
        digits, printed, notes = raw.get("digits"), raw.get("printed"), raw.get("notes")
        seq, cell = raw.get("seq"), raw.get("cell", -1)
        if not (_is_line(digits, DIGITS) and _is_line(printed, "01")):
            return None
        if not isinstance(notes, list | tuple) or len(notes) != CELLS:
            return None
        if not all(isinstance(n, str) and set(n) <= set(DIGITS[1:]) for n in notes):
            return None
        if not isinstance(seq, int) or not isinstance(cell, int):
            return None
        return cls(seq, cell, str(digits), str(printed), tuple(notes))

    @property
    def values(self) -> list[int]:
        """The 81 digits as numbers (0 for empty)."""
        return [int(ch) for ch in self.digits]

    def split(self) -> tuple[list[int], list[int]]:
        """The printed digits and the other (pen) digits, each 81 values with 0 elsewhere."""
        printed = [v if p == "1" else 0 for v, p in zip(self.values, self.printed, strict=True)]
        pen = [v if p != "1" else 0 for v, p in zip(self.values, self.printed, strict=True)]
        return printed, pen


def _is_line(text: object, alphabet: str) -> bool:
    """True for a string of 81 characters from alphabet."""
    return isinstance(text, str) and len(text) == CELLS and set(text) <= set(alphabet)


def _store(name: str) -> dict[str, Any]:
    """A dictionary kept in session_state under name."""
    if name not in st.session_state:
        st.session_state[name] = {}
    store: dict[str, Any] = st.session_state[name]
    return store


def latest_edit(key: str) -> BoardEdit | None:
    """The grid as last edited on the board with this key (None before any edit).

    Safe to call before the board is drawn in a run, and kept while the board is off
    the page (another tab open), so that nothing the person entered is lost.
    """
    seen = _store(SEEN_KEY)
    sent = BoardEdit.parse(st.session_state.get(key))
    kept: BoardEdit | None = seen.get(key)
    if sent is not None and (kept is None or sent.seq > kept.seq):
        seen[key] = kept = sent
    return kept


def pending_edit(key: str) -> BoardEdit | None:
    """The board's latest edit if it was not handed out before, else None (each edit once)."""
    edit = latest_edit(key)
    handed = _store(HANDED_KEY)
    if edit is None or edit.seq <= handed.get(key, 0):
        return None
    handed[key] = edit.seq
    return edit


def push_edit(key: str, digits: str, printed: str, notes: tuple[str, ...] = NO_NOTES) -> BoardEdit:
    """Change the board's grid from the page (an answered question); it shows it next draw."""
    if not (_is_line(digits, DIGITS) and _is_line(printed, "01")) or len(notes) != CELLS:
        raise ValueError("digits, printed and notes must each describe 81 cells")
    last = latest_edit(key)
    edit = BoardEdit((last.seq if last else 0) + 1, -1, digits, printed, tuple(notes))
    _store(SEEN_KEY)[key] = edit
    return edit


def board(view: BoardView, key: str) -> BoardEdit | None:
    """Draw the board; returns `latest_edit(key)`."""
    last = latest_edit(key)
    component = declare_component(COMPONENT_NAME, path=str(FRONTEND))
    component(**view.args(ack=last.seq if last else 0), key=key, default=None)
    return latest_edit(key)
