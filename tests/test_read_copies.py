"""The copies step: the cells of one puzzle read as the same digit, compared with each other.

Printed givens are copies of one glyph; a hand never writes a digit twice so alike. The
glyphs here are drawn with OpenCV's fonts: a printed 2 is one face at a pixel's shift and
a little noise, a written 2 a script face turned.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sudokucam.vision.read import copies
from sudokucam.vision.read.copies import (
    DEFAULT_COPY_CONFIG,
    CopyConfig,
    Writing,
    copy_evidence,
    copy_groups,
    digit_evidence,
    similarity,
)
from sudokucam.vision.read.decide import KindDecisionConfig, decide_kinds
from sudokucam.vision.read.kind_trace import KindStep
from sudokucam.vision.types import CellScores, Kind

SIDE = 32


def glyph(
    digit: int,
    *,
    font: int = cv2.FONT_HERSHEY_SIMPLEX,
    scale: float = 0.9,
    thickness: int = 2,
    shift: tuple[int, int] = (0, 0),
    angle: float = 0.0,
    seed: int = 0,
) -> np.ndarray:
    """A (32, 32) float32 ink image of ``digit`` in an OpenCV face, with a little noise."""
    image: np.ndarray = np.zeros((SIDE, SIDE), np.uint8)
    origin = (8 + shift[0], 25 + shift[1])
    cv2.putText(image, str(digit), origin, font, scale, 255, thickness, cv2.LINE_AA)
    if angle:
        turn = cv2.getRotationMatrix2D((SIDE / 2, SIDE / 2), angle, 1.0)
        image = np.asarray(cv2.warpAffine(image, turn, (SIDE, SIDE)), dtype=np.uint8)
    noise = np.random.default_rng(seed).normal(0, 0.03, image.shape)
    return np.clip(image / 255.0 + noise, 0, 1).astype(np.float32)


def printed(digit: int, seed: int) -> np.ndarray:
    """One printed copy of ``digit``: the same face, shifted by up to a pixel."""
    shifts = [(0, 0), (1, 0), (0, -1), (-1, 1)]
    return glyph(digit, shift=shifts[seed % len(shifts)], seed=seed)


def written(digit: int, seed: int) -> np.ndarray:
    """A written ``digit``: a script face, turned by a different angle each time."""
    return glyph(
        digit, font=cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, scale=1.1, thickness=1,
        angle=(-20, 15, 25)[seed % 3], seed=seed,
    )  # fmt: skip


def page(cells: dict[int, np.ndarray]) -> np.ndarray:
    """81 cell images, blank but for ``cells``."""
    out = np.zeros((81, SIDE, SIDE), np.float32)
    for cell, image in cells.items():
        out[cell] = image
    return out


def test_copies_of_one_glyph_match_and_a_hand_does_not() -> None:
    assert similarity(printed(2, 0), printed(2, 1), 3) > 0.95
    assert similarity(printed(2, 0), written(2, 1), 3) < 0.7
    assert similarity(written(2, 0), written(2, 1), 3) < 0.7


def test_groups_join_copies_and_keep_a_near_match_out() -> None:
    """Three copies that match each other at 0.97 take no cell matching them at 0.92."""
    sim = np.array(
        [
            [1.0, 0.97, 0.96, 0.92],
            [0.97, 1.0, 0.97, 0.92],
            [0.96, 0.97, 1.0, 0.93],
            [0.92, 0.92, 0.93, 1.0],
        ]
    )
    groups = copy_groups(sim, copy_from=0.9, spread=0.02)
    assert [g.tolist() for g in groups] == [[0, 1, 2]]
    loose = copy_groups(sim, copy_from=0.9, spread=0.1)
    assert [g.tolist() for g in loose] == [[0, 1, 2, 3]]


def test_printed_copies_the_classifier_took_for_pen_share_one_printed_decision() -> None:
    """An unfamiliar face: every copy of its 8 leans pen a little; together they are print."""
    cells = {c: printed(8, c) for c in (3, 20, 44, 61)}
    digits = np.zeros(81, np.int64)
    digits[list(cells)] = 8
    filled = digits > 0
    odds = np.zeros(81)
    odds[[3, 20, 44, 61]] = [-2.6, -1.2, -2.6, -1.6]
    after = odds + copy_evidence(odds, filled, digits, page(cells))
    assert np.all(after[filled] > 0)
    assert np.allclose(after[filled], after[3])  # one decision for the group


def test_a_written_digit_unlike_the_printed_copies_leans_pen() -> None:
    """A cursive 2 beside the puzzle's printed 2s, which the classifier calls printed."""
    cells = {0: printed(2, 0), 40: printed(2, 1), 80: printed(2, 2), 13: written(2, 0)}
    digits = np.zeros(81, np.int64)
    digits[list(cells)] = 2
    odds = np.zeros(81)
    odds[[0, 40, 80]] = 6.0
    odds[13] = 1.0
    added = copy_evidence(odds, digits > 0, digits, page(cells))
    assert odds[13] + added[13] < 0
    assert not added[[0, 40, 80]].any()  # sure cells keep their own log-odds


def test_a_sure_printed_call_unlike_the_puzzles_printed_glyph_leans_pen() -> None:
    """A solver's cursive 2 that the classifier calls printed as surely as the print
    (+6, as on the Times photos): in no group of copies, and matching the puzzle's printed
    2s (themselves copies) below ``unlike_below``, it is no given; the printed copies keep
    their call. (A digit whose cells are all sure is not compared: here another of the
    hand's 2s is unsure, as on those pages.)"""
    cells = {0: printed(2, 0), 40: printed(2, 1), 80: printed(2, 2), 13: written(2, 0)}
    cells[30] = written(2, 1)
    digits = np.zeros(81, np.int64)
    digits[list(cells)] = 2
    odds = np.zeros(81)
    odds[[0, 40, 80, 13, 30]] = [6.0, 6.0, 6.0, 6.0, 1.0]
    added = copy_evidence(odds, digits > 0, digits, page(cells))
    assert odds[13] + added[13] < 0 and odds[30] + added[30] < 0
    assert np.all(odds[[0, 40, 80]] + added[[0, 40, 80]] >= 6.0)
    off = CopyConfig(unlike_below=0.0)  # the rule off: a sure call stays as it is
    assert copy_evidence(odds, digits > 0, digits, page(cells), off)[13] == 0.0


def test_weight_zero_adds_nothing() -> None:
    cells = {c: printed(5, c) for c in (1, 2)}
    digits = np.zeros(81, np.int64)
    digits[[1, 2]] = 5
    odds = np.zeros(81)
    odds[[1, 2]] = -1.0
    config = CopyConfig(weight=0.0)
    assert not copy_evidence(odds, digits > 0, digits, page(cells), config).any()


def test_a_near_copy_leans_printed_only_on_a_page_without_writing() -> None:
    """A neat hand can come near the print (0.89 here, the printed copies 0.97): with
    writing on the page that says nothing; on a page without, it leans printed."""
    sim = np.array([[1.0, 0.97, 0.89], [0.97, 1.0, 0.88], [0.89, 0.88, 1.0]])
    odds = np.array([6.0, 6.0, -0.5])
    plain = digit_evidence(odds, sim, 3, DEFAULT_COPY_CONFIG, Writing(False, False))
    with_writing = digit_evidence(odds, sim, 3, DEFAULT_COPY_CONFIG, Writing(True, False))
    assert plain[2] > 0
    assert with_writing[2] == pytest.approx(-0.5)
    assert plain[0] == with_writing[0] > 6.0


def test_a_digit_unlike_the_print_leans_pen_by_how_unlike() -> None:
    """Below 0.85 a best match with the printed glyph leans pen, fully from 0.65."""
    odds = np.array([6.0, 6.0, 0.5])
    leans = []
    for best in (0.9 - 1e-6, 0.85, 0.75, 0.65, 0.4):
        sim = np.array([[1.0, 0.97, best], [0.97, 1.0, best], [best, best, 1.0]])
        after = digit_evidence(odds, sim, 4, DEFAULT_COPY_CONFIG, Writing(True, False))
        leans.append(after[2] - 0.5)
    assert leans[1] == pytest.approx(0.0)
    assert leans[0] == pytest.approx(0.0)  # nearly a copy: nothing, with writing
    assert 0 > leans[2] > leans[3] == pytest.approx(-2.5) == leans[4]


def test_pen_copies_stay_pen() -> None:
    """A hand that writes its 7 alike: copies holding a sure pen cell gain nothing, and on
    a page where the hand writes copies no group gains anything for being copies."""
    sim = np.full((3, 3), 0.95)
    np.fill_diagonal(sim, 1.0)
    odds = np.array([-8.0, -7.0, 1.0])  # the third one the classifier took for print
    after = digit_evidence(odds, sim, 7, DEFAULT_COPY_CONFIG, Writing(True, False))
    assert np.all(after < 0)
    unsure = np.array([-1.0, -1.5, 0.5])
    hand = digit_evidence(unsure, sim, 7, DEFAULT_COPY_CONFIG, Writing(True, True))
    assert np.allclose(hand, unsure.mean())
    plain = digit_evidence(unsure, sim, 7, DEFAULT_COPY_CONFIG, Writing(True, False))
    assert np.all(plain > 0)


@pytest.mark.parametrize("weight", [1.0, 0.0])
def test_decide_kinds_traces_the_copies_step(weight: float) -> None:
    """The copies step runs after the classifier and is named where it decided a cell."""
    cells = {c: printed(8, c) for c in (3, 20, 44)}
    probs = np.zeros((81, 19), np.float32)
    probs[:, 0] = 1.0
    for c in cells:
        probs[c] = 0.0
        probs[c, 8], probs[c, 17] = 0.3, 0.7  # printed 8 less likely than a pen 8
    scores = CellScores(probs, page(cells))
    config = KindDecisionConfig(copies=CopyConfig(weight=weight))
    reading = decide_kinds(scores, config=config)
    assert reading.trace is not None
    steps = [s.step for s in reading.trace.steps]
    if weight == 0:
        assert KindStep.COPIES not in steps
        assert all(reading.kinds[c] == Kind.HANDWRITTEN for c in cells)
        return
    assert steps[:2] == [KindStep.CLASSIFIER, KindStep.COPIES]
    assert all(reading.kinds[c] == Kind.PRINTED for c in cells)
    assert all(reading.trace.decided_by(c) is KindStep.COPIES for c in cells)


def test_a_page_whose_cells_are_all_sure_is_not_compared(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sure cells keep their kinds whatever their copies say: no similarity is worked out
    (not even whether the hand writes copies) and nothing is added."""
    cells = {c: written(7, c) for c in (3, 4, 5)} | {c: printed(2, c) for c in (10, 11)}
    digits = np.zeros(81, np.int64)
    digits[[3, 4, 5]], digits[[10, 11]] = 7, 2
    odds = np.zeros(81)
    odds[[3, 4, 5]], odds[[10, 11]] = -8.0, 8.0
    compared: list[int] = []
    monkeypatch.setattr(copies, "similarities", lambda *args: compared.append(1))
    assert not copy_evidence(odds, digits > 0, digits, page(cells)).any()
    assert not compared
