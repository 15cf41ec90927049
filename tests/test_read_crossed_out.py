"""Digits the person struck through: no entry, reported as crossed out."""

from __future__ import annotations

import numpy as np

from sudokucam.samples.render import Marks, render_photo
from sudokucam.vision.read.classifier import default_classifier
from sudokucam.vision.read.decide import DEFAULT_KIND_DECISION_CONFIG, decide_kinds
from sudokucam.vision.types import CellScores, Kind


def scores_with_crossed_out() -> CellScores:
    """Cells 0-2 empty (0 and 1 mostly a crossed-out digit), the rest a sure written 5."""
    probs = np.full((81, 19), 1e-4, dtype=np.float32)
    probs[:, 14] = 1.0
    probs[:3] = 1e-4
    probs[:3, 0] = 1.0
    crossed = np.zeros(81)
    crossed[:2] = 0.9
    crossed[3] = 0.9  # a filled cell is an entry whatever its crossed-out probability
    return CellScores(probs, None, crossed_out_probability=crossed)


def test_crossed_out_cells_are_empty_cells() -> None:
    reading = decide_kinds(scores_with_crossed_out())
    assert list(reading.kinds[:4]) == [Kind.EMPTY] * 3 + [Kind.HANDWRITTEN]
    assert reading.crossed_out is not None
    assert reading.crossed_out[:4] == (True, True, False, False)


def test_without_a_crossed_out_class_nothing_is_crossed_out() -> None:
    reading = decide_kinds(CellScores(scores_with_crossed_out().probs))
    assert reading.crossed_out is None


def test_shipped_model_scores_crossed_out_digits() -> None:
    """Blank cells are not crossed out; a crossed-out digit's probability counts as empty."""
    classifier = default_classifier()
    assert classifier.config.has_crossed_out
    scores = classifier.score_cells(np.zeros((81, 32, 32), dtype=np.float32))
    crossed = scores.crossed_out_probability
    assert crossed is not None
    assert np.all(crossed < DEFAULT_KIND_DECISION_CONFIG.crossed_from)
    assert np.allclose(scores.probs.sum(axis=1), 1.0, atol=1e-4)


def test_rendered_truth_names_the_crossed_out_cells() -> None:
    photo = render_photo(41, "progress", size=(640, 480), marks=Marks(crossed_out=4))
    truth = photo.truth
    assert len(truth.crossed_out) == 4
    contents = truth.contents
    for r, c in truth.crossed_out:
        assert truth.givens[r, c] == 0 and truth.pen[r, c] == 0
        assert contents[r][c] == "crossed_out"
    assert truth.to_json()["crossed_out"] == [list(rc) for rc in truth.crossed_out]
