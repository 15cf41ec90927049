"""Pages photographed sideways or upside down: read the grid in the quarter turn that fits.

A grid found in a photo has no "up": its corners come out in image order. When the
upright reading is unsure, the classifier also reads the three other quarter turns (all
in one run) and the detection is turned to match the most confident one, so that row 1
of the result is the puzzle's row 1 and the answer is drawn the right way up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from ..types import CellScores, GridDetection


@dataclass(frozen=True)
class OrientationConfig:
    """When to look for a turned page, and how much better a turn must read to win."""

    check_below_log_prob: float = -6.0  # upright summed log-confidence under this: try turns
    turn_margin_log_prob: float = 3.0  # a turn must beat upright by this many nats


DEFAULT_ORIENTATION_CONFIG = OrientationConfig()
PROB_FLOOR = 1e-6  # added to probabilities so a 0 gives a finite log
# a warped grid -> the quarter turns that make it upright and the upright grid's scores
# (``CellScorer.score_upright``)
Turn = Callable[[np.ndarray], tuple[int, CellScores]]


def reading_log_prob(scores: CellScores) -> float:
    """Summed log-probability of the most likely class of every cell.

    A cell's candidate notes count as a class of their own where their probability is
    known (``CellScores.notes_probability``): a page of sure notes reads as surely as one
    of entries.
    """
    best = scores.probs.max(axis=1)
    notes = scores.notes_probability
    if notes is not None and notes.shape == best.shape:
        best = np.maximum(best * (1.0 - notes), notes)
    return float(np.log(best + PROB_FLOOR).sum())


def turn_matrix(k: int, size: float) -> np.ndarray:
    """The 3×3 map of warped-square coordinates under ``k`` counter-clockwise quarter turns."""
    one = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, size], [0.0, 0.0, 1.0]])
    return np.linalg.matrix_power(one, k % 4)


def turn_detection(detection: GridDetection, k: int) -> GridDetection:
    """The same grid, turned ``k`` quarter turns counter-clockwise (like ``np.rot90``)."""
    k %= 4
    if k == 0:
        return detection
    size = float(detection.warped.shape[0])
    homography = turn_matrix(k, size) @ detection.homography
    homography /= homography[2, 2]
    inverse = np.linalg.inv(homography)
    return replace(
        detection,
        corners=np.roll(detection.corners, -k, axis=0),
        lattice=np.ascontiguousarray(np.rot90(detection.lattice, k, axes=(0, 1))),
        homography=homography,
        inverse=inverse / inverse[2, 2],
        warped=np.ascontiguousarray(np.rot90(detection.warped, k)),
    )


def read_oriented(
    detection: GridDetection,
    scores: CellScores,
    turn: Turn,
    config: OrientationConfig = DEFAULT_ORIENTATION_CONFIG,
) -> tuple[GridDetection, CellScores]:
    """The detection and its scores turned upright when another quarter turn reads far
    better; ``turn`` scores the four quarter turns (only called when upright is unsure)."""
    upright = reading_log_prob(scores)
    if upright >= config.check_below_log_prob:
        return detection, scores
    k, turned = turn(detection.warped)
    if k % 4 == 0 or reading_log_prob(turned) < upright + config.turn_margin_log_prob:
        return detection, scores
    return turn_detection(detection, k), turned
