"""The solver's exceptions: one base class, one subclass per way a puzzle can fail."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import SudokucamError

if TYPE_CHECKING:
    from .validate import Conflict


class PuzzleError(SudokucamError):
    """Base class for every puzzle that cannot be read or solved."""


class PuzzleParseError(PuzzleError, ValueError):
    """The text does not hold a puzzle; the message names the problem."""


class InvalidPuzzleError(PuzzleError):
    """The givens break the rules (a value twice in a unit); carries the conflicts."""

    def __init__(self, conflicts: tuple[Conflict, ...]) -> None:
        self.conflicts = conflicts
        super().__init__("invalid givens: " + "; ".join(str(c) for c in conflicts))


class NoSolutionError(PuzzleError):
    """The givens agree with the rules but no grid completes them."""


class MultipleSolutionsError(PuzzleError):
    """The puzzle has more than one solution; carries two that differ."""

    def __init__(self, solutions: tuple[str, str], message: str = "") -> None:
        self.solutions = solutions
        super().__init__(message or "the puzzle has more than one solution")


class SearchTimeoutError(SudokucamError):
    """A search (solving, proving uniqueness, a logical step) ran past its time limit.

    seconds: the limit it was given, when the code that raised it knows it.
    """

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = seconds
        super().__init__(timeout_message(seconds))

    def __reduce__(self) -> tuple[type[SearchTimeoutError], tuple[float | None]]:
        """Pickle by the limit (the app's search workers send this error back)."""
        return type(self), (self.seconds,)


def timeout_message(seconds: float | None) -> str:
    """One line for a search that ran out of time: 'gave up after 10 s: ...'."""
    after = f"after {seconds:g} s" if seconds is not None else "at its deadline"
    return f"gave up {after}: the search did not finish"
