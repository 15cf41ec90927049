"""Printed or pen: every print-or-pen decision on a grid's cells, in one order, traced.

A filled cell's kind is the sign of its log-odds log p(printed) / p(handwritten): printed
when ≥ 0, handwritten below. ``decide_kinds`` settles them in six steps, each adding
evidence to the log-odds the earlier steps left:

1. ``CLASSIFIER``: a cell is empty when p(empty) ≥ ``KindDecisionConfig.empty_below``
   (0.5), or illegible (below ``legible_from``); otherwise its digit is the one with the
   largest printed + handwritten probability, and its log-odds are the classifier's
   log p(printed d) / p(handwritten d) (``kinds.kind_log_odds``).
2. ``COPIES`` (with the cell images): a typeface has one glyph of each digit, so the
   cells read as one digit are compared with each other (``copies.copy_evidence``):
   copies of one glyph share one decision and lean printed (a hand never writes a digit
   twice so alike), a cell unlike the puzzle's printed glyph of its digit leans pen.
3. ``INK_SHAPE`` (with the cell images): all printed givens of a puzzle share one
   typeface, size and ink, and one pen writes the rest, so each ambiguous cell is compared
   with the puzzle's sure printed and sure handwritten cells in ink height, darkness and
   stroke width (``kinds.puzzle_evidence``).
4. ``PLACEMENT`` (with the cell images): one puzzle's print has one type size and
   baseline, so an unsure cell whose ink's top and bottom rows lie off the sure printed
   cells' leans pen, one exactly on them print (``placement.placement_evidence``).
5. ``SYMMETRY`` (on a 9×9): setters place givens symmetric under a half turn, so when the
   sure printed cells show that pattern an unsure cell whose partner is empty leans pen,
   one whose partner is surely printed print (``symmetry.symmetry_evidence``).
6. ``INK_COLOUR`` (with the colour photo and the grid's lattice): the classifier reads grey
   cells, so a neat red or blue pen digit can pass for print; each unsure cell's ink tint
   is compared with the sure printed and sure pen tints (``ink_colour.colour_evidence``;
   the cells known to hold print no digit is read in, a Killer's sums, among the printed).

Why this order: each step needs cells the earlier steps left sure, to learn what this
puzzle's print and pen look like, and changes only the cells still unsure. The classifier
comes first because the others have nothing to compare with before it; copies come next
because they settle whole groups of cells that the ink steps then learn from; ink shape works
on any photo, grey ones too; placement and symmetry need only sure printed cells, which the
earlier steps add to; ink colour needs the colour photo and abstains whenever the
pen's tint does not stand apart from the print's, so it speaks last.

Before the steps, a cell whose notes probability (``CellScores.notes_probability``, from the
notes model) is at least ``KindDecisionConfig.notes_from`` is ``Kind.NOTES``: it holds no digit,
is never filled, and no step compares with it or changes it.

Each step's log-odds and kinds are kept in the reading's ``trace`` (``kind_trace.py``),
with what the step went by on the page and why it moved a cell where it says; a
cell's kind was decided by the last step that changed it, else by the classifier. After
solving, the pipeline adds ``REPAIR`` and ``ANSWER_PRIOR`` changes to the same trace.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..types import CellReading, CellScores, Kind
from .copies import DEFAULT_COPY_CONFIG, CopyConfig, copy_evidence
from .ink_colour import (
    DEFAULT_INK_COLOUR_CONFIG,
    InkColourConfig,
    cell_ink_colours,
    colour_evidence,
    ink_tints,
    reached,
    trusted_tints,
)
from .kind_trace import Finding, KindStep, KindTrace, StepOdds
from .kinds import (
    DEFAULT_INK_SHAPE_CONFIG,
    InkShapeConfig,
    ink_features,
    kind_log_odds,
    puzzle_evidence,
)
from .placement import DEFAULT_PLACEMENT_CONFIG, PlacementConfig, ink_rows, placement_evidence
from .symmetry import DEFAULT_SYMMETRY_CONFIG, SymmetryConfig, symmetry_evidence

EMPTY_BELOW = 0.5  # a cell is filled when p(empty) is below this
NOTES_FROM = 0.5  # a cell holds notes when the digit model gives it at least this
# A filled cell whose likeliest digit holds less than this share of its digit probability
# is no legible digit (a speck, print showing through): it is read as empty (where it
# was set: the model card, models/digits_v4/README.md).
LEGIBLE_FROM = 0.3
CROSSED_FROM = 0.5  # an empty cell holds a crossed-out digit from this probability of one
SHARE_FLOOR = 1e-12  # keeps the share finite where every digit has probability 0
# what a step finds (the log-odds to add), from the log-odds so far and which cells are filled
Evidence = Callable[[np.ndarray, np.ndarray], Finding]


@dataclass(frozen=True)
class KindDecisionConfig:
    """The thresholds that say what a cell holds, and the evidence steps' settings (a
    weight of 0 turns a step off).

    empty_below: a cell is filled when its empty probability is below this.
    notes_from: the notes probability from which a cell is taken for candidate notes.
    legible_from: the share of a cell's digit probability its likeliest digit needs for
        the cell to be filled (below it, no digit is legible and the cell is empty).
    crossed_from: the crossed-out probability from which an empty cell is reported as a
        digit struck through.
    """

    copies: CopyConfig = DEFAULT_COPY_CONFIG
    ink_shape: InkShapeConfig = DEFAULT_INK_SHAPE_CONFIG
    placement: PlacementConfig = DEFAULT_PLACEMENT_CONFIG
    symmetry: SymmetryConfig = DEFAULT_SYMMETRY_CONFIG
    ink_colour: InkColourConfig = DEFAULT_INK_COLOUR_CONFIG
    empty_below: float = EMPTY_BELOW
    notes_from: float = NOTES_FROM
    legible_from: float = LEGIBLE_FROM
    crossed_from: float = CROSSED_FROM

    def filled(self, probs: np.ndarray) -> np.ndarray:
        """(N,) bool: the cells of (N, 19) digit probabilities holding a legible entry
        (notes cells aside): less likely empty than ``empty_below``, and their likeliest
        digit holding at least ``legible_from`` of their digit probability."""
        filled = (probs[:, 0] < self.empty_below) & (digit_share(probs) >= self.legible_from)
        return np.asarray(filled)

    def notes(self, notes_probability: np.ndarray) -> np.ndarray:
        """(N,) bool: the cells taken for candidate notes."""
        return np.asarray(notes_probability >= self.notes_from)


DEFAULT_KIND_DECISION_CONFIG = KindDecisionConfig()


def decide_kinds(
    scores: CellScores,
    image: np.ndarray | None = None,
    lattice: np.ndarray | None = None,
    config: KindDecisionConfig = DEFAULT_KIND_DECISION_CONFIG,
    printed: frozenset[int] = frozenset(),
) -> CellReading:
    """Settle every cell's digit and print-or-pen kind, in the documented order, traced.

    ``scores`` is the classifier's output: its probabilities and, where known, cell images,
    notes and crossed-out probabilities. The copies, ink-shape and placement steps run when
    the cell images are known, the symmetry step on a 9×9, the ink-colour step when the
    colour ``image`` (BGR) and the grid's ``lattice`` are given. ``printed``: cells whose
    ink is print though no digit is read there (a Killer's sums, masked for the reader),
    the ink-colour step's printed references too.
    """
    notes = notes_cells(scores, config)
    digits, filled, first = classifier_step(scores, notes, config)
    steps = [first]
    for step, evidence in evidence_steps(scores, (image, lattice, printed), config, digits):
        found = evidence(steps[-1].log_odds, filled)
        log_odds = steps[-1].log_odds + found.added
        kinds = kinds_of(log_odds, filled, notes)
        steps.append(StepOdds(step, log_odds, kinds, found.reason, found.cells))
    last = steps[-1]
    trace = KindTrace(digits=digits, steps=tuple(steps))
    noted, sure = noted_digits(scores, notes)
    return CellReading(
        scores.probs, digits, last.kinds, kind_log_odds=last.log_odds, trace=trace, notes=noted,
        notes_sure=sure, crossed_out=crossed_out_cells(scores, filled | notes, config),
        unreadable=unreadable_cells(scores, filled | notes), cells=scores.cells,
    )  # fmt: skip


def unreadable_cells(scores: CellScores, taken: np.ndarray) -> tuple[bool, ...] | None:
    """Which cells, neither filled nor notes, hold writing no digit could be read in."""
    if scores.unreadable is None:
        return None
    return tuple(bool(u) for u in np.asarray(scores.unreadable, dtype=bool) & ~taken)


def crossed_out_cells(
    scores: CellScores, taken: np.ndarray, config: KindDecisionConfig
) -> tuple[bool, ...] | None:
    """Which cells, neither filled nor notes, hold a digit struck through (None: unknown)."""
    if scores.crossed_out_probability is None:
        return None
    crossed = scores.crossed_out_probability >= config.crossed_from
    return tuple(bool(c) for c in crossed & ~taken)


def noted_digits(
    scores: CellScores, notes: np.ndarray
) -> tuple[tuple[str, ...], tuple[bool, ...] | None]:
    """The digits noted in each cell taken for notes ("" elsewhere), and which were sure."""
    if scores.note_digits is None:
        return ("",) * len(notes), None
    noted = tuple(d if n else "" for d, n in zip(scores.note_digits, notes, strict=True))
    return noted, scores.notes_sure


def notes_cells(scores: CellScores, config: KindDecisionConfig) -> np.ndarray:
    """(N,) bool, the cells holding only candidate notes (none without a notes model)."""
    if scores.notes_probability is None:
        return np.zeros(scores.probs.shape[0], dtype=bool)
    return config.notes(scores.notes_probability)


def classifier_step(
    scores: CellScores, notes: np.ndarray, config: KindDecisionConfig
) -> tuple[np.ndarray, np.ndarray, StepOdds]:
    """The classifier's digits, which cells are filled, and its log-odds and kinds.

    ``notes`` (bool per cell) are candidate-notes cells: never filled, no digit. A cell
    whose likeliest digit holds less than ``config.legible_from`` of its digit probability
    is not filled either.
    """
    probs = scores.probs
    if probs.ndim != 2 or probs.shape[1] != 19:
        raise ValueError(f"probs must have shape (N, 19), got {probs.shape}")
    digits = np.argmax(probs[:, 1:10] + probs[:, 10:19], axis=1) + 1
    filled = config.filled(probs) & ~notes
    log_odds = np.where(filled, kind_log_odds(probs, digits), 0.0)
    first = StepOdds(KindStep.CLASSIFIER, log_odds, kinds_of(log_odds, filled, notes))
    return np.where(filled, digits, 0), filled, first


def digit_share(probs: np.ndarray) -> np.ndarray:
    """(N,) the likeliest digit's share of each cell's digit probability (printed and
    handwritten together) in (N, 19) probabilities (a cell is legible from
    ``KindDecisionConfig.legible_from``)."""
    by_digit = probs[:, 1:10] + probs[:, 10:19]
    return np.asarray(by_digit.max(axis=1) / np.maximum(by_digit.sum(axis=1), SHARE_FLOOR))


def evidence_steps(
    scores: CellScores,
    photo: tuple[np.ndarray | None, np.ndarray | None, frozenset[int]],
    config: KindDecisionConfig,
    digits: np.ndarray,
) -> list[tuple[KindStep, Evidence]]:
    """The evidence steps that apply, in order: copies, ink shape, placement, symmetry,
    then ink colour (``photo``: the colour image, the grid's lattice in it and the cells
    known to hold print, as ``decide_kinds`` takes them)."""
    image, lattice, printed = photo
    steps: list[tuple[KindStep, Evidence]] = []
    cells = scores.cells
    if cells is not None and config.copies.weight != 0:
        steps.append((KindStep.COPIES, copies_step_evidence(cells, digits, config.copies)))
    if cells is not None and config.ink_shape.feature_weight > 0:
        steps.append((KindStep.INK_SHAPE, shape_evidence(cells, config.ink_shape)))
    if cells is not None and config.placement.weight != 0:
        steps.append((KindStep.PLACEMENT, placement_step_evidence(cells, config.placement)))
    if config.symmetry.applies(len(scores.probs)):
        steps.append((KindStep.SYMMETRY, symmetry_step_evidence(config.symmetry)))
    colour = config.ink_colour
    if image is not None and image.ndim == 3 and lattice is not None and colour.weight != 0:
        steps.append((KindStep.INK_COLOUR, colour_step_evidence(image, lattice, colour, printed)))
    return steps


def copies_step_evidence(cells: np.ndarray, digits: np.ndarray, config: CopyConfig) -> Evidence:
    """The copies step: cells read as one digit that are copies of one glyph share one kind."""
    return lambda log_odds, filled: Finding(copy_evidence(log_odds, filled, digits, cells, config))


def shape_evidence(cells: np.ndarray, config: InkShapeConfig) -> Evidence:
    """The ink-shape step: ambiguous cells lean to the puzzle's printed or pen style."""
    features = ink_features(cells, config)
    return lambda log_odds, filled: Finding(puzzle_evidence(log_odds, filled, features, config))


def placement_step_evidence(cells: np.ndarray, config: PlacementConfig) -> Evidence:
    """The placement step: unsure cells off the print's ink rows lean pen, on them print.

    The filled cells' ink is measured only when some filled cell is unsure when the step
    comes: it adds nothing to any other cell.
    """

    def evidence(log_odds: np.ndarray, filled: np.ndarray) -> Finding:
        if not np.any(filled & (np.abs(log_odds) < config.ambiguous_log_odds)):
            return Finding(np.zeros(log_odds.shape, dtype=np.float64), "no unsure cell")
        rows = ink_rows(cells, config, which=filled)
        return placement_evidence(log_odds, filled, rows, config)

    return evidence


def symmetry_step_evidence(config: SymmetryConfig) -> Evidence:
    """The symmetry step: unsure cells lean as their half-turn partner, when the givens
    are set symmetric."""
    return lambda log_odds, filled: symmetry_evidence(log_odds, filled, config)


def colour_step_evidence(
    image: np.ndarray,
    lattice: np.ndarray,
    config: InkColourConfig,
    printed: frozenset[int] = frozenset(),
) -> Evidence:
    """The ink-colour step: unsure cells lean to the puzzle's printed or pen ink tint
    (the ``printed`` cells' ink among the printed references).

    The cells' ink is measured only when some filled cell is unsure when the step comes
    (``ink_colour.reached``): it adds nothing to any other cell, whatever the tints.
    """

    def evidence(log_odds: np.ndarray, filled: np.ndarray) -> Finding:
        if not np.any(reached(log_odds, filled, config)):
            return Finding(np.zeros(log_odds.shape, dtype=np.float64))
        colours = cell_ink_colours(image, lattice, config)
        trusted = trusted_tints(colours, config)
        tints = ink_tints(colours, config)
        known = np.zeros(len(log_odds), bool)
        known[sorted(printed)] = True
        return Finding(colour_evidence(log_odds, filled, tints, config, trusted, known))

    return evidence


def kinds_of(
    log_odds: np.ndarray, filled: np.ndarray, notes: np.ndarray | None = None
) -> np.ndarray:
    """(N,) Kind values: printed where the log-odds are ≥ 0, handwritten below, empty unfilled.

    Cells in ``notes`` are NOTES.
    """
    kinds = np.where(log_odds >= 0, Kind.PRINTED, Kind.HANDWRITTEN)
    kinds = np.where(filled, kinds, Kind.EMPTY)
    if notes is not None:
        kinds = np.where(notes, Kind.NOTES, kinds)
    return kinds.astype(np.int64)
