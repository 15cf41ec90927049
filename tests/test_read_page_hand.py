"""The page-hand step: a written digit weighed against the page's own sure written digits.

One person writes every entry of a page, so their 7s look like each other and unlike their
1s. The rule is checked on made-up embeddings, then on a page rendered here and read by the
shipped model (its real embeddings), one of whose written cells is given the probabilities
of a misread.
"""

from __future__ import annotations

from dataclasses import replace

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

WIDTH = 16  # made-up embedding width


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


def direction(seed: int) -> np.ndarray:
    """A made-up embedding direction of length 4: one writer's way of writing one digit."""
    v = np.random.default_rng(seed).normal(size=WIDTH)
    return 4.0 * v / np.linalg.norm(v)


ONES, SEVENS = direction(1), direction(7)


def near(base: np.ndarray, seed: int) -> np.ndarray:
    """An embedding near ``base``: one more copy of that digit in that hand."""
    return base + 0.2 * np.random.default_rng(100 + seed).normal(size=WIDTH)


def page(target: np.ndarray, embedding: np.ndarray, sevens: int = 3, pen: bool = True) -> tuple:
    """Three sure written 1s, ``sevens`` sure written 7s, then the target cell."""
    rows = [sure(1)] * 3 + [sure(7)] * sevens + [target]
    embeddings = [near(ONES, i) for i in range(3)] + [near(SEVENS, 10 + i) for i in range(sevens)]
    probs = np.asarray(rows, dtype=np.float32)
    digits = np.argmax(probs[:, 1:10] + probs[:, 10:19], axis=1) + 1
    kinds = np.full(len(rows), Kind.HANDWRITTEN, dtype=np.int64)
    kinds[-1] = Kind.HANDWRITTEN if pen else Kind.PRINTED
    return probs, digits, kinds, np.asarray([*embeddings, embedding], dtype=np.float32)


def test_a_one_written_like_the_pages_sevens_is_a_seven() -> None:
    probs, digits, kinds, embeddings = page(unsure(1, 7), near(SEVENS, 50))
    hand = page_hand(probs, digits, kinds, embeddings)
    assert hand.digits[-1] == 7 and hand.changed == (len(probs) - 1,)
    assert hand.probs[-1, 16] > hand.probs[-1, 10]  # the pen 7 now above the pen 1
    assert hand.probs[-1, 0] == pytest.approx(probs[-1, 0])  # empty kept


def test_a_one_written_like_the_pages_ones_is_surer_never_beyond_the_cap() -> None:
    probs, digits, kinds, embeddings = page(unsure(1, 7), near(ONES, 50))
    hand = page_hand(probs, digits, kinds, embeddings)
    shares = hand.probs[-1, 1:10] + hand.probs[-1, 10:19]
    assert hand.digits[-1] == 1 and hand.changed == ()
    assert 0.6 < shares[0] / shares.sum() <= DEFAULT_PAGE_HAND_CONFIG.max_share + 1e-6


def test_print_too_few_examples_or_mixed_ink_are_left_alone() -> None:
    cases = {
        "printed": page(unsure(1, 7, pen=False), near(SEVENS, 50), pen=False),
        "one 7 to compare with": page(unsure(1, 7), near(SEVENS, 50), sevens=1),
        "halfway": page(unsure(1, 7), (ONES + SEVENS) / 2),
    }
    for name, (probs, digits, kinds, embeddings) in cases.items():
        hand = page_hand(probs, digits, kinds, embeddings)
        assert hand.changed == (), name
        if name != "halfway":
            np.testing.assert_array_equal(hand.probs, probs, err_msg=name)
    halfway = page_hand(*cases["halfway"]).probs[-1]
    shares = (halfway[1:10] + halfway[10:19]) / (halfway[1:10] + halfway[10:19]).sum()
    assert shares[0] > shares[6] > 0.3  # still close: the answer prior or the person settles it


def test_unknown_embeddings_and_a_zero_weight_change_nothing() -> None:
    probs, digits, kinds, embeddings = page(unsure(1, 7), near(SEVENS, 50))
    unknown = embeddings.copy()
    unknown[-1] = np.nan
    assert page_hand(probs, digits, kinds, unknown).changed == ()
    off = PageHandConfig(weight=0.0)
    assert page_hand(probs, digits, kinds, embeddings, off).changed == ()


def test_bad_settings_and_shapes_are_refused() -> None:
    with pytest.raises(ValueError, match="max_share"):
        PageHandConfig(max_share=1.0)
    with pytest.raises(ValueError, match="min_examples"):
        PageHandConfig(min_examples=0)
    probs, digits, kinds, embeddings = page(unsure(1, 7), near(SEVENS, 50))
    with pytest.raises(ValueError, match="embeddings"):
        page_hand(probs, digits, kinds, embeddings[:-1])


def test_the_trace_says_the_page_hand_changed_the_digit() -> None:
    probs, _, _, embeddings = page(unsure(1, 7), near(SEVENS, 50))
    full = np.zeros((81, 19), np.float32)
    full[:, 0] = 1.0
    full[: len(probs)] = probs
    emb = np.zeros((81, WIDTH), np.float32)
    emb[: len(probs)] = embeddings
    reading = decide_kinds(CellScores(full, embeddings=emb))
    cell = len(probs) - 1
    assert reading.digits[cell] == 7 and reading.kinds[cell] == Kind.HANDWRITTEN
    assert reading.trace is not None
    record = reading.trace.to_dict()["cells"]["r1c7"]
    assert isinstance(record, dict)
    assert record["digit"] == 7 and record["read"] == {"digit": 1, "kind": "handwritten"}
    assert record["later"] == [{"step": str(KindStep.PAGE_HAND), "digit": 7, "kind": "handwritten"}]
    without = decide_kinds(CellScores(full))  # no embeddings: no page-hand step
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
    assert scores.embeddings is not None
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
