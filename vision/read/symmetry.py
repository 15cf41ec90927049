"""Printed or pen by the givens' pattern: setters place givens symmetric under a half turn.

Most classic puzzles are set with their givens in a pattern that a half turn of the grid
(row r, column c to n - 1 - r, n - 1 - c) leaves as it is, so a given's partner cell is a
given too. When the puzzle's sure printed cells show that pattern (almost every one's
partner is printed or unsure, and none's is a sure entry of the person's), an unsure cell
whose partner is empty is no given: it leans handwritten; one whose partner is surely
printed is a given's partner: it leans printed. A page whose print shows no such pattern
gets no evidence, and its trace says why.

``decide.decide_kinds`` applies this step after the placement step, on grids of the sizes
it is set for (``SymmetryConfig.sizes``: the classic 9×9).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .kind_trace import Finding


@dataclass(frozen=True)
class SymmetryConfig:
    """When the givens' half-turn symmetry settles the kind of unsure cells.

    sizes: the grids (cells a side) the step runs on.
    sure_log_odds: cells beyond this are surely printed (or surely handwritten, below
        minus it); cells within it are unsure, and only they change.
    min_printed: the least sure printed cells from which a pattern is judged.
    symmetric_share: the least share of the sure printed cells whose partner is printed
        or unsure for the pattern to be symmetric (and no sure printed cell's partner may
        be a sure handwritten one).
    empty_partner_log_odds: added to an unsure cell whose partner is empty.
    printed_partner_log_odds: added to an unsure cell whose partner is surely printed.
    weight: scales both; 0 turns the step off.
    """

    sizes: tuple[int, ...] = (9,)
    sure_log_odds: float = 5.0
    min_printed: int = 8
    symmetric_share: float = 0.85
    empty_partner_log_odds: float = -5.0
    printed_partner_log_odds: float = 2.5
    weight: float = 1.0

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if not 0.0 < self.symmetric_share <= 1.0:
            raise ValueError(f"symmetric_share must be in (0, 1], got {self.symmetric_share}")
        if self.empty_partner_log_odds > 0 or self.printed_partner_log_odds < 0:
            raise ValueError("an empty partner leans pen (≤ 0), a printed one print (≥ 0)")

    def applies(self, cell_count: int) -> bool:
        """Whether a grid of ``cell_count`` cells is one this step runs on."""
        side = math.isqrt(cell_count)
        return side * side == cell_count and side in self.sizes and self.weight != 0


DEFAULT_SYMMETRY_CONFIG = SymmetryConfig()


def symmetry_evidence(
    log_odds: np.ndarray, filled: np.ndarray, config: SymmetryConfig = DEFAULT_SYMMETRY_CONFIG
) -> Finding:
    """Log-odds to add from the half-turn partner of each unsure cell, when the sure
    printed cells (row-major, n² of them) are set in a half-turn symmetric pattern."""
    none = np.zeros(log_odds.shape, dtype=np.float64)
    printed = filled & (log_odds > config.sure_log_odds)
    written = filled & (log_odds < -config.sure_log_odds)
    unsure = filled & ~printed & ~written
    refused = pattern_refused(printed, written, unsure, config)
    if refused:
        return Finding(none, refused)
    lean = np.where(~filled[::-1], config.empty_partner_log_odds, 0.0)
    lean = np.where(printed[::-1], config.printed_partner_log_odds, lean)
    added = np.where(unsure, config.weight * lean, 0.0)
    share = symmetric_share(printed, unsure)
    reason = f"givens half-turn symmetric ({share:.0%} of {int(printed.sum())} sure printed cells)"
    why = tuple(
        (int(c), "its half-turn partner is empty" if added[c] < 0 else "its partner is printed")
        for c in np.flatnonzero(added)
    )
    return Finding(added, reason, why)


def pattern_refused(
    printed: np.ndarray, written: np.ndarray, unsure: np.ndarray, config: SymmetryConfig
) -> str:
    """Why the sure printed cells show no half-turn pattern to go by ("" when they do)."""
    count = int(printed.sum())
    if count < config.min_printed:
        return f"{count} sure printed cells, too few to show a pattern"
    if np.any(printed & written[::-1]):
        return "a sure printed cell's half-turn partner is a sure entry: not symmetric"
    share = symmetric_share(printed, unsure)
    if share < config.symmetric_share:
        return f"givens not half-turn symmetric ({share:.0%} of {count} sure printed cells)"
    return ""


def symmetric_share(printed: np.ndarray, unsure: np.ndarray) -> float:
    """The share of the sure printed cells whose half-turn partner is printed or unsure."""
    return float((printed & (printed | unsure)[::-1]).sum()) / max(int(printed.sum()), 1)
