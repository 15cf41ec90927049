"""Naked and hidden subsets: k cells of a unit that between them hold exactly k values."""

from __future__ import annotations

from itertools import combinations

from .candidates import Candidates, bit, values_of
from .step import Step, Technique
from .words import cells_text, removal_text, values_text

NAKED = {2: Technique.NAKED_PAIR, 3: Technique.NAKED_TRIPLE, 4: Technique.NAKED_QUAD}
HIDDEN = {2: Technique.HIDDEN_PAIR, 3: Technique.HIDDEN_TRIPLE, 4: Technique.HIDDEN_QUAD}
WORD = {2: "pair", 3: "triple", 4: "quad"}


def naked_subset(cand: Candidates, k: int) -> Step | None:
    """k cells of a unit whose candidates together are k values: no other cell gets them."""
    lay = cand.layout
    masks, values = cand.masks, cand.values
    n = lay.size
    for u, unit in enumerate(lay.units):
        open_cells = [c for c in unit if not values[c]]
        if len(open_cells) <= k:
            continue
        small = [c for c in open_cells if 2 <= masks[c].bit_count() <= k]
        for group in combinations(small, k):
            union = 0
            for c in group:
                union |= masks[c]
            if union.bit_count() != k:
                continue
            elim = tuple(
                (c, v)
                for c in open_cells
                if c not in group and masks[c] & union
                for v in values_of(masks[c] & union)
            )
            if not elim:
                continue
            vals = values_of(union)
            text = (
                f"In {lay.unit_name(u)}, {cells_text(group, n)} can only hold "
                f"{values_text(vals)} between them (a naked {WORD[k]}), so no other cell "
                f"of {lay.unit_name(u)} can: remove {removal_text(elim, n)}"
            )
            return Step(NAKED[k], (), elim, tuple(group), (u,), text)
    return None


def hidden_subset(cand: Candidates, k: int) -> Step | None:
    """k values that in a unit fit only the same k cells: those cells hold nothing else."""
    lay = cand.layout
    masks, values = cand.masks, cand.values
    n = lay.size
    for u, unit in enumerate(lay.units):
        open_cells = [c for c in unit if not values[c]]
        if len(open_cells) <= k:
            continue
        where: dict[int, int] = {}
        for v in range(1, n + 1):
            b = bit(v)
            spots = 0
            for i, c in enumerate(open_cells):
                if masks[c] & b:
                    spots |= 1 << i
            if 2 <= spots.bit_count() <= k:
                where[v] = spots
        for group in combinations(sorted(where), k):
            spots = 0
            for v in group:
                spots |= where[v]
            if spots.bit_count() != k:
                continue
            keep = 0
            for v in group:
                keep |= bit(v)
            cells = tuple(open_cells[i] for i in range(len(open_cells)) if spots >> i & 1)
            elim = tuple((c, v) for c in cells for v in values_of(masks[c] & ~keep))
            if not elim:
                continue
            text = (
                f"In {lay.unit_name(u)}, {values_text(group)} can only go in "
                f"{cells_text(cells, n)} (a hidden {WORD[k]}), so those cells hold nothing "
                f"else: remove {removal_text(elim, n)}"
            )
            return Step(HIDDEN[k], (), elim, cells, (u,), text)
    return None
