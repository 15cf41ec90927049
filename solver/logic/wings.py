"""Wings: XY-Wing, XYZ-Wing and W-Wing, built from cells with two or three candidates."""

from __future__ import annotations

from .candidates import Candidates, Layout, values_of
from .step import Step, Technique
from .words import cells_text


def _seen_by_all(cand: Candidates, cells: tuple[int, ...], value: int) -> tuple[int, ...]:
    """Open cells outside `cells` that see every one of them and can take the value."""
    lay = cand.layout
    common = set(lay.peer_sets[cells[0]])
    for c in cells[1:]:
        common &= lay.peer_sets[c]
    return tuple(sorted(c for c in common if c not in cells and cand.has(c, value)))


def _bivalue(cand: Candidates) -> list[int]:
    """Open cells with exactly two candidates."""
    return [c for c in cand.open_cells() if cand.masks[c].bit_count() == 2]


def _pair(mask: int) -> str:
    """'3/7' for a mask of two values."""
    return "/".join(str(v) for v in values_of(mask))


def xy_wing(cand: Candidates) -> Step | None:
    """Pivot xy sees wings xz and yz: whichever it is, one wing is z."""
    lay = cand.layout
    masks = cand.masks
    biv = _bivalue(cand)
    for p in biv:
        mp = masks[p]
        wings = [c for c in biv if c in lay.peer_sets[p] and (masks[c] & mp).bit_count() == 1]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                ma, mb = masks[a], masks[b]
                z = ma & ~mp
                if z != mb & ~mp or (ma & mp) == (mb & mp):
                    continue
                zv = values_of(z)[0]
                elim = _seen_by_all(cand, (a, b), zv)
                elim = tuple(c for c in elim if c != p)
                if elim:
                    return _wing_step(lay, Technique.XY_WING, (p, a, b), zv, elim, masks)
    return None


def xyz_wing(cand: Candidates) -> Step | None:
    """Pivot xyz sees wings xz and yz: one of the three is z."""
    lay = cand.layout
    masks = cand.masks
    biv = _bivalue(cand)
    for p in cand.open_cells():
        mp = masks[p]
        if mp.bit_count() != 3:
            continue
        wings = [c for c in biv if c in lay.peer_sets[p] and masks[c] & mp == masks[c]]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                ma, mb = masks[a], masks[b]
                if ma | mb != mp or ma == mb:
                    continue
                zv = values_of(ma & mb)[0]
                elim = _seen_by_all(cand, (p, a, b), zv)
                if elim:
                    return _wing_step(lay, Technique.XYZ_WING, (p, a, b), zv, elim, masks)
    return None


def _wing_step(
    lay: Layout,
    tech: Technique,
    cells: tuple[int, int, int],
    z: int,
    elim: tuple[int, ...],
    masks: list[int],
) -> Step:
    """The step for an XY- or XYZ-Wing."""
    p, a, b = cells
    n = lay.size
    name = lay.name
    text = (
        f"{tech.value} with pivot {name(p)} ({_pair(masks[p])}) and wings {name(a)} "
        f"({_pair(masks[a])}) and {name(b)} ({_pair(masks[b])}): whatever the pivot holds, "
        f"one of the wings{' or the pivot' if tech is Technique.XYZ_WING else ''} must be "
        f"{z}, so no cell that sees all of them can be {z}: remove {z} from "
        f"{cells_text(elim, n)}"
    )
    return Step(tech, (), tuple((c, z) for c in elim), cells, (), text)


def w_wing(cand: Candidates) -> Step | None:
    """Two far-apart x/y cells joined by a strong link on x: one of them is y."""
    lay = cand.layout
    masks = cand.masks
    n = lay.size
    biv = _bivalue(cand)
    links = _strong_links(cand)
    for i, a in enumerate(biv):
        for b in biv[i + 1 :]:
            if masks[a] != masks[b] or b in lay.peer_sets[a]:
                continue
            for x in values_of(masks[a]):
                y = values_of(masks[a] & ~(1 << (x - 1)))[0]
                elim = _seen_by_all(cand, (a, b), y)
                if not elim:
                    continue
                for u, e1, e2 in links.get(x, ()):
                    if a in (e1, e2) or b in (e1, e2):
                        continue
                    for s, t in ((e1, e2), (e2, e1)):
                        if s in lay.peer_sets[a] and t in lay.peer_sets[b]:
                            text = (
                                f"{lay.name(a)} and {lay.name(b)} both hold only "
                                f"{_pair(masks[a])}, and in {lay.unit_name(u)} {x} must go in "
                                f"{lay.name(s)} or {lay.name(t)}, which see them: so one of "
                                f"{lay.name(a)} and {lay.name(b)} is not {x}, hence is {y}; "
                                f"remove {y} from {cells_text(elim, n)} (W-Wing)"
                            )
                            return Step(
                                Technique.W_WING,
                                (),
                                tuple((c, y) for c in elim),
                                (a, b, s, t),
                                (u,),
                                text,
                            )
    return None


def _strong_links(cand: Candidates) -> dict[int, list[tuple[int, int, int]]]:
    """For each value, (unit, cell, cell) where the value fits exactly those two cells."""
    lay = cand.layout
    links: dict[int, list[tuple[int, int, int]]] = {}
    for u in range(len(lay.units)):
        for v in range(1, lay.size + 1):
            spots = cand.positions(u, v)
            if len(spots) == 2:
                links.setdefault(v, []).append((u, spots[0], spots[1]))
    return links
