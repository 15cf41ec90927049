"""Plain data passed between the reading stages: small frozen dataclasses of numpy arrays.

The digits of the 81 cells pass between stages (reading → repair → GridResult → JSON, and
a person's corrections back into ``Reader.resolve``) in one form, ``Digits``: a string of
81 characters '0'-'9', row by row, '0' for an empty cell. The solver's ``Grid`` is built
from it only where the solver is called (``solver_grid``), and its answers are read back
with ``digits_of``; a user interface that edits cells as numbers crosses with the same two.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING

import numpy as np

from ..solver.geometry import shape_for_size
from ..solver.grid import SYMBOLS, Grid
from ..solver.variant import Cage, Variant, VariantPuzzle

if TYPE_CHECKING:
    from .read.kind_trace import KindTrace

NUM_CLASSES = 19  # 0 empty, 1-9 printed 1-9, 10-18 handwritten 1-9
Digits = str  # 81 characters '0'-'9', row by row, '0' for empty (size²; past 9: A-G)
VALUE_CHARS = "0" + SYMBOLS  # value v of a cell is written VALUE_CHARS[v]
NINE = shape_for_size(9)
NO_NOTES: tuple[str, ...] = ("",) * 81  # a reading without candidate notes


def digits_of(values: Iterable[int]) -> Digits:
    """81 cell values (0 for empty) as Digits (values past 9, of a 16×16, as A-G)."""
    return "".join(VALUE_CHARS[v] for v in values)


def digit_values(digits: Digits) -> tuple[int, ...]:
    """The 81 cell values of Digits (0 for empty; A-G: 10-16)."""
    return tuple(VALUE_CHARS.index(d.upper()) for d in digits)


def value_shares(probs: np.ndarray, n: int | None = None) -> np.ndarray:
    """(N, n) each cell's probability of each value 1-n in any ink, not normalised, from
    (N, classes) class probabilities: the digit model's 19 (its two inks of 1-9 added: a
    9×9, a small grid) or one column a value after the empty one (a 12×12's or 16×16's
    readings, ``small/sixteen.py``); every value the classes hold where ``n`` is None."""
    p = np.asarray(probs, dtype=np.float64)
    values = p[:, 1:10] + p[:, 10:19] if p.shape[1] == NUM_CLASSES else p[:, 1:]
    return values if n is None else values[:, :n]


def solver_grid(digits: Digits) -> Grid:
    """The solver's 9×9 Grid holding ``digits``."""
    return Grid(NINE, digit_values(digits))


class Kind(IntEnum):
    """What a cell holds."""

    EMPTY = 0
    PRINTED = 1
    HANDWRITTEN = 2
    NOTES = 3  # candidate notes only: never an entry (not a given, not handwritten)
    CROSSED_OUT = 4  # a digit struck through: no entry (a content, never a reading's kind)
    UNREADABLE = 5  # writing no digit could be read in: no entry, asked about (a content)


@dataclass(frozen=True)
class GridDetection:
    """Where a 9×9 grid (or a small one: ``vision/small/``) lies in a photo.

    corners: (4, 2) float64, top-left, top-right, bottom-right, bottom-left, original pixels.
    lattice: (10, 10, 2) float64 ((n + 1, n + 1, 2) for a small grid of n cells a side),
        the grid-line intersections in original pixels
        (row-major: lattice[i, j] is where horizontal line i meets vertical line j).
        For a flat page it follows from the homography; for a bent page it is measured.
    homography: (3, 3) maps original pixels to the warped square image.
    inverse: (3, 3) maps warped pixels back to the original.
    warped: (S, S) uint8 grayscale, the grid straightened (cell by cell on bent pages).
    score: how grid-like the detection is, 0..1.
    """

    corners: np.ndarray
    lattice: np.ndarray
    homography: np.ndarray
    inverse: np.ndarray
    warped: np.ndarray
    score: float


@dataclass(frozen=True)
class CellScores:
    """What the classifier saw in the 81 cells (row-major), before any kind is settled.

    probs: (81, 19) float32 class probabilities (0 empty, 1-9 printed, 10-18 handwritten).
    cells: (81, N, N) float32 ink images the probabilities were read from, or None.
    notes_probability: (81,) float64 probability that each cell holds only candidate
        notes, or None when no notes model ran (``CellReading.notes`` holds the digits).
    notes_sure: (81,) per cell, whether every ink blob of its notes was read surely (so
        a digit missing from ``note_digits`` was not noted), or None when not known.
    note_digits: (81,) the digits noted in each cell the notes model took for notes
        ("" elsewhere), or None.
    crossed_out_probability: (81,) float64 probability that each cell holds a digit
        struck through (already counted as empty in ``probs``), or None when the model has
        no such class (``CellReading.crossed_out`` says which cells do).
    unreadable: (81,) bool, the cells holding a digit's worth of ink in which no digit
        could be read, even centred (``read/recentre.py``), or faint writing read again at
        its own contrast too unsurely to take (``read/faint.py``); None when not looked for.
    model_probs: (81, C) float32, the model's own output for the cells as first read
        (every class, before cells were read again), or None; the quarter-turn check
        compares turns on it (``read/orientation.py``).
    pen_probability: (81,) float64 probability that each filled cell's ink is handwriting,
        where ``probs`` holds one column a value in any ink (a 16×16's 17), else None.
    """

    probs: np.ndarray
    cells: np.ndarray | None = None
    notes_probability: np.ndarray | None = None
    note_digits: tuple[str, ...] | None = None
    notes_sure: tuple[bool, ...] | None = None
    crossed_out_probability: np.ndarray | None = None
    unreadable: np.ndarray | None = None
    model_probs: np.ndarray | None = None
    pen_probability: np.ndarray | None = None


@dataclass(frozen=True)
class CellReading:
    """What was read in the 81 cells (row-major): digits and print-or-pen kinds settled.

    probs: (81, 19) float32 class probabilities (0 empty, 1-9 printed, 10-18 handwritten).
    digits: (81,) int64, 0 for empty.
    kinds: (81,) int64 of Kind values.
    kind_log_odds: (81,) float64 log p(printed) / p(handwritten) behind each filled cell's
        kind, after every evidence step (0 for empty cells); None when not known.
    trace: which step settled each cell's kind (``vision/read/kind_trace.py``); None when
        the reading did not come through ``decide_kinds``.
    notes: (81,) the candidate digits noted in each cell ("" when none), ascending.
    notes_sure: (81,) whether each cell's notes were read completely (every blob surely a
        digit); None: take every cell's notes as complete (a reading made by hand).
    crossed_out: (81,) whether each empty cell holds a digit the person struck through;
        None when not known.
    unreadable: (81,) whether each empty cell holds writing in which no digit could be
        read (to ask the person about); None when not known.
    cells: (81, N, N) float32 ink images the digits were read from, or None (the pen
        entries of one hand are compared once the answer is known, ``read/hand.py``).
    """

    probs: np.ndarray
    digits: np.ndarray
    kinds: np.ndarray
    kind_log_odds: np.ndarray | None = None
    trace: KindTrace | None = None
    notes: tuple[str, ...] = NO_NOTES
    notes_sure: tuple[bool, ...] | None = None
    crossed_out: tuple[bool, ...] | None = None
    unreadable: tuple[bool, ...] | None = None
    cells: np.ndarray | None = None

    @property
    def confidence(self) -> np.ndarray:
        """(81,) probability of what each cell holds: an empty cell's of being empty, a
        digit's of that digit in either ink (whether it is printed or written is the whole
        puzzle's decision, traced in ``trace``), notes' of not being empty; a reading of one
        column a value in any ink (a 16×16's) the probability of its value."""
        rows = np.arange(len(self.digits))
        if self.probs.shape[1] == NUM_CLASSES:
            digit_p = self.probs[rows, self.digits] + self.probs[rows, self.digits + 9]
        else:
            digit_p = self.probs[rows, self.digits]
        chosen_p = np.where(self.kinds == Kind.EMPTY, self.probs[:, 0], digit_p)
        return np.where(self.kinds == Kind.NOTES, 1.0 - self.probs[:, 0], chosen_p)


@dataclass(frozen=True)
class GridStructure:
    """What a grid's drawing says its rules are, beside rows and columns.

    size: cells a side. variant: classic, x, jigsaw (or killer, once cages are read).
    regions: size² region numbers row by row (0-based, in reading order), () for the
    standard boxes. diagonals: both main diagonals hold every digit once (Sudoku X).
    diagonal_mark: how the diagonals were drawn ("lines", "shaded"; "none").
    cages: Killer cages (``vision/structure/cages.py`` reads them; () where none).
    glyphs: the symbols a page prints the values 1..size in, where not the numbers (a
    16×16 printed with "0123456789ABCDEF" or "ABCDEFGHIJKLMNOP"); "" for the numbers.
    """

    size: int = 9
    variant: Variant = Variant.CLASSIC
    regions: tuple[int, ...] = ()
    diagonals: bool = False
    diagonal_mark: str = "none"
    cages: tuple[Cage, ...] = ()
    glyphs: str = ""

    def __post_init__(self) -> None:
        """Check the page's symbols: one a value, all different, no '.'."""
        different = len(set(self.glyphs)) == len(self.glyphs) == self.size
        if self.glyphs and (not different or "." in self.glyphs):
            raise ValueError(f"glyphs must be {self.size} different symbols, got {self.glyphs!r}")

    @property
    def symbols(self) -> str:
        """How the values 1..size are written in the JSON's strings: the page's own symbols
        (``glyphs``), else 1-9 then A.. (10-16 as A-G)."""
        return self.glyphs or SYMBOLS[: self.size]

    @property
    def empty_symbol(self) -> str:
        """How the JSON's strings write an empty cell: "0", or "." where the page prints
        its own symbols (as ``grid FILE.json`` writes them; 0 may be one)."""
        return "." if self.glyphs else "0"

    @property
    def printed(self) -> tuple[str, ...]:
        """How a photo's grid prints the values 1..size, as messages name them: the page's
        symbols, else the numbers (12 on a 16×16, never its string's C;
        ``solver.grid.value_word``)."""
        if self.glyphs:
            return tuple(self.glyphs)
        return tuple(str(v) for v in range(1, self.size + 1))

    def written(self, digits: str) -> str:
        """A grid's ``Digits`` (one ``VALUE_CHARS`` character a cell) in the JSON's
        strings: the page's own symbols, ``empty_symbol`` for an empty cell."""
        if not self.glyphs:
            return digits
        return "".join(
            self.empty_symbol if d == "0" else self.glyphs[VALUE_CHARS.index(d) - 1] for d in digits
        )

    @property
    def is_classic(self) -> bool:
        """True for rows, columns and the standard boxes only."""
        return not (self.regions or self.diagonals or self.cages)

    @property
    def name(self) -> str:
        """The variant in a person's words: 'Sudoku', 'Sudoku X', 'jigsaw Sudoku', ...
        ('6×6 Sudoku' for a small classic grid)."""
        if self.size != 9 and self.is_classic:
            return f"{self.size}×{self.size} Sudoku"
        words = {
            Variant.CLASSIC: "Sudoku",
            Variant.X: "Sudoku X",
            Variant.JIGSAW: "jigsaw Sudoku",
            Variant.KILLER: "Killer Sudoku",
        }
        return words[self.variant] + (" X" if self.diagonals and self.variant is not Variant.X
                                      else "")  # fmt: skip

    def region_rows(self) -> list[str]:
        """The region of every cell, one string of labels 1-9 (A..) a row; boxes too."""
        n = self.size
        labels = self.regions or box_regions(n)
        return ["".join(SYMBOLS[labels[r * n + c]] for c in range(n)) for r in range(n)]

    def puzzle(self, values: Iterable[int]) -> VariantPuzzle:
        """The solver's puzzle of these rules holding ``values`` (0 empty); VariantError
        when the values cannot keep them (a cage's sum out of reach)."""
        return VariantPuzzle(
            self.size,
            tuple(values),
            self.variant,
            self.regions,
            self.diagonals,
            self.cages,
            self.glyphs,
        )


def box_regions(size: int) -> tuple[int, ...]:
    """The standard boxes of a size×size grid as region numbers, row by row."""
    shape = shape_for_size(size)
    labels = [0] * (size * size)
    for k, unit in enumerate(shape.units[2 * size :]):
        for c in unit:
            labels[c] = k
    return tuple(labels)


CLASSIC_STRUCTURE = GridStructure()
