"""The public face: read a photo, solve a typed puzzle (``from sudokucam import ...``).

    from sudokucam import Reader, read_photo, solve

    result = read_photo("photo.jpg")      # PhotoResult: grids, statuses, timings
    result.grids[0].solution              # 81 digits, or None
    solve("4.....8.5.3" + "." * 70).status  # Outcome.SOLVED, MULTIPLE_SOLUTIONS, ...

``read_photo`` keeps one ``Reader`` (and so one loaded model) per process; build your own
``Reader(config=...)`` for other settings. Expected outcomes (no grid, broken rules, no or
several solutions, a search past its time limit) are statuses in the result, never
exceptions.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from .solver.grid import Puzzle
from .solver.solve import SolveResult, solve_grid
from .vision.pipeline import Reader
from .vision.results import PhotoResult


@cache
def default_reader() -> Reader:
    """The process's one ``Reader`` with the default settings (the model loads on first read)."""
    return Reader()


def read_photo(path: str | Path) -> PhotoResult:
    """Read every Sudoku on the photo at ``path`` and solve it, as ``Reader().read`` does.

    A photo that cannot be loaded, or shows no grid, gives a result whose ``error`` says
    why (``status`` ERROR or NO_GRID); the grids carry their own status and solution.
    """
    if not isinstance(path, str | Path):
        raise TypeError(f"path must be a str or Path, not {type(path).__name__}")
    return default_reader().read(path)


def solve(puzzle: Puzzle, time_limit: float | None = None) -> SolveResult:
    """Solve a typed puzzle of any size and prove the answer unique (``solver.solve_grid``).

    ``puzzle``: one line or a grid of text (``.`` or ``0`` for an empty cell), a flat
    list of values (0 empty) or a ``Grid``; a puzzle that cannot be parsed raises
    ``PuzzleParseError``. ``time_limit``: seconds the search may take (None: no limit).
    The result's ``status`` is SOLVED, MULTIPLE_SOLUTIONS, NO_SOLUTION, INVALID or
    TIMEOUT, its ``solution`` the answer.
    """
    return solve_grid(puzzle, time_limit)
