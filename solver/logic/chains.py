"""Alternating inference chains: X-chains (one value), XY-chains (two-value cells), AICs.

A chain alternates strong links ("if this is not true, that is") and weak links ("if
this is true, that is not"). Starting from "A is not true" and ending at "B is true",
A or B must hold: any candidate that sees both is false.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .candidates import Candidates, bit, values_of
from .step import Step, Technique
from .words import cells_text

Node = tuple[int, int]  # (cell, value)
MAX_CHAIN_NODES = 16


@dataclass(frozen=True)
class _Mode:
    """Which links a chain may use."""

    technique: Technique
    cell_links: bool  # strong links inside a two-value cell
    unit_links: bool  # strong links between the two places of a value in a unit
    one_value: bool


X_MODE = _Mode(Technique.X_CHAIN, cell_links=False, unit_links=True, one_value=True)
XY_MODE = _Mode(Technique.XY_CHAIN, cell_links=True, unit_links=False, one_value=False)
AIC_MODE = _Mode(Technique.AIC, cell_links=True, unit_links=True, one_value=False)


class _Links:
    """Strong and weak links of the current candidates."""

    def __init__(self, cand: Candidates, mode: _Mode) -> None:
        self.cand = cand
        self.mode = mode
        lay = cand.layout
        self.conj: dict[Node, list[tuple[Node, int]]] = {}
        if mode.unit_links:
            for u in range(len(lay.units)):
                for v in range(1, lay.size + 1):
                    spots = cand.positions(u, v)
                    if len(spots) == 2:
                        a, b = spots
                        self.conj.setdefault((a, v), []).append(((b, v), u))
                        self.conj.setdefault((b, v), []).append(((a, v), u))

    def strong(self, node: Node) -> Iterator[tuple[Node, int]]:
        """Nodes that must be true if this one is false, with the unit (-1 inside a cell)."""
        c, v = node
        m = self.cand.masks[c]
        if self.mode.cell_links and m.bit_count() == 2:
            yield (c, values_of(m & ~bit(v))[0]), -1
        yield from self.conj.get(node, ())

    def weak(self, node: Node) -> Iterator[Node]:
        """Nodes that must be false if this one is true."""
        c, v = node
        cand = self.cand
        b = bit(v)
        masks, values = cand.masks, cand.values
        for p in cand.layout.peers[c]:
            if not values[p] and masks[p] & b:
                if self.mode.cell_links and not self.mode.unit_links and masks[p].bit_count() != 2:
                    continue
                yield (p, v)
        if not self.mode.one_value:
            for w in values_of(masks[c] & ~b):
                yield (c, w)


def _conclusion(
    cand: Candidates, start: Node, end: Node
) -> tuple[tuple[Node, ...], tuple[Node, ...]]:
    """(placements, eliminations) that follow from 'start or end is true'."""
    lay = cand.layout
    (a, v), (b, w) = start, end
    if start == end:
        return (start,), ()
    if a == b:
        keep = bit(v) | bit(w)
        return (), tuple((a, x) for x in values_of(cand.masks[a] & ~keep))
    if v == w:
        common = lay.peer_sets[a] & lay.peer_sets[b]
        return (), tuple(sorted((c, v) for c in common if cand.has(c, v)))
    if b in lay.peer_sets[a]:
        elim = [(a, w)] if cand.has(a, w) else []
        if cand.has(b, v):
            elim.append((b, v))
        return (), tuple(elim)
    return (), ()


def _search(cand: Candidates, mode: _Mode) -> Step | None:
    """Breadth-first search for the shortest useful chain from each start."""
    links = _Links(cand, mode)
    n = cand.size
    values_range: list[int] = list(range(1, n + 1))
    for v0 in values_range if mode.one_value else [0]:
        starts = [
            (c, v)
            for c in cand.open_cells()
            for v in cand.candidates(c)
            if (not mode.one_value or v == v0)
        ]
        for start in starts:
            step = _from_start(cand, links, start, mode)
            if step is not None:
                return step
    return None


def _from_start(cand: Candidates, links: _Links, start: Node, mode: _Mode) -> Step | None:
    """The first useful chain from 'start is false', or None."""
    parent: dict[tuple[Node, bool], tuple[tuple[Node, bool], int] | None] = {(start, False): None}
    queue: deque[tuple[tuple[Node, bool], int]] = deque([((start, False), 1)])
    while queue:
        state, depth = queue.popleft()
        node, on = state
        if depth >= MAX_CHAIN_NODES:
            continue
        nexts: list[tuple[Node, int]] = (
            list(links.strong(node)) if not on else [(w, -2) for w in links.weak(node)]
        )
        for nxt, unit in nexts:
            key = (nxt, not on)
            if key in parent:
                continue
            parent[key] = (state, unit)
            if not on:
                placed, elim = _conclusion(cand, start, nxt)
                if (placed or elim) and depth >= 3:
                    path = _path(parent, key)
                    return _chain_step(cand, mode, path, placed, elim)
            queue.append((key, depth + 1))
    return None


def _path(
    parent: dict[tuple[Node, bool], tuple[tuple[Node, bool], int] | None], key: tuple[Node, bool]
) -> list[tuple[Node, bool, int]]:
    """The chain from the start to key: (node, is_true, unit of the link that led here)."""
    out: list[tuple[Node, bool, int]] = []
    cur: tuple[Node, bool] | None = key
    unit = -3
    while cur is not None:
        link = parent[cur]
        unit = link[1] if link else -3
        out.append((cur[0], cur[1], unit))
        cur = link[0] if link else None
    return out[::-1]


def _chain_step(
    cand: Candidates,
    mode: _Mode,
    path: list[tuple[Node, bool, int]],
    placed: tuple[Node, ...],
    elim: tuple[Node, ...],
) -> Step:
    """Words for a chain and what it proves."""
    lay = cand.layout
    n = lay.size
    (c0, v0), _, _ = path[0]
    (c1, v1), _, _ = path[-1]
    parts = [f"if {lay.name(c0)} is not {v0}"]
    for (c, v), on, unit in path[1:]:
        if on:
            why = (
                "its only other candidate"
                if unit == -1
                else f"the only other place for {v} in {lay.unit_name(unit)}"
            )
            parts.append(f"then {lay.name(c)} is {v} ({why})")
        else:
            parts.append(f"so {lay.name(c)} is not {v}")
    chain = ", ".join(parts)
    if placed:
        result = f"so {lay.name(c0)} must be {v0}"
    elif c0 == c1:
        result = (
            f"so {lay.name(c0)} is {v0} or {v1}: remove "
            f"{', '.join(str(v) for _, v in elim)} from it"
        )
    else:
        result = f"so {lay.name(c0)} is {v0} or {lay.name(c1)} is {v1}: remove " + "; ".join(
            f"{v} from {lay.name(c)}" for c, v in elim
        )
        if v0 == v1:
            result = (
                f"so {v0} is in {lay.name(c0)} or in {lay.name(c1)}, and no cell that sees "
                f"both can be {v0}: remove {v0} from {cells_text([c for c, _ in elim], n)}"
            )
    text = f"{chain[0].upper()}{chain[1:]}; {result}"
    cells = tuple(dict.fromkeys(c for (c, _), _, _ in path))
    units = tuple(dict.fromkeys(u for _, _, u in path if u >= 0))
    return Step(mode.technique, placed, elim, cells, units, text)


def x_chain(cand: Candidates) -> Step | None:
    """A chain on one value through units where it has two places."""
    return _search(cand, X_MODE)


def xy_chain(cand: Candidates) -> Step | None:
    """A chain through two-value cells."""
    return _search(cand, XY_MODE)


def aic(cand: Candidates) -> Step | None:
    """A chain mixing both kinds of strong link."""
    return _search(cand, AIC_MODE)


SEARCHES: dict[Technique, Callable[[Candidates], Step | None]] = {
    Technique.X_CHAIN: x_chain,
    Technique.XY_CHAIN: xy_chain,
    Technique.AIC: aic,
}
