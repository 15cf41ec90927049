"""The state of a game on the Play page: the board, undo and redo, the clock, saving.

A `Board` is frozen: every move makes a new one, so undo and redo are two stacks of
boards. A `Game` holds the boards and the clock and lives in `st.session_state`.
Saved games are plain text, readable by a person::

    # sudokucam game
    givens  53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79
    entries ..4..............................................................................
    marks   r1c3=12 r2c2=478
    seconds 95

A Sudoku X, jigsaw or Killer game keeps its puzzle (`Game.puzzle`) and saves it as one
more line, ``puzzle {"variant": "killer", "cages": [...]}`` (the JSON of
`sudokucam grid FILE.json`). So does a game of another size than 9×9 (a classic
4×4, 6×6, 8×8, 12×12 or 16×16: ``puzzle {"variant": "classic", "size": 6}``); its lines
hold size² characters, values past 9 written A-G as in the JSON contract, and so do its
marks (``r1c3=1A``).
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass, field, replace

from ....solver import Grid, PuzzleParseError, parse_grid, solve_grid
from ....solver.geometry import cell_name
from ....solver.variant import VariantError, VariantPuzzle
from ....solver.variant_json import parse_json, puzzle_from_json
from ....solver.variant_solve import solve_variant
from ....vision.types import VALUE_CHARS

HEADER = "# sudokucam game"
SIZES = (4, 6, 8, 9, 12, 16)  # the sizes a game is played at (the board's)


@dataclass(frozen=True)
class Board:
    """Givens, the person's digits and pencil marks; 0 for empty, cells row by row.

    The board's size follows from its givens (81: 9×9; 36: 6×6; ... of ``SIZES``);
    entries and marks left out are empty.
    """

    givens: tuple[int, ...]
    entries: tuple[int, ...] = ()
    marks: tuple[frozenset[int], ...] = ()

    def __post_init__(self) -> None:
        """Check the board has size² cells of 0-size and no entry over a given."""
        cells = len(self.givens)
        if cells not in {n * n for n in SIZES}:
            raise ValueError(f"givens must hold 16, 36, 64, 81, 144 or 256 cells, got {cells}")
        if not self.entries:
            object.__setattr__(self, "entries", (0,) * cells)
        if not self.marks:
            object.__setattr__(self, "marks", (frozenset(),) * cells)
        for name in ("entries", "marks"):
            if len(getattr(self, name)) != cells:
                raise ValueError(f"{name} must hold {cells} cells")
        if any(not 0 <= v <= self.size for v in self.givens + self.entries):
            raise ValueError(f"givens and entries must be 0-{self.size}")
        if any(g and e for g, e in zip(self.givens, self.entries, strict=True)):
            raise ValueError("entries must be empty where a given is printed")

    @property
    def size(self) -> int:
        """Cells a side."""
        return round(len(self.givens) ** 0.5)

    @property
    def values(self) -> tuple[int, ...]:
        """Givens and entries together."""
        return tuple(g or e for g, e in zip(self.givens, self.entries, strict=True))

    def place(self, cell: int, value: int) -> Board:
        """The board with a digit written in (0 clears); the cell's pencil marks go."""
        _check_cell(cell, self.givens)
        entries = list(self.entries)
        entries[cell] = value
        marks = list(self.marks)
        marks[cell] = frozenset()
        return replace(self, entries=tuple(entries), marks=tuple(marks))

    def set_marks(self, cell: int, values: frozenset[int]) -> Board:
        """The board with a cell's pencil marks replaced (its digit is cleared)."""
        _check_cell(cell, self.givens)
        if not values <= set(range(1, self.size + 1)):
            raise ValueError(f"pencil marks must be 1-{self.size}, got {sorted(values)}")
        entries = list(self.entries)
        entries[cell] = 0
        marks = list(self.marks)
        marks[cell] = values
        return replace(self, entries=tuple(entries), marks=tuple(marks))


def _check_cell(cell: int, givens: tuple[int, ...]) -> None:
    """Refuse a cell outside the grid or holding a given."""
    if not 0 <= cell < len(givens):
        raise ValueError(f"cell must be 0-{len(givens) - 1}, got {cell}")
    if givens[cell]:
        size = round(len(givens) ** 0.5)
        raise ValueError(f"{cell_name(cell, size)} holds a printed digit and cannot change")


@dataclass
class Game:
    """A game in progress: the board, its history, the solution and the clock."""

    board: Board
    solution: tuple[int, ...]
    undo_stack: list[Board] = field(default_factory=list)
    redo_stack: list[Board] = field(default_factory=list)
    seconds_before: float = 0.0
    running_since: float | None = None
    version: int = 0  # bumped on every change, so the page redraws its table
    game_id: str = field(default_factory=lambda: uuid.uuid4().hex[:10])
    puzzle: VariantPuzzle | None = None  # a variant or a size other than 9 (None: 9×9 classic)

    @classmethod
    def start(cls, board: Board, seconds: float = 0.0, puzzle: VariantPuzzle | None = None) -> Game:
        """A new game on a board whose givens have exactly one solution, clock running.

        puzzle: the variant whose rules the board follows (its givens are the board's).
        """
        if puzzle is None:
            result = solve_grid(Grid.from_values(list(board.givens)))
        else:
            result = solve_variant(replace(puzzle, givens=board.givens))
        if result.solution is None:
            raise PuzzleParseError(f"this puzzle cannot be played: {result.message}")
        return cls.begin(board, result.solution.values, seconds, puzzle)

    @classmethod
    def begin(
        cls,
        board: Board,
        solution: tuple[int, ...],
        seconds: float = 0.0,
        puzzle: VariantPuzzle | None = None,
    ) -> Game:
        """A game on a board whose one solution is known (a puzzle just made), clock running."""
        return cls(board, tuple(solution), seconds_before=seconds,
                   running_since=time.monotonic(), puzzle=puzzle)  # fmt: skip

    def play(self, board: Board) -> None:
        """Make a move: the new board, with the old one kept for undo."""
        if board != self.board:
            self.undo_stack.append(self.board)
            self.redo_stack.clear()
            self.board = board
            self.version += 1

    def undo(self) -> bool:
        """Take back the last move; False when there is none."""
        if not self.undo_stack:
            return False
        self.redo_stack.append(self.board)
        self.board = self.undo_stack.pop()
        self.version += 1
        return True

    def redo(self) -> bool:
        """Make again the last move taken back; False when there is none."""
        if not self.redo_stack:
            return False
        self.undo_stack.append(self.board)
        self.board = self.redo_stack.pop()
        self.version += 1
        return True

    def wrong_cells(self) -> list[int]:
        """Entries that disagree with the solution."""
        return [c for c, e in enumerate(self.board.entries) if e and e != self.solution[c]]

    @property
    def solved(self) -> bool:
        """True when every cell holds the right digit."""
        return self.board.values == self.solution

    @property
    def paused(self) -> bool:
        """True while the clock is stopped."""
        return self.running_since is None

    def seconds(self, now: float | None = None) -> float:
        """Playing time so far, pauses left out."""
        if self.running_since is None:
            return self.seconds_before
        return self.seconds_before + ((now or time.monotonic()) - self.running_since)

    def pause(self) -> None:
        """Stop the clock."""
        self.seconds_before = self.seconds()
        self.running_since = None

    def resume(self) -> None:
        """Start the clock again."""
        if self.running_since is None:
            self.running_since = time.monotonic()

    def to_text(self) -> str:
        """The game as a text file (see the module docstring)."""
        size = self.board.size
        marks = " ".join(
            f"{cell_name(c, size)}={''.join(VALUE_CHARS[v] for v in sorted(m))}"
            for c, m in enumerate(self.board.marks)
            if m
        )
        layout = [] if self.puzzle is None else [f"puzzle  {_layout_json(self.puzzle)}"]
        return "\n".join(
            [
                HEADER,
                *layout,
                f"givens  {_line(self.board.givens)}",
                f"entries {_line(self.board.entries)}",
                f"marks   {marks}",
                f"seconds {round(self.seconds())}",
                "",
            ]
        )


def _layout_json(puzzle: VariantPuzzle) -> str:
    """A variant's rules as one line of JSON (its givens are saved on their own line)."""
    n = puzzle.size
    doc: dict[str, object] = {"variant": puzzle.variant.value}
    if n != 9:
        doc["size"] = n
    if puzzle.regions:
        doc["regions"] = ["".join(VALUE_CHARS[k + 1] for k in puzzle.regions[r * n : r * n + n])
                          for r in range(n)]  # fmt: skip
    if puzzle.diagonals:
        doc["diagonals"] = True
    if puzzle.cages:
        doc["cages"] = [
            {"sum": k.total, "cells": [puzzle.cell_name(c) for c in k.cells]} for k in puzzle.cages
        ]
    return json.dumps(doc)


def _line(values: tuple[int, ...]) -> str:
    """One character a cell, '.' for empty, values past 9 as A-G (the JSON contract's)."""
    return "".join(VALUE_CHARS[v] if v else "." for v in values)


def load_game(text: str) -> Game:
    """A game from a saved file, or from any puzzle text (givens only, a fresh game): 81
    characters, or a puzzle's JSON object (any size the board draws)."""
    if text.lstrip().startswith("{"):
        typed = _json_puzzle(text, None)
        return Game.start(Board(typed.givens), puzzle=typed)
    fields = _saved_fields(text)
    if fields is None:
        return Game.start(Board(parse_grid(text, 9).values))
    layout = fields.get("puzzle", "")
    size = _json_puzzle(layout, None).size if layout else 9
    givens = parse_grid(fields.get("givens", ""), size).values
    entries_text = fields.get("entries", "")
    entries = parse_grid(entries_text, size).values if entries_text else ()
    board = Board(givens, entries, _parse_marks(fields.get("marks", ""), size))
    puzzle = _saved_puzzle(layout, givens)
    return Game.start(board, seconds=_seconds(fields.get("seconds", "0")), puzzle=puzzle)


def _saved_puzzle(text: str, givens: tuple[int, ...]) -> VariantPuzzle | None:
    """The variant of a saved game with these givens (None: no puzzle line, a classic game)."""
    return _json_puzzle(text, givens) if text else None


def _json_puzzle(text: str, givens: tuple[int, ...] | None) -> VariantPuzzle:
    """A puzzle of a size the board draws from its JSON, with these givens (None: the
    JSON's own); PuzzleError naming what is wrong."""
    try:
        doc = parse_json(text)
    except VariantError as exc:
        raise PuzzleParseError(f"the saved puzzle line: {exc}") from None
    if not isinstance(doc, dict):
        raise PuzzleParseError("the saved puzzle line must be a JSON object")
    if givens is not None:
        size = round(len(givens) ** 0.5)
        doc = {**doc, "size": size, "givens": _line(givens)}
    elif "givens" not in doc and "cages" not in doc and "puzzle" not in doc:
        doc = {**doc, "givens": ""}  # a saved game's puzzle line: its rules and size only
    puzzle = puzzle_from_json(doc)
    if puzzle.size not in SIZES:
        n = puzzle.size
        shown = ", ".join(f"{k}×{k}" for k in SIZES)
        raise PuzzleParseError(f"a {n}×{n} puzzle cannot be played here: the board is {shown}")
    return puzzle


def _saved_fields(text: str) -> dict[str, str] | None:
    """The 'name value' lines of a saved game, or None when the text is not one."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if not lines or lines[0] != HEADER:
        return None
    fields = {}
    for ln in lines[1:]:
        name, _, value = ln.partition(" ")
        fields[name] = value.strip()
    return fields


def _parse_marks(text: str, size: int = 9) -> tuple[frozenset[int], ...]:
    """Pencil marks from 'r1c3=12 r2c2=478' on a board of ``size`` (A-G: 10-16)."""
    marks = [frozenset[int]()] * (size * size)
    symbols = VALUE_CHARS[1 : size + 1]
    for item in text.split():
        name, _, digits = item.partition("=")
        try:
            r, c = (int(x) for x in name.lower().lstrip("r").split("c"))
        except ValueError as exc:
            raise PuzzleParseError(f"bad pencil marks {item!r} in the saved game") from exc
        if not (1 <= r <= size and 1 <= c <= size):
            raise PuzzleParseError(f"bad cell in pencil marks {item!r} in the saved game")
        marks[(r - 1) * size + (c - 1)] = frozenset(
            symbols.index(d) + 1 for d in digits.upper() if d in symbols
        )
    return tuple(marks)


def _seconds(text: str) -> float:
    """The saved playing time, or a clear error."""
    try:
        return max(0.0, float(text))
    except ValueError as exc:
        raise PuzzleParseError(f"bad playing time {text!r} in the saved game") from exc
