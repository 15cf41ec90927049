"""The page-hand step: a written digit weighed against the page's own sure written digits.

One person writes every entry of a page, so their 7s look like each other and unlike their
1s. The rule is checked on made-up strokes, then on a page rendered here and read by the
shipped model, one of whose written cells is given the probabilities of a misread.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from sudokucam.samples import render
from sudokucam.samples.synth.fonts import FontMissingError
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.read.decide import decide_kinds
from sudokucam.vision.read.hand import DEFAULT_PAGE_HAND_CONFIG, PageHandConfig, page_hand
from sudokucam.vision.read.kind_trace import KindStep
from sudokucam.vision.read.reading import score_oriented
from sudokucam.vision.types import CellScores, Kind

SIDE = 28  # made-up cell side, pixels


def sure(digit: int, pen: bool = True) -> np.ndarray:
    """(19,) a cell surely holding ``digit``, written (or printed)."""
    p = np.full(19, 1e-4)
    p[digit + 9 if pen else digit] = 1.0
    return p / p.sum()


def unsure(first: int, second: int, pen: bool = True) -> np.ndarray:
    """(19,) a cell read as ``first`` (0.6) with ``second`` close behind (0.35)."""
    p = np.full(19, 1e-3)
    off = 9 if pen else 0
    p[first + off], p[second + off] = 0.6, 0.35
    return p / p.sum()


def stroke_image(digit: int, seed: int) -> np.ndarray:
    """(28, 28) one writer's 1 (a slanted stroke with a flag) or 7 (a bar and a long
    diagonal), each copy wobbling a little as a hand does."""
    rng = np.random.default_rng(seed)
    image: np.ndarray = np.zeros((SIDE, SIDE), np.uint8)

    def line(a: tuple[int, int], b: tuple[int, int]) -> None:
        jitter = rng.integers(-1, 2, size=4)
        start = (a[0] + int(jitter[0]), a[1] + int(jitter[1]))
        end = (b[0] + int(jitter[2]), b[1] + int(jitter[3]))
        cv2.line(image, start, end, 255, 2, cv2.LINE_AA)

    if digit == 1:
        line((15, 4), (12, 24))
        line((15, 4), (10, 9))
    else:
        line((6, 5), (21, 5))
        line((21, 5), (10, 24))
    return (image / 255.0).astype(np.float32)


Page = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # probs, digits, kinds, cells


def page(target: np.ndarray, ink: np.ndarray, sevens: int = 3, pen: bool = True) -> Page:
    """Three sure written 1s, ``sevens`` sure written 7s, then the target cell of ``ink``."""
    rows = [sure(1)] * 3 + [sure(7)] * sevens + [target]
    inks = [stroke_image(1, i) for i in range(3)] + [stroke_image(7, 10 + i) for i in range(sevens)]
    probs = np.asarray(rows, dtype=np.float32)
    digits = np.argmax(probs[:, 1:10] + probs[:, 10:19], axis=1) + 1
    kinds = np.full(len(rows), Kind.HANDWRITTEN, dtype=np.int64)
    kinds[-1] = Kind.HANDWRITTEN if pen else Kind.PRINTED
    return probs, digits, kinds, np.asarray([*inks, ink], dtype=np.float32)


SEVEN, ONE = stroke_image(7, 50), stroke_image(1, 50)


def test_a_one_written_like_the_pages_sevens_is_a_seven() -> None:
    probs, digits, kinds, cells = page(unsure(1, 7), SEVEN)
    hand = page_hand(probs, digits, kinds, cells)
    assert hand.digits[-1] == 7 and hand.changed == (len(probs) - 1,)
    assert hand.probs[-1, 16] > hand.probs[-1, 10]  # the pen 7 now above the pen 1
    assert hand.probs[-1, 0] == pytest.approx(probs[-1, 0])  # empty kept


def test_a_one_written_like_the_pages_ones_is_surer_never_beyond_the_cap() -> None:
    probs, digits, kinds, cells = page(unsure(1, 7), ONE)
    hand = page_hand(probs, digits, kinds, cells)
    shares = hand.probs[-1, 1:10] + hand.probs[-1, 10:19]
    assert hand.digits[-1] == 1 and hand.changed == ()
    assert 0.6 < shares[0] / shares.sum() <= DEFAULT_PAGE_HAND_CONFIG.max_share + 1e-6


def test_print_too_few_examples_or_mixed_ink_are_left_alone() -> None:
    cases = {
        "printed": page(unsure(1, 7, pen=False), SEVEN, pen=False),
        "one 7 to compare with": page(unsure(1, 7), SEVEN, sevens=1),
        "halfway": page(unsure(1, 7), np.maximum(ONE, SEVEN)),
    }
    for name, (probs, digits, kinds, cells) in cases.items():
        hand = page_hand(probs, digits, kinds, cells)
        assert hand.changed == (), name
        np.testing.assert_allclose(hand.probs, probs, atol=1e-6, err_msg=name)


def test_a_zero_weight_changes_nothing() -> None:
    probs, digits, kinds, cells = page(unsure(1, 7), SEVEN)
    off = PageHandConfig(weight=0.0)
    assert page_hand(probs, digits, kinds, cells, off).changed == ()


def test_bad_settings_and_shapes_are_refused() -> None:
    with pytest.raises(ValueError, match="max_share"):
        PageHandConfig(max_share=1.0)
    with pytest.raises(ValueError, match="min_examples"):
        PageHandConfig(min_examples=0)
    probs, digits, kinds, cells = page(unsure(1, 7), SEVEN)
    with pytest.raises(ValueError, match="cells"):
        page_hand(probs, digits, kinds, cells[:-1])


def test_the_trace_says_the_page_hand_changed_the_digit() -> None:
    probs, _, _, inks = page(unsure(1, 7), SEVEN)
    full = np.zeros((81, 19), np.float32)
    full[:, 0] = 1.0
    full[: len(probs)] = probs
    cells = np.zeros((81, SIDE, SIDE), np.float32)
    cells[: len(probs)] = inks
    reading = decide_kinds(CellScores(full, cells))
    cell = len(probs) - 1
    assert reading.digits[cell] == 7 and reading.kinds[cell] == Kind.HANDWRITTEN
    assert reading.trace is not None
    record = reading.trace.cell_dict(cell)
    assert record["digit"] == 7 and record["read"] == {"digit": 1, "kind": "handwritten"}
    assert record["later"] == [{"step": str(KindStep.PAGE_HAND), "digit": 7, "kind": "handwritten"}]
    without = decide_kinds(CellScores(full))  # no cell images: no page-hand step
    assert without.digits[cell] == 1 and without.trace is not None and not without.trace.later


# --------------------------------------------------- a rendered page, read by the shipped model


@pytest.fixture(scope="module")
def rendered_scores() -> tuple[CellScores, np.ndarray]:
    """The scores of a rendered half-solved page (its pen in one of the renderer's hands),
    and the digits written in pen (0 elsewhere)."""
    try:
        photo = render.render_photo(1000, "progress", pen_fill=0.9, pen_mistakes=0)
    except FontMissingError as exc:
        pytest.skip(f"renderer font missing: {exc}")
    reader = Reader()
    detections = reader.find(photo.image)
    assert detections, "the rendered grid was not found"
    _, scores = score_oriented(reader.classifier, detections[0], reader.config.read)
    return scores, np.asarray(photo.truth.pen).ravel()


def pair_on_page(scores: CellScores, pen: np.ndarray) -> tuple[int, int, int]:
    """Two written digits, each with three sure cells read right, and one of the second's."""
    reading = decide_kinds(scores)
    right = (reading.kinds == Kind.HANDWRITTEN) & (reading.digits == pen) & (pen > 0)
    counts = {d: int((right & (pen == d)).sum()) for d in range(1, 10)}
    first, second = sorted((d for d in counts if counts[d] >= 3), key=lambda d: -counts[d])[:2]
    return first, second, int(np.flatnonzero(right & (pen == second))[0])


def misread(scores: CellScores, cell: int, first: int, second: int) -> CellScores:
    """The scores with ``cell`` read as ``first`` (0.6), ``second`` close behind (0.35)."""
    probs = scores.probs.copy()
    probs[cell] = unsure(first, second).astype(np.float32)
    return replace(scores, probs=probs)


def test_a_rendered_misread_is_set_right_by_the_pages_own_hand(
    rendered_scores: tuple[CellScores, np.ndarray],
) -> None:
    scores, pen = rendered_scores
    first, second, cell = pair_on_page(scores, pen)
    reading = decide_kinds(misread(scores, cell, first, second))
    assert reading.digits[cell] == second
    assert reading.trace is not None
    assert [c.cell for c in reading.trace.later if c.step is KindStep.PAGE_HAND] == [cell]


def test_the_step_leaves_a_rendered_page_read_right_as_it_is(
    rendered_scores: tuple[CellScores, np.ndarray],
) -> None:
    """The page as read, and a misread whose ink is the digit read: no digit changes."""
    scores, pen = rendered_scores
    reading = decide_kinds(scores)
    assert reading.trace is not None and not reading.trace.later
    first, second, cell = pair_on_page(scores, pen)
    kept = decide_kinds(misread(scores, cell, second, first))  # read as what it is
    assert kept.digits[cell] == second
    assert kept.trace is not None and not kept.trace.later
