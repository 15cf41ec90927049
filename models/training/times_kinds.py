"""Printed or written for the Times ``train`` photos' digits, derived per puzzle (training only).

The Times labels give each cell's digit but not whether it was printed or written. The
four photos of one puzzle show the page in the same state, so which digits they share
says nothing; what does is the puzzle's own structure. A Times puzzle's givens sit in a
pattern symmetric under a half turn and by themselves have exactly one solution, which
agrees with every digit written in. So a puzzle's givens are derived as the symmetric
pairs of digit cells that a teacher model (the shipped one) calls printed, averaged over
the four photos and over both cells of the pair; the derivation is kept only when those
givens are a proper puzzle: symmetric, 17 to 40 of them, exactly one solution, agreeing
with every labelled digit. Puzzles that fail keep the either-kind target.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...samples.progress_dataset import NOTES as NOTES_LABEL
from ...samples.progress_dataset import ProgressPhoto, load_split
from ...solver.solve import count_solutions, solve
from ...vision.read.classifier import DigitClassifier
from .dataset import read_gray, warp

MIN_GIVENS, MAX_GIVENS = 17, 40


@dataclass(frozen=True)
class PuzzleKinds:
    """One puzzle's derived givens: (81,) bool printed cells, or None where none holds."""

    puzzle: str
    printed: np.ndarray | None
    digits: int


def log_odds(classifier: DigitClassifier, photo: ProgressPhoto) -> np.ndarray:
    """(81,) log p(printed d) − log p(written d) of each cell's labelled digit d (0 elsewhere)."""
    cells = classifier.cells(warp(read_gray(photo.path), photo.corners))
    probs, _ = classifier.predict(cells)
    labels = photo.labels.reshape(81)
    digit = np.clip(labels, 1, 9)
    printed = probs[np.arange(81), digit]
    written = probs[np.arange(81), digit + 9]
    odds = np.log(np.maximum(printed, 1e-9)) - np.log(np.maximum(written, 1e-9))
    return np.where((labels >= 1) & (labels <= 9), odds, 0.0)


def derive_givens(labels: np.ndarray, odds: np.ndarray) -> np.ndarray | None:
    """(81,) bool givens from one puzzle's labels and mean log-odds, or None if not proper."""
    digits = (labels >= 1) & (labels <= 9)
    partner = digits[::-1]
    pair_odds = odds + odds[::-1]
    printed = digits & partner & (pair_odds > 0)
    if not MIN_GIVENS <= int(printed.sum()) <= MAX_GIVENS:
        return None
    puzzle = "".join(str(int(d)) if p else "." for d, p in zip(labels, printed, strict=True))
    if count_solutions(puzzle, limit=2, time_limit=5.0) != 1:
        return None
    answer = np.array([int(c) for c in solve(puzzle)])
    return printed if bool(np.all(answer[digits] == labels[digits])) else None


def derive_split(
    classifier: DigitClassifier, shared: Path, split: str = "train"
) -> dict[str, PuzzleKinds]:
    """Derived givens of every puzzle of a Times split, by puzzle date."""
    photos: dict[str, list[ProgressPhoto]] = defaultdict(list)
    for photo in load_split(split, shared):
        photos[photo.puzzle].append(photo)
    out = {}
    for puzzle, group in sorted(photos.items()):
        labels = group[0].labels.reshape(81)
        same = all(np.array_equal(p.labels.reshape(81), labels) for p in group)
        odds = np.mean([log_odds(classifier, p) for p in group], axis=0)
        givens = derive_givens(np.where(labels == NOTES_LABEL, 0, labels), odds) if same else None
        out[puzzle] = PuzzleKinds(puzzle, givens, int(((labels >= 1) & (labels <= 9)).sum()))
    return out
