"""Solving variant puzzles: the same SolveResult, uniqueness proof and time limit as classic.

A classic VariantPuzzle goes to the classic solver (solve.py); the others to the variant
search (variant_search.py), after their givens are checked against every unit and cage.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import SearchTimeoutError
from .geometry import Cell, cell_name, shape_for_size
from .grid import Grid, value_word
from .outcome import Outcome
from .solve import SolveResult, deadline_after, solve_before
from .validate import Conflict
from .variant import VariantPuzzle
from .variant_search import find_variant_solutions, variant_tables


def is_classic(puzzle: VariantPuzzle) -> bool:
    """True when the puzzle has only rows, columns and standard boxes."""
    return not (puzzle.regions or puzzle.diagonals or puzzle.cages)


def solve_variant(
    puzzle: VariantPuzzle, time_limit: float | None = None, said: Sequence[str] | None = None
) -> SolveResult:
    """Validate then solve, proving the solution unique (or finding two); TIMEOUT past
    time_limit seconds. ``said``: how the grid prints its values, for the conflicts'
    words (the puzzle's symbols where None; a photo's grid prints numbers)."""
    try:
        return solve_variant_before(puzzle, deadline_after(time_limit), said)
    except SearchTimeoutError:
        grid = Grid(shape_for_size(puzzle.size), puzzle.givens)
        return SolveResult(grid, Outcome.TIMEOUT, time_limit=time_limit)


def solve_variant_before(
    puzzle: VariantPuzzle, deadline: float | None, said: Sequence[str] | None = None
) -> SolveResult:
    """solve_variant with a `time.monotonic()` deadline: SearchTimeoutError once it passes."""
    grid = Grid(shape_for_size(puzzle.size), puzzle.givens)
    words = puzzle.symbols if said is None else said
    if is_classic(puzzle):
        return solve_before(grid, deadline, words)
    conflicts = variant_conflicts(puzzle, words)
    if conflicts:
        return SolveResult(grid, Outcome.INVALID, conflicts=conflicts)
    found = count_variant(puzzle, 2, deadline)
    solutions = tuple(Grid(grid.shape, tuple(s)) for s in found)
    if not solutions:
        return SolveResult(grid, Outcome.NO_SOLUTION, conflicts=variant_dead_cells(puzzle))
    status = Outcome.SOLVED if len(solutions) == 1 else Outcome.MULTIPLE_SOLUTIONS
    return SolveResult(grid, status, solutions)


def count_variant(puzzle: VariantPuzzle, limit: int, deadline: float | None) -> list[list[int]]:
    """Up to `limit` solutions (flat value lists); SearchTimeoutError past the deadline."""
    vt = variant_tables(puzzle.size, puzzle.regions, puzzle.diagonals, puzzle.cages)
    return find_variant_solutions(puzzle.givens, vt, limit, deadline)


def _groups(puzzle: VariantPuzzle) -> list[tuple[int, tuple[Cell, ...], str]]:
    """Every group of cells that holds no value twice: units (by index), then cages (-1)."""
    groups = [(u, unit, puzzle.unit_name(u)) for u, unit in enumerate(puzzle.units)]
    groups += [(-1, cage.cells, cage.name(puzzle.size)) for cage in puzzle.cages]
    return groups


def variant_conflicts(
    puzzle: VariantPuzzle, said: Sequence[str] | None = None
) -> tuple[Conflict, ...]:
    """Every pair of givens holding one value in a unit or cage, each pair named once (the
    value in ``said``, the puzzle's symbols where None: ``value_word``)."""
    words = puzzle.symbols if said is None else said
    n, values = puzzle.size, puzzle.givens
    seen: set[tuple[Cell, Cell]] = set()
    conflicts = []
    for u, cells, name in _groups(puzzle):
        first: dict[int, Cell] = {}
        for c in cells:
            v = values[c]
            if v and v in first and (first[v], c) not in seen:
                seen.add((first[v], c))
                text = (
                    f"{cell_name(first[v], n)} and {cell_name(c, n)} both hold "
                    f"{value_word(v, words)} ({name})"
                )
                conflicts.append(Conflict((first[v], c), v, u, text))
            elif v:
                first.setdefault(v, c)
    return tuple(sorted(conflicts, key=lambda k: k.cells))


def variant_dead_cells(puzzle: VariantPuzzle) -> tuple[Conflict, ...]:
    """Empty cells whose units and cage already hold every value."""
    n, values = puzzle.size, puzzle.givens
    peers: list[set[Cell]] = [set() for _ in range(n * n)]
    for _, cells, _ in _groups(puzzle):
        for c in cells:
            peers[c].update(cells)
    dead = []
    for c in range(n * n):
        if not values[c] and len({values[p] for p in peers[c]} - {0}) == n:
            text = f"{cell_name(c, n)} has no value left (its units and cage hold them all)"
            dead.append(Conflict((c,), 0, -1, text))
    return tuple(dead)
