"""How a grid came out, in one vocabulary for the solver, the photo reader and hints.

``Outcome`` names every way solving, reading or hinting can end; ``ProblemKind`` names
why givens have no single solution. Their values are the words of the photo contract
(``sudokucam read/solve/check --json``, batch reports). Two older printed contracts spell
some outcomes differently; ``SPELLING`` is the one table of their words, used only where
that JSON or text is written (``Outcome.spelled``).
"""

from __future__ import annotations

from enum import Enum, StrEnum
from typing import Final


class Outcome(StrEnum):
    """How solving a puzzle, reading a photo or asking for a hint ended."""

    SOLVED = "solved"  # exactly one solution (a hint: the grid is already complete and right)
    COMPLETE = "complete"  # a photo: solved, and every cell already filled correctly
    STEP = "step"  # a hint: a next step is given
    WRONG_ENTRIES = "wrong_entries"  # a hint: some of the person's entries are wrong
    WRONG_NOTES = "wrong_notes"  # a hint: a cell's candidate notes leave out its answer
    INVALID = "invalid"  # the givens break the rules (a value twice in a unit)
    NO_SOLUTION = "unsolvable"  # the givens keep the rules but no grid completes them
    MULTIPLE_SOLUTIONS = "multiple_solutions"  # two or more solutions
    NO_GRID = "no_grid"  # a photo without a Sudoku grid
    ERROR = "error"  # a photo that could not be read
    TIMEOUT = "timeout"  # the search ran past its time limit (the puzzle may be fine)

    def spelled(self, wording: Wording) -> str:
        """The word for this outcome in an older printed contract (KeyError if it has none)."""
        return SPELLING[wording][self]


class ProblemKind(StrEnum):
    """Why givens have no single solution."""

    DUPLICATE = "duplicate"  # two cells of a unit hold one value
    DEAD_CELL = "dead_cell"  # an empty cell is left without a candidate
    NO_SOLUTION = "no_solution"  # the givens keep the rules but no grid completes them
    MULTIPLE_SOLUTIONS = "multiple_solutions"
    TIMEOUT = "timeout"  # the search for a solution ran past its time limit
    FOREIGN_SYMBOL = "foreign_symbol"  # a cell prints a symbol outside the grid's set
    UNLIKELY_REPAIR = "unlikely_repair"  # the one repair found needs a digit the model ruled out
    TIED_REPAIRS = "tied_repairs"  # two as likely repairs give different answers


class Wording(Enum):
    """A printed contract whose words for outcomes differ from ``Outcome`` values."""

    GRID = "sudokucam grid"  # JSON "status", the summary counts and the summary line
    HINT = "sudokucam hint"  # JSON "status"; also "next" of `sudokucam check --hint --json`


SOLVED_OUTCOMES: Final = frozenset({Outcome.SOLVED, Outcome.COMPLETE})  # a grid with its answer

# The words of the older contracts, each listing every outcome it can report. GRID's
# order is the order of the counts in the `sudokucam grid` summary.
SPELLING: Final[dict[Wording, dict[Outcome, str]]] = {
    Wording.GRID: {
        Outcome.SOLVED: "solved",
        Outcome.MULTIPLE_SOLUTIONS: "multiple",
        Outcome.NO_SOLUTION: "no solution",
        Outcome.INVALID: "invalid",
        Outcome.TIMEOUT: "timeout",
    },
    Wording.HINT: {
        Outcome.STEP: "step",
        Outcome.SOLVED: "solved",
        Outcome.WRONG_ENTRIES: "wrong entries",
        Outcome.WRONG_NOTES: "wrong notes",
        Outcome.INVALID: "invalid",
        Outcome.NO_SOLUTION: "no solution",
        Outcome.MULTIPLE_SOLUTIONS: "multiple solutions",
        Outcome.TIMEOUT: "timeout",
    },
}
