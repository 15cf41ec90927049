"""A hand writes each digit its own way: pen entries read with the hand's other glyphs.

The classifier can take one person's way of writing a digit for another digit (a 1 with
a long flag read as 7, a 7 with a short bar read as 1). Then every cell where that
person wrote the digit is read as the same other digit, and each disagrees with the
answer the same way: read 7 where the answer is 1. A person rarely makes one mistake
twice with ink so alike, and a mistake looks like the person's way of writing the digit
written, not the answer's.

So once the answer is known, a pen cell read as one digit where the answer is another is
compared (``copies.similarity``) with the hand's other cells: its own digit read where the
answer agrees (the person's way of writing it, seen at least ``HandConfig.min_own``
times), the answer's digit where the answer agrees, and the cells disagreeing the same
way. Two disagreeing cells more like each other than either is like any of the hand's
own digit read are copies of one glyph; so is a disagreeing cell and one of the answer's
digit that it matches clearly better (``answer_margin``) than any of its own digit read.
A group of copies is weighed once, as one reading (``pen.read_pen_entries`` weighs each
cell alone): the ink's evidence once for the group, as one glyph seen several times is
the same evidence several times, and the answer's prior once per cell of the group: the
answer holds the same digit in each, each its own chance to be right (a cell of the
answer's digit that the classifier took for the other, set right by the prior alone,
tells how the hand writes it as much as the disagreeing ones). Where that puts the
answer's digit first, the disagreeing cells are read as it, its posterior their
confidence.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .copies import similarity
from .groups import joined_roots
from .pen import DEFAULT_PEN_CONFIG, PenConfig


@dataclass(frozen=True)
class HandConfig:
    """When pen cells disagreeing with the answer are copies of the hand's other glyphs.

    min_alike: the least similarity (normalised cross-correlation, best over shifts of up
        to ``shift_px``) of two cells to be copies.
    min_own: the fewest cells of the hand read as the digit where the answer agrees (its
        own way of writing that digit) for copies to be told from it. With fewer, two of
        the person's mistakes alike could be more like each other by chance.
    answer_margin: how much better a cell must match one of the hand's cells of the
        answer's digit (read so, agreeing) than any of its own digit read to be its copy.
        Two cells disagreeing alike need only match each other better than either matches
        its own digit read: one mistake made twice so alike is rare.
    min_group: the fewest cells weighed as one glyph; 0 turns the step off.
    """

    min_alike: float = 0.75
    shift_px: int = 3
    min_own: int = 3
    answer_margin: float = 0.05
    min_group: int = 2


DEFAULT_HAND_CONFIG = HandConfig()


@dataclass(frozen=True)
class HandReading:
    """Pen cells read again as copies of one glyph: the digit and its posterior each."""

    digits: dict[int, int]
    probability: dict[int, float]


@dataclass(frozen=True)
class HandCells:
    """The hand's pen cells around one disagreement: read ``read`` where the answer is
    ``answer``.

    disagreeing: the cells read so; own: those read ``read`` where the answer agrees (the
    hand's own way of writing it); answers: those read ``answer`` where the answer agrees.
    """

    read: int
    answer: int
    disagreeing: list[int]
    own: list[int]
    answers: list[int]


def copies_of_one_glyph(cells: np.ndarray, hand: HandCells, config: HandConfig) -> list[list[int]]:
    """The groups of copies of one glyph holding a disagreeing cell, of at least
    ``min_group`` cells (``joins`` says which two cells are copies)."""
    members = hand.disagreeing
    nodes = members + hand.answers

    def alike(a: int, b: int) -> float:
        return similarity(cells[a], cells[b], config.shift_px)

    like_own = {c: max((alike(c, o) for o in hand.own), default=-1.0) for c in members}
    pairs = [
        (i, j)
        for i, a in enumerate(members)
        for j, b in enumerate(nodes)
        if j > i and joins(alike(a, b), like_own[a], like_own.get(b), config)
    ]
    groups: dict[int, list[int]] = {}
    for node, root in enumerate(joined_roots(len(nodes), pairs)):
        groups.setdefault(root, []).append(nodes[node])
    size = max(config.min_group, 2)
    return [g for g in groups.values() if len(g) >= size and set(g) & set(members)]


def joins(match: float, own: float, other_own: float | None, config: HandConfig) -> bool:
    """Whether a disagreeing cell is a copy of another cell it matches ``match``, given
    how well each matches the hand's own digit read (``own``; ``other_own`` None when the
    other is a cell of the answer's digit). Two disagreeing cells join when they match at
    least ``min_alike`` and better than either matches its own digit read; a cell of the
    answer's digit when they match at least ``min_alike`` and by ``answer_margin`` better."""
    if match < config.min_alike:
        return False
    if other_own is None:
        return match >= own + config.answer_margin
    return match > max(own, other_own)


def group_ink(evidence: np.ndarray) -> np.ndarray:
    """(9,) the ink's evidence of a group of copies from their (k, 9): counted once, as
    the geometric mean over the copies."""
    return np.asarray(np.exp(np.log(np.maximum(evidence, 1e-12)).mean(axis=0)))


def group_posterior(evidence: np.ndarray, cells: int, answer: int, pen: PenConfig) -> np.ndarray:
    """(9,) posterior of each digit for a group of copies of one glyph, from its (k, 9)
    digit evidence: the ink's evidence once (``group_ink``), the answer's prior once per
    cell (``cells`` of them, each its own chance to be right)."""
    log_prior = np.full(9, np.log((1.0 - pen.right_prior) / 8.0))
    log_prior[answer - 1] = np.log(pen.right_prior)
    log_post = np.log(group_ink(evidence)) + cells * log_prior
    post = np.exp(log_post - log_post.max())
    return np.asarray(post / post.sum())


def hand_cells(handwritten: str, solution: str) -> list[HandCells]:
    """The hand's cells around each disagreement (read one digit where the answer is
    another), one per pair of digits."""
    pen = [c for c, d in enumerate(handwritten) if d != "0"]
    agreeing: dict[str, list[int]] = {}
    disagreeing: dict[tuple[str, str], list[int]] = {}
    for c in pen:
        if handwritten[c] == solution[c]:
            agreeing.setdefault(handwritten[c], []).append(c)
        else:
            disagreeing.setdefault((handwritten[c], solution[c]), []).append(c)
    return [
        HandCells(int(r), int(a), cells, agreeing.get(r, []), agreeing.get(a, []))
        for (r, a), cells in disagreeing.items()
    ]


def read_as_the_hand_writes(
    cells: np.ndarray | None,
    evidence: np.ndarray,
    handwritten: str,
    solution: str | None,
    config: HandConfig = DEFAULT_HAND_CONFIG,
    pen: PenConfig = DEFAULT_PEN_CONFIG,
) -> HandReading:
    """The pen cells disagreeing with the answer that are copies of the hand's other
    glyphs (of each other, or of its answer's digit), read again with them.

    ``cells``: (81, N, N) ink images; ``evidence``: (81, 9) each digit's share per cell
    (``pen.digit_evidence``); ``handwritten``: the pen digits ('0' where none). Nothing
    changes without ink images, an answer, or with the step off.
    """
    out = HandReading({}, {})
    if cells is None or solution is None or config.min_group == 0 or pen.right_prior == 0:
        return out
    for hand in hand_cells(handwritten, solution):
        if len(hand.own) < config.min_own:
            continue  # the hand's own way of writing the digit read is not seen enough
        for group in copies_of_one_glyph(cells, hand, config):
            mine = [c for c in group if c in hand.disagreeing]
            post = group_posterior(evidence[group], len(group), hand.answer, pen)
            if int(np.argmax(post)) + 1 == hand.answer:
                for c in mine:
                    out.digits[c] = hand.answer
                    out.probability[c] = float(post[hand.answer - 1])
    return out
