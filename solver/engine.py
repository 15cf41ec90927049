"""The search engine: bitmask candidates, singles, MRV backtracking, probing on big grids.

A state is a list of ints, one per cell. Value v (1-based) owns a field of `width` bits
at bit (v-1)*width. An open cell sets the lowest bit of each field it may still hold; a
placed cell sets the top bit (the `flag`) of its value's field instead. Summing the masks
of a unit then counts, field by field, the cells that may hold each value, plus `flag`
where the value is placed: one C-level sum finds the unit's hidden singles and missing
values for every value at once. A contradiction is a value (False or -1), never raised.

State sketch, 9×9 (`flag` = 4, so `width` = 5 bits a value; 81 such masks, one a cell):

    value:    9      8      7      6      5      4      3      2      1
    bits:   44-40  39-35  34-30  29-25  24-20  19-15  14-10   9-5    4-0
    field:  p...c  p...c  p...c  p...c  p...c  p...c  p...c  p...c  p...c

    c (a field's lowest bit): the open cell may still hold the value
    p (its top bit, `flag` above c): the value is placed in this cell
    an open cell that may hold 1, 2 or 7:  1 << 0 | 1 << 5 | 1 << 30
    a cell where 5 is placed:              1 << 24
    the sum of a unit's nine masks, field v: how many of its cells may hold v (0-9, under
    16), plus 16 when v is placed: 1 is a hidden single, 0 a value with nowhere to go

Search: naked singles (propagate) and hidden singles, then branch on a two-candidate
cell (the one whose candidates most peers share, peers with fewer candidates weighing
more), or else on a cell with the fewest candidates. From 16×16 on, each node also
applies box-line reductions, naked pairs and hidden pairs, and tries both values of its
likeliest two-candidate cells before branching (failed-literal probing: a value that
fails is removed; else it branches on the cell whose trials settled most). On 9×9 those
cut nodes but cost more than they save. Counting goes on past the first solution up to
`limit` in the same depth-first search, which is how uniqueness is proved.

A search may be given a deadline (a `time.monotonic()` time): it counts the nodes it
visits and looks at the clock every `CHECK_EVERY` of them, raising SearchTimeoutError once
the deadline has passed, so a puzzle that would take minutes stops within milliseconds of
its time limit while the hot loop pays only a counter.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache, partial
from itertools import compress, islice
from operator import itemgetter

from . import bitboard
from .clock import CHECK_EVERY as CHECK_EVERY
from .clock import Clock as Clock
from .geometry import Shape, shape_for_size

Mask = int
State = list[Mask]


@dataclass(frozen=True)
class EngineConfig:
    """The engine's tunable choices (measured with benchmarks/solver_bench.py)."""

    locked_candidates_from_size: int = 16  # box-line reductions pay off on big grids only
    pairs_from_size: int = 16  # naked and hidden pairs likewise
    branch_ties: int = 6  # two-candidate cells compared when choosing where to branch
    branch_ties_big: int = 1000  # the same from locked_candidates_from_size on (all of them)
    bitboard_branch_ties: int = 20  # the same in the bitboard search (a cell's score is cheaper)
    probing_from_size: int = 16  # try both values of cells before branching (not worth on 9×9)
    probes: int = 8  # two-candidate cells tried both ways at each branch point
    bitboard_up_to_size: int = 12  # sizes searched first by the bitboard search (bitboard.py)
    # Bitboard nodes before a search starts over with the stronger steps (a hard 9×9
    # puzzle takes a few hundred; 2,000 cost about 0.1 s).
    bitboard_budget: int = 2000
    jigsaw_locked: bool = True  # region-line reductions at each node of a jigsaw search


DEFAULT_ENGINE_CONFIG = EngineConfig()
PEER_WEIGHT = tuple(36 // (k * k) if k else 0 for k in range(26))  # by candidates left


@dataclass(frozen=True)
class Segment:
    """The cells a box shares with a line, and the rest of each."""

    get: Callable[[State], tuple[Mask, ...]]
    line: int  # unit index of the row or column
    box: int  # unit index of the box
    line_rest: tuple[int, ...]
    box_rest: tuple[int, ...]


def tuple_getter(places: tuple[int, ...]) -> Callable[[list[Mask]], tuple[Mask, ...]]:
    """itemgetter of these places, giving a tuple even for one place (a jigsaw region may
    meet a line in one cell)."""
    if len(places) == 1:
        only = places[0]
        return lambda items: (items[only],)
    return itemgetter(*places)


def segments_of(n: int, units: Sequence[tuple[int, ...]]) -> tuple[Segment, ...]:
    """Every box-line intersection (units: rows, columns, then boxes or jigsaw regions):
    row segments first, then column segments."""
    segs = []
    for line in range(2 * n):
        cells = units[line]
        for b in range(2 * n, 3 * n):
            common = tuple(c for c in cells if c in units[b])
            if common:
                line_rest = tuple(c for c in cells if c not in common)
                box_rest = tuple(c for c in units[b] if c not in common)
                segs.append(Segment(tuple_getter(common), line, b, line_rest, box_rest))
    return tuple(segs)


def unit_segments_of(n: int, segs: tuple[Segment, ...]) -> tuple[tuple[int, ...], ...]:
    """For each unit, the segments that tile it (boxes by their row segments)."""
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
    three_or_more: Mask  # likewise for >= 3
    peers: tuple[tuple[int, ...], ...]
    units: tuple[tuple[int, ...], ...]
    units_of: tuple[tuple[int, ...], ...]  # the units of each cell (row, column, box, ...)
    cells: range  # every cell index
    unit_getters: tuple[tuple[tuple[int, ...], Callable[[State], tuple[Mask, ...]]], ...]
    value_of: dict[Mask, int]  # placed bit -> value
    segments: tuple[Segment, ...]  # where a box meets a row or column
    unit_segments: tuple[tuple[int, ...], ...]  # the segments tiling each unit
    segment_getters: tuple[Callable[[State], tuple[Mask, ...]], ...]
    segment_places: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...]
    unit_segment_getters: tuple[Callable[[list[Mask]], tuple[Mask, ...]], ...]
    locked: bool  # look for box-line reductions before branching
    pairs: bool  # and then for naked and hidden pairs
    ties: int  # two-candidate cells compared when choosing where to branch
    probes: int  # two-candidate cells tried both ways before branching (0: no probing)

    @property
    def steps(self) -> tuple[Callable[[State, Tables], int], ...]:
        """The steps settle runs after hidden singles."""
        return STEPS[self.locked, self.pairs]


@cache
def tables_for(shape: Shape) -> Tables:
    """The engine tables of a shape (computed once)."""
    n = shape.size
    flag = n.bit_length()  # 1 << flag > n: a count never reaches the placed bit
    width = flag + 1
    low = sum(1 << (v * width) for v in range(n))
    segments = segments_of(n, shape.units)
    unit_segments = unit_segments_of(n, segments)
    return Tables(
        size=n,
        flag=flag,
        full=low,
        low=low,
        high=low << flag,
        two_or_more=low * ((1 << flag) - 2),
        one_or_more=low * ((1 << flag) - 1),
        three_or_more=low * ((1 << flag) - 3),
        peers=tuple(tuple(sorted(p)) for p in shape.peers),
        units=shape.units,
        units_of=shape.units_of,
        cells=range(n * n),
        unit_getters=tuple((u, itemgetter(*u)) for u in shape.units),
        value_of={1 << (v * width + flag): v + 1 for v in range(n)},
        segments=segments,
        unit_segments=unit_segments,
        segment_getters=tuple(s.get for s in segments),
        segment_places=tuple((s.line, s.box, s.line_rest, s.box_rest) for s in segments),
        unit_segment_getters=tuple(itemgetter(*u) for u in unit_segments),
        locked=n >= DEFAULT_ENGINE_CONFIG.locked_candidates_from_size,
        pairs=n >= DEFAULT_ENGINE_CONFIG.pairs_from_size,
        ties=DEFAULT_ENGINE_CONFIG.branch_ties_big
        if n >= DEFAULT_ENGINE_CONFIG.locked_candidates_from_size
        else DEFAULT_ENGINE_CONFIG.branch_ties,
        probes=DEFAULT_ENGINE_CONFIG.probes if n >= DEFAULT_ENGINE_CONFIG.probing_from_size else 0,
    )


def candidate_bit(value: int, t: Tables) -> Mask:
    """The candidate bit of a value (1-based)."""
    return 1 << ((value - 1) * (t.flag + 1))


def propagate(cand: State, stack: list[int], t: Tables) -> bool:
    """Place every pending single on the stack and remove it from its peers; False if stuck."""
    peers, flag = t.peers, t.flag
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

    Returns how many were placed, -1 on a contradiction. A round that finds something goes
    on with the next units and ends when it comes back, quiet, to the unit of its last find.
    """
    n, high, unit_getters = t.flag, t.high, t.unit_getters
    two, one = t.two_or_more, t.one_or_more
    found = 0
    last = -1  # the unit of the latest find
    stack: list[int] = []
    while True:
        for i, (unit, get) in enumerate(unit_getters):
            counts = sum(get(cand))
            at_most_one = high & ~(counts + two)
            if not at_most_one:
                if i == last:
                    return found
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
            if not propagate(cand, stack, t):
                return -1
            last = i
        if last < 0:
            return 0


def locked_candidates(cand: State, t: Tables) -> int:
    """Box-line reductions (pointing and claiming); count the changed segments, -1 if stuck.

    The sums are taken once per pass with the placed bits masked off, so they hold plain
    candidate counts; counts only fall as the pass goes on, so a count of zero stays true
    and a stale non-zero count costs at most a missed reduction.
    """
    one, high, flag = t.one_or_more, t.high, t.flag
    counts_only = ~high
    here_sums = [sum(get(cand)) & counts_only for get in t.segment_getters]
    sums = [sum(get(here_sums)) for get in t.unit_segment_getters]
    changed = 0
    for (line, box, line_rest, box_rest), here in zip(t.segment_places, here_sums, strict=True):
        if not here:
            continue
        inside = (here + one) & high
        line_only = inside & ~(sums[line] - here + one)  # in this line, only in this segment
        box_only = inside & ~(sums[box] - here + one)
        if line_only == box_only:
            continue
        for bits, rest in ((line_only & ~box_only, box_rest), (box_only & ~line_only, line_rest)):
            if bits:
                status = _eliminate(cand, rest, bits >> flag, t)
                if status < 0:
                    return -1
                changed += status
    return changed


def _eliminate(cand: State, cells: Sequence[int], bits: Mask, t: Tables) -> int:
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
    return hit if propagate(cand, stack, t) else -1


def naked_pairs(cand: State, t: Tables) -> int:
    """Two cells of a unit with the same two candidates: remove those from the unit's rest."""
    by_mask: dict[Mask, list[int]] = {}
    for c in compress(t.cells, map((2).__eq__, map(int.bit_count, cand))):
        by_mask.setdefault(cand[c], []).append(c)
    changed = 0
    units, units_of = t.units, t.units_of
    for m, cells in by_mask.items():
        for i, a in enumerate(cells):
            for b in cells[i + 1 :]:
                for u in set(units_of[a]).intersection(units_of[b]):
                    rest = [c for c in units[u] if c != a and c != b]
                    status = _eliminate(cand, rest, m, t)
                    if status < 0:
                        return -1
                    changed += status
    return changed


def hidden_pairs(cand: State, t: Tables) -> int:
    """Two values confined to the same two cells of a unit: clear those cells' other values."""
    high, flag, three = t.high, t.flag, t.three_or_more
    changed = 0
    for unit, get in t.unit_getters:
        twos = (high & ~(sum(get(cand)) + three)) >> flag  # values with two places left
        if not twos & (twos - 1):
            continue
        holders = [(c, x) for c in unit if (x := cand[c] & twos) & (x - 1)]
        for i, (a, xa) in enumerate(holders):
            for b, xb in holders[i + 1 :]:
                common = xa & xb  # each of these values has exactly a and b as places
                if common & (common - 1):
                    if common.bit_count() > 2:
                        return -1
                    for c in (a, b):
                        kept = cand[c] & common  # c may already be cut to another pair
                        if kept != cand[c]:
                            if kept.bit_count() < 2:
                                return -1
                            cand[c] = kept
                            changed += 1
    return changed


def settle(cand: State, t: Tables, singles_done: bool = False) -> bool:
    """Apply hidden singles, then the stronger steps the grid size calls for, to a fixpoint.

    Each step runs only when the ones before it find nothing; any change starts over.
    With singles_done the state is known to hold no hidden single, so the first pass skips
    them.
    """
    steps = t.steps
    while True:
        if not singles_done and hidden_singles(cand, t) < 0:
            return False
        singles_done = False
        for step in steps:
            changed = step(cand, t)
            if changed:
                break
        else:
            return True
        if changed < 0:
            return False


STEPS: dict[tuple[bool, bool], tuple[Callable[[State, Tables], int], ...]] = {
    (False, False): (),
    (True, False): (locked_candidates,),
    (False, True): (naked_pairs, hidden_pairs),
    (True, True): (locked_candidates, naked_pairs, hidden_pairs),
}


def pick_cell(cand: State, t: Tables) -> int:
    """The open cell to branch on, or -1 when every cell is placed.

    Fewest candidates first; among the first `ties` two-candidate cells, the one whose
    candidates most peers share, a peer weighing more the fewer candidates it has left
    (placing the cell then settles most).
    """
    counts = list(map(int.bit_count, cand))
    pairs = list(islice(compress(t.cells, map((2).__eq__, counts)), t.ties))
    if not pairs:
        most = max(counts)
        if most == 1:
            return -1
        return counts.index(min(k for k in range(3, most + 1) if k in counts))
    best, best_score = pairs[0], -1
    for c in pairs:
        score = _pair_score(cand, c, counts, t)
        if score > best_score:
            best, best_score = c, score
    return best


def search(
    cand: State, t: Tables, found: list[State], limit: int, clock: Clock | None = None
) -> None:
    """Depth-first search from a propagated state, appending solutions up to limit.

    Raises SearchTimeoutError when the clock's deadline passes.
    """
    branch_search(cand, t, partial(settle, t=t), found, limit, Clock() if clock is None else clock)


def branch_search(
    cand: State,
    t: Tables,
    settled: Callable[[State], bool],
    found: list[State],
    limit: int,
    clock: Clock,
) -> None:
    """Depth-first search: ``settled`` (False on a contradiction) at each node, then each
    candidate of the best cell to branch on (``pick_cell``) in turn, appending solutions up
    to limit (the classic and the variant searches alike).

    Raises SearchTimeoutError when the clock's deadline passes.
    """
    clock.left -= 1
    if not clock.left:
        clock.check()
    if not settled(cand):
        return
    c = pick_cell(cand, t)
    if c < 0:
        found.append(cand)
        return
    m = cand[c]
    while m:
        b = m & -m
        m ^= b
        child = cand[:] if m else cand
        child[c] = b
        if propagate(child, [c], t):
            branch_search(child, t, settled, found, limit, clock)
            if len(found) >= limit:
                return


def _probe(cand: State, c: int, b: Mask, t: Tables) -> tuple[State, int] | None:
    """Place bit b in cell c of a copy and apply all singles.

    Returns the copy and how many candidates went, or None when that fails.
    """
    trial = cand[:]
    trial[c] = b
    touched = [c]
    if not propagate_noting(trial, [c], t, touched):
        return None
    removed = singles_around(trial, t, touched)
    if removed < 0:
        return None
    return trial, removed + cand[c].bit_count() - 1


def propagate_noting(cand: State, stack: list[int], t: Tables, touched: list[int]) -> bool:
    """Propagate as propagate does, noting each cell that loses a candidate, once per loss."""
    peers, flag = t.peers, t.flag
    pop, push, note = stack.pop, stack.append, touched.append
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
                note(p)
                if not m & (m - 1):
                    push(p)
    return True


def singles_around(cand: State, t: Tables, touched: list[int]) -> int:
    """Hidden singles, looking only at units where some cell lost a candidate.

    `touched` starts with the placed cell, then one entry per candidate lost. Returns how
    many candidates went in all (those entries included), or -1 if stuck.
    """
    n, high, unit_getters, units_of = t.flag, t.high, t.unit_getters, t.units_of
    two, one = t.two_or_more, t.one_or_more
    removed = len(touched) - 1
    dirty = {u for c in touched for u in units_of[c]}
    while dirty:
        unit, get = unit_getters[dirty.pop()]
        counts = sum(get(cand))
        at_most_one = high & ~(counts + two)
        if not at_most_one:
            continue
        if at_most_one & ~(counts + one):
            return -1
        only = at_most_one >> n
        stack = []
        for c in unit:
            m = cand[c] & only
            if m:
                if m & (m - 1):
                    return -1
                removed += cand[c].bit_count() - 1
                cand[c] = m
                stack.append(c)
        placed = stack[:]
        lost: list[int] = []
        if not propagate_noting(cand, stack, t, lost):
            return -1
        removed += len(lost)
        dirty.update(u for c in placed + lost for u in units_of[c])
    return removed


def _pair_score(cand: State, c: int, counts: list[int], t: Tables) -> int:
    """How much placing either candidate of a two-candidate cell should settle.

    Each peer sharing a candidate counts, the more the fewer candidates it has left.
    """
    m, weight = cand[c], PEER_WEIGHT
    return sum([weight[counts[p]] for p in t.peers[c] if cand[p] & m])


def search_probing(
    cand: State,
    t: Tables,
    found: list[State],
    limit: int,
    singles_done: bool = False,
    clock: Clock | None = None,
) -> None:
    """Depth-first search that first tries both values of the likeliest two-candidate cells.

    A value that fails leaves the other at once (failed-literal probing); otherwise it
    branches on the cell whose two trials removed most candidates (product of the two
    counts), reusing the trial states as its children, the less settled first. Each round
    of probing counts as a node of the clock (SearchTimeoutError at its deadline).
    """
    if clock is None:
        clock = Clock()
    if not settle(cand, t, singles_done):
        return
    while True:
        clock.left -= 1
        if not clock.left:
            clock.check()
        counts = list(map(int.bit_count, cand))
        pairs = list(compress(t.cells, map((2).__eq__, counts)))
        if not pairs:
            c = pick_cell(cand, t)
            if c < 0:
                found.append(cand)
                return
            _branch(cand, c, t, found, limit, clock)
            return
        pairs.sort(key=lambda c: -_pair_score(cand, c, counts, t))
        children = _best_split(cand, pairs[: t.probes], t)
        if children is None:
            return
        if len(children) == 1:
            cand = children[0]
            if not settle(cand, t, singles_done=True):
                return
            continue
        for child in children:
            search_probing(child, t, found, limit, True, clock)
            if len(found) >= limit:
                return
        return


def _best_split(cand: State, cells: list[int], t: Tables) -> list[State] | None:
    """Try both values of each cell: [the forced state] when one value fails, None when
    both do, else the two states of the cell whose trials removed most, less settled first.
    """
    best: list[State] = []
    best_score = -1
    for c in cells:
        m = cand[c]
        low = m & -m
        first, second = _probe(cand, c, low, t), _probe(cand, c, m ^ low, t)
        if first is None or second is None:
            forced = first or second
            return None if forced is None else [forced[0]]
        (one, r1), (two, r2) = first, second
        score = r1 * r2 + r1 + r2
        if score > best_score:
            best, best_score = ([one, two] if r1 <= r2 else [two, one]), score
    return best


def _branch(cand: State, c: int, t: Tables, found: list[State], limit: int, clock: Clock) -> None:
    """Try each candidate of cell c in turn, searching on with probing."""
    m = cand[c]
    while m:
        b = m & -m
        m ^= b
        child = cand[:] if m else cand
        child[c] = b
        if propagate(child, [c], t):
            search_probing(child, t, found, limit, clock=clock)
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
    return cand if propagate(cand, stack, t) else None


def decode(cand: State, t: Tables) -> list[int]:
    """The values of a fully placed state."""
    value_of = t.value_of
    return [value_of[m] for m in cand]


def find_solutions(
    values: Sequence[int],
    shape: Shape | None = None,
    limit: int = 2,
    deadline: float | None = None,
) -> list[list[int]]:
    """Up to `limit` solutions of a puzzle given as a flat value list (0 empty).

    Up to 12×12 the bitboard search runs first; past its node budget, the search starts
    over here with box-line reductions and pairs at every node (the rare puzzle whose
    tree singles alone cannot keep small). deadline: a `time.monotonic()` time; the
    search raises SearchTimeoutError (with no `seconds`: the caller that chose the limit
    knows it) once it has passed.
    """
    if shape is None:
        shape = shape_for_size(round(len(values) ** 0.5))
    if limit <= 0:
        return []
    clock = Clock(deadline)
    if shape.size <= DEFAULT_ENGINE_CONFIG.bitboard_up_to_size:
        try:
            return bitboard.find_solutions(
                values,
                shape,
                limit,
                clock,
                DEFAULT_ENGINE_CONFIG.bitboard_budget,
                DEFAULT_ENGINE_CONFIG.bitboard_branch_ties,
            )
        except bitboard.BudgetSpentError:
            return _search_with(values, strong_tables(shape), limit, clock)
    return _search_with(values, tables_for(shape), limit, clock)


@cache
def strong_tables(shape: Shape) -> Tables:
    """The tables of a shape with box-line reductions and pairs at every node."""
    return replace(
        tables_for(shape), locked=True, pairs=True, ties=DEFAULT_ENGINE_CONFIG.branch_ties_big
    )


def _search_with(values: Sequence[int], t: Tables, limit: int, clock: Clock) -> list[list[int]]:
    """Up to `limit` solutions found by this module's search with the tables given."""
    cand = initial_state(values, t)
    if cand is None:
        return []
    found: list[State] = []
    if t.probes:
        search_probing(cand, t, found, limit, clock=clock)
    else:
        search(cand, t, found, limit, clock)
    return [decode(s, t) for s in found]
