"""Items joined pairwise fall into their connected groups."""

from __future__ import annotations

from sudokucam.vision.read.groups import joined_roots


def test_items_joined_directly_or_through_others_share_a_root() -> None:
    roots = joined_roots(6, [(0, 1), (2, 1), (4, 5)])
    assert roots[0] == roots[1] == roots[2]
    assert roots[4] == roots[5]
    assert len({roots[0], roots[3], roots[4]}) == 3
    assert joined_roots(3, []) == [0, 1, 2]
