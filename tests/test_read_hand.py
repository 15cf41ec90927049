"""A hand's copies of one glyph, all disagreeing with the answer alike, are read as one."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from sudokucam.vision.pipeline import PipelineConfig, Reader, default_reader
from sudokucam.vision.read.config import ReadConfig
from sudokucam.vision.read.hand import (
    HandCells,
    HandConfig,
    copies_of_one_glyph,
    group_posterior,
    read_as_the_hand_writes,
)
from sudokucam.vision.read.kind_trace import KindStep
from sudokucam.vision.read.pen import DEFAULT_PEN_CONFIG
from sudokucam.vision.types import CellScores

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "progress" / "nearly_done"
PEN_ONE, PEN_SEVEN = 10, 16  # the classes of a handwritten 1 and 7


@dataclass(frozen=True)
class OnesReadAsSevens:
    """The shipped classifier, except that it takes this hand's 1s (at most ``limit`` of
    them, in reading order) for 7s, surely: as the model reads a 1 with a long flag."""

    limit: int = 81

    def lean(self, scores: CellScores) -> CellScores:
        """The scores with the pen 1s read as pen 7s (0.97)."""
        probs = scores.probs.copy()
        ones = np.flatnonzero(probs.argmax(axis=1) == PEN_ONE)[: self.limit]
        probs[ones] = 1e-3
        probs[ones, PEN_SEVEN] = 0.97
        return replace(scores, probs=probs / probs.sum(axis=1, keepdims=True))

    def score(self, warped: np.ndarray, config: ReadConfig) -> CellScores:
        """The shipped scores, leaned."""
        return self.lean(default_reader().classifier.score(warped, config))

    def score_upright(
        self, warped: np.ndarray, config: ReadConfig, upright: CellScores | None = None
    ) -> tuple[int, CellScores]:
        """The shipped upright scores, leaned."""
        k, scores = default_reader().classifier.score_upright(warped, config)
        return k, self.lean(scores)


def sample_pen() -> str:
    """The nearly-done sample's pen entries as drawn (81 characters)."""
    truth = json.loads(SAMPLE.with_suffix(".json").read_text())
    return "".join(str(d) for row in truth["pen"] for d in row)


def test_a_hands_ones_read_as_sevens_are_read_as_ones() -> None:
    """The sample's five pen 1s, all read surely as 7s where the answer is 1, are copies
    of one glyph unlike the hand's own 7s: read as the 1s they are, and traced."""
    pen = sample_pen()
    ones = [c for c, d in enumerate(pen) if d == "1"]
    assert len(ones) == 5
    grid = Reader(OnesReadAsSevens()).read(SAMPLE.with_suffix(".jpg")).grids[0]
    assert grid.handwritten == pen
    assert not grid.unsure_entries() and not set(grid.wrong_entries) & set(ones)
    assert grid.reading.trace is not None
    hand = {c.cell for c in grid.reading.trace.later if c.step is KindStep.HAND}
    assert hand == set(ones)
    assert all(grid.reading.trace.held(c) == (1, grid.reading.kinds[c]) for c in ones)
    assert np.all(grid.confidence[ones] > 0.5)


def test_without_the_step_the_ones_are_asked_about() -> None:
    """With the step off, each of the five is asked about ("7 or 1?")."""
    off = PipelineConfig(read=ReadConfig(hand=HandConfig(min_group=0)))
    grid = Reader(OnesReadAsSevens(), off).read(SAMPLE.with_suffix(".jpg")).grids[0]
    asked = {(u.cell, u.reading, u.other) for u in grid.unsure_entries()}
    pen = sample_pen()
    assert asked == {(c, 7, 1) for c, d in enumerate(pen) if d == "1"}


def test_one_one_read_as_seven_is_read_with_the_hands_other_ones() -> None:
    """A single 1 read as 7 (the others read right) is a copy of the hand's 1s, not of
    its 7s: read as 1, traced."""
    grid = Reader(OnesReadAsSevens(limit=1)).read(SAMPLE.with_suffix(".jpg")).grids[0]
    assert grid.handwritten == sample_pen()
    assert not grid.unsure_entries()
    assert grid.reading.trace is not None
    (change,) = [c for c in grid.reading.trace.later if c.step is KindStep.HAND]
    assert sample_pen()[change.cell] == "1" and change.digit == 1


def stroke(points: list[tuple[int, int]], shift: int = 0) -> np.ndarray:
    """A 28×28 ink image (1 = ink) of a polyline, moved right by ``shift`` pixels."""
    ink = np.zeros((28, 28), dtype=np.float32)
    moved = np.array([(x + shift, y) for x, y in points], dtype=np.int32)
    cv2.polylines(ink, [moved], False, 1.0, 2)
    return ink


FLAGGED_ONE = [(8, 10), (14, 4), (14, 24)]  # a long flag and a stem
BARRED_SEVEN = [(6, 5), (21, 5), (11, 24)]  # a bar and a slanted stroke


def cells_of(inks: dict[int, np.ndarray]) -> np.ndarray:
    """(81, 28, 28) ink images, blank but for ``inks``."""
    cells = np.zeros((81, 28, 28), dtype=np.float32)
    for cell, ink in inks.items():
        cells[cell] = ink
    return cells


def test_copies_join_only_when_more_alike_than_the_hands_own_digit() -> None:
    """Two flagged 1s are copies, unlike the hand's 7; a 7 and a flagged 1 are not."""
    cells = cells_of({0: stroke(FLAGGED_ONE), 1: stroke(FLAGGED_ONE, 1), 2: stroke(BARRED_SEVEN)})
    config = HandConfig()
    assert copies_of_one_glyph(cells, HandCells(7, 1, [0, 1], [2], []), config) == [[0, 1]]
    assert copies_of_one_glyph(cells, HandCells(7, 1, [0, 2], [], []), config) == []
    # the two as like the hand's own 7s as each other: the hand's 7, two mistakes maybe
    sevens = cells_of(
        {0: stroke(BARRED_SEVEN), 1: stroke(BARRED_SEVEN, 1), 2: stroke(BARRED_SEVEN)}
    )
    assert copies_of_one_glyph(sevens, HandCells(7, 1, [0, 1], [2], []), config) == []


def test_a_single_cell_joins_the_hands_answer_digit_it_matches_clearly_better() -> None:
    """One flagged 1 read as 7 is a copy of the hand's 1 (read 1 where the answer is 1),
    not of its 7; a barred 7 written where the answer is 1 (a mistake) stays apart."""
    cells = cells_of(
        {0: stroke(FLAGGED_ONE), 1: stroke(FLAGGED_ONE, 1), 2: stroke(BARRED_SEVEN)}
        | {3: stroke(BARRED_SEVEN, 1)}
    )
    config = HandConfig()
    assert copies_of_one_glyph(cells, HandCells(7, 1, [0], [2], [1]), config) == [[0, 1]]
    assert copies_of_one_glyph(cells, HandCells(7, 1, [3], [2], [1]), config) == []


def test_the_ink_counts_once_per_glyph_and_the_answer_once_per_cell() -> None:
    """One cell read 7 at 0.99 against the answer 1 stays 7; two copies of it read 1."""
    evidence = np.full(9, 0.001)
    evidence[6], evidence[0] = 0.99, 0.002
    alone = group_posterior(evidence[None, :], 1, 1, DEFAULT_PEN_CONFIG)
    pair = group_posterior(np.stack([evidence, evidence]), 2, 1, DEFAULT_PEN_CONFIG)
    assert int(np.argmax(alone)) + 1 == 7
    assert int(np.argmax(pair)) + 1 == 1 and pair[0] > 0.8


def test_a_copy_of_an_answer_digit_the_classifier_also_misread_counts_its_prior() -> None:
    """A flagged 1 read 7 where the answer is 1, a copy of a cell of the answer's 1 that
    the classifier also read as 7 (the prior alone set it right): the two cells' answers
    both say 1, so the glyph is read 1; with the copy's prior left out it stayed 7."""
    ones = {0: stroke(FLAGGED_ONE), 1: stroke(FLAGGED_ONE, 1)}
    sevens = {c: stroke(BARRED_SEVEN, c - 2) for c in (2, 3, 4)}
    cells = cells_of(ones | sevens)
    evidence = np.full((81, 9), 0.001)
    evidence[:, 6], evidence[:, 0] = 0.99, 0.002  # every cell's ink reads 7
    solution = "11777" + "2" * 76
    out = read_as_the_hand_writes(cells, evidence, "71777" + "0" * 76, solution)
    assert out.digits == {0: 1}
    one_prior = group_posterior(evidence[:2], 1, 1, DEFAULT_PEN_CONFIG)
    assert int(np.argmax(one_prior)) + 1 == 7


@pytest.mark.parametrize("solution", [None, "1" * 81])
def test_nothing_changes_without_an_answer_or_copies(solution: str | None) -> None:
    """No answer, or no pen entry disagreeing twice alike: nothing is read again."""
    cells = cells_of({0: stroke(FLAGGED_ONE), 1: stroke(BARRED_SEVEN)})
    evidence = np.full((81, 9), 1 / 9)
    handwritten = "77" + "0" * 79
    out = read_as_the_hand_writes(cells, evidence, handwritten, solution)
    assert out.digits == {} and out.probability == {}


def test_copies_are_told_from_the_hands_own_digit_only_when_it_is_seen_enough() -> None:
    """Two flagged 1s read as 7 where the answer is 1 are read again only when the hand's
    own 7 (read 7 where the answer is 7) is seen at least ``min_own`` times."""
    ones = {0: stroke(FLAGGED_ONE), 1: stroke(FLAGGED_ONE, 1)}
    sevens = {c: stroke(BARRED_SEVEN, c - 2) for c in (2, 3, 4)}
    cells = cells_of(ones | sevens)
    evidence = np.full((81, 9), 0.001)
    evidence[:, 6], evidence[:, 0] = 0.99, 0.005
    solution = "11777" + "2" * 76
    seen = read_as_the_hand_writes(cells, evidence, "77777" + "0" * 76, solution)
    assert seen.digits == {0: 1, 1: 1}
    assert all(p > 0.5 for p in seen.probability.values())
    twice = read_as_the_hand_writes(cells, evidence, "7777" + "0" * 77, solution)
    assert twice.digits == {}
