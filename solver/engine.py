"""The search engine: bitmask candidates, naked and hidden singles, MRV backtracking.

A state is a list of ints, one per cell. Value v (1-based) owns a field of `width` bits
at bit (v-1)*width. An open cell sets the lowest bit of each field it may still hold; a
placed cell sets the top bit (the `flag`) of its value's field instead. Summing the masks
of a unit then counts, field by field, the cells that may hold each value, plus `flag`
where the value is placed: one C-level sum finds the unit's hidden singles and missing
values for every value at once. A contradiction is a value (False or -1), never raised.

Search: naked singles (propagate), hidden singles, and on 16×16 and up box-line
reductions, then branch on a two-candidate cell (the one whose candidates most peers
share), or else on a cell with the fewest candidates. Counting goes on past the first
solution up to `limit`, which is how uniqueness is proved.
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
class EngineConfig:
    """The engine's tunable choices (measured with benchmarks/solver_bench.py)."""

    locked_candidates_from_size: int = 16  # box-line reductions pay off on big grids only
    branch_ties: int = 6  # two-candidate cells compared when choosing where to branch
    branch_ties_big: int = 1000  # the same from locked_candidates_from_size on (all of them)


CONFIG = EngineConfig()


@dataclass(frozen=True)
class Segment:
    """The cells a box shares with a line, and the rest of each."""

    get: Callable[[State], tuple[Mask, ...]]
    line: int  # unit index of the row or column
    box: int  # unit index of the box
    line_rest: tuple[int, ...]
    box_rest: tuple[int, ...]


def _segments(shape: Shape) -> tuple[Segment, ...]:
    """Every box-line intersection of a shape: row segments first, then column segments."""
    segs = []
    n = shape.size
    for line in range(2 * n):
        cells = shape.units[line]
        for b in range(2 * n, 3 * n):
            common = tuple(c for c in cells if c in shape.units[b])
            if common:
                line_rest = tuple(c for c in cells if c not in common)
                box_rest = tuple(c for c in shape.units[b] if c not in common)
                segs.append(Segment(itemgetter(*common), line, b, line_rest, box_rest))
    return tuple(segs)


def _unit_segments(shape: Shape, segs: tuple[Segment, ...]) -> tuple[tuple[int, ...], ...]:
    """For each unit, the segments that tile it (boxes by their row segments)."""
    n = shape.size
    return tuple(
        tuple(
            i
            for i, s in enumerate(segs)
            if s.line == u or (u >= 2 * n and s.box == u and s.line < n)
        )
        for u in range(3 * n)
    )


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
    unit_getters: tuple[tuple[tuple[int, ...], Callable[[State], tuple[Mask, ...]]], ...]
    value_of: dict[Mask, int]  # placed bit -> value
    segments: tuple[Segment, ...]  # where a box meets a row or column
    unit_segments: tuple[tuple[int, ...], ...]  # the segments tiling each unit
    locked: bool  # look for box-line reductions before branching
    ties: int  # two-candidate cells compared when choosing where to branch


@cache
def tables_for(shape: Shape) -> Tables:
    """The engine tables of a shape (computed once)."""
    n = shape.size
    flag = n.bit_length()  # 1 << flag > n: a count never reaches the placed bit
    width = flag + 1
    low = sum(1 << (v * width) for v in range(n))
    segments = _segments(shape)
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
        unit_getters=tuple((u, itemgetter(*u)) for u in shape.units),
        value_of={1 << (v * width + flag): v + 1 for v in range(n)},
        segments=segments,
        unit_segments=_unit_segments(shape, segments),
        locked=n >= CONFIG.locked_candidates_from_size,
        ties=CONFIG.branch_ties_big
        if n >= CONFIG.locked_candidates_from_size
        else CONFIG.branch_ties,
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
    """Place values that fit only one cell of a unit until a full round of units finds none.

    Returns how many were placed, -1 on a contradiction. Units are visited in a cycle and
    the round restarts after each find, so a quiet round ends it without a second sweep.
    """
    n, high, peers, unit_getters = t.flag, t.high, t.peers, t.unit_getters
    two, one = t.two_or_more, t.one_or_more
    found = quiet = i = 0
    last = len(unit_getters) - 1
    stack: list[int] = []
    while quiet <= last:
        unit, get = unit_getters[i]
        i = i + 1 if i < last else 0
        counts = sum(get(cand))
        at_most_one = high & ~(counts + two)
        if not at_most_one:
            quiet += 1
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
        quiet = 0
    return found


def locked_candidates(cand: State, t: Tables) -> int:
    """Box-line reductions (pointing and claiming); count the changed segments, -1 if stuck.

    The sums are taken once per pass with the placed bits masked off, so they hold plain
    candidate counts; counts only fall as the pass goes on, so a count of zero stays true
    and a stale non-zero count costs at most a missed reduction.
    """
    one, high, flag, peers = t.one_or_more, t.high, t.flag, t.peers
    counts_only = ~high
    here_sums = [sum(seg.get(cand)) & counts_only for seg in t.segments]
    sums = [sum([here_sums[i] for i in segs]) for segs in t.unit_segments]
    changed = 0
    for seg, here in zip(t.segments, here_sums, strict=True):
        if not here:
            continue
        inside = (here + one) & high
        line_any = (sums[seg.line] - here + one) & high
        box_any = (sums[seg.box] - here + one) & high
        for bits, rest in (
            (inside & line_any & ~box_any, seg.line_rest),
            (inside & box_any & ~line_any, seg.box_rest),
        ):
            if bits:
                status = _eliminate(cand, rest, bits >> flag, peers, flag)
                if status < 0:
                    return -1
                changed += status
    return changed


def _eliminate(
    cand: State, cells: tuple[int, ...], bits: Mask, peers: tuple[tuple[int, ...], ...], flag: int
) -> int:
    """Remove candidate bits from cells and propagate; 1 if any went, 0 if none, -1 if stuck."""
    stack = []
    hit = 0
    for c in cells:
        m = cand[c]
        if m & bits:
            m &= ~bits
            if not m:
                return -1
            cand[c] = m
            hit = 1
            if not m & (m - 1):
                stack.append(c)
    return hit if propagate(cand, stack, peers, flag) else -1


def settle(cand: State, t: Tables) -> bool:
    """Apply hidden singles, then (big grids) box-line reductions, until nothing changes."""
    while True:
        if hidden_singles(cand, t) < 0:
            return False
        if not t.locked:
            return True
        changed = locked_candidates(cand, t)
        if changed <= 0:
            return changed == 0


def pick_cell(cand: State, peers: tuple[tuple[int, ...], ...], ties: int) -> int:
    """The open cell to branch on, or -1 when every cell is placed.

    Fewest candidates first; among the first `ties` two-candidate cells, the one whose
    candidates most peers share (placing it settles most).
    """
    best, best_count = -1, 1 << 30
    pairs = []
    for c, m in enumerate(cand):
        k = m.bit_count()
        if k == 2:
            pairs.append(c)
            if len(pairs) == ties:
                break
        elif 2 < k < best_count:
            best, best_count = c, k
    if not pairs:
        return best
    best, best_score = pairs[0], -1
    for c in pairs:
        m = cand[c]
        score = len([p for p in peers[c] if cand[p] & m])
        if score > best_score:
            best, best_score = c, score
    return best


def search(cand: State, t: Tables, found: list[State], limit: int) -> None:
    """Depth-first search from a propagated state, appending solutions up to limit."""
    if not settle(cand, t):
        return
    c = pick_cell(cand, t.peers, t.ties)
    if c < 0:
        found.append(cand)
        return
    m = cand[c]
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
