"""The geometry of an n×n Sudoku: cells, units (rows, columns, boxes) and peers."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

Cell = int  # index r * size + c, 0-based
Unit = tuple[Cell, ...]

BOX_SHAPES: dict[int, tuple[int, int]] = {
    4: (2, 2),
    6: (2, 3),
    8: (2, 4),
    9: (3, 3),
    12: (3, 4),
    16: (4, 4),
    25: (5, 5),
}


@dataclass(frozen=True)
class Shape:
    """A grid of size×size cells cut into boxes of box_rows×box_cols."""

    box_rows: int
    box_cols: int
    units: tuple[Unit, ...] = field(init=False, repr=False, compare=False)
    peers: tuple[frozenset[Cell], ...] = field(init=False, repr=False, compare=False)
    units_of: tuple[tuple[int, int, int], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = self.size
        rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
        cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
        boxes = [
            tuple(
                (br + i) * n + (bc + j) for i in range(self.box_rows) for j in range(self.box_cols)
            )
            for br in range(0, n, self.box_rows)
            for bc in range(0, n, self.box_cols)
        ]
        units = tuple(rows + cols + boxes)
        units_of = tuple((self.row(c), n + self.col(c), 2 * n + self.box(c)) for c in range(n * n))
        peers = tuple(
            frozenset(p for u in units_of[c] for p in units[u]) - {c} for c in range(n * n)
        )
        object.__setattr__(self, "units", units)
        object.__setattr__(self, "units_of", units_of)
        object.__setattr__(self, "peers", peers)

    @property
    def size(self) -> int:
        """Number of rows (= columns = values)."""
        return self.box_rows * self.box_cols

    @property
    def ncells(self) -> int:
        """Number of cells."""
        return self.size * self.size

    def row(self, cell: Cell) -> int:
        """0-based row of a cell."""
        return cell // self.size

    def col(self, cell: Cell) -> int:
        """0-based column of a cell."""
        return cell % self.size

    def box(self, cell: Cell) -> int:
        """0-based box number of a cell, boxes counted left to right, top to bottom."""
        boxes_across = self.size // self.box_cols
        return (self.row(cell) // self.box_rows) * boxes_across + self.col(cell) // self.box_cols

    def unit_name(self, unit: int) -> str:
        """A person's name for a unit index: 'row 3', 'column 5', 'box 2' (1-based)."""
        kind, i = divmod(unit, self.size)
        return f"{('row', 'column', 'box')[kind]} {i + 1}"


def cell_name(cell: Cell, size: int = 9) -> str:
    """The r1c1-style name of a cell (1-based)."""
    return f"r{cell // size + 1}c{cell % size + 1}"


@cache
def shape_for_size(size: int) -> Shape:
    """The standard Shape for a grid of the given side length."""
    if size not in BOX_SHAPES:
        known = ", ".join(f"{n}×{n}" for n in BOX_SHAPES)
        raise ValueError(f"size must be one of {known}; got {size}×{size}")
    return Shape(*BOX_SHAPES[size])
