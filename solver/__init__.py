"""Sudoku solving: grids of any size, parsing, validation, fast backtracking."""

from .errors import (
    InvalidPuzzleError,
    MultipleSolutionsError,
    NoSolutionError,
    PuzzleError,
    PuzzleParseError,
    SearchTimeoutError,
)
from .geometry import BOX_SHAPES, Cell, Shape, cell_name, shape_for_size
from .grid import SYMBOLS, Grid, Puzzle, as_grid
from .outcome import SOLVED_OUTCOMES, SPELLING, Outcome, ProblemKind, Wording
from .parse import iter_puzzles, parse_grid, parse_puzzles
from .solve import SolveResult, count_solutions, solve, solve_grid
from .validate import (
    Conflict,
    UnitFailure,
    check_complete,
    find_conflicts,
    find_dead_cells,
    is_solution,
)

__all__ = [
    "BOX_SHAPES",
    "SOLVED_OUTCOMES",
    "SPELLING",
    "SYMBOLS",
    "Cell",
    "Conflict",
    "Grid",
    "InvalidPuzzleError",
    "MultipleSolutionsError",
    "NoSolutionError",
    "Outcome",
    "ProblemKind",
    "Puzzle",
    "PuzzleError",
    "PuzzleParseError",
    "SearchTimeoutError",
    "Shape",
    "SolveResult",
    "UnitFailure",
    "Wording",
    "as_grid",
    "cell_name",
    "check_complete",
    "count_solutions",
    "find_conflicts",
    "find_dead_cells",
    "is_solution",
    "iter_puzzles",
    "parse_grid",
    "parse_puzzles",
    "shape_for_size",
    "solve",
    "solve_grid",
]
