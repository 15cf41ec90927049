"""The shipped ONNX digit classifier: loading, config checks, one run per grid, readings."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from sudokucam.vision.read.classifier import (
    MODEL_DIR,
    DigitClassifier,
    ModelError,
    default_classifier,
    read_model_config,
)
from sudokucam.vision.read.copies import CopyConfig
from sudokucam.vision.read.decide import KindDecisionConfig, decide_kinds
from sudokucam.vision.read.kinds import InkShapeConfig
from sudokucam.vision.read.placement import PlacementConfig
from sudokucam.vision.types import CellScores, Kind

# Not used in training (models/training/synth.py HELD_OUT_FONT).
UNSEEN_FONT = Path("/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf")

PUZZLE = np.array(
    [
        [5, 3, 0, 0, 7, 0, 0, 0, 0],
        [6, 0, 0, 1, 9, 5, 0, 0, 0],
        [0, 9, 8, 0, 0, 0, 0, 6, 0],
        [8, 0, 0, 0, 6, 0, 0, 0, 3],
        [4, 0, 0, 8, 0, 3, 0, 0, 1],
        [7, 0, 0, 0, 2, 0, 0, 0, 6],
        [0, 6, 0, 0, 0, 0, 2, 8, 0],
        [0, 0, 0, 4, 1, 9, 0, 0, 5],
        [0, 0, 0, 0, 8, 0, 0, 7, 9],
    ]
)


def render_grid(grid: np.ndarray, font_path: Path, side: int = 360) -> np.ndarray:
    """A clean warped grid (uint8) with the digits of `grid` printed in `font_path`."""
    img = Image.new("L", (side, side), 235)
    draw = ImageDraw.Draw(img)
    cell = side / 9
    for i in range(10):
        width = 3 if i % 3 == 0 else 1
        p = round(i * cell)
        draw.line([(p, 0), (p, side)], fill=20, width=width)
        draw.line([(0, p), (side, p)], fill=20, width=width)
    font = ImageFont.truetype(str(font_path), round(cell * 0.7))
    for (r, c), d in np.ndenumerate(grid):
        if d:
            draw.text(((c + 0.5) * cell, (r + 0.5) * cell), str(d), fill=25, font=font, anchor="mm")
    return cv2.GaussianBlur(np.asarray(img), (3, 3), 0.6)


def test_shipped_model_files_exist_and_are_small() -> None:
    # the base and the reader, two small nets each (models/training/join.py)
    assert (MODEL_DIR / "model.onnx").stat().st_size < 2_500_000
    config = read_model_config(MODEL_DIR / "config.json")
    assert config.input_size == config.cells.output_size


def test_default_classifier_is_built_once() -> None:
    assert default_classifier() is default_classifier()


def test_missing_config_raises_clear_error(tmp_path: Path) -> None:
    shutil.copy(MODEL_DIR / "model.onnx", tmp_path / "model.onnx")
    with pytest.raises(ModelError, match="config not found"):
        DigitClassifier(tmp_path)


def test_missing_model_raises_clear_error(tmp_path: Path) -> None:
    shutil.copy(MODEL_DIR / "config.json", tmp_path / "config.json")
    with pytest.raises(ModelError, match="model file not found"):
        DigitClassifier(tmp_path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"class_names": ["empty", "one"]}, "class_names"),
        ({"input_size": 28}, "cells give"),
        ({"std": 0.0}, "std"),
        ({"mean": "dark"}, "invalid"),
        ({"cells": {"cell_px": 36}, "drop": "version"}, "invalid"),
        ({"input_name": "image"}, "model input"),
    ],
)
def test_wrong_config_raises_clear_error(
    tmp_path: Path, change: dict[str, object], message: str
) -> None:
    raw = json.loads((MODEL_DIR / "config.json").read_text())
    drop = change.pop("drop", None)
    raw.update(change)
    if drop:
        del raw[drop]
    (tmp_path / "config.json").write_text(json.dumps(raw))
    shutil.copy(MODEL_DIR / "model.onnx", tmp_path / "model.onnx")
    with pytest.raises(ModelError, match=message):
        DigitClassifier(tmp_path)


def test_one_run_call_for_81_cells() -> None:
    classifier = DigitClassifier()
    calls: list[tuple[int, ...]] = []
    real_run = classifier.session.run

    def counting_run(names: list[str], feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        calls.append(next(iter(feeds.values())).shape)
        return real_run(names, feeds)

    classifier.session.run = counting_run
    reading = classifier.read(render_grid(PUZZLE, UNSEEN_FONT))
    n = classifier.config.input_size
    assert calls == [(81, 1, n, n)]
    assert reading.probs.shape == (81, 19) and reading.probs.dtype == np.float32
    np.testing.assert_allclose(reading.probs.sum(axis=1), 1.0, atol=1e-4)


def test_read_is_read_cells_of_the_cut_cells() -> None:
    grid = render_grid(PUZZLE, UNSEEN_FONT)
    classifier = default_classifier()
    once = classifier.read(grid)
    np.testing.assert_array_equal(once.probs, classifier.read_cells(classifier.cells(grid)).probs)


def test_unseen_printed_font_is_read_exactly() -> None:
    reading = default_classifier().read(render_grid(PUZZLE, UNSEEN_FONT))
    np.testing.assert_array_equal(reading.digits.reshape(9, 9), PUZZLE)
    expected = np.where(PUZZLE.reshape(81) > 0, Kind.PRINTED, Kind.EMPTY)
    np.testing.assert_array_equal(reading.kinds, expected)
    assert reading.confidence.min() > 0.5


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_read_upright_finds_the_orientation(turns: int) -> None:
    upright = render_grid(PUZZLE, UNSEEN_FONT)
    k, reading = default_classifier().read_upright(np.ascontiguousarray(np.rot90(upright, -turns)))
    assert k == turns
    np.testing.assert_array_equal(reading.digits.reshape(9, 9), PUZZLE)


def test_blank_grid_reads_all_empty() -> None:
    reading = default_classifier().read(render_grid(np.zeros((9, 9), int), UNSEEN_FONT))
    assert (reading.digits == 0).all() and (reading.kinds == Kind.EMPTY).all()


def test_predict_rejects_wrong_shape() -> None:
    with pytest.raises(ValueError, match="cells"):
        default_classifier().predict(np.zeros((81, 20, 20), np.float32))


def decide(
    probs: np.ndarray, cells: np.ndarray | None = None, config: InkShapeConfig = InkShapeConfig()
) -> tuple[np.ndarray, np.ndarray]:
    """(N,) digits and (N,) Kind values of N cells by the classifier's step and, with
    ``cells``, the ink-shape step (copies off: the cells here are copies of one glyph;
    placement off: their ink sits on one set of rows)."""
    kinds = KindDecisionConfig(
        copies=CopyConfig(weight=0.0), ink_shape=config, placement=PlacementConfig(weight=0.0)
    )
    reading = decide_kinds(CellScores(probs, cells), config=kinds)
    return reading.digits, reading.kinds


def test_decide_uses_digit_marginal_and_kind_odds() -> None:
    probs = np.zeros((3, 19), np.float32)
    probs[0, 0] = 1.0  # empty
    probs[1, [4, 13]] = [0.6, 0.4]  # printed 4 beats handwritten 4
    probs[2, [2, 11, 15]] = [0.3, 0.35, 0.35]  # digit 2 (0.65) although 6 is likelier alone
    digits, kinds = decide(probs)
    assert digits.tolist() == [0, 4, 2]
    assert kinds.tolist() == [Kind.EMPTY, Kind.PRINTED, Kind.HANDWRITTEN]


def test_puzzle_style_settles_an_ambiguous_kind() -> None:
    cells = np.zeros((11, 32, 32), np.float32)
    probs = np.zeros((11, 19), np.float32)
    for i in range(5):  # sure printed: tall, thick, dark
        cells[i, 6:26, 12:18] = 1.0
        probs[i, [1, 10]] = [0.9999, 0.0001]
    for i in range(5, 10):  # sure handwritten: short, thin, lighter
        cells[i, 10:22, 14:16] = 0.6
        probs[i, [1, 10]] = [0.0001, 0.9999]
    cells[10, 6:26, 12:18] = 1.0  # looks printed, classifier slightly favours handwritten
    probs[10, [1, 10]] = [0.4, 0.6]
    assert decide(probs, cells)[1][10] == Kind.PRINTED
    assert decide(probs, cells, InkShapeConfig(feature_weight=0.0))[1][10] == Kind.HANDWRITTEN
    assert decide(probs)[1][10] == Kind.HANDWRITTEN


@pytest.mark.slow
@pytest.mark.parametrize("photo_id", [10, 90, 134, 177])
def test_real_validation_photo_read_exactly(photos_dir: Path, photo_id: int) -> None:
    from sudokucam.models.training.dataset import (
        class_labels,
        puzzle_outlines,
        read_gray,
        warp,
    )
    from sudokucam.models.training.evaluate import classes_of
    from sudokucam.samples.dataset import dat_grid

    gray = read_gray(photos_dir / "v2" / "train" / f"image{photo_id}.jpg")
    truth = class_labels(dat_grid(photos_dir / "v2" / "train" / f"image{photo_id}.dat"), None)
    reading = default_classifier().read(warp(gray, puzzle_outlines(photos_dir)[photo_id]))
    np.testing.assert_array_equal(classes_of(reading.digits, reading.kinds), truth)
