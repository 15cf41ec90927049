"""Read pen entries knowing the puzzle's answer: a person's entry is usually right.

Handwriting is harder to read than print. Once the printed givens are solved, the
answer is a strong prior for each pen digit: before looking at the ink, the entry equals
the answer's digit with probability ``right_prior`` and each other value shares the rest
(a grid of any size: a 6×6's values 1-6, a 16×16's 1-16). The classifier's evidence is
combined with that prior (Bayes), so an unsure reading leans to the answer while a
clearly written wrong digit stays wrong — a checker must still catch real mistakes.

Faint marks (print showing through the page, a smudge) are sometimes read as pen digits.
A real pen entry is usually the answer's digit; a smudge read as a digit rarely is. So
when the classifier gives a cell at least ``phantom_empty_probability`` of being empty,
"empty" competes with every digit weighted by the prior, and may win.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..types import CellReading, Digits, digit_values, digits_of, value_shares


@dataclass(frozen=True)
class PenConfig:
    """How strongly the answer's digit is expected in a pen-filled cell (0 turns it off),
    and how likely empty a disagreeing pen digit must be to count as a phantom mark."""

    right_prior: float = 0.9
    phantom_empty_probability: float = 0.1

    def __post_init__(self) -> None:
        """Check the prior is a probability."""
        if not 0.0 <= self.right_prior < 1.0:
            raise ValueError(f"right_prior must be in [0, 1), got {self.right_prior}")
        if not 0.0 < self.phantom_empty_probability <= 1.0:
            raise ValueError(
                f"phantom_empty_probability must be in (0, 1], got {self.phantom_empty_probability}"
            )


DEFAULT_PEN_CONFIG = PenConfig()


def digit_evidence(reading: CellReading, n: int = 9) -> np.ndarray:
    """(N, n) probability of each value 1-n in any ink, normalised per cell (81 cells and
    the digits 1-9 for a 9×9)."""
    values = value_shares(reading.probs, n)
    return values / np.maximum(values.sum(axis=1, keepdims=True), 1e-12)


def is_phantom(probs: np.ndarray, prior: np.ndarray, config: PenConfig) -> bool:
    """Whether a faint cell is better explained as empty than as any likely pen digit.

    Only cells the classifier gives at least ``phantom_empty_probability`` of being empty
    are questioned; there, "empty" competes with each value weighted by its prior
    (``probs``: the cell's class probabilities; ``prior``: one a value).
    """
    empty = float(probs[0])
    if empty < config.phantom_empty_probability:
        return False
    digits = value_shares(probs[None, :], len(prior))[0] * prior
    return empty > float(digits.max())


def read_pen_entries(
    reading: CellReading,
    handwritten: Digits,
    solution: Digits | None,
    config: PenConfig = DEFAULT_PEN_CONFIG,
) -> tuple[Digits, dict[int, float]]:
    """The pen entries re-read with the answer as prior, and the changed cells' probability.

    ``handwritten`` holds the pen entries as first read (a character a cell, '0' where
    none; a grid of any size n×n, values past 9 as A-G); a cell may change value, or be
    emptied when it looks like a phantom. Without a solution nothing changes.
    """
    if solution is None or config.right_prior == 0.0:
        return handwritten, {}
    n = math.isqrt(len(handwritten))
    evidence = digit_evidence(reading, n)
    wrong_prior = (1.0 - config.right_prior) / (n - 1)
    written, answers = digit_values(handwritten), digit_values(solution)
    out = list(written)
    changed: dict[int, float] = {}
    for cell, (value, answer) in enumerate(zip(written, answers, strict=True)):
        if value == 0:
            continue
        prior = np.full(n, wrong_prior)
        prior[answer - 1] = config.right_prior
        best = int(np.argmax(evidence[cell] * prior)) + 1
        if is_phantom(reading.probs[cell], prior, config):
            out[cell] = 0
            changed[cell] = float(reading.probs[cell, 0])
        elif best != value:
            out[cell] = best
            changed[cell] = float(evidence[cell, best - 1])
    return digits_of(out), changed
