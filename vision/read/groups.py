"""Things joined pairwise, grouped: a union-find over the items 0 .. n-1.

Cells joined across borders that are not region or cage borders, pen cells that are
copies of one glyph: each is a set of pairs whose connected groups are wanted.
"""

from __future__ import annotations

from collections.abc import Iterable


def joined_roots(count: int, pairs: Iterable[tuple[int, int]]) -> list[int]:
    """For each of ``count`` items, the name of its group (one of its items): items joined
    by ``pairs``, directly or through others, share one."""
    parent = list(range(count))

    def root(item: int) -> int:
        while parent[item] != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    for a, b in pairs:
        parent[root(a)] = root(b)
    return [root(item) for item in range(count)]
