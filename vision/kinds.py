"""Settle each cell's digit, and printed vs handwritten per puzzle rather than per cell.

All printed givens of a puzzle share one typeface, so an ambiguous cell is compared with
the cells of the same puzzle that the classifier is sure about: its embedding is matched
against the confidently printed and confidently handwritten cells, and that similarity
evidence is added to the classifier's own printed-vs-handwritten log-odds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .types import Kind


@dataclass(frozen=True)
class KindConfig:
    """How per-puzzle evidence overrides the per-cell printed/handwritten call.

    A cell whose printed share of its digit probability lies within
    ``ambiguous_log_odds`` of even is ambiguous; cells beyond ``confident_log_odds`` define
    the puzzle's printed and handwritten styles. ``similarity_weight`` scales the
    difference of the best cosine similarities to each style (same digit first) before it
    is added to the log-odds. ``0`` turns the per-puzzle step off.
    """

    ambiguous_log_odds: float = 4.0
    confident_log_odds: float = 6.0
    similarity_weight: float = 20.0


def decide(
    probs: np.ndarray, embedding: np.ndarray | None = None, config: KindConfig = KindConfig()
) -> tuple[np.ndarray, np.ndarray]:
    """(81,) digits (0 empty) and (81,) Kind values from (81, 19) probabilities."""
    if probs.ndim != 2 or probs.shape[1] != 19:
        raise ValueError(f"probs must have shape (N, 19), got {probs.shape}")
    printed, hand = probs[:, 1:10], probs[:, 10:19]
    digits = np.argmax(printed + hand, axis=1) + 1
    filled = probs[:, 0] < 0.5
    log_odds = kind_log_odds(probs, digits)
    if embedding is not None and config.similarity_weight > 0:
        log_odds = log_odds + puzzle_evidence(log_odds, digits, filled, embedding, config)
    kinds = np.where(log_odds >= 0, Kind.PRINTED, Kind.HANDWRITTEN)
    return np.where(filled, digits, 0), np.where(filled, kinds, Kind.EMPTY).astype(np.int64)


def kind_log_odds(probs: np.ndarray, digits: np.ndarray) -> np.ndarray:
    """log p(printed) / p(handwritten) of each cell's chosen digit, clipped to ±20."""
    rows = np.arange(probs.shape[0])
    p = probs[rows, digits].astype(np.float64)
    h = probs[rows, digits + 9].astype(np.float64)
    return np.clip(np.log(p + 1e-9) - np.log(h + 1e-9), -20.0, 20.0)


def puzzle_evidence(
    log_odds: np.ndarray,
    digits: np.ndarray,
    filled: np.ndarray,
    embedding: np.ndarray,
    config: KindConfig,
) -> np.ndarray:
    """Extra log-odds for ambiguous cells from their likeness to the puzzle's sure cells."""
    unit = embedding / np.maximum(np.linalg.norm(embedding, axis=1, keepdims=True), 1e-9)
    sure_p = filled & (log_odds > config.confident_log_odds)
    sure_h = filled & (log_odds < -config.confident_log_odds)
    extra = np.zeros_like(log_odds)
    for i in np.flatnonzero(filled & (np.abs(log_odds) < config.ambiguous_log_odds)):
        sp = _best_similarity(unit, int(i), sure_p, digits)
        sh = _best_similarity(unit, int(i), sure_h, digits)
        if sp is not None and sh is not None:
            extra[i] = config.similarity_weight * (sp - sh)
    return extra


def _best_similarity(
    unit: np.ndarray, i: int, group: np.ndarray, digits: np.ndarray
) -> float | None:
    """Highest cosine similarity of cell i to the group's cells (its own digit if any)."""
    same = group & (digits == digits[i])
    members = np.flatnonzero(same if same.any() else group)
    members = members[members != i]
    if members.size == 0:
        return None
    return float(np.max(unit[members] @ unit[i]))
