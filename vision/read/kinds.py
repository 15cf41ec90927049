"""The classifier's print-or-pen log-odds, and the per-puzzle ink-shape evidence.

All printed givens of a puzzle share one typeface, size and ink, and one pen writes the
rest. So an ambiguous cell is compared with the cells of the same puzzle the classifier
is sure about: three ink features (digit height, ink darkness, ink per row ~ stroke
width) are matched against the medians of the sure printed and the sure handwritten
cells, and that evidence is added to the classifier's printed-vs-handwritten log-odds.
Where the hand is not known (too few sure handwritten cells: a page filled in a neat,
print-like pencil), a cell is compared with the print alone: ink that lies farther from
the sure printed cells than they lie from each other leans handwritten.
``decide.decide_kinds`` applies both, in order with the ink-colour step.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PROBABILITY_FLOOR = 1e-9  # added to probabilities before their log
MAX_KIND_LOG_ODDS = 20.0  # the classifier's log-odds are clipped to ± this


@dataclass(frozen=True)
class InkShapeConfig:
    """How per-puzzle evidence adjusts the per-cell printed/handwritten call.

    A cell whose kind log-odds lie within ``ambiguous_log_odds`` of 0 is ambiguous; cells
    beyond ``sure_log_odds`` define the puzzle's printed and handwritten styles (each needs
    ``min_sure_cells``). Ink above ``ink_threshold`` counts as stroke; ``border_px`` are
    ignored at the cell edge (grid lines). Feature distances are divided by
    ``feature_scales`` (height px, darkness, ink px per row) and weighted by
    ``feature_weight``; ``0`` turns the per-puzzle step off. Without enough sure
    handwritten cells, a cell farther from the print than ``print_spread_percentile`` of
    the sure printed cells are, by more than ``print_spread_margin``, leans handwritten by
    the excess. How these were set: the model card (models/digits_v4/README.md).
    """

    ambiguous_log_odds: float = 4.0
    sure_log_odds: float = 5.0
    min_sure_cells: int = 3
    ink_threshold: float = 0.35
    border_px: int = 3
    feature_scales: tuple[float, float, float] = (4.0, 0.1, 2.0)
    feature_weight: float = 1.0
    print_spread_percentile: float = 90.0
    print_spread_margin: float = 1.0


DEFAULT_INK_SHAPE_CONFIG = InkShapeConfig()


def kind_log_odds(probs: np.ndarray, digits: np.ndarray) -> np.ndarray:
    """log p(printed d) / p(handwritten d) of each cell's chosen digit d, clipped."""
    rows = np.arange(probs.shape[0])
    p = probs[rows, digits].astype(np.float64)
    h = probs[rows, digits + 9].astype(np.float64)
    odds = np.log(p + PROBABILITY_FLOOR) - np.log(h + PROBABILITY_FLOOR)
    return np.clip(odds, -MAX_KIND_LOG_ODDS, MAX_KIND_LOG_ODDS)


def ink_features(cells: np.ndarray, config: InkShapeConfig) -> np.ndarray:
    """(N, 3) scaled features per cell: ink height, mean stroke ink, ink pixels per row."""
    b = config.border_px
    inner = cells[:, b : cells.shape[1] - b, b : cells.shape[2] - b]
    stroke = np.asarray(inner > config.ink_threshold)
    inked_rows = np.any(stroke, axis=2)
    first = np.argmax(inked_rows, axis=1)
    last = inked_rows.shape[1] - np.argmax(inked_rows[:, ::-1], axis=1)
    height = np.where(inked_rows.any(axis=1), last - first, 0)
    count = stroke.sum(axis=(1, 2))
    darkness = (inner * stroke).sum(axis=(1, 2)) / np.maximum(count, 1)
    per_row = count / np.maximum(height, 1)
    return np.stack([height, darkness, per_row], axis=1) / np.asarray(config.feature_scales)


def puzzle_evidence(
    log_odds: np.ndarray, filled: np.ndarray, features: np.ndarray, config: InkShapeConfig
) -> np.ndarray:
    """Extra log-odds for ambiguous cells: nearer the puzzle's printed or handwritten style.

    With too few sure handwritten cells, only cells unlike the print get any (``unlike_print``).
    """
    sure_p = filled & (log_odds > config.sure_log_odds)
    sure_h = filled & (log_odds < -config.sure_log_odds)
    if sure_p.sum() < config.min_sure_cells:
        return np.zeros_like(log_odds)
    ambiguous = filled & (np.abs(log_odds) < config.ambiguous_log_odds)
    to_p = np.abs(features - np.median(features[sure_p], axis=0)).sum(axis=1)
    if sure_h.sum() < config.min_sure_cells:
        return np.where(ambiguous, config.feature_weight * unlike_print(to_p, sure_p, config), 0.0)
    to_h = np.abs(features - np.median(features[sure_h], axis=0)).sum(axis=1)
    return np.where(ambiguous, config.feature_weight * (to_h - to_p), 0.0)


def unlike_print(to_p: np.ndarray, sure_p: np.ndarray, config: InkShapeConfig) -> np.ndarray:
    """Log-odds (never above 0) of cells whose ink lies farther from the print's median
    (``to_p``) than the sure printed cells' own ``print_spread_percentile`` plus margin."""
    spread = float(np.percentile(to_p[sure_p], config.print_spread_percentile))
    return np.minimum(0.0, spread + config.print_spread_margin - to_p)
