"""The symmetry step: a puzzle's givens are set symmetric under a half turn of the grid."""

from __future__ import annotations

import numpy as np
import pytest

from sudokucam.vision.read.decide import KindDecisionConfig, decide_kinds
from sudokucam.vision.read.kind_trace import KindStep
from sudokucam.vision.read.symmetry import (
    DEFAULT_SYMMETRY_CONFIG,
    SymmetryConfig,
    symmetry_evidence,
)
from sudokucam.vision.types import CellScores, Kind

# givens in pairs a half turn apart (cell c and 80 - c), and the centre
SYMMETRIC = [0, 80, 3, 77, 11, 69, 15, 65, 22, 58, 30, 50, 40]
ASYMMETRIC = [0, 1, 2, 3, 11, 12, 13, 21, 22, 30, 31, 39, 48]


def log_odds_page(printed: list[int], unsure: dict[int, float]) -> tuple[np.ndarray, np.ndarray]:
    """(81,) log-odds and filled cells: ``printed`` surely printed, ``unsure`` as given."""
    odds = np.zeros(81)
    odds[printed] = 12.0
    for cell, value in unsure.items():
        odds[cell] = value
    return odds, odds != 0


def scores_page(printed: list[int], unsure: dict[int, float]) -> CellScores:
    """81 cells' probabilities: printed 1s surely, the unsure cells at their printed share."""
    probs = np.zeros((81, 19), np.float32)
    probs[:, 0] = 1.0
    for cell in printed:
        probs[cell] = 0.0
        probs[cell, [1, 10]] = [0.99999, 0.00001]
    for cell, share in unsure.items():
        probs[cell] = 0.0
        probs[cell, [2, 11]] = [share, 1.0 - share]
    return CellScores(probs)


def test_an_unsure_cell_opposite_an_empty_one_is_taken_for_writing() -> None:
    """r2c2 (10) faces r8c8 (70), empty: no given, so written; r4c5 (31) faces a given."""
    reading = decide_kinds(scores_page(SYMMETRIC, {10: 0.7, 49: 0.3, 31: 0.4}))
    trace = reading.trace
    assert trace is not None
    assert [s.step for s in trace.steps] == [KindStep.CLASSIFIER, KindStep.SYMMETRY]
    assert reading.kinds[10] == Kind.HANDWRITTEN
    assert trace.decided_by(10) is KindStep.SYMMETRY
    # r4c5 (31) faces r6c5 (49), unsure too: nothing said
    assert trace.contributions[1, 31] == 0.0
    doc = trace.to_dict()
    assert "symmetric" in str(doc["reasons"])
    cells = doc["cells"]
    assert isinstance(cells, dict)
    assert cells["r2c2"]["why"] == {"symmetry": "its half-turn partner is empty"}


def test_an_unsure_cell_opposite_a_given_leans_printed() -> None:
    printed = [c for c in SYMMETRIC if c != 77]  # r1c4's partner r9c6 read unsurely as pen
    reading = decide_kinds(scores_page(printed, {77: 0.3}))
    assert reading.trace is not None
    assert reading.kinds[77] == Kind.PRINTED
    assert reading.trace.decided_by(77) is KindStep.SYMMETRY
    added = reading.trace.contributions[1, 77]
    assert added == pytest.approx(DEFAULT_SYMMETRY_CONFIG.printed_partner_log_odds)


def test_an_asymmetric_pattern_gives_no_evidence() -> None:
    odds, filled = log_odds_page(ASYMMETRIC, {70: 2.0})
    found = symmetry_evidence(odds, filled)
    assert not found.added.any()
    assert "not half-turn symmetric" in found.reason
    reading = decide_kinds(scores_page(ASYMMETRIC, {70: 0.7}))
    assert reading.kinds[70] == Kind.PRINTED


def test_a_given_opposite_a_sure_entry_refuses_the_pattern() -> None:
    odds, filled = log_odds_page(SYMMETRIC, {10: 2.0, 62: 2.0})
    odds[3], odds[77] = 12.0, -12.0  # a sure printed cell faces a sure pen entry
    found = symmetry_evidence(odds, filled)
    assert not found.added.any()
    assert "sure entry" in found.reason


def test_too_few_givens_show_no_pattern() -> None:
    odds, filled = log_odds_page(SYMMETRIC[:6], {10: 2.0})
    found = symmetry_evidence(odds, filled)
    assert not found.added.any()
    assert "too few" in found.reason


def test_only_the_sizes_set_are_judged() -> None:
    assert DEFAULT_SYMMETRY_CONFIG.applies(81)
    assert not DEFAULT_SYMMETRY_CONFIG.applies(36)  # a 6×6
    assert not DEFAULT_SYMMETRY_CONFIG.applies(80)
    assert not SymmetryConfig(weight=0.0).applies(81)
    probs = np.zeros((36, 19), np.float32)
    probs[:, 0] = 1.0
    reading = decide_kinds(CellScores(probs), config=KindDecisionConfig())
    assert reading.trace is not None and len(reading.trace.steps) == 1
    with pytest.raises(ValueError):
        SymmetryConfig(symmetric_share=0.0)
