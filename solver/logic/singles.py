"""Singles: the only value a cell can take, the only cell a value can go to in a unit."""

from __future__ import annotations

from .candidates import Candidates, bit, values_of
from .step import Step, Technique
from .words import values_text


def hidden_single(cand: Candidates) -> Step | None:
    """A value with one place left in a box, then in a row or column."""
    lay = cand.layout
    n = lay.size
    masks, values = cand.masks, cand.values
    for u in (*range(2 * n, 3 * n), *range(2 * n)):
        unit = lay.units[u]
        once = twice = placed = 0
        for c in unit:
            m = masks[c]
            if values[c]:
                placed |= m
            else:
                twice |= once & m
                once |= m
        only = once & ~twice & ~placed
        if not only:
            continue
        v = values_of(only)[0]
        b = bit(v)
        cell = next(c for c in unit if not values[c] and masks[c] & b)
        kind = lay.unit_name(u)
        return Step(
            Technique.HIDDEN_SINGLE,
            placements=((cell, v),),
            eliminations=(),
            cells=(cell,),
            units=(u,),
            explanation=f"{lay.name(cell)} must be {v}: it is the only cell in {kind} "
            f"where {v} can go",
        )
    return None


def naked_single(cand: Candidates) -> Step | None:
    """An open cell with one candidate left."""
    lay = cand.layout
    masks, values = cand.masks, cand.values
    for cell, v in enumerate(values):
        m = masks[cell]
        if v or not m or m & (m - 1):
            continue
        value = values_of(m)[0]
        r, c, b = lay.units_of[cell]
        seen = 0
        for p in lay.peers[cell]:
            if values[p]:
                seen |= masks[p]
        others = values_of(lay.full & ~m)
        name = lay.name(cell)
        if seen | m == lay.full:
            why = (
                f"it is the only value not already in {lay.unit_name(r)}, "
                f"{lay.unit_name(c)} or {lay.unit_name(b)}"
            )
        else:
            why = f"every other value ({values_text(others)}) is ruled out for it"
        return Step(
            Technique.NAKED_SINGLE,
            placements=((cell, value),),
            eliminations=(),
            cells=(cell,),
            units=(r, c, b),
            explanation=f"{name} must be {value}: {why}",
        )
    return None
