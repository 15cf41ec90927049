"""The placement step: one puzzle's printed digits sit on the same rows of their cells.

The glyphs are drawn with OpenCV's fonts: the print is one face on one baseline, a neat
pen digit the same face (so its shape passes for print) written higher and smaller.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from sudokucam.vision.read.copies import CopyConfig
from sudokucam.vision.read.decide import KindDecisionConfig, decide_kinds
from sudokucam.vision.read.kind_trace import KindStep
from sudokucam.vision.read.kinds import InkShapeConfig
from sudokucam.vision.read.placement import (
    DEFAULT_PLACEMENT_CONFIG,
    PlacementConfig,
    ink_rows,
    placement_evidence,
)
from sudokucam.vision.read.symmetry import SymmetryConfig
from sudokucam.vision.types import CellScores, Kind

SIDE = 32
PRINTED = [0, 4, 8, 20, 24, 40, 56, 60, 72, 80]  # sure printed givens
PLACEMENT_ONLY = KindDecisionConfig(
    copies=CopyConfig(weight=0.0),
    ink_shape=InkShapeConfig(feature_weight=0.0),
    symmetry=SymmetryConfig(weight=0.0),
)


def glyph(digit: int, *, baseline: int = 25, scale: float = 0.9, seed: int = 0) -> np.ndarray:
    """A (32, 32) float32 ink image of ``digit`` in one OpenCV face, with a little noise."""
    image: np.ndarray = np.zeros((SIDE, SIDE), np.uint8)
    cv2.putText(image, str(digit), (9, baseline), cv2.FONT_HERSHEY_SIMPLEX, scale, 255, 2)
    noise = np.random.default_rng(seed).normal(0, 0.03, image.shape)
    return np.clip(image / 255.0 + noise, 0, 1).astype(np.float32)


def page(unsure: dict[int, np.ndarray]) -> CellScores:
    """81 cells: the printed givens read surely, the ``unsure`` cells read 60:40 printed."""
    cells = np.zeros((81, SIDE, SIDE), np.float32)
    probs = np.zeros((81, 19), np.float32)
    probs[:, 0] = 1.0
    for i, cell in enumerate(PRINTED):
        digit = 1 + i % 9
        cells[cell] = glyph(digit, seed=i)
        probs[cell] = 0.0
        probs[cell, [digit, digit + 9]] = [0.9999, 0.0001]
    for cell, image in unsure.items():
        cells[cell] = image
        probs[cell] = 0.0
        probs[cell, [5, 14]] = [0.6, 0.4]
    return CellScores(probs, cells)


def test_ink_rows_are_the_digit_s_top_and_bottom_rows() -> None:
    cells = np.zeros((3, SIDE, SIDE), np.float32)
    cells[0, 7:24, 12:18] = 1.0
    cells[1, 7:24, 12:18] = 1.0
    cells[1, 28, 5:9] = 1.0  # a speck under the digit
    cells[1, 4, :] = 1.0  # a grid line across the cell
    rows = ink_rows(cells)
    np.testing.assert_array_equal(rows[:2], [[7, 23], [7, 23]])
    assert np.isnan(rows[2]).all()  # no ink
    some = ink_rows(cells, which=np.array([False, True, False]))
    assert np.isnan(some[0]).all() and list(some[1]) == [7, 23]  # only the cells asked
    faint = cells[:1] * 0.3  # a faint digit: its own darkest ink sets the stroke
    np.testing.assert_array_equal(ink_rows(faint), [[7, 23]])
    tall = np.zeros((1, SIDE, SIDE), np.float32)
    tall[0, 3:29, 15:17] = 1.0  # a tall 1 in the middle: a digit's stem, not a grid line
    tall[0, 3:29, 4] = 1.0  # a grid line's remnant along the side
    np.testing.assert_array_equal(ink_rows(tall), [[3, 28]])
    tall[0, 3:29, 15:17] = 0.0
    assert np.isnan(ink_rows(tall)).all()  # the line alone is no digit
    with pytest.raises(ValueError, match="cells"):
        ink_rows(np.zeros((2, 32, 30), np.float32))


def test_a_neat_pen_digit_written_higher_is_taken_for_writing() -> None:
    """Same face, so its shape passes for print, but written higher and smaller than the
    print's baseline: off the print's rows it leans pen, past the classifier's 60:40."""
    scores = page({30: glyph(5, baseline=20, scale=0.7), 50: glyph(5, seed=9)})
    reading = decide_kinds(scores, config=PLACEMENT_ONLY)
    assert reading.trace is not None
    assert [s.step for s in reading.trace.steps] == [KindStep.CLASSIFIER, KindStep.PLACEMENT]
    assert reading.kinds[30] == Kind.HANDWRITTEN
    assert reading.trace.decided_by(30) is KindStep.PLACEMENT
    cell = reading.trace.to_dict()["cells"]
    assert isinstance(cell, dict)
    assert "off the print's rows" in cell["r4c4"]["why"]["placement"]
    # the printed 5 on the print's rows stays printed, leaning a little more so
    assert reading.kinds[50] == Kind.PRINTED
    assert reading.trace.contributions[1, 50] == pytest.approx(DEFAULT_PLACEMENT_CONFIG.on_log_odds)
    for cell_index in PRINTED:  # the sure cells are never moved
        assert reading.trace.contributions[1, cell_index] == 0.0


def test_evidence_grows_with_the_offset_up_to_its_cap() -> None:
    rows = np.array([[6.0, 25.0]] * 6 + [[7.0, 25.0], [9.0, 25.0], [12.0, 28.0], [6.0, 25.0]])
    log_odds = np.array([9.0] * 6 + [1.0, 1.0, 1.0, 6.0])
    filled = np.ones(10, dtype=bool)
    found = placement_evidence(log_odds, filled, rows)
    # 1 px: within the print's spread; 3 px: 2 beyond it; 6 + 3 px: capped
    np.testing.assert_allclose(found.added[6:9], [0.0, -3.0, -5.0])
    assert found.added[9] == 0.0  # surely printed: not moved
    assert {c for c, _ in found.cells} == {7, 8}
    assert "7 sure printed cells" in found.reason  # the one at 6 is sure too


def test_too_few_sure_printed_cells_give_no_evidence() -> None:
    rows = np.array([[6.0, 25.0]] * 4 + [[12.0, 20.0]])
    log_odds = np.array([9.0] * 4 + [1.0])
    found = placement_evidence(log_odds, np.ones(5, dtype=bool), rows)
    assert not found.added.any()
    assert "too few" in found.reason
    off = replace(DEFAULT_PLACEMENT_CONFIG, weight=0.0)
    found = placement_evidence(
        np.array([9.0] * 6 + [1.0]), np.ones(7, bool), np.tile(rows[:1], (7, 1)), off
    )
    assert not found.added.any()


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError):
        PlacementConfig(line_share=0.0)
    with pytest.raises(ValueError):
        PlacementConfig(per_px=-1.0)
