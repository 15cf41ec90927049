"""Basic fish: X-Wing, Swordfish, Jellyfish for one value over k rows (or columns)."""

from __future__ import annotations

from itertools import combinations

from .candidates import Candidates, bit
from .step import Step, Technique
from .words import cells_text, join

FISH = {2: Technique.X_WING, 3: Technique.SWORDFISH, 4: Technique.JELLYFISH}


def fish(cand: Candidates, k: int) -> Step | None:
    """k rows where a value fits only in the same k columns (or the other way round)."""
    lay = cand.layout
    n = lay.size
    masks, values = cand.masks, cand.values
    for v in range(1, n + 1):
        b = bit(v)
        for by_rows in (True, False):
            lines: dict[int, int] = {}
            for i in range(n):
                spots = 0
                for j in range(n):
                    c = i * n + j if by_rows else j * n + i
                    if not values[c] and masks[c] & b:
                        spots |= 1 << j
                if 2 <= spots.bit_count() <= k:
                    lines[i] = spots
            if len(lines) < k:
                continue
            for base in combinations(sorted(lines), k):
                cover = 0
                for i in base:
                    cover |= lines[i]
                if cover.bit_count() != k:
                    continue
                step = _fish_step(cand, v, k, by_rows, base, cover)
                if step is not None:
                    return step
    return None


def _fish_step(
    cand: Candidates, v: int, k: int, by_rows: bool, base: tuple[int, ...], cover: int
) -> Step | None:
    """The step for a found fish, or None when it removes nothing."""
    lay = cand.layout
    n = lay.size
    b = bit(v)
    cover_idx = [j for j in range(n) if cover >> j & 1]

    def at(i: int, j: int) -> int:
        return i * n + j if by_rows else j * n + i

    elim = tuple(
        (at(i, j), v)
        for j in cover_idx
        for i in range(n)
        if i not in base and not cand.values[at(i, j)] and cand.masks[at(i, j)] & b
    )
    if not elim:
        return None
    cells = tuple(sorted(at(i, j) for i in base for j in cover_idx if cand.has(at(i, j), v)))
    base_units = tuple(i if by_rows else n + i for i in base)
    cover_units = tuple(n + j if by_rows else j for j in cover_idx)
    bw, cw = ("rows", "columns") if by_rows else ("columns", "rows")
    text = (
        f"In {bw} {join([str(i + 1) for i in base])}, {v} can only go in {cw} "
        f"{join([str(j + 1) for j in cover_idx])} ({cells_text(cells, n)}); each of those "
        f"{bw} needs a {v}, so they fill those {cw} with {v} and no other cell of them "
        f"can hold it: remove {v} from {cells_text(sorted(c for c, _ in elim), n)}"
    )
    return Step(FISH[k], (), elim, cells, base_units + cover_units, text)
