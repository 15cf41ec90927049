"""Forcing chains: follow the singles from an assumption and see where they lead.

If "r1c2 is 5" leads, through naked and hidden singles, to a cell with no candidate,
r1c2 is not 5 (contradiction chain). If every candidate of a cell, or every place of a
value in a unit, leads to the same placement, that placement is true (cell / unit forcing).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .candidates import Candidates, bit, values_of
from .step import Step, Technique

NAKED = -1
ASSUMED = -2


@dataclass
class Branch:
    """What follows from one assumption: placements in order, and a contradiction if any."""

    assumption: tuple[int, int]
    values: list[int]
    masks: list[int]
    events: list[tuple[int, int, int, tuple[int, ...]]] = field(default_factory=list)
    struck: dict[tuple[int, int], int] = field(default_factory=dict)
    contradiction: str = ""
    reasons: tuple[int, ...] = ()


def propagate(cand: Candidates, cell: int, value: int, traced: bool = False) -> Branch:
    """Assume cell = value and place every naked and hidden single that follows.

    Stops at the first contradiction (kept in the branch) or when no single is left.
    """
    br = Branch((cell, value), cand.values[:], cand.masks[:])
    queue: list[int] = []
    place = _placer(cand, br, queue, traced)
    if not place(cell, value, ASSUMED, ()):
        return br
    while _naked_singles(cand, br, queue, place):
        single = _hidden_single(cand, br)
        if single is None or not place(*single):
            break
    return br


Place = Callable[[int, int, int, tuple[int, ...]], bool]


def _placer(cand: Candidates, br: Branch, queue: list[int], traced: bool) -> Place:
    """A function placing (cell, value, how, parents) in the branch, or False on contradiction.

    Each placement is an event; it strikes the value from the cell's peers, queues peers
    left with one candidate, and (when ``traced``) notes which event struck each candidate.
    """
    lay = cand.layout
    peers, init = lay.peers, cand.masks
    vals, masks, struck, events = br.values, br.masks, br.struck, br.events

    def place(c: int, v: int, how: int, parents: tuple[int, ...]) -> bool:
        idx = len(events)
        events.append((c, v, how, parents))
        b = bit(v)
        if traced:
            for w in values_of(masks[c] & ~b):
                struck[(c, w)] = idx
        vals[c] = v
        masks[c] = b
        for p in peers[c]:
            if not vals[p] and masks[p] & b:
                m = masks[p] & ~b
                masks[p] = m
                if traced:
                    struck[(p, v)] = idx
                if not m:
                    br.contradiction = f"{lay.name(p)} would have no candidate left"
                    br.reasons = tuple(struck.get((p, x), -1) for x in values_of(init[p]))
                    return False
                if not m & (m - 1):
                    queue.append(p)
        return True

    return place


def _naked_singles(cand: Candidates, br: Branch, queue: list[int], place: Place) -> bool:
    """Place every queued cell left with one candidate; False on a contradiction."""
    vals, masks, struck, init = br.values, br.masks, br.struck, cand.masks
    while queue:
        c = queue.pop()
        if vals[c]:
            continue
        v = values_of(masks[c])[0]
        parents = tuple(struck.get((c, x), -1) for x in values_of(init[c]) if x != v)
        if not place(c, v, NAKED, parents):
            return False
    return True


def _hidden_single(cand: Candidates, br: Branch) -> tuple[int, int, int, tuple[int, ...]] | None:
    """The first hidden single (cell, value, unit, reasons) in unit order, or None.

    None also when a value has no place left in a unit: the branch then holds that
    contradiction.
    """
    lay = cand.layout
    full, vals, masks = lay.full, br.values, br.masks
    for u, unit in enumerate(lay.units):
        once = twice = placed = 0
        for c in unit:
            m = masks[c]
            if vals[c]:
                placed |= m
            else:
                twice |= once & m
                once |= m
        if (once | placed) != full:
            v = values_of(full & ~(once | placed))[0]
            br.contradiction = f"{v} would have no place left in {lay.unit_name(u)}"
            br.reasons = _unit_reasons(cand, br, unit, v)
            return None
        only = once & ~twice & ~placed
        if only:
            v = values_of(only)[0]
            b = bit(v)
            c = next(c for c in unit if not vals[c] and masks[c] & b)
            return c, v, u, _unit_reasons(cand, br, unit, v, skip=c)
    return None


def _unit_reasons(
    cand: Candidates, br: Branch, unit: tuple[int, ...], v: int, skip: int = -1
) -> tuple[int, ...]:
    """Events that struck v from the cells of a unit that first had it."""
    b = bit(v)
    return tuple(
        br.struck.get((c, v), -1)
        for c in unit
        if c != skip and not cand.values[c] and cand.masks[c] & b
    )


def _chain_text(cand: Candidates, br: Branch, targets: tuple[int, ...]) -> list[str]:
    """The placements that lead to the target events, in order, in words."""
    lay = cand.layout
    need: set[int] = set()
    todo = [t for t in targets if t >= 0]
    while todo:
        i = todo.pop()
        if i in need:
            continue
        need.add(i)
        todo.extend(p for p in br.events[i][3] if p >= 0)
    out = []
    for i in sorted(need):
        c, v, how, _ = br.events[i]
        if how == ASSUMED:
            continue
        why = (
            "its only candidate left"
            if how == NAKED
            else f"the only place for {v} in {lay.unit_name(how)}"
        )
        out.append(f"{lay.name(c)} would be {v} ({why})")
    return out


def forcing_chain(cand: Candidates) -> Step | None:
    """A contradiction chain, else a cell or unit forcing chain."""
    open_cells = sorted(cand.open_cells(), key=lambda c: cand.masks[c].bit_count())
    branches: dict[tuple[int, int], Branch] = {}
    for c in open_cells:
        for v in cand.candidates(c):
            br = propagate(cand, c, v)
            if br.contradiction:
                return _contradiction_step(cand, c, v)
            branches[(c, v)] = br
    return _cell_forcing(cand, branches) or _unit_forcing(cand, branches)


def _contradiction_step(cand: Candidates, cell: int, value: int) -> Step:
    """Words for 'cell = value leads to a contradiction'."""
    lay = cand.layout
    br = propagate(cand, cell, value, traced=True)
    chain = _chain_text(cand, br, br.reasons)
    said = ", ".join(chain) if chain else "nothing else"
    text = (
        f"Suppose {lay.name(cell)} were {value}. Then {said}; and then {br.contradiction}. "
        f"So {lay.name(cell)} cannot be {value}"
    )
    cells = tuple(dict.fromkeys([cell, *(br.events[i][0] for i in br.reasons if i >= 0)]))
    return Step(Technique.FORCING_CHAIN, (), ((cell, value),), cells, (), text)


def _common(branches: list[Branch], cand: Candidates) -> tuple[int, int] | None:
    """A placement (not already made) that every branch makes, or None."""
    first = branches[0]
    for c, v, _, _ in first.events:
        if cand.values[c]:
            continue
        if all(br.values[c] == v for br in branches[1:]):
            return c, v
    return None


def _cell_forcing(cand: Candidates, branches: dict[tuple[int, int], Branch]) -> Step | None:
    """Every candidate of one cell leads to the same placement."""
    lay = cand.layout
    for c in cand.open_cells():
        group = [branches[(c, v)] for v in cand.candidates(c)]
        hit = _common(group, cand)
        if hit:
            why = f"{lay.name(c)} can only be {_or(cand.candidates(c))}"
            return _forcing_step(cand, [(c, v) for v in cand.candidates(c)], hit, why)
    return None


def _unit_forcing(cand: Candidates, branches: dict[tuple[int, int], Branch]) -> Step | None:
    """Every place of a value in a unit leads to the same placement."""
    lay = cand.layout
    for u in range(len(lay.units)):
        for v in range(1, lay.size + 1):
            spots = cand.positions(u, v)
            if len(spots) < 2:
                continue
            hit = _common([branches[(c, v)] for c in spots], cand)
            if hit:
                names = [lay.name(c) for c in spots]
                why = f"in {lay.unit_name(u)}, {v} must go in {_or(names)}"
                return _forcing_step(cand, [(c, v) for c in spots], hit, why, unit=u)
    return None


def _or(items: tuple[int, ...] | list[str]) -> str:
    """'a, b or c'."""
    words = [str(x) for x in items]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _forcing_step(
    cand: Candidates,
    cases: list[tuple[int, int]],
    hit: tuple[int, int],
    why: str,
    unit: int = -1,
) -> Step:
    """Words for 'every case leads to hit'."""
    lay = cand.layout
    target, value = hit
    parts = [f"{why[0].upper()}{why[1:]}."]
    for c, v in cases:
        br = propagate(cand, c, v, traced=True)
        idx = next(i for i, e in enumerate(br.events) if e[0] == target)
        chain = _chain_text(cand, br, (idx,))
        parts.append(f"If {lay.name(c)} is {v}: {', '.join(chain) or 'directly'}.")
    parts.append(f"Either way {lay.name(target)} is {value}")
    cells = tuple(dict.fromkeys([*(c for c, _ in cases), target]))
    units = (unit,) if unit >= 0 else ()
    return Step(Technique.FORCING_CHAIN, (hit,), (), cells, units, " ".join(parts))
