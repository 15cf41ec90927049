"""Checking grids against the rules: conflicting givens, dead cells, complete grids."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .geometry import Cell, cell_name
from .grid import Grid, Puzzle, as_grid, value_word


@dataclass(frozen=True)
class Conflict:
    """Why givens cannot be completed: two cells holding one value, or a cell with no option.

    cells: the two cells in conflict (a duplicate), or the one cell left without a candidate.
    value: the value held twice, 0 for a cell without a candidate.
    unit: index of the unit (row, column, box) where the duplicate sits; -1 for a dead cell.
    text: a person's sentence, e.g. "r1c3 and r1c7 both hold 5" (values as the grid prints
    them: ``value_word``, "both hold 12" on a 16×16).
    """

    cells: tuple[Cell, ...]
    value: int
    unit: int
    text: str

    @property
    def is_duplicate(self) -> bool:
        """True for two givens holding the same value in one unit."""
        return self.value != 0

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class UnitFailure:
    """A row, column or box of a filled grid that does not hold each value once."""

    unit: int
    name: str
    missing: tuple[int, ...]
    repeated: tuple[int, ...]

    def __str__(self) -> str:
        parts = []
        if self.repeated:
            parts.append("repeats " + ", ".join(map(value_word, self.repeated)))
        if self.missing:
            parts.append("lacks " + ", ".join(map(value_word, self.missing)))
        return f"{self.name} " + " and ".join(parts)


def find_conflicts(puzzle: Puzzle, symbols: Sequence[str] | None = None) -> tuple[Conflict, ...]:
    """Every pair of cells sharing a unit and a value, each pair named once (the value as
    the grid prints it: ``symbols``, or numbers; ``value_word``)."""
    grid = as_grid(puzzle)
    n, values = grid.size, grid.values
    seen_pairs: set[tuple[Cell, Cell]] = set()
    conflicts = []
    for u, unit in enumerate(grid.shape.units):
        first: dict[int, Cell] = {}
        for c in unit:
            v = values[c]
            if not v:
                continue
            if v not in first:
                first[v] = c
                continue
            pair = (first[v], c)
            if pair not in seen_pairs:
                seen_pairs.add(pair)
                held = value_word(v, symbols)
                text = f"{cell_name(pair[0], n)} and {cell_name(c, n)} both hold {held}"
                conflicts.append(Conflict(pair, v, u, text))
    return tuple(sorted(conflicts, key=lambda k: k.cells))


def find_dead_cells(puzzle: Puzzle) -> tuple[Conflict, ...]:
    """Empty cells whose row, column and box already hold every value."""
    grid = as_grid(puzzle)
    n, values = grid.size, grid.values
    dead = []
    for c in grid.empty_cells:
        used = {values[p] for p in grid.shape.peers[c]}
        if len(used - {0}) == n:
            text = f"{cell_name(c, n)} has no candidate left (row, column and box hold them all)"
            dead.append(Conflict((c,), 0, -1, text))
    return tuple(dead)


def check_complete(puzzle: Puzzle) -> tuple[UnitFailure, ...]:
    """The units of a filled grid that fail; empty when the grid is a valid solution."""
    grid = as_grid(puzzle)
    n, values = grid.size, grid.values
    failures = []
    for u, unit in enumerate(grid.shape.units):
        held = [values[c] for c in unit]
        missing = tuple(v for v in range(1, n + 1) if v not in held)
        repeated = tuple(sorted({v for v in held if v and held.count(v) > 1}))
        if missing or repeated:
            failures.append(UnitFailure(u, grid.shape.unit_name(u), missing, repeated))
    return tuple(failures)


def is_solution(solution: Grid | str, puzzle: Grid | str) -> bool:
    """The oracle: solution is a complete valid grid that keeps every given of puzzle."""
    puzzle_grid = puzzle if isinstance(puzzle, Grid) else Grid.parse(puzzle)
    sol = solution if isinstance(solution, Grid) else Grid.parse(solution, puzzle_grid.size)
    if sol.shape != puzzle_grid.shape or not sol.is_complete or check_complete(sol):
        return False
    return all(g in (0, s) for g, s in zip(puzzle_grid.values, sol.values, strict=True))
