"""The search engine: bitmask candidates, naked and hidden singles, MRV backtracking.

A state is a list of ints, one per cell. Value v (1-based) owns a field of `width` bits
at bit (v-1)*width. An open cell sets the lowest bit of each field it may still hold; a
placed cell sets the top bit (the `flag`) of its value's field instead. Summing the masks
of a unit then counts, field by field, the cells that may hold each value, plus `flag`
where the value is placed: one C-level sum finds the unit's hidden singles and missing
values for every value at once. A contradiction is a value (False or -1), never raised.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from operator import itemgetter

from .geometry import Shape, shape_for_size

Mask = int
State = list[Mask]


@dataclass(frozen=True)
class Tables:
    """What the engine precomputes for one shape, as tuples for fast indexing."""

    size: int
    flag: int  # shift from a candidate bit to its placed bit
    full: Mask  # every candidate of an open cell
    low: Mask  # the candidate bit of every field
    high: Mask  # the placed bit of every field
    two_or_more: Mask  # added to a unit sum, sets `high` bits where a field counts >= 2
    one_or_more: Mask  # likewise for >= 1
    peers: tuple[tuple[int, ...], ...]
    units: tuple[tuple[int, ...], ...]
    getters: tuple[Callable[[State], tuple[Mask, ...]], ...]
    value_of: dict[Mask, int]  # placed bit -> value


@cache
def tables_for(shape: Shape) -> Tables:
    """The engine tables of a shape (computed once)."""
    n = shape.size
    flag = n.bit_length()  # 1 << flag > n: a count never reaches the placed bit
    width = flag + 1
    low = sum(1 << (v * width) for v in range(n))
    return Tables(
        size=n,
        flag=flag,
        full=low,
        low=low,
        high=low << flag,
        two_or_more=low * ((1 << flag) - 2),
        one_or_more=low * ((1 << flag) - 1),
        peers=tuple(tuple(sorted(p)) for p in shape.peers),
        units=shape.units,
        getters=tuple(itemgetter(*u) for u in shape.units),
        value_of={1 << (v * width + flag): v + 1 for v in range(n)},
    )


def candidate_bit(value: int, t: Tables) -> Mask:
    """The candidate bit of a value (1-based)."""
    return 1 << ((value - 1) * (t.flag + 1))


def propagate(cand: State, stack: list[int], peers: tuple[tuple[int, ...], ...], flag: int) -> bool:
    """Place every pending single on the stack and remove it from its peers; False if stuck."""
    pop, push = stack.pop, stack.append
    while stack:
        c = pop()
        b = cand[c]
        cand[c] = b << flag
        for p in peers[c]:
            m = cand[p]
            if m & b:
                m ^= b
                if not m:
                    return False
                cand[p] = m
                if not m & (m - 1):
                    push(p)
    return True


def hidden_singles(cand: State, t: Tables) -> int:
    """Place values that fit only one cell of a unit; count them, -1 on a contradiction."""
    n, high, peers = t.flag, t.high, t.peers
    two, one = t.two_or_more, t.one_or_more
    found = 0
    stack: list[int] = []
    for unit, get in zip(t.units, t.getters, strict=True):
        counts = sum(get(cand))
        at_most_one = high & ~(counts + two)
        if not at_most_one:
            continue
        if at_most_one & ~(counts + one):
            return -1
        only = at_most_one >> n
        for c in unit:
            m = cand[c] & only
            if m:
                if m & (m - 1):
                    return -1
                cand[c] = m
                stack.append(c)
                found += 1
        if not propagate(cand, stack, peers, n):
            return -1
    return found


def settle(cand: State, t: Tables) -> bool:
    """Apply hidden singles (with naked-single propagation) until nothing changes."""
    while True:
        found = hidden_singles(cand, t)
        if found <= 0:
            return found == 0


def pick_cell(cand: State) -> int:
    """The open cell with the fewest candidates, or -1 when every cell is placed."""
    best, best_count = -1, 1 << 30
    for c, m in enumerate(cand):
        k = m.bit_count()
        if 1 < k < best_count:
            best, best_count = c, k
            if k == 2:
                break
    return best


def value_pair(cand: State, t: Tables) -> tuple[int, int, Mask] | None:
    """Two cells that are the only places for a value in some unit, with the value's bit."""
    two, high, flag = t.two_or_more, t.high, t.flag
    three = two + t.low
    for unit, get in zip(t.units, t.getters, strict=True):
        counts = sum(get(cand))
        exactly_two = (counts + two) & ~(counts + three) & high
        if exactly_two:
            bit = (exactly_two & -exactly_two) >> flag
            a, b = (c for c in unit if cand[c] & bit)
            return a, b, bit
    return None


def search(cand: State, t: Tables, found: list[State], limit: int) -> None:
    """Depth-first search from a propagated state, appending solutions up to limit."""
    if not settle(cand, t):
        return
    c = pick_cell(cand)
    if c < 0:
        found.append(cand)
        return
    m = cand[c]
    if m.bit_count() > 2:
        pair = value_pair(cand, t)
        if pair is not None:
            a, b, bit = pair
            child = cand[:]
            child[a] = bit
            if propagate(child, [a], t.peers, t.flag):
                search(child, t, found, limit)
                if len(found) >= limit:
                    return
            cand[b] = bit
            if propagate(cand, [b], t.peers, t.flag):
                search(cand, t, found, limit)
            return
    while m:
        b = m & -m
        m ^= b
        child = cand[:] if m else cand
        child[c] = b
        if propagate(child, [c], t.peers, t.flag):
            search(child, t, found, limit)
            if len(found) >= limit:
                return


def initial_state(values: Sequence[int], t: Tables) -> State | None:
    """The propagated state for the givens, or None when they contradict."""
    cand = [t.full] * (t.size * t.size)
    stack = []
    for c, v in enumerate(values):
        if v:
            cand[c] = candidate_bit(v, t)
            stack.append(c)
    return cand if propagate(cand, stack, t.peers, t.flag) else None


def decode(cand: State, t: Tables) -> list[int]:
    """The values of a fully placed state."""
    value_of = t.value_of
    return [value_of[m] for m in cand]


def find_solutions(
    values: Sequence[int], shape: Shape | None = None, limit: int = 2
) -> list[list[int]]:
    """Up to `limit` solutions of a puzzle given as a flat value list (0 empty)."""
    if shape is None:
        shape = shape_for_size(round(len(values) ** 0.5))
    t = tables_for(shape)
    cand = initial_state(values, t)
    if cand is None or limit <= 0:
        return []
    found: list[State] = []
    search(cand, t, found, limit)
    return [decode(s, t) for s in found]
