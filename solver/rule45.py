"""The 45 rule of Killer Sudoku: sums the cages imply for the cells around a house.

Every house (a row, column, box or region, or a run of neighbouring rows or columns) adds
up to 45 on 9×9 (n(n+1)/2 in general) per unit. So:

- innies: the cells of a house outside the cages that lie wholly inside it add up to the
  house's total less those cages' sums;
- outies: when the cages touching a house cover it, their cells outside it add up to
  those cages' sums less the house's total.

A few cells with a known sum are a constraint a solver (and a person) can use like a cage.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .geometry import Cell, cell_name
from .variant import Cage


@dataclass(frozen=True)
class HouseSum:
    """Cells whose values add up to `total`, found by the 45 rule on a house."""

    total: int
    cells: tuple[Cell, ...]
    house: str  # 'row 3', 'rows 1-2', 'box 5'
    outies: bool  # False: innies (inside the house), True: outies (outside it)

    def describe(self, size: int) -> str:
        """One sentence: 'the 45 rule on row 1: its innies r1c5,r1c6 add up to 7' (one
        cell: 'its innie r1c5 is 7')."""
        where = ",".join(cell_name(c, size) for c in self.cells)
        kind = "outie" if self.outies else "innie"
        if len(self.cells) == 1:
            return f"the 45 rule on {self.house}: its {kind} {where} is {self.total}"
        return f"the 45 rule on {self.house}: its {kind}s {where} add up to {self.total}"


@dataclass(frozen=True)
class Rule45Config:
    """How far the 45 rule looks."""

    max_cells: int = 6  # innie and outie groups kept up to this size (measured: 4 slower)
    max_lines: int = 3  # runs of up to this many neighbouring rows or columns


def houses(
    size: int, units: tuple[tuple[Cell, ...], ...], cfg: Rule45Config
) -> Iterator[tuple[str, frozenset[Cell], int]]:
    """Each house as (name, cells, how many units it spans): units, then runs of lines."""
    for u in range(3 * size):
        kind, i = divmod(u, size)
        yield f"{('row', 'column', 'box')[kind]} {i + 1}", frozenset(units[u]), 1
    for kind, word in ((0, "rows"), (1, "columns")):
        for span in range(2, cfg.max_lines + 1):
            for first in range(size - span + 1):
                lines = range(kind * size + first, kind * size + first + span)
                cells = frozenset(c for u in lines for c in units[u])
                yield f"{word} {first + 1}-{first + span}", cells, span


def house_sums(
    size: int,
    units: tuple[tuple[Cell, ...], ...],
    cages: tuple[Cage, ...],
    jigsaw: bool = False,
    config: Rule45Config | None = None,
) -> tuple[HouseSum, ...]:
    """Every innie and outie group of up to max_cells cells, each group once, no cage again."""
    cfg = config or Rule45Config()
    whole = size * (size + 1) // 2
    seen = {frozenset(k.cells) for k in cages}
    found: list[HouseSum] = []
    for name, cells, span in houses(size, units, cfg):
        if jigsaw and name.startswith("box"):
            name = "region" + name[3:]
        total = whole * span
        inside = [k for k in cages if cells.issuperset(k.cells)]
        touching = [k for k in cages if not cells.isdisjoint(k.cells)]
        innies = cells.difference(*(k.cells for k in inside))
        covered = frozenset().union(*(k.cells for k in touching))
        groups = [(innies, total - sum(k.total for k in inside), False)]
        if covered >= cells:
            groups.append((covered - cells, sum(k.total for k in touching) - total, True))
        for group, group_total, outies in groups:
            if 0 < len(group) <= cfg.max_cells and group not in seen:
                seen.add(group)
                found.append(HouseSum(group_total, tuple(sorted(group)), name, outies))
    return tuple(found)
