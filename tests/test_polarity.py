"""The polarity step (vision/grid/polarity.py) that photos and live video share."""

from __future__ import annotations

import numpy as np
import pytest

from sudokucam.vision.grid.polarity import (
    PolarityConfig,
    kept_negative,
    median_grey,
    worth_a_look,
)
from sudokucam.vision.types import GridDetection

LIGHT = np.full((60, 80, 3), 230, np.uint8)
DARK = np.full((60, 80, 3), 20, np.uint8)


def detection(score: float) -> GridDetection:
    """A grid found with grid-likeness ``score`` (its geometry plays no part here)."""
    eye = np.eye(3)
    return GridDetection(np.zeros((4, 2)), np.zeros((10, 10, 2)), eye, eye,
                         np.zeros((9, 9), np.uint8), score)  # fmt: skip


def test_the_negative_is_looked_at_on_a_dark_ground_or_without_a_sure_grid() -> None:
    sure, unsure = [detection(0.95)], [detection(0.5)]
    assert not worth_a_look(LIGHT, sure)
    assert worth_a_look(LIGHT, unsure) and worth_a_look(LIGHT, [None])
    assert worth_a_look(DARK, sure)
    assert not worth_a_look(LIGHT, [None], when_unsure=False)  # live video: dark frames only
    assert worth_a_look(DARK, sure, when_unsure=False)
    assert not worth_a_look(DARK, [None], PolarityConfig(on=False))


def test_the_negative_is_kept_only_with_a_sure_grid_better_than_the_photos() -> None:
    searched: list[str] = []

    def search(score: float) -> tuple[str, list[GridDetection]]:
        searched.append("negative")
        return "negative", [detection(score)]

    assert kept_negative(LIGHT, [detection(0.95)], lambda: search(0.99)) is None
    assert searched == []  # a sure grid on a light ground: the negative is never searched
    assert kept_negative(DARK, [None], lambda: search(0.7)) is None  # not surely a grid
    kept = kept_negative(DARK, [detection(0.6)], lambda: search(0.9))
    assert kept is not None and kept[0] == "negative" and kept[1][0].score == 0.9
    assert kept_negative(DARK, [detection(0.92)], lambda: search(0.9)) is None  # worse
    assert kept_negative(LIGHT, [None], lambda: search(0.9), when_unsure=False) is None
    assert searched == ["negative"] * 3


@pytest.mark.parametrize(
    "shape", [(57, 91, 3), (56, 91, 3), (1, 1, 3), (2, 1, 3), (40, 33), (7, 5, 4)]
)
def test_median_grey_is_numpys_median_of_the_channel_mean(shape: tuple[int, ...]) -> None:
    """The counted median is numpy's, to the last bit, on odd and even pixel counts, gray
    and colour, spread and bunched values (ties between the two middle totals)."""
    rng = np.random.default_rng(len(shape) * 100 + shape[0])
    for bunched in (False, True):
        for _ in range(50):
            pixels = rng.integers(0, 256, size=shape, dtype=np.uint8)
            if bunched:
                pixels = (pixels // 64 * 64).astype(np.uint8)
            grey = pixels.mean(axis=2) if pixels.ndim == 3 else pixels
            assert median_grey(pixels) == float(np.median(grey))
    with pytest.raises(ValueError, match="at least one pixel"):
        median_grey(np.zeros((0, 4, 3), np.uint8))
