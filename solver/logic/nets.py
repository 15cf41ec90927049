"""Forcing nets: assumptions followed with stronger tools than singles.

Level 1 follows singles and locked candidates; level 2 also strikes, inside the
assumption, every candidate that a level-1 assumption of its own refutes (a nested
forcing chain). Used only when every easier technique is stuck.
"""

from __future__ import annotations

from dataclasses import dataclass

from .candidates import Candidates, Layout, bit, values_of
from .step import Step, Technique


@dataclass
class NetState:
    """Values and pencil marks inside an assumption, with the placements made in order."""

    values: list[int]
    masks: list[int]
    placed: list[tuple[int, int]]


def _place(lay: Layout, st: NetState, c: int, v: int, queue: list[int]) -> bool:
    """Place v in c, strike it from the peers; False on an empty cell."""
    b = bit(v)
    vals, masks = st.values, st.masks
    vals[c] = v
    masks[c] = b
    st.placed.append((c, v))
    for p in lay.peers[c]:
        if not vals[p] and masks[p] & b:
            m = masks[p] & ~b
            if not m:
                return False
            masks[p] = m
            if not m & (m - 1):
                queue.append(p)
    return True


def settle_singles(lay: Layout, st: NetState, queue: list[int]) -> bool:
    """Naked and hidden singles until none is left; False on a contradiction."""
    vals, masks, full = st.values, st.masks, lay.full
    while True:
        while queue:
            c = queue.pop()
            if not vals[c] and not _place(lay, st, c, values_of(masks[c])[0], queue):
                return False
        for unit in lay.units:
            once = twice = placed = 0
            for c in unit:
                m = masks[c]
                if vals[c]:
                    placed |= m
                else:
                    twice |= once & m
                    once |= m
            if (once | placed) != full:
                return False
            only = once & ~twice & ~placed
            while only:
                b = only & -only
                only ^= b
                c = next((c for c in unit if not vals[c] and masks[c] & b), -1)
                if c < 0:
                    return False
                if masks[c] != b:
                    masks[c] = b
                    queue.append(c)
        if not queue:
            return True


def _locked(lay: Layout, st: NetState, queue: list[int]) -> bool | None:
    """One round of locked candidates; None when nothing changed, False on a contradiction."""
    vals, masks = st.values, st.masks
    changed = False
    for box, line, common in lay.intersections:
        inside = 0
        for c in common:
            if not vals[c]:
                inside |= masks[c]
        if not inside:
            continue
        for home, other in ((box, line), (line, box)):
            rest = 0
            for c in lay.units[home]:
                if not vals[c] and c not in common:
                    rest |= masks[c]
            locked = inside & ~rest
            if not locked:
                continue
            for c in lay.units[other]:
                if not vals[c] and c not in common and masks[c] & locked:
                    m = masks[c] & ~locked
                    if not m:
                        return False
                    masks[c] = m
                    changed = True
                    if not m & (m - 1):
                        queue.append(c)
    return True if changed else None


def settle(lay: Layout, st: NetState, queue: list[int], level: int) -> bool:
    """Follow the tools of a level to a fixed point; False on a contradiction."""
    while True:
        if not settle_singles(lay, st, queue):
            return False
        if level < 1:
            return True
        got = _locked(lay, st, queue)
        if got is False:
            return False
        if got:
            continue
        if level < 2:
            return True
        got = _nested(lay, st, queue)
        if got is False:
            return False
        if not got:
            return True


def _nested(lay: Layout, st: NetState, queue: list[int]) -> bool | None:
    """Strike candidates that a level-1 assumption refutes; None when nothing changed."""
    changed = False
    for c in range(len(st.values)):
        if st.values[c]:
            continue
        for v in values_of(st.masks[c]):
            trial = NetState(st.values[:], st.masks[:], [])
            q: list[int] = []
            if _place(lay, trial, c, v, q) and settle(lay, trial, q, 1):
                continue
            m = st.masks[c] & ~bit(v)
            if not m:
                return False
            st.masks[c] = m
            changed = True
            if not m & (m - 1):
                queue.append(c)
                return True
    return True if changed else None


def assume(cand: Candidates, cell: int, value: int, level: int) -> tuple[NetState, bool]:
    """The state that follows from cell = value, and False when it leads to a contradiction."""
    st = NetState(cand.values[:], cand.masks[:], [])
    queue: list[int] = []
    if not _place(cand.layout, st, cell, value, queue):
        return st, False
    return st, settle(cand.layout, st, queue, level)


def _placements_text(lay: Layout, st: NetState, shown: int = 12) -> str:
    """'r1c2=5, r3c4=1, ... (N in all)' for the placements after the assumption."""
    made = st.placed[1:]
    if not made:
        return "no placement"
    words = ", ".join(f"{lay.name(c)}={v}" for c, v in made[:shown])
    more = f" … ({len(made)} in all)" if len(made) > shown else ""
    return words + more


NAMES = {
    1: "singles and locked candidates",
    2: "singles, locked candidates and short forcing chains",
}


def forcing_net(cand: Candidates, level: int) -> Step | None:
    """A candidate whose assumption fails, or a placement that all candidates of a cell force."""
    lay = cand.layout
    open_cells = sorted(cand.open_cells(), key=lambda c: cand.masks[c].bit_count())
    results: dict[tuple[int, int], NetState] = {}
    for c in open_cells:
        for v in cand.candidates(c):
            st, ok = assume(cand, c, v, level)
            if not ok:
                text = (
                    f"Suppose {lay.name(c)} were {v}. Following {NAMES[level]} from there "
                    f"makes {_placements_text(lay, st)} and then leaves a cell with no "
                    f"candidate or a value with no place in a unit. So {lay.name(c)} "
                    f"cannot be {v}"
                )
                return Step(_tech(level), (), ((c, v),), (c,), (), text)
            results[(c, v)] = st
        hit = _agree(cand, [results[(c, v)] for v in cand.candidates(c)])
        if hit is not None:
            options = " or ".join(str(v) for v in cand.candidates(c))
            text = (
                f"{lay.name(c)} can only be {options}. Following {NAMES[level]} from each "
                f"of them, every one makes {lay.name(hit[0])} {hit[1]}. So "
                f"{lay.name(hit[0])} is {hit[1]}"
            )
            return Step(_tech(level), (hit,), (), (c, hit[0]), (), text)
    return None


def _agree(cand: Candidates, states: list[NetState]) -> tuple[int, int] | None:
    """A placement every state makes that the grid lacks."""
    first = states[0]
    for c, v in first.placed:
        if not cand.values[c] and all(s.values[c] == v for s in states[1:]):
            return c, v
    return None


def _tech(level: int) -> Technique:
    return Technique.FORCING_NET if level == 1 else Technique.NESTED_FORCING


def forcing_net_1(cand: Candidates) -> Step | None:
    """Forcing net following singles and locked candidates."""
    return forcing_net(cand, 1)


def forcing_net_2(cand: Candidates) -> Step | None:
    """Forcing net with short forcing chains inside."""
    return forcing_net(cand, 2)
