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
from sudokucam.vision.read.classifier import DigitClassifier
from sudokucam.vision.read.config import ReadConfig
from sudokucam.vision.read.orientation import (
    OrientationConfig,
    turn_detection,
    turned_positions,
    turns_ruled_out,
)
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


@pytest.mark.parametrize("k", [1, 2, 3])
def test_turned_positions_follow_rot90(k: int) -> None:
    """A cell's position in the turned grid holds what the cell held before the turn."""
    grid = np.arange(100, 181).reshape(9, 9)
    cells = np.array([0, 8, 40, 72, 80, 13])
    at = turned_positions(cells, k)
    assert np.array_equal(np.rot90(grid, k).ravel()[at], grid.ravel()[cells])


class AskedTerms:
    """Stand-in turn reader: every turned cell reads with log-confidence ``term``; records
    how many cells each call asked for."""

    def __init__(self, term: float) -> None:
        self.term = term
        self.asked: list[int] = []

    def __call__(self, asked: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
        """The fixed term for every position asked for."""
        self.asked.append(sum(len(at) for at in asked.values()))
        return {k: np.full(len(at), self.term) for k, at in asked.items()}


def test_turns_reading_far_worse_are_ruled_out_on_their_first_cells() -> None:
    """Upright sums -8.1; 27 cells of each turn at -1 each can no longer reach it."""
    turned = AskedTerms(-1.0)
    upright, order = np.full(81, -0.1), np.arange(81)
    assert turns_ruled_out(upright, order, turned, 0.0, OrientationConfig())
    assert turned.asked == [3 * 27]


def test_a_turn_that_may_win_is_never_ruled_out() -> None:
    """Turned cells as sure as upright ones: every cell is looked at, none is ruled out."""
    turned = AskedTerms(0.0)
    assert not turns_ruled_out(np.full(81, -0.1), np.arange(81), turned, 0.0)
    assert sum(turned.asked) == 3 * 81
    off = OrientationConfig(screen_cells=0)
    assert not turns_ruled_out(np.full(81, -0.1), np.arange(81), AskedTerms(-9.0), 0.0, off)


def test_orientation_config_refuses_negative_screen_settings() -> None:
    """A negative cell count or margin is refused."""
    with pytest.raises(ValueError, match="screen_cells"):
        OrientationConfig(screen_cells=-1)
    with pytest.raises(ValueError, match="screen_margin_log_prob"):
        OrientationConfig(screen_margin_log_prob=-0.5)


class CountingClassifier(DigitClassifier):
    """The shipped model, counting the cells it is asked to read."""

    cells_read = 0

    def predict(self, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The model's output, the cells counted."""
        self.cells_read += len(cells)
        return super().predict(cells)


def test_an_upright_grid_is_told_upright_on_a_few_cells(detection: GridDetection) -> None:
    """Given the grid's own scores, the classifier rules the turns out on far fewer than
    their 243 cells and keeps those scores: what the full check would have decided."""
    classifier = CountingClassifier()
    upright = classifier.score(detection.warped, ReadConfig())
    assert classifier.score_upright(detection.warped, ReadConfig())[0] == 0
    classifier.cells_read = 0
    k, scores = classifier.score_upright(detection.warped, ReadConfig(), upright)
    assert k == 0 and scores is upright
    assert 0 < classifier.cells_read < 243


@pytest.mark.parametrize("k", [1, 2, 3])
def test_a_turned_grid_is_read_whole_and_turned_as_before(detection: GridDetection, k: int) -> None:
    """A grid lying turned is not ruled out: the check reads every turn, as without scores."""
    classifier = CountingClassifier()
    warped = np.ascontiguousarray(np.rot90(detection.warped, k))
    lying = classifier.score(warped, ReadConfig())
    turns, scores = classifier.score_upright(warped, ReadConfig(), lying)
    plain, alone = classifier.score_upright(warped, ReadConfig())
    assert turns == plain == (4 - k) % 4
    assert np.array_equal(scores.probs, alone.probs)
