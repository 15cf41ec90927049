"""The board: the one Sudoku grid widget of every page, a Streamlit component.

The frontend (``frontend/index.html``, ``board.js``, ``board.css``) is plain HTML, CSS
and JavaScript shipped inside the package: no build step, nothing fetched from the
network. A person taps a cell and a digit of the number pad (or types digits, arrows,
Delete); the board sends back the whole grid after each edit, numbered, so that a rerun
never applies one edit twice.

Pages describe what to draw with a `BoardView` and read edits with `latest_edit` (the
grid as the person left it) or `pending_edit` (each edit once, for moves in a game).
A variant puzzle's `BoardLayout` draws jigsaw regions as thick borders, Sudoku X's
diagonals as a light shading and Killer cages as dashed outlines with their sums; it also
sets the board's size (4×4, 6×6, 8×8, 9×9, 12×12 or 16×16, its boxes as region lines).
Cell values travel as one character a cell, ``VALUE_CHARS``: "0" empty, 1-9, and A-G for
10-16 (the form the photo's JSON carries); the board shows 10-16 as numbers.
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
from .....vision.types import VALUE_CHARS, GridStructure, box_regions

FRONTEND = Path(__file__).resolve().parent / "frontend"
COMPONENT_NAME = "board"
SIZE = 9
CELLS = SIZE * SIZE
BOARD_SIZES = (4, 6, 8, 9, 12, 16)  # the sizes the board draws (the solver's box shapes)
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
    """The lines a variant adds to the board (all empty: a classic 9×9 board, 3×3 boxes).

    regions: size² region numbers (jigsaw, and the boxes of a board other than 9×9), or ()
        for the 3×3 boxes.
    diagonals: shade both main diagonals (Sudoku X).
    cages: Killer cages, drawn dashed with their sums.
    size: cells a side (one of ``BOARD_SIZES``).
    """

    regions: tuple[int, ...] = ()
    diagonals: bool = False
    cages: tuple[Cage, ...] = ()
    size: int = SIZE

    def __post_init__(self) -> None:
        """Check the layout fits a board of its size."""
        if self.size not in BOARD_SIZES:
            sizes = ", ".join(f"{n}×{n}" for n in BOARD_SIZES)
            n = self.size
            raise ValueError(f"the board draws {sizes} puzzles; this one is {n}×{n}")
        cells = self.cells
        if self.regions and len(self.regions) != cells:
            raise ValueError(f"regions must label {cells} cells, got {len(self.regions)}")
        if self.size != SIZE and not self.regions:
            raise ValueError(f"a {self.size}×{self.size} board needs its regions (its boxes)")
        if any(not 0 <= c < cells for cage in self.cages for c in cage.cells):
            raise ValueError(f"cage cells must be 0-{cells - 1}")

    @property
    def cells(self) -> int:
        """How many cells the board has."""
        return self.size * self.size

    @classmethod
    def of(cls, puzzle: VariantPuzzle | None) -> BoardLayout:
        """The layout of a variant puzzle of any size the board draws (None: classic 9×9)."""
        if puzzle is None:
            return CLASSIC_LAYOUT
        return cls.ruled(puzzle.size, puzzle.regions, puzzle.diagonals, puzzle.cages)

    @classmethod
    def of_structure(cls, structure: GridStructure) -> BoardLayout:
        """The layout of a grid read from a photo: its size, regions, diagonals and cages."""
        s = structure
        return cls.ruled(s.size, s.regions, s.diagonals, s.cages)

    @classmethod
    def ruled(
        cls, size: int, regions: tuple[int, ...], diagonals: bool, cages: tuple[Cage, ...]
    ) -> BoardLayout:
        """The layout of these rules; a board other than 9×9 gets its boxes as regions."""
        if size not in BOARD_SIZES:
            return cls(size=size)  # refused, naming the size
        if size != SIZE and not regions:
            regions = box_regions(size)
        return cls(regions, diagonals, cages, size)

    def args(self) -> dict[str, Any]:
        """The JSON arguments of the frontend: size, regions, diagonals, and cages with
        their sums."""
        return {
            "size": self.size,
            "regions": list(self.regions),
            "diagonals": self.diagonals,
            "cages": [{"sum": k.total, "cells": list(k.cells)} for k in self.cages],
        }


CLASSIC_LAYOUT = BoardLayout()


@dataclass(frozen=True)
class BoardView:
    """What the board shows and what it lets the person do.

    digits: one character a cell (size² of them, ``VALUE_CHARS``: "0" for empty, A-G
        for 10-16).
    looks: how each cell is drawn (cells left out: plain).
    printed: cells whose digit is printed (default: the cells drawn as GIVEN).
    notes: one string a cell, the candidate digits noted in it (a 9×9 board's; () none).
    removed: candidates the hint rules out, by cell, shown struck through.
    editable: show the number pad and accept edits.
    lock_printed: printed digits cannot be changed (a game).
    can_note: offer the Notes mode (digits become candidate notes).
    can_swap: offer the "printed / pen" button (the Check page's corrections).
    typed_printed: a digit typed into an empty cell counts as printed (a typed puzzle).
    legend: the looks explained under the board.
    label: the board's accessible name.
    focus: the cell selected when the board first appears (-1: none).
    layout: the board's size and a variant's regions, diagonals and cages (default: a
        classic 9×9 board).
    """

    digits: str
    looks: Mapping[int, Look] = field(default_factory=dict)
    printed: frozenset[int] | None = None
    notes: tuple[str, ...] = ()
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
        """Check the grid has a value of 0..size in each cell, and a note string each."""
        size, cells = self.layout.size, self.layout.cells
        if not _is_line(self.digits, value_chars(size), cells):
            raise ValueError(
                f"digits must be {cells} characters of {value_chars(size)}, got {self.digits!r}"
            )
        if self.notes and len(self.notes) != cells:
            raise ValueError(f"notes must hold {cells} strings, got {len(self.notes)}")
        if any(not 0 <= c < cells for c in [*self.looks, *self.removed]):
            raise ValueError(f"looks and removed must be keyed by cells 0-{cells - 1}")

    def printed_cells(self) -> frozenset[int]:
        """The cells whose digit is printed."""
        if self.printed is not None:
            return self.printed
        return frozenset(c for c, look in self.looks.items() if look is Look.GIVEN)

    def args(self, ack: int) -> dict[str, Any]:
        """The JSON arguments of the frontend."""
        printed = self.printed_cells()
        cells = range(self.layout.cells)
        return {
            "digits": self.digits,
            "printed": "".join("1" if c in printed else "0" for c in cells),
            "looks": [str(self.looks.get(c, "")) for c in cells],
            "notes": list(self.notes) or [""] * len(cells),
            "removed": [self.removed.get(c, "") for c in cells],
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
    digits: one character a cell (81 on a 9×9 board), "0" for empty, A-G for 10-16.
    printed: as many characters, "1" where the digit is printed.
    notes: as many strings of candidate digits.
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
        size = size_of(digits)
        if size is None:
            return None
        cells = size * size
        if not (_is_line(digits, value_chars(size), cells) and _is_line(printed, "01", cells)):
            return None
        if not isinstance(notes, list | tuple) or len(notes) != cells:
            return None
        if not all(isinstance(n, str) and set(n) <= set(value_chars(size)[1:]) for n in notes):
            return None
        if not isinstance(seq, int) or not isinstance(cell, int):
            return None
        return cls(seq, cell, str(digits), str(printed), tuple(notes))

    @property
    def values(self) -> list[int]:
        """The cells' values as numbers (0 for empty)."""
        return [VALUE_CHARS.index(ch) for ch in self.digits]

    def split(self) -> tuple[list[int], list[int]]:
        """The printed digits and the other (pen) digits, each a value a cell, 0 elsewhere."""
        printed = [v if p == "1" else 0 for v, p in zip(self.values, self.printed, strict=True)]
        pen = [v if p != "1" else 0 for v, p in zip(self.values, self.printed, strict=True)]
        return printed, pen


def value_chars(size: int) -> str:
    """The characters of a board's cells: "0" (empty), then its values 1..size."""
    return VALUE_CHARS[: size + 1]


def size_of(digits: object) -> int | None:
    """The board size whose cells a string of digits fills, or None."""
    if not isinstance(digits, str):
        return None
    return next((n for n in BOARD_SIZES if n * n == len(digits)), None)


def _is_line(text: object, alphabet: str, cells: int = CELLS) -> bool:
    """True for a string of ``cells`` characters from alphabet."""
    return isinstance(text, str) and len(text) == cells and set(text) <= set(alphabet)


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
    """Change the board's grid from the page (an answered question); it shows it next draw
    (a board of any size: one character a cell)."""
    size = size_of(digits)
    cells = 0 if size is None else size * size
    if size is None or not _is_line(digits, value_chars(size), cells):
        raise ValueError(f"digits must fill a board of {BOARD_SIZES} cells a side")
    if not _is_line(printed, "01", cells) or len(notes) != cells:
        raise ValueError(f"digits, printed and notes must each describe {cells} cells")
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
