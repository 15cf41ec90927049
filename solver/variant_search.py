"""The search for variant puzzles: the engine's singles over any units, and Killer cages.

The engine (engine.py) works on units and peers it is given, so a jigsaw's regions and an
X's diagonals are just more units: their cells become peers, and hidden singles look at
them like rows. A cage is not a unit (it need not hold every value), but its cells are
peers (no value twice), and each settle round prunes it by its sum: of the sets of
different values that add up to the cage's total (made once per cage, as candidate masks
in the engine's layout), it keeps those each cell can still meet and that the cells can
cover; a cell keeps only the values of those sets, and a value every such set needs that
one cell alone can hold is placed there. Classic puzzles never come here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from operator import itemgetter
from typing import Any

from .clock import Clock
from .engine import (
    DEFAULT_ENGINE_CONFIG,
    State,
    Tables,
    branch_search,
    candidate_bit,
    decode,
    hidden_singles,
    initial_state,
    propagate,
    segments_of,
    tables_for,
    tuple_getter,
    unit_segments_of,
)
from .geometry import Cell, shape_for_size
from .rule45 import house_sums
from .variant import Cage, all_units, cage_combinations

Mask = int


@dataclass(frozen=True)
class CageTable:
    """One cage as the search uses it: its cells and its value sets as candidate masks."""

    cells: tuple[Cell, ...]
    get: Callable[[State], tuple[Mask, ...]]
    combos: tuple[Mask, ...]


@dataclass(frozen=True)
class SumTable:
    """Cells (not all peers) whose values add up to `total`: pruned by bounds."""

    cells: tuple[Cell, ...]
    get: Callable[[State], tuple[Mask, ...]]
    total: int


@dataclass(frozen=True)
class VariantTables:
    """The engine tables with the variant's units and peers, the cages (and the groups of
    different cells the 45 rule gives), and the 45 rule's other sums."""

    t: Tables
    cages: tuple[CageTable, ...]
    sums: tuple[SumTable, ...] = ()
    upto: tuple[Mask, ...] = ()  # by value v: the candidate bits of values 1..v


@lru_cache(maxsize=64)  # one per layout seen lately (a long-running app sees many)
def variant_tables(
    size: int, regions: tuple[int, ...], diagonals: bool, cages: tuple[Cage, ...]
) -> VariantTables:
    """The tables of one variant layout (computed once per layout)."""
    base = tables_for(shape_for_size(size))
    units = all_units(size, regions, diagonals)
    units_of: list[list[int]] = [[] for _ in range(size * size)]
    for u, unit in enumerate(units):
        for c in unit:
            units_of[c].append(u)
    peers: list[set[Cell]] = [set() for _ in range(size * size)]
    for group in (*units, *(cage.cells for cage in cages)):
        for c in group:
            peers[c].update(group)
    t = replace(
        base,
        peers=tuple(tuple(sorted(p - {c})) for c, p in enumerate(peers)),
        units=units,
        units_of=tuple(map(tuple, units_of)),
        unit_getters=tuple((u, itemgetter(*u)) for u in units),
        probes=0,
        **_segment_fields(size, units, bool(regions)),
    )
    tables = [_cage_table(cage.total, cage.cells, t) for cage in cages]
    sums = []
    for found in house_sums(size, units, cages, bool(regions)) if cages else ():
        if all(a in peers[b] for a in found.cells for b in found.cells if a != b):
            tables.append(_cage_table(found.total, found.cells, t))
        else:
            sums.append(SumTable(found.cells, tuple_getter(found.cells), found.total))
    upto = tuple(sum(candidate_bit(v, t) for v in range(1, k + 1)) for k in range(size + 1))
    return VariantTables(t, tuple(tables), tuple(sums), upto)


def _segment_fields(size: int, units: tuple[tuple[Cell, ...], ...], jigsaw: bool) -> dict[str, Any]:
    """The box-line tables for a jigsaw's regions (region-line reductions at each node, as
    DEFAULT_ENGINE_CONFIG.jigsaw_locked says); boxes keep the engine's own."""
    if not jigsaw:
        return {}
    segments = segments_of(size, units)
    unit_segments = unit_segments_of(size, segments)
    return {
        "segments": segments,
        "unit_segments": unit_segments,
        "segment_getters": tuple(s.get for s in segments),
        "segment_places": tuple((s.line, s.box, s.line_rest, s.box_rest) for s in segments),
        "unit_segment_getters": tuple(tuple_getter(u) for u in unit_segments),
        "locked": DEFAULT_ENGINE_CONFIG.jigsaw_locked,
    }


def _cage_table(total: int, cells: tuple[Cell, ...], t: Tables) -> CageTable:
    """Different values in these cells adding up to total, as candidate masks."""
    combos = cage_combinations(total, len(cells), t.size)
    masks = tuple(sum(candidate_bit(v, t) for v in combo) for combo in combos)
    return CageTable(cells, tuple_getter(cells), masks)


def prune_cages(cand: State, vt: VariantTables) -> int:
    """Cut each cage's cells down to the values its possible sets allow; -1 if stuck.

    Returns how many cells changed. A changed cell left with one value is placed and
    propagated before the next cage.
    """
    t = vt.t
    changed = 0
    for cage in vt.cages:
        status = _prune_cage(cand, cage, t)
        if status < 0:
            return -1
        changed += status
    for group in vt.sums:
        status = _prune_sum(cand, group, vt)
        if status < 0:
            return -1
        changed += status
    return changed


def _prune_sum(cand: State, group: SumTable, vt: VariantTables) -> int:
    """Keep each open cell of a sum group within what the others' least and most allow."""
    t, upto = vt.t, vt.upto
    flag, width, high = t.flag, t.flag + 1, t.high
    lows, highs = [], []
    for m in group.get(cand):
        d = m >> flag if m & high else m
        lows.append(((d & -d).bit_length() - 1) // width + 1)
        highs.append((d.bit_length() - 1) // width + 1)
    least, most = sum(lows), sum(highs)
    if least > group.total or most < group.total:
        return -1
    narrowed: list[tuple[int, Mask]] = []
    for c, lo, hi in zip(group.cells, lows, highs, strict=True):
        floor, ceiling = group.total - most + hi, group.total - least + lo
        if floor <= lo and ceiling >= hi:
            continue
        m = cand[c]
        kept = m & upto[min(ceiling, t.size)] & ~upto[max(floor - 1, 0)]
        if kept != m:
            narrowed.append((c, kept))
    return _narrow(cand, narrowed, t)


def _narrow(cand: State, narrowed: list[tuple[int, Mask]], t: Tables) -> int:
    """Give each (cell, candidates) of ``narrowed`` its fewer candidates and place the new
    singles; how many cells changed, -1 on a contradiction."""
    stack: list[int] = []
    for c, kept in narrowed:
        if not kept:
            return -1
        cand[c] = kept
        if not kept & (kept - 1):
            stack.append(c)
    if stack and not propagate(cand, stack, t):
        return -1
    return len(narrowed)


def _prune_cage(cand: State, cage: CageTable, t: Tables) -> int:
    """Prune one cage (see prune_cages)."""
    flag, low, high = t.flag, t.low, t.high
    digits = [(m | m >> flag) & low for m in cage.get(cand)]
    allowed, required = 0, low
    for combo in cage.combos:
        union = 0
        for d in digits:
            x = d & combo
            if not x:
                break
            union |= x
        else:
            if union == combo:
                allowed |= combo
                required &= combo
    if not allowed:
        return -1
    counts = sum(d & allowed for d in digits)
    single = (counts + t.one_or_more) & ~(counts + t.two_or_more) & high
    lone = required & (single >> flag)
    narrowed: list[tuple[int, Mask]] = []
    for c in cage.cells:
        m = cand[c]
        if m & high:
            continue  # placed
        kept = m & allowed
        if kept & lone:
            kept &= lone
        if kept != m:
            narrowed.append((c, kept))
    return _narrow(cand, narrowed, t)


def settle(cand: State, vt: VariantTables) -> bool:
    """Hidden singles, cage pruning, then the size's stronger steps, to a fixpoint."""
    t = vt.t
    while True:
        if hidden_singles(cand, t) < 0:
            return False
        changed = prune_cages(cand, vt)
        if changed < 0:
            return False
        if changed:
            continue
        for step in t.steps:
            changed = step(cand, t)
            if changed:
                break
        if changed < 0:
            return False
        if not changed:
            return True


def search(cand: State, vt: VariantTables, found: list[State], limit: int, clock: Clock) -> None:
    """Depth-first search, appending solutions up to limit (SearchTimeoutError at the
    clock's deadline)."""
    branch_search(cand, vt.t, partial(settle, vt=vt), found, limit, clock)


def find_variant_solutions(
    values: Sequence[int], vt: VariantTables, limit: int = 2, deadline: float | None = None
) -> list[list[int]]:
    """Up to `limit` solutions (flat value lists) of givens under a variant's tables."""
    if limit <= 0:
        return []
    cand = initial_state(values, vt.t)
    if cand is None:
        return []
    found: list[State] = []
    search(cand, vt, found, limit, Clock(deadline))
    return [decode(s, vt.t) for s in found]
