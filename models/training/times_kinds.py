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

Symmetry and uniqueness alone keep a symmetric pair of pen digits that the teacher calls
printed (the solver's cursive 2s of some Times pages): extra givens keep a puzzle unique.
So each given must also be a copy of the page's printed glyph of its digit: its best match
(``copies.similarity``) with the largest group of copies among the cells of its digit that
lean printed, its own partner left out, averaged over the four photos. A pair that
matches it badly (``derive_givens``) is taken out where the rest is still a proper
puzzle; a pair of true givens is seldom redundant.
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
from ...vision.read.copies import DEFAULT_COPY_CONFIG, copy_groups, similarities
from .dataset import read_gray, warp

MIN_GIVENS, MAX_GIVENS = 17, 40
GLYPH_MATCH = 0.7  # a pair of givens' least mean match with their digits' printed copies
LIKE_MATCH = 0.8  # a given matching its digit's printed copies this well keeps its pair


@dataclass(frozen=True)
class PuzzleKinds:
    """One puzzle's derived givens: (81,) bool printed cells, or None where none holds."""

    puzzle: str
    printed: np.ndarray | None
    digits: int


def photo_evidence(
    classifier: DigitClassifier, photo: ProgressPhoto
) -> tuple[np.ndarray, np.ndarray]:
    """(81,) log-odds printed vs written of each cell's labelled digit (0 elsewhere), and
    (81,) each cell's best match with its digit's printed glyph (NaN: none to compare)."""
    cells = classifier.cells(warp(read_gray(photo.path), photo.corners))
    probs, _ = classifier.predict(cells)
    labels = photo.labels.reshape(81)
    digit = np.clip(labels, 1, 9)
    printed = probs[np.arange(81), digit]
    written = probs[np.arange(81), digit + 9]
    odds = np.log(np.maximum(printed, 1e-9)) - np.log(np.maximum(written, 1e-9))
    odds = np.where((labels >= 1) & (labels <= 9), odds, 0.0)
    return odds, glyph_matches(cells, labels, odds)


def glyph_matches(cells: np.ndarray, labels: np.ndarray, odds: np.ndarray) -> np.ndarray:
    """(81,) each cell's best match with the printed glyph of its labelled digit: the largest
    group of copies among that digit's cells leaning printed, the cell and its half-turn
    partner left out (NaN where no such group, or only those two, shows the glyph)."""
    out = np.full(81, np.nan)
    config = DEFAULT_COPY_CONFIG
    for digit in range(1, 10):
        members = np.flatnonzero((labels == digit) & (odds > 0))
        if len(members) < 2:
            continue
        sim = similarities(cells, members, config.shift_px)
        groups = copy_groups(sim, config.copy_from, config.spread)
        if not groups:
            continue
        glyph = max(groups, key=len)
        for i, cell in enumerate(members):
            others = [j for j in glyph if members[j] not in (cell, 80 - cell)]
            if others:
                out[cell] = float(sim[i, others].max())
    return out


def derive_givens(
    labels: np.ndarray, odds: np.ndarray, matches: np.ndarray | None = None
) -> np.ndarray | None:
    """(81,) bool givens from one puzzle's labels, mean log-odds and mean glyph matches
    (``glyph_matches``; None: not checked), or None if not a proper puzzle.

    A pair whose cells match the printed glyph below ``GLYPH_MATCH`` on average (cells
    with no glyph to compare left out) and neither at ``LIKE_MATCH`` is taken out, least
    alike first, where the givens left are still a proper puzzle.
    """
    digits = (labels >= 1) & (labels <= 9)
    printed = digits & digits[::-1] & (odds + odds[::-1] > 0)
    if not proper(labels, printed):
        return None
    if matches is None:
        return printed
    pair = np.stack([matches, matches[::-1]])
    mean = mean_known(pair)
    unlike = printed & (mean < GLYPH_MATCH) & ~(np.nan_to_num(pair) >= LIKE_MATCH).any(axis=0)
    for cell in sorted(np.flatnonzero(unlike), key=lambda c: mean[c]):
        fewer = printed.copy()
        fewer[[cell, 80 - cell]] = False
        if printed[cell] and proper(labels, fewer):
            printed = fewer
    return printed


def proper(labels: np.ndarray, printed: np.ndarray) -> bool:
    """Whether the ``printed`` cells of ``labels`` are a proper puzzle: ``MIN_GIVENS`` to
    ``MAX_GIVENS`` givens, one solution, agreeing with every labelled digit."""
    if not MIN_GIVENS <= int(printed.sum()) <= MAX_GIVENS:
        return False
    puzzle = "".join(str(int(d)) if p else "." for d, p in zip(labels, printed, strict=True))
    if count_solutions(puzzle, limit=2, time_limit=5.0) != 1:
        return False
    digits = (labels >= 1) & (labels <= 9)
    answer = np.array([int(c) for c in solve(puzzle)])
    return bool(np.all(answer[digits] == labels[digits]))


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
        evidence = [photo_evidence(classifier, p) for p in group]
        odds = np.mean([e[0] for e in evidence], axis=0)
        matches = mean_known(np.array([e[1] for e in evidence]))
        digit_labels = np.where(labels == NOTES_LABEL, 0, labels)
        givens = derive_givens(digit_labels, odds, matches) if same else None
        out[puzzle] = PuzzleKinds(puzzle, givens, int(((labels >= 1) & (labels <= 9)).sum()))
    return out


def mean_known(values: np.ndarray) -> np.ndarray:
    """(81,) the mean over photos of (P, 81) values, NaNs left out (NaN where all are)."""
    known = ~np.isnan(values)
    total = np.where(known, values, 0.0).sum(axis=0)
    count = known.sum(axis=0)
    return np.where(count > 0, total / np.maximum(count, 1), np.nan)
