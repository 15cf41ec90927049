"""Pages photographed sideways or upside down: read the grid in the quarter turn that fits.

A grid found in a photo has no "up": its corners come out in image order. When the
upright reading is unsure, the classifier also reads the three other quarter turns (all
in one run) and the detection is turned to match the most confident one, so that row 1
of the result is the puzzle's row 1 and the answer is drawn the right way up.

Most unsure grids are upright all the same (a page of pen entries and notes), and a few
of each turn's cells show it: a cell adds at most ``log(1 + floor)`` to a turn's summed
log-confidence, so a turn whose first cells already sum below the upright grid's whole
sum can never read more surely (``turns_ruled_out``). The classifier then reads those
few cells, not all 243 of the turns, and the reading is the same.
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
    # Before the turns are read whole, ``screen_cells`` of each (the fullest first, then
    # the next as many) are read to rule them out (``turns_ruled_out``); 0 never does.
    screen_cells: int = 27
    # a turn is ruled out only when even its best case sums this many nats below upright
    # (far above the rounding of one model run against another)
    screen_margin_log_prob: float = 1.0

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if self.screen_cells < 0:
            raise ValueError(f"screen_cells must be 0 or more, got {self.screen_cells}")
        if self.screen_margin_log_prob < 0:
            raise ValueError(
                f"screen_margin_log_prob must be 0 or more, got {self.screen_margin_log_prob}"
            )


DEFAULT_ORIENTATION_CONFIG = OrientationConfig()
PROB_FLOOR = 1e-6  # added to probabilities so a 0 gives a finite log
# a warped grid -> the quarter turns that make it upright and the upright grid's scores
# (``CellScorer.score_upright``)
Turn = Callable[[np.ndarray], tuple[int, CellScores]]
# the positions (row-major) asked for in each quarter turn -> their log-confidences
TurnedTerms = Callable[[dict[int, np.ndarray]], dict[int, np.ndarray]]
QUARTER_TURNS = (1, 2, 3)  # the turns other than upright


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


def turned_positions(cells: np.ndarray, k: int, size: int = 9) -> np.ndarray:
    """Where the (row-major) ``cells`` of a grid lie once it is turned ``k`` quarter turns
    counter-clockwise (``np.rot90``), in the turned grid's row-major positions."""
    shown = np.rot90(np.arange(size * size).reshape(size, size), k).ravel()
    return np.asarray(np.argsort(shown)[cells], dtype=np.int64)


def turns_ruled_out(
    upright: np.ndarray,
    order: np.ndarray,
    turned: TurnedTerms,
    most: float,
    config: OrientationConfig = DEFAULT_ORIENTATION_CONFIG,
) -> bool:
    """Whether no quarter turn can read more surely than the grid as it lies, judged on
    as few cells as that takes.

    upright: (N,) each cell's log-confidence as the grid lies (summed, the sum a turn must
    beat). order: the cells to look at, the likeliest to tell first. turned: the
    log-confidences of the cells asked for in each turn (``TurnedTerms``). most: the most
    one cell can add. A turn is ruled out once the cells seen plus ``most`` for every cell
    not seen sum ``screen_margin_log_prob`` below the upright sum; cells are asked for
    ``screen_cells`` at a time, only in turns not yet ruled out. False when a turn is still
    in after every cell of ``order`` (it may win: read the turns whole).
    """
    step = config.screen_cells
    if step == 0:
        return False
    bound = float(upright.sum()) - config.screen_margin_log_prob
    sums = dict.fromkeys(QUARTER_TURNS, 0.0)
    for start in range(0, len(order), step):
        chunk = order[start : start + step]
        asked = {k: turned_positions(chunk, k) for k in sums}
        for k, terms in turned(asked).items():
            sums[k] += float(terms.sum())
        unseen = len(upright) - (start + len(chunk))
        sums = {k: s for k, s in sums.items() if s + unseen * most >= bound}
        if not sums:
            return True
    return False
