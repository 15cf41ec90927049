"""Sideways and upside-down pages: the detection turns with the reading, and reads upright."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sudokucam.vision.grid.find import find_grid
from sudokucam.vision.grid.warp import map_points
from sudokucam.vision.load import load_image
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.read.orientation import turn_detection
from sudokucam.vision.types import GridDetection

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "printed" / "demo.jpg"


@pytest.fixture(scope="module")
def detection() -> GridDetection:
    """The demo sample's detected grid."""
    found = find_grid(load_image(SAMPLE))
    assert found is not None
    return found


@pytest.mark.parametrize("k", [1, 2, 3])
def test_turned_detection_is_consistent(detection: GridDetection, k: int) -> None:
    """The turned homography maps the turned lattice onto the turned warped square."""
    turned = turn_detection(detection, k)
    size = turned.warped.shape[0]
    step = size / 9
    ideal = np.stack(np.meshgrid(np.arange(10) * step, np.arange(10) * step), axis=-1)
    mapped = map_points(turned.homography, turned.lattice)
    assert np.abs(mapped - ideal).max() < 0.05 * step
    assert np.array_equal(turned.warped, np.rot90(detection.warped, k))
    assert np.allclose(turned.corners[0], detection.corners[k])


def test_four_quarter_turns_give_the_same_detection(detection: GridDetection) -> None:
    """Turning four times (or 1 + 3) returns the original grid."""
    back = turn_detection(turn_detection(detection, 1), 3)
    assert np.allclose(back.lattice, detection.lattice)
    assert np.allclose(back.homography, detection.homography)
    assert np.array_equal(back.warped, detection.warped)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_photo_taken_sideways_reads_upright(k: int) -> None:
    """The demo photo turned by k quarter turns reads the same givens, in puzzle order."""
    truth = json.loads(SAMPLE.with_suffix(".json").read_text())
    givens = "".join(str(d) for row in truth["givens"] for d in row)
    photo = np.ascontiguousarray(np.rot90(load_image(SAMPLE), k))
    grid = Reader().read(photo).grids[0]
    assert grid.givens == givens
    assert grid.status == "solved"
