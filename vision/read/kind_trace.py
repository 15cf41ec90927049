"""Why each cell is printed or pen: the record of the steps that settled its kind.

``decide_kinds`` (``vision/read/decide.py``) records, for every evidence step it applied,
each cell's printed-vs-handwritten log-odds and kind after that step. After solving, the
pipeline adds the cells the repair search or the answer prior changed. A cell's kind was
*decided by* the last step that changed it (from the classifier's first call); a cell no
later step changed was decided by the classifier.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

import numpy as np

from ...solver.geometry import cell_name
from ..types import Kind

LOG_ODDS_DECIMALS = 2  # rounding of the log-odds in the JSON trace


class KindStep(StrEnum):
    """A step that can settle or change what a cell holds, in the order they run."""

    CLASSIFIER = "classifier"  # the classifier's log p(printed d) / p(handwritten d)
    COPIES = "copies"  # the cell's ink against the other cells read as the same digit
    INK_SHAPE = "ink_shape"  # the cell's ink height, darkness, stroke width vs the puzzle's
    PLACEMENT = "placement"  # the cell's ink top and bottom rows vs the print's
    SYMMETRY = "symmetry"  # the cell's half-turn partner, when the givens are symmetric
    INK_COLOUR = "ink_colour"  # the cell's ink tint vs the puzzle's print and pen tints
    REPAIR = "repair"  # the solver's repair took the cell as another given (or not a given)
    ANSWER_PRIOR = "answer_prior"  # the pen digit re-read with the answer as prior
    HAND = "hand"  # the pen digit read with its copies in the same hand (``read/hand.py``)


@dataclass(frozen=True)
class Finding:
    """What one evidence step found on a page.

    added: (N,) float64 log-odds to add to each cell's. reason: what the step went by on
    this page, or why it gave nothing ("" when it has nothing to say). cells: (cell, why)
    for the cells it moved, where it says why.
    """

    added: np.ndarray
    reason: str = ""
    cells: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class StepOdds:
    """One evidence step: every cell's log-odds and kind after it.

    log_odds: (N,) float64 log p(printed) / p(handwritten), 0 for empty cells.
    kinds: (N,) int64 Kind values.
    reason: what the step went by on this page, or why it gave nothing ("" if unsaid).
    why: (cell, why) for the cells the step moved, where it says why.
    """

    step: KindStep
    log_odds: np.ndarray
    kinds: np.ndarray
    reason: str = ""
    why: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class LaterChange:
    """A cell changed after the kinds were settled: what it holds after the change."""

    step: KindStep
    cell: int
    digit: int
    kind: Kind

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready fields."""
        return {"step": str(self.step), "digit": self.digit, "kind": self.kind.name.lower()}


@dataclass(frozen=True)
class KindTrace:
    """How each cell's kind was settled: the evidence steps in order, then later changes.

    digits: (N,) int64 digits as settled (0 empty). steps: the evidence steps applied, the
    classifier first. later: changes made after solving, in the order they were made.
    """

    digits: np.ndarray
    steps: tuple[StepOdds, ...]
    later: tuple[LaterChange, ...] = ()

    def __post_init__(self) -> None:
        """The classifier's step comes first."""
        if not self.steps or self.steps[0].step != KindStep.CLASSIFIER:
            raise ValueError("a kind trace starts with the classifier's step")

    @property
    def contributions(self) -> np.ndarray:
        """(S, N) log-odds each evidence step added (the classifier's: all of its own)."""
        odds = np.stack([s.log_odds for s in self.steps])
        return np.diff(odds, axis=0, prepend=0.0)

    def with_later(self, changes: tuple[LaterChange, ...]) -> KindTrace:
        """The trace with ``changes`` appended to its later changes."""
        return replace(self, later=self.later + changes)

    def held(self, cell: int) -> tuple[int, Kind]:
        """What ``cell`` holds after every step: its digit and kind."""
        digit, kind = int(self.digits[cell]), Kind(int(self.steps[-1].kinds[cell]))
        for change in self.later:
            if change.cell == cell:
                digit, kind = change.digit, change.kind
        return digit, kind

    def decided_by(self, cell: int) -> KindStep:
        """The last step that changed the kind of ``cell``; the classifier when none did."""
        kind = int(self.steps[0].kinds[cell])
        decided = KindStep.CLASSIFIER
        moves = [(s.step, int(s.kinds[cell])) for s in self.steps[1:]]
        moves += [(c.step, int(c.kind)) for c in self.later if c.cell == cell]
        for step, after in moves:
            if after != kind:
                decided, kind = step, after
        return decided

    def traced_cells(self) -> tuple[int, ...]:
        """The cells filled when the kinds were settled or touched by a later change."""
        touched = {c.cell for c in self.later}
        filled = self.steps[-1].kinds != Kind.EMPTY
        return tuple(c for c in range(len(self.digits)) if filled[c] or c in touched)

    def cell_dict(self, cell: int) -> dict[str, object]:
        """One cell's JSON record: what it holds, which step decided it, the log-odds.

        A cell a step said why it moved has "why" (step: why); a cell changed after
        solving also says what was read and each later change.
        """
        digit, kind = self.held(cell)
        record: dict[str, object] = {
            "digit": digit,
            "kind": kind.name.lower(),
            "decided_by": str(self.decided_by(cell)),
            "log_odds": [round(float(s.log_odds[cell]), LOG_ODDS_DECIMALS) for s in self.steps],
        }
        why = {str(s.step): text for s in self.steps for c, text in s.why if c == cell}
        if why:
            record["why"] = why
        later = [c.to_dict() for c in self.later if c.cell == cell]
        if later:
            read = Kind(int(self.steps[-1].kinds[cell]))
            record["read"] = {"digit": int(self.digits[cell]), "kind": read.name.lower()}
            record["later"] = later
        return record

    def to_dict(self) -> dict[str, object]:
        """The JSON trace: the steps applied, what those that say went by on this page
        ("reasons"), and per traced cell (by name) its record."""
        doc: dict[str, object] = {"steps": [str(s.step) for s in self.steps]}
        reasons = {str(s.step): s.reason for s in self.steps if s.reason}
        if reasons:
            doc["reasons"] = reasons
        doc["cells"] = {cell_name(c): self.cell_dict(c) for c in self.traced_cells()}
        return doc
