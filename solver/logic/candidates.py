"""Pencil marks as bitmasks: which values each cell can still take, with fast elimination.

Value v is bit v-1 of a cell's mask. A placed cell keeps the single bit of its value
and has a nonzero entry in `values`; an open cell has value 0.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from ..geometry import Cell, Shape, cell_name
from ..grid import symbol, value_word

if TYPE_CHECKING:
    from .step import Step

Mask = int


@cache
def _bit_values(size: int) -> tuple[tuple[int, ...], ...]:
    """For every mask of `size` bits, the values it holds (1-based, ascending)."""
    return tuple(tuple(v + 1 for v in range(size) if m >> v & 1) for m in range(1 << size))


def values_of(mask: Mask) -> tuple[int, ...]:
    """The values (1-based) whose bits are set in a mask."""
    if mask < 1 << 16:
        return _bit_values(16)[mask]
    return tuple(v + 1 for v in range(mask.bit_length()) if mask >> v & 1)


def bit(value: int) -> Mask:
    """The mask bit of a value."""
    return 1 << (value - 1)


@dataclass(frozen=True)
class Layout:
    """What the techniques precompute for one shape, as tuples for fast indexing."""

    shape: Shape
    size: int
    full: Mask
    units: tuple[tuple[Cell, ...], ...]
    peers: tuple[tuple[Cell, ...], ...]
    peer_sets: tuple[frozenset[Cell], ...]
    units_of: tuple[tuple[int, int, int], ...]
    # (box, line, cells in both) for every box and every row or column crossing it
    intersections: tuple[tuple[int, int, tuple[Cell, ...]], ...]

    def name(self, cell: Cell) -> str:
        """The r1c1-style name of a cell."""
        return cell_name(cell, self.size)

    def unit_name(self, unit: int) -> str:
        """'row 3', 'column 5' or 'box 2'."""
        return self.shape.unit_name(unit)


@cache
def layout_for(shape: Shape) -> Layout:
    """The Layout of a shape (computed once)."""
    n = shape.size
    inter = []
    for b in range(n):
        box = set(shape.units[2 * n + b])
        for line in range(2 * n):
            common = tuple(c for c in shape.units[line] if c in box)
            if common:
                inter.append((2 * n + b, line, common))
    return Layout(
        shape=shape,
        size=n,
        full=(1 << n) - 1,
        units=shape.units,
        peers=tuple(tuple(sorted(p)) for p in shape.peers),
        peer_sets=shape.peers,
        units_of=shape.units_of,
        intersections=tuple(inter),
    )


class Candidates:
    """The values each cell can still take; placements and eliminations change it in place."""

    __slots__ = ("layout", "masks", "values")

    def __init__(self, layout: Layout, values: list[int], masks: list[Mask]) -> None:
        self.layout = layout
        self.values = values
        self.masks = masks

    @classmethod
    def from_values(cls, shape: Shape, values: Sequence[int]) -> Candidates:
        """Pencil marks for a grid: every value not yet seen by a cell's peers."""
        lay = layout_for(shape)
        if len(values) != shape.ncells:
            raise ValueError(f"values must hold {shape.ncells} cells; got {len(values)}")
        vals = [int(v) for v in values]
        masks = [0 if v else lay.full for v in vals]
        for c, v in enumerate(vals):
            if v:
                masks[c] = bit(v)
        for c, v in enumerate(vals):
            if v:
                b = ~bit(v)
                for p in lay.peers[c]:
                    if not vals[p]:
                        masks[p] &= b
        return cls(lay, vals, masks)

    @property
    def shape(self) -> Shape:
        """The grid's shape."""
        return self.layout.shape

    @property
    def size(self) -> int:
        """Side length of the grid."""
        return self.layout.size

    def copy(self) -> Candidates:
        """An independent copy."""
        return Candidates(self.layout, self.values[:], self.masks[:])

    def candidates(self, cell: Cell) -> tuple[int, ...]:
        """The values an open cell can still take (its value, if placed)."""
        return values_of(self.masks[cell])

    def has(self, cell: Cell, value: int) -> bool:
        """True if an open cell can still take the value."""
        return not self.values[cell] and bool(self.masks[cell] >> (value - 1) & 1)

    def open_cells(self) -> Iterator[Cell]:
        """Cells without a value, in order."""
        return (c for c, v in enumerate(self.values) if not v)

    def place(self, cell: Cell, value: int) -> None:
        """Write a value into a cell and strike it from the cell's peers."""
        b = bit(value)
        self.values[cell] = value
        self.masks[cell] = b
        masks, values = self.masks, self.values
        for p in self.layout.peers[cell]:
            if not values[p]:
                masks[p] &= ~b

    def eliminate(self, cell: Cell, value: int) -> None:
        """Strike one candidate from an open cell."""
        if not self.values[cell]:
            self.masks[cell] &= ~bit(value)

    def apply(self, step: Step) -> None:
        """Apply a step's eliminations, then its placements."""
        for cell, value in step.eliminations:
            self.eliminate(cell, value)
        for cell, value in step.placements:
            self.place(cell, value)

    def is_solved(self) -> bool:
        """True when every cell holds a value."""
        return 0 not in self.values

    def positions(self, unit: int, value: int) -> list[Cell]:
        """Open cells of a unit that can still take the value."""
        b = bit(value)
        masks, values = self.masks, self.values
        return [c for c in self.layout.units[unit] if not values[c] and masks[c] & b]

    def contradiction(self) -> str | None:
        """A sentence naming why no solution can follow from here, or None."""
        lay = self.layout
        for c, v in enumerate(self.values):
            if not v and not self.masks[c]:
                return f"{lay.name(c)} has no candidate left"
        for u, unit in enumerate(lay.units):
            seen = 0
            for c in unit:
                v = self.values[c]
                if v:
                    if seen & bit(v):
                        return f"{value_word(v)} appears twice in {lay.unit_name(u)}"
                    seen |= bit(v)
            possible = 0
            for c in unit:
                possible |= self.masks[c]
            missing = lay.full & ~possible
            if missing:
                return f"{values_of(missing)[0]} has no place left in {lay.unit_name(u)}"
        return None

    def to_string(self) -> str:
        """The placed values as one compact line ('.' for empty)."""
        return "".join(symbol(v) for v in self.values)
