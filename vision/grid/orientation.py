"""Pages photographed sideways or upside down: read the grid in the quarter turn that fits.

A grid found in a photo has no "up": its corners come out in image order. When the
upright reading is unsure, the classifier also reads the three other quarter turns (all
in one run) and the detection is turned to match the most confident one, so that row 1
of the result is the puzzle's row 1 and the answer is drawn the right way up.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol, TypeVar, runtime_checkable

import numpy as np

from ..types import GridDetection


@dataclass(frozen=True)
class OrientationConfig:
    """When to look for a turned page, and how much better a turn must read to win."""

    check_below_log_prob: float = -6.0  # upright summed log-confidence under this: try turns
    turn_margin_log_prob: float = 3.0  # a turn must beat upright by this many nats


DEFAULT_ORIENTATION_CONFIG = OrientationConfig()
PROB_FLOOR = 1e-6  # added to probabilities so a 0 gives a finite log


class Scored(Protocol):
    """A reading of the 81 cells that holds the class probabilities (CellReading, CellScores)."""

    @property
    def probs(self) -> np.ndarray:
        """(81, 19) class probabilities."""
        ...

    @property
    def notes(self) -> object:
        """Candidate notes: each cell's probability (CellScores) or digits (CellReading)."""
        ...


R = TypeVar("R", bound=Scored)
R_co = TypeVar("R_co", bound=Scored, covariant=True)


@runtime_checkable
class TurningClassifier(Protocol[R_co]):
    """A classifier that can read a warped grid in all four quarter turns at once."""

    def read_upright(self, warped: np.ndarray) -> tuple[int, R_co]:
        """The counter-clockwise quarter turns that make the grid upright, and that reading."""
        ...


def reading_log_prob(reading: Scored) -> float:
    """Summed log-probability of the most likely class of every cell.

    A cell's candidate notes count as a class of their own where their probability is
    known (``CellScores.notes``): a page of sure notes reads as surely as one of entries.
    """
    best = reading.probs.max(axis=1)
    notes = reading.notes
    if isinstance(notes, np.ndarray) and notes.shape == best.shape:
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
    classifier: object,
    detection: GridDetection,
    reading: R,
    config: OrientationConfig = DEFAULT_ORIENTATION_CONFIG,
) -> tuple[GridDetection, R]:
    """The detection and reading turned upright when another quarter turn reads far better."""
    upright = reading_log_prob(reading)
    if upright >= config.check_below_log_prob or not isinstance(classifier, TurningClassifier):
        return detection, reading
    k, turned = classifier.read_upright(detection.warped)
    if k % 4 == 0 or reading_log_prob(turned) < upright + config.turn_margin_log_prob:
        return detection, reading
    return turn_detection(detection, k), turned
