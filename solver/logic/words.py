"""Shared wording for explanations: lists of cells and values, what a step removes."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..geometry import Cell, cell_name


def join(items: Sequence[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def cells_text(cells: Iterable[Cell], size: int) -> str:
    """Cell names joined for reading."""
    return join([cell_name(c, size) for c in cells])


def values_text(values: Iterable[int], last: str = "and") -> str:
    """Values joined for reading."""
    return join([str(v) for v in values], last)


def removal_text(eliminations: Sequence[tuple[Cell, int]], size: int) -> str:
    """'7 from r1c2 and r1c5; 3 from r4c4', grouped by value."""
    by_value: dict[int, list[Cell]] = {}
    for c, v in eliminations:
        by_value.setdefault(v, []).append(c)
    parts = [f"{v} from {cells_text(sorted(cs), size)}" for v, cs in sorted(by_value.items())]
    return "; ".join(parts)
