"""Locked candidates: a value confined to where a box and a row or column cross."""

from __future__ import annotations

from .candidates import Candidates, values_of
from .step import Step, Technique
from .words import cells_text


def _locked(cand: Candidates, pointing: bool) -> Step | None:
    """Pointing (inside a box, only on one line) or claiming (inside a line, only one box)."""
    lay = cand.layout
    masks, values = cand.masks, cand.values
    units = lay.units
    for box, line, common in lay.intersections:
        inside = 0
        for c in common:
            if not values[c]:
                inside |= masks[c]
        if not inside:
            continue
        home, other = (box, line) if pointing else (line, box)
        common_set = set(common)
        rest_home = outside = 0
        for c in units[home]:
            if c not in common_set and not values[c]:
                rest_home |= masks[c]
        for c in units[other]:
            if c not in common_set and not values[c]:
                outside |= masks[c]
        locked = inside & ~rest_home & outside
        if not locked:
            continue
        v = values_of(locked)[0]
        b = 1 << (v - 1)
        targets = tuple(
            c for c in units[other] if c not in common_set and not values[c] and masks[c] & b
        )
        where = tuple(c for c in common if not values[c] and masks[c] & b)
        n = lay.size
        text = (
            f"in {lay.unit_name(home)}, {v} can only go in {cells_text(where, n)}, "
            f"all in {lay.unit_name(other)}; so {v} is removed from the rest of "
            f"{lay.unit_name(other)}: {cells_text(targets, n)}"
        )
        return Step(
            Technique.POINTING if pointing else Technique.CLAIMING,
            placements=(),
            eliminations=tuple((c, v) for c in targets),
            cells=where,
            units=(home, other),
            explanation=text[0].upper() + text[1:],
        )
    return None


def pointing(cand: Candidates) -> Step | None:
    """A value that, inside a box, lies on one row or column only."""
    return _locked(cand, pointing=True)


def claiming(cand: Candidates) -> Step | None:
    """A value that, inside a row or column, lies in one box only."""
    return _locked(cand, pointing=False)
