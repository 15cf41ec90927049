"""Typed Sudoku variants: Sudoku X (both diagonals), jigsaw regions and Killer cages.

A `VariantPuzzle` is a size×size puzzle whose constraints go beyond rows, columns and
boxes: `regions` (size×size labels, jigsaw) replace the boxes, `diagonals` adds both main
diagonals as units, and each `Cage` holds different values adding up to its `total`.
Building one checks it (`VariantError` names the cage, region or cell at fault), so a
search never starts on a puzzle that cannot be right.
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, lru_cache
from itertools import combinations

from .errors import PuzzleError
from .geometry import BOX_SHAPES, Cell, cell_name, shape_for_size
from .grid import SYMBOLS

_CELL = re.compile(r"^r([0-9]{1,6})c([0-9]{1,6})$", re.IGNORECASE)
Values = tuple[int, ...]  # row by row, 0 for an empty cell


class VariantError(PuzzleError, ValueError):
    """A variant puzzle that breaks its own rules; the message names the cage, region or cell."""


class Variant(StrEnum):
    """The kind of puzzle, as the JSON contract spells it."""

    CLASSIC = "classic"
    X = "x"  # both main diagonals hold every value once
    JIGSAW = "jigsaw"  # irregular regions instead of boxes
    KILLER = "killer"  # cages: different values adding up to the cage's sum


@dataclass(frozen=True)
class Cage:
    """A Killer cage: its cells hold different values adding up to `total`."""

    total: int
    cells: tuple[Cell, ...]

    def name(self, size: int) -> str:
        """A person's name for the cage: 'the 2-cell cage of 3 at r1c1,r1c2'."""
        where = ",".join(cell_name(c, size) for c in self.cells)
        return f"the {len(self.cells)}-cell cage of {self.total} at {where}"


@dataclass(frozen=True)
class VariantPuzzle:
    """A typed puzzle with its variant constraints, checked when built.

    givens: size² values row by row (0 empty). regions: size² region numbers (0-based),
    or () for the standard boxes. symbols: how values 1..size are written.
    """

    size: int
    givens: Values
    variant: Variant = Variant.CLASSIC
    regions: tuple[int, ...] = ()
    diagonals: bool = False
    cages: tuple[Cage, ...] = ()
    symbols: str = ""
    units: tuple[tuple[Cell, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.size not in BOX_SHAPES:
            known = ", ".join(map(str, BOX_SHAPES))
            raise VariantError(f"size must be one of {known}; got {self.size}")
        if not self.symbols:
            object.__setattr__(self, "symbols", SYMBOLS[: self.size])
        check_puzzle(self)
        object.__setattr__(self, "units", all_units(self.size, self.regions, self.diagonals))

    @property
    def ncells(self) -> int:
        """Number of cells."""
        return self.size * self.size

    def cell_name(self, cell: Cell) -> str:
        """The r1c1-style name of a cell."""
        return cell_name(cell, self.size)

    def write(self, values: Sequence[int]) -> str:
        """Values as one line in this puzzle's symbols ('.' for empty)."""
        return "".join(self.symbols[v - 1] if v else "." for v in values)

    def unit_name(self, unit: int) -> str:
        """A person's name for a unit of `units`: 'row 3', 'region 2', 'the main diagonal'."""
        return unit_name(self.size, unit, bool(self.regions))

    def broken_by(self, values: Sequence[int]) -> str | None:
        """Why a complete grid breaks a rule (a unit or a cage), or None when it keeps them all."""
        if len(values) != self.ncells or not all(1 <= v <= self.size for v in values):
            return "the grid is not complete"
        for u, unit in enumerate(self.units):
            if len({values[c] for c in unit}) != self.size:
                return f"{self.unit_name(u)} repeats a value"
        for cage in self.cages:
            held = [values[c] for c in cage.cells]
            if len(set(held)) != len(held) or sum(held) != cage.total:
                return f"{cage.name(self.size)} holds {'+'.join(map(str, held))}"
        return None

    def is_solution(self, values: Sequence[int]) -> bool:
        """The oracle: a complete grid that keeps every rule and every given."""
        keeps = all(g in (0, v) for g, v in zip(self.givens, values, strict=False))
        return keeps and self.broken_by(values) is None


def unit_name(size: int, unit: int, jigsaw: bool) -> str:
    """A person's name for unit index `unit` of all_units (rows, columns, boxes, diagonals)."""
    kind, i = divmod(unit, size)
    if kind < 3:
        word = ("row", "column", "region" if jigsaw else "box")[kind]
        return f"{word} {i + 1}"
    return "the main diagonal" if i == 0 else "the anti-diagonal"


@lru_cache(maxsize=256)
def all_units(size: int, regions: tuple[int, ...], diagonals: bool) -> tuple[tuple[Cell, ...], ...]:
    """Rows, columns, then boxes (or the regions), then the two diagonals when asked."""
    shape = shape_for_size(size)
    units = list(shape.units[: 2 * size])
    if regions:
        units += [tuple(c for c, r in enumerate(regions) if r == k) for k in range(size)]
    else:
        units += shape.units[2 * size :]
    if diagonals:
        units.append(tuple(i * size + i for i in range(size)))
        units.append(tuple(i * size + size - 1 - i for i in range(size)))
    return tuple(units)


@cache
def cage_combinations(total: int, count: int, size: int) -> tuple[frozenset[int], ...]:
    """Every set of `count` different values 1..size adding up to `total`."""
    return tuple(
        frozenset(combo) for combo in combinations(range(1, size + 1), count) if sum(combo) == total
    )


def shown(value: object) -> str:
    """A value as an error message shows it: short, however long or deep it is."""
    return _SHORT.repr(value)


def _short_repr() -> reprlib.Repr:
    """The repr of error messages: two levels deep, strings and numbers clipped."""
    short = reprlib.Repr()
    short.maxlevel, short.maxstring, short.maxlong, short.maxlist, short.maxdict = 2, 40, 24, 4, 4
    return short


_SHORT = _short_repr()


def parse_cell(name: str, size: int) -> Cell:
    """The cell named 'r1c1' (1-based row and column), or VariantError."""
    m = _CELL.match(name.strip()) if isinstance(name, str) else None
    if m is None:
        raise VariantError(f"bad cell name {shown(name)}: write cells as r1c1 (row 1, column 1)")
    r, c = int(m[1]), int(m[2])
    if not (1 <= r <= size and 1 <= c <= size):
        raise VariantError(f"cell {name} is outside the {size}×{size} grid")
    return (r - 1) * size + (c - 1)


def check_puzzle(p: VariantPuzzle) -> None:
    """Raise VariantError naming the first thing wrong with a puzzle."""
    n = p.size
    if len(p.givens) != n * n:
        raise VariantError(f"givens must hold {n * n} cells for {n}×{n}; got {len(p.givens)}")
    _check_symbols(p.symbols, n)
    for c, v in enumerate(p.givens):
        if not 0 <= v <= n:
            raise VariantError(f"{cell_name(c, n)}: value {v} is outside 1-{n}")
    if p.regions:
        check_regions(p.regions, n)
    _check_kind(p)
    check_cages(p.cages, n)
    _check_cage_givens(p)


def _check_symbols(symbols: str, n: int) -> None:
    """The symbols: exactly `n` different characters, none of them '.'."""
    if len(symbols) != n or len(set(symbols)) != n or "." in symbols:
        raise VariantError(
            f"symbols must be {n} different characters (not '.') for {n}×{n}; got {shown(symbols)}"
        )


def _check_kind(p: VariantPuzzle) -> None:
    """The variant agrees with the constraints given."""
    if p.variant is Variant.JIGSAW and not p.regions:
        raise VariantError("a jigsaw puzzle needs its regions")
    if p.variant is Variant.KILLER and not p.cages:
        raise VariantError("a killer puzzle needs its cages")
    if p.variant is Variant.X and not p.diagonals:
        raise VariantError('a Sudoku X has "diagonals": true')
    if p.cages and p.variant is not Variant.KILLER:
        raise VariantError(f'cages are given but the variant is "{p.variant}", not "killer"')


def check_regions(regions: tuple[int, ...], n: int) -> None:
    """n regions of n cells each, each one piece (cells joined side to side)."""
    if len(regions) != n * n:
        raise VariantError(f"regions must label {n * n} cells for {n}×{n}; got {len(regions)}")
    for k in range(n):
        cells = [c for c, r in enumerate(regions) if r == k]
        if len(cells) != n:
            where = f" ({', '.join(cell_name(c, n) for c in cells)})" if cells else ""
            raise VariantError(f"region {k + 1} has {len(cells)} cells{where}; each needs {n}")
        if not joined(cells, n):
            raise VariantError(
                f"region {k + 1} is not one piece: its cells starting at "
                f"{cell_name(cells[0], n)} are not all joined side to side"
            )


def joined(cells: Sequence[Cell], n: int) -> bool:
    """True when the cells form one piece, neighbours sharing a side."""
    inside, seen, todo = set(cells), {cells[0]}, [cells[0]]
    while todo:
        for m in neighbours(todo.pop(), n):
            if m in inside and m not in seen:
                seen.add(m)
                todo.append(m)
    return len(seen) == len(inside)


def neighbours(c: Cell, n: int) -> Iterator[Cell]:
    """The cells sharing a side with c."""
    r, k = divmod(c, n)
    if r:
        yield c - n
    if r < n - 1:
        yield c + n
    if k:
        yield c - 1
    if k < n - 1:
        yield c + 1


def check_cages(cages: tuple[Cage, ...], n: int) -> None:
    """Each cage reachable and one piece, no cell in two cages, sums right over a full grid."""
    owner: dict[Cell, Cage] = {}
    for cage in cages:
        _check_cage(cage, n)
        for c in cage.cells:
            if c in owner:
                raise VariantError(
                    f"{cell_name(c, n)} is in two cages: {owner[c].name(n)} and {cage.name(n)}"
                )
            owner[c] = cage
    whole = n * n * (n + 1) // 2
    total = sum(cage.total for cage in cages)
    if len(owner) == n * n and total != whole:
        raise VariantError(
            f"the cage sums add up to {total}, but a full {n}×{n} grid adds up to {whole}"
        )
    if total > whole:
        raise VariantError(f"the cage sums add up to {total}, more than the whole grid ({whole})")


def _check_cage(cage: Cage, n: int) -> None:
    """One cage: 1..n different cells, a sum that different values can reach, one piece."""
    k = len(cage.cells)
    if not 1 <= k <= n:
        raise VariantError(f"a cage of {cage.total} has {k} cells; a cage holds 1 to {n}")
    if len(set(cage.cells)) != k:
        raise VariantError(f"{cage.name(n)} names a cell twice")
    low, high = k * (k + 1) // 2, k * (2 * n - k + 1) // 2
    if not low <= cage.total <= high:
        raise VariantError(
            f"{cage.name(n)} cannot be reached: {k} different values make {low} to {high}"
        )
    if not joined(cage.cells, n):
        raise VariantError(f"{cage.name(n)} is not one piece: its cells must join side to side")


def _check_cage_givens(p: VariantPuzzle) -> None:
    """The givens inside each cage still leave a way to reach its sum."""
    for cage in p.cages:
        held = {p.givens[c] for c in cage.cells} - {0}
        combos = cage_combinations(cage.total, len(cage.cells), p.size)
        if not any(held <= combo for combo in combos):
            given = ", ".join(
                f"{cell_name(c, p.size)}={p.givens[c]}" for c in cage.cells if p.givens[c]
            )
            raise VariantError(f"{cage.name(p.size)} cannot reach its sum with {given}")
