"""The grid model: a frozen Grid of any supported size, written as a line or on paper."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .geometry import Cell, Shape, cell_name, shape_for_size

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"  # value v is written SYMBOLS[v - 1]; 16×16 uses 1-9, A-G
EMPTY = "."


def symbol(value: int) -> str:
    """How one value is written in a compact line ('.' for empty)."""
    return SYMBOLS[value - 1] if value else EMPTY


def value_word(value: int, symbols: Sequence[str] | None = None) -> str:
    """A value (1..size) named to a person as the grid prints it: every message, error and
    hint that names a value says it through here.

    ``symbols``: the grid's own symbols where it has them (a typed puzzle's ``"symbols"``,
    ``symbols[v - 1]`` writes value v: letters stay letters); None for a grid that prints
    numbers (a photo's grid, a board as ``Grid.pretty`` prints it): 12, never the line
    form's C.
    """
    if symbols is None:
        return str(value)
    if not 1 <= value <= len(symbols):
        raise ValueError(f"value must be 1-{len(symbols)}, got {value}")
    return symbols[value - 1]


@dataclass(frozen=True)
class Grid:
    """A size×size Sudoku: values row by row, 0 for an empty cell."""

    shape: Shape
    values: tuple[int, ...]

    def __post_init__(self) -> None:
        n = self.shape.size
        if len(self.values) != n * n:
            raise ValueError(f"values must hold {n * n} cells for {n}×{n}; got {len(self.values)}")
        for cell, v in enumerate(self.values):
            if not 0 <= v <= n:
                raise ValueError(f"values[{cell}] = {v} is outside 0-{n}")

    @classmethod
    def from_values(cls, values: Sequence[int], size: int | None = None) -> Grid:
        """A Grid from a flat list of values (0 empty); the size follows from the length."""
        n = size if size is not None else _side_of(len(values))
        return cls(shape_for_size(n), tuple(int(v) for v in values))

    @classmethod
    def parse(cls, text: str, size: int | None = None) -> Grid:
        """Read one puzzle in any accepted text format (see solver.parse)."""
        from .parse import parse_grid

        return parse_grid(text, size)

    @property
    def size(self) -> int:
        """Number of rows (= columns = values)."""
        return self.shape.size

    @property
    def empty_cells(self) -> tuple[Cell, ...]:
        """Cells without a value."""
        return tuple(c for c, v in enumerate(self.values) if not v)

    @property
    def is_complete(self) -> bool:
        """True when every cell holds a value (right or wrong)."""
        return 0 not in self.values

    def rows(self) -> list[tuple[int, ...]]:
        """The values row by row."""
        n = self.size
        return [self.values[r * n : (r + 1) * n] for r in range(n)]

    def cell_name(self, cell: Cell) -> str:
        """The r1c1-style name of a cell."""
        return cell_name(cell, self.size)

    def with_value(self, cell: Cell, value: int) -> Grid:
        """A copy with one cell set (0 clears it)."""
        values = list(self.values)
        values[cell] = value
        return Grid(self.shape, tuple(values))

    def to_string(self) -> str:
        """One compact line: 1-9 then A.. for values, '.' for empty."""
        return "".join(symbol(v) for v in self.values)

    def to_numbers(self) -> str:
        """Rows of space-separated numbers, 0 for empty (the sudoku.inp style)."""
        return "\n".join(" ".join(str(v) for v in row) for row in self.rows())

    def pretty(self) -> str:
        """The grid as a person writes it on paper, with box separators."""
        n, bc = self.size, self.shape.box_cols
        width = len(str(n)) if n > 9 else 1  # past 9, numbers as people write them
        cells = [(str(v) if n > 9 and v else symbol(v)).rjust(width) for v in self.values]
        rule = "+" + "+".join("-" * ((width + 1) * bc + 1) for _ in range(n // bc)) + "+"
        lines = [rule]
        for r in range(n):
            row = cells[r * n : (r + 1) * n]
            boxes = (" ".join(row[b : b + bc]) for b in range(0, n, bc))
            lines.append("| " + " | ".join(boxes) + " |")
            if (r + 1) % self.shape.box_rows == 0:
                lines.append(rule)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_string()


def _side_of(ncells: int) -> int:
    """The side length of a grid with this many cells, or ValueError."""
    n = round(ncells**0.5)
    if n * n != ncells:
        raise ValueError(f"values must hold n×n cells; got {ncells}")
    return n


Puzzle = Grid | str | Sequence[int]  # what the solving functions accept


def as_grid(puzzle: Puzzle, size: int | None = None) -> Grid:
    """A Grid from a Grid, a text, or a flat list of values (0 empty)."""
    if isinstance(puzzle, Grid):
        return puzzle
    if isinstance(puzzle, str):
        return Grid.parse(puzzle, size)
    if isinstance(puzzle, (list, tuple)):
        return Grid.from_values(puzzle, size)
    raise TypeError(f"puzzle must be a Grid, str or sequence of ints; got {type(puzzle).__name__}")
