"""Simple colouring and unique rectangles."""

from __future__ import annotations

from itertools import combinations

from .candidates import Candidates, bit, values_of
from .step import Step, Technique
from .words import cells_text


def _components(cand: Candidates, v: int) -> list[dict[int, int]]:
    """Chains of conjugate pairs for a value, each cell coloured 0 or 1."""
    lay = cand.layout
    graph: dict[int, list[int]] = {}
    for u in range(len(lay.units)):
        spots = cand.positions(u, v)
        if len(spots) == 2:
            a, b = spots
            graph.setdefault(a, []).append(b)
            graph.setdefault(b, []).append(a)
    seen: set[int] = set()
    comps = []
    for start in sorted(graph):
        if start in seen:
            continue
        colour = {start: 0}
        todo = [start]
        while todo:
            c = todo.pop()
            for d in graph[c]:
                if d not in colour:
                    colour[d] = 1 - colour[c]
                    todo.append(d)
        seen |= colour.keys()
        if len(colour) >= 3:
            comps.append(colour)
    return comps


def simple_colouring(cand: Candidates) -> Step | None:
    """Colour a chain of conjugate pairs: one colour holds the value, the other does not."""
    lay = cand.layout
    n = lay.size
    for v in range(1, n + 1):
        for colour in _components(cand, v):
            groups = [sorted(c for c, k in colour.items() if k == i) for i in (0, 1)]
            chain = tuple(sorted(colour))
            # Colour wrap: two cells of one colour share a unit, so that colour is false.
            for i in (0, 1):
                for a, b in combinations(groups[i], 2):
                    if b in lay.peer_sets[a]:
                        elim = tuple((c, v) for c in groups[i])
                        text = (
                            f"Colour the chain of cells where {v} has only two places: "
                            f"{cells_text(groups[0], n)} (colour A) and "
                            f"{cells_text(groups[1], n)} (colour B); one colour is all {v}. "
                            f"{lay.name(a)} and {lay.name(b)} have the same colour and share "
                            f"a unit, so that colour cannot be {v}: remove {v} from "
                            f"{cells_text(groups[i], n)}"
                        )
                        return Step(Technique.SIMPLE_COLOURING, (), elim, chain, (), text)
            # Colour trap: a cell that sees both colours cannot hold the value.
            b = bit(v)
            elim = tuple(
                (c, v)
                for c in cand.open_cells()
                if c not in colour
                and cand.masks[c] & b
                and any(d in lay.peer_sets[c] for d in groups[0])
                and any(d in lay.peer_sets[c] for d in groups[1])
            )
            if elim:
                text = (
                    f"Colour the chain of cells where {v} has only two places: "
                    f"{cells_text(groups[0], n)} (colour A) and {cells_text(groups[1], n)} "
                    f"(colour B); one colour is all {v}. "
                    f"{cells_text([c for c, _ in elim], n)} see{'s' if len(elim) == 1 else ''}"
                    f" both colours, so cannot be {v}"
                )
                return Step(Technique.SIMPLE_COLOURING, (), elim, chain, (), text)
    return None


def unique_rectangle(cand: Candidates) -> Step | None:
    """Three corners x/y of a two-box rectangle: the fourth must not be x/y (one solution)."""
    lay = cand.layout
    n = lay.size
    masks, values = cand.masks, cand.values
    shape = lay.shape
    biv = [c for c in cand.open_cells() if masks[c].bit_count() == 2]
    for a, b in combinations(biv, 2):
        if masks[a] != masks[b] or shape.row(a) != shape.row(b):
            continue
        m = masks[a]
        ca, cb = shape.col(a), shape.col(b)
        for r in range(n):
            if r == shape.row(a):
                continue
            c, d = r * n + ca, r * n + cb
            if values[c] or values[d]:
                continue
            if len({shape.box(x) for x in (a, b, c, d)}) != 2:
                continue
            for third, fourth in ((c, d), (d, c)):
                if masks[third] == m and masks[fourth] & m == m and masks[fourth] != m:
                    xs = values_of(m)
                    elim = tuple((fourth, x) for x in xs)
                    text = (
                        f"{cells_text(sorted((a, b, third)), n)} hold only {xs[0]}/{xs[1]}, "
                        f"and with {lay.name(fourth)} they form a rectangle over two boxes. "
                        f"If {lay.name(fourth)} were {xs[0]} or {xs[1]}, the two values could "
                        f"swap and the puzzle would have two solutions; so remove "
                        f"{xs[0]} and {xs[1]} from {lay.name(fourth)}"
                    )
                    return Step(
                        Technique.UNIQUE_RECTANGLE,
                        (),
                        elim,
                        tuple(sorted((a, b, c, d))),
                        (),
                        text,
                    )
    return None
