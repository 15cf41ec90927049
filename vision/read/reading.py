"""The reading stage in one function: a grid's 81 cells scored, turned upright, settled.

``read_cells`` takes any ``CellScorer`` (the shipped ``DigitClassifier``, or a stand-in in
tests) and one ``ReadConfig``: the scorer gives the class probabilities of the cells
(``CellScores``), the orientation step turns the grid upright when another quarter turn
reads far better (``score_oriented``), and ``decide_kinds`` settles every cell's digit
and print-or-pen kind (``settle_cells``). Live video runs the same two steps with the
scores of several frames summed in between (``vision/live/processor.py``).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from ..types import CellReading, CellScores, GridDetection
from .config import DEFAULT_READ_CONFIG, ReadConfig
from .decide import decide_kinds
from .orientation import read_oriented


class CellScorer(Protocol):
    """Anything that scores the 81 cells of a warped grid (``DigitClassifier`` does).

    Scores are probabilities and what else was seen in the cells; digits and kinds are
    settled from them by ``decide_kinds``.
    """

    def score(self, warped: np.ndarray, config: ReadConfig) -> CellScores:
        """The scores of every cell of a warped grid, read as it lies."""
        ...

    def score_upright(
        self, warped: np.ndarray, config: ReadConfig, upright: CellScores | None = None
    ) -> tuple[int, CellScores]:
        """The counter-clockwise quarter turns that make the grid upright, and the upright
        grid's scores. ``upright``: the scores of the grid as it lies (``score``), where
        known: a scorer may use them to tell sooner that the grid is upright."""
        ...


def read_cells(
    scorer: CellScorer,
    detection: GridDetection,
    image: np.ndarray | None = None,
    config: ReadConfig = DEFAULT_READ_CONFIG,
    printed: frozenset[int] = frozenset(),
) -> tuple[GridDetection, CellReading]:
    """Read the cells of a grid, turned upright first if the page lies sideways.

    Every filled cell's print-or-pen kind is settled by ``decide_kinds`` (with the colour
    ``image`` the grid was found in, ink colour included; ``printed``: cells known to hold
    print that is not read, as a Killer's masked sums), which records how in the
    reading's trace. Returns the detection (turned when the page was) and the reading.
    """
    detection, scores = score_oriented(scorer, detection, config)
    return detection, settle_cells(scores, detection, image, config, printed)


def score_oriented(
    scorer: CellScorer, detection: GridDetection, config: ReadConfig = DEFAULT_READ_CONFIG
) -> tuple[GridDetection, CellScores]:
    """The cells' scores, the grid turned upright first where the page lies sideways
    (``orientation.read_oriented``); returns the detection as turned."""
    scores = scorer.score(detection.warped, config)
    return read_oriented(
        detection,
        scores,
        lambda warped: scorer.score_upright(warped, config, scores),
        config.orientation,
    )


def settle_cells(
    scores: CellScores,
    detection: GridDetection,
    image: np.ndarray | None = None,
    config: ReadConfig = DEFAULT_READ_CONFIG,
    printed: frozenset[int] = frozenset(),
) -> CellReading:
    """Every cell's digit and print-or-pen kind from its scores (``decide_kinds``, with the
    colour ``image`` the grid was found in for the ink-colour step, and the cells known to
    hold ``printed`` ink)."""
    return decide_kinds(scores, image, detection.lattice, config.kind_decision, printed)
