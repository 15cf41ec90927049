"""What reading a photo gives back: one GridResult per grid, one PhotoResult per photo.

Expected outcomes (no grid, givens that break the rules, no or several solutions) are a
``status`` with the cells concerned, never an exception. Drawing belongs to the result:
``GridResult.draw`` and ``PhotoResult.draw`` return an annotated copy of the photo.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..solver.geometry import cell_name
from ..solver.logic.solving import Hint, hint
from ..solver.outcome import SOLVED_OUTCOMES, Outcome, ProblemKind
from .draw import DEFAULT_DRAW_CONFIG, DrawConfig, as_bgr, draw_digits, draw_rings
from .repair import Problem, Repair
from .types import CellReading, Digits, GridDetection, solver_grid

DRAW_MODES = ("solution", "check")


def counted(count: int, one: str, many: str) -> str:
    """'1 cell' or '5 cells'."""
    return f"{count} {one if count == 1 else many}"


@dataclass(frozen=True)
class EntryCounts:
    """Where a person stands with a grid: cells holding no digit, pen entries wrong and right.

    The one count and wording of what is left, said alike by ``sudokucam check`` and the
    app: a wrong entry is not an empty cell, and both are said.
    """

    empty: int
    wrong: int
    right: int

    def text(self, wrong_cells: Sequence[str] = ()) -> str:
        """'5 cells empty, 3 entries wrong (r6c2, r6c8, r9c2), 47 right'.

        ``wrong_cells``: the names of the wrong entries, said after their count.
        """
        names = f" ({', '.join(wrong_cells)})" if wrong_cells else ""
        return (
            f"{counted(self.empty, 'cell', 'cells')} empty, "
            f"{counted(self.wrong, 'entry', 'entries')} wrong{names}, {self.right} right"
        )


@dataclass(frozen=True)
class GridResult:
    """One grid read from a photo, solved if possible, with pen entries checked.

    givens: the printed digits (after any repair), '0' elsewhere.
    handwritten: the pen digits, '0' elsewhere.
    confidence: (81,) probability of what each cell was taken to hold.
    status: SOLVED, COMPLETE (solved and every cell already filled correctly), INVALID,
        NO_SOLUTION or MULTIPLE_SOLUTIONS.
    solution: the digits of the one solution when the givens have exactly one, else None.
    repairs: givens the solver changed from the first reading.
    problems: why the givens as read had no single solution (conflicting cells, ...).
    message: one line for a person.
    """

    detection: GridDetection
    reading: CellReading
    givens: Digits
    handwritten: Digits
    confidence: np.ndarray
    status: Outcome
    solution: Digits | None
    repairs: tuple[Repair, ...]
    problems: tuple[Problem, ...]
    message: str

    @property
    def conflicts(self) -> tuple[Problem, ...]:
        """The pairs of cells read as the same digit in one row, column or box."""
        return tuple(p for p in self.problems if p.kind is ProblemKind.DUPLICATE)

    @property
    def conflict_cells(self) -> tuple[int, ...]:
        """Every cell named in a broken rule (read twice in a unit, or left without a candidate)."""
        cells = {c for p in self.problems if p.breaks_rule for c in p.cells}
        return tuple(sorted(cells))

    @property
    def pen_cells(self) -> tuple[int, ...]:
        """Cells holding a handwritten entry."""
        return tuple(c for c, d in enumerate(self.handwritten) if d != "0")

    @property
    def wrong_entries(self) -> tuple[int, ...]:
        """Pen entries that disagree with the solution (empty without a solution)."""
        if self.solution is None:
            return ()
        return tuple(c for c in self.pen_cells if self.handwritten[c] != self.solution[c])

    @property
    def right_entries(self) -> tuple[int, ...]:
        """Pen entries that agree with the solution (empty without a solution)."""
        if self.solution is None:
            return ()
        return tuple(c for c in self.pen_cells if self.handwritten[c] == self.solution[c])

    @property
    def kept_entries(self) -> Digits:
        """The pen digits that agree with the solution, '0' elsewhere."""
        right = set(self.right_entries)
        return "".join(d if c in right else "0" for c, d in enumerate(self.handwritten))

    def next_hint(self) -> Hint | None:
        """What comes next from the right pen entries (wrong ones set aside); None unsolved."""
        if self.solution is None:
            return None
        return hint(solver_grid(self.givens), solver_grid(self.kept_entries))

    @property
    def empty_cells(self) -> tuple[int, ...]:
        """Cells holding neither a printed nor a handwritten digit."""
        return tuple(c for c in range(81) if self.givens[c] == "0" and self.handwritten[c] == "0")

    @property
    def answer(self) -> dict[int, int]:
        """The digits to write in the empty cells ({cell: digit}); empty without a solution."""
        if self.solution is None:
            return {}
        return {c: int(self.solution[c]) for c in self.empty_cells}

    @property
    def entry_counts(self) -> EntryCounts:
        """How many cells are empty and how many pen entries are wrong and right."""
        return EntryCounts(len(self.empty_cells), len(self.wrong_entries), len(self.right_entries))

    @property
    def check_message(self) -> str:
        """One line on the pen entries: cells empty, entries wrong (which) and right."""
        if self.solution is None:
            return f"cannot check the pen entries: {self.message}"
        return self.entry_counts.text([cell_name(c) for c in self.wrong_entries])

    def draw(
        self, image: np.ndarray, mode: str = "solution", config: DrawConfig = DEFAULT_DRAW_CONFIG
    ) -> np.ndarray:
        """A BGR copy of ``image``: the answer in the empty cells, or the pen entries checked.

        mode "solution" writes the missing digits (without a solution it rings the cells
        that break the rules in red); "check" rings wrong pen entries red and right ones
        green.
        """
        if mode not in DRAW_MODES:
            raise ValueError(f"mode must be one of {DRAW_MODES}, got {mode!r}")
        lattice = self.detection.lattice
        if mode == "solution" and self.solution is None:
            return draw_rings(image, lattice, self.conflict_cells, config.wrong_color, config)
        if mode == "solution":
            return draw_digits(image, lattice, self.answer, config.answer_color, config)
        out = draw_rings(image, lattice, self.wrong_entries, config.wrong_color, config)
        return draw_rings(out, lattice, self.right_entries, config.right_color, config)

    def to_dict(self, with_trace: bool = True) -> dict[str, object]:
        """The JSON contract of one grid (see ``sudokucam read --json``).

        ``with_trace``: include "trace", which step decided each cell's kind (a batch's
        table leaves it out).
        """
        doc: dict[str, object] = {
            "corners": np.round(self.detection.corners, 2).tolist(),
            "givens": self.givens,
            "handwritten": self.handwritten,
            "confidence": [round(float(p), 4) for p in self.confidence],
            "status": self.status,
            "solution": self.solution,
            "message": self.message,
            "repairs": [r.to_dict() for r in self.repairs],
            "problems": [p.to_dict() for p in self.problems],
            "check": {
                "wrong": [cell_name(c) for c in self.wrong_entries],
                "right": [cell_name(c) for c in self.right_entries],
                "empty": len(self.empty_cells),
            },
            "score": round(float(self.detection.score), 4),
        }
        if with_trace:
            doc["trace"] = None if self.reading.trace is None else self.reading.trace.to_dict()
        return doc


@dataclass(frozen=True)
class PhotoResult:
    """Everything read from one photo: its grids or why there are none.

    The grids come best first, or in reading order when several were looked for only
    once seen (``PipelineConfig.more_when_seen``, the command line's and the app's way).

    source: the path, or a short description of bytes or an array.
    image: the photo as loaded (BGR uint8), None when it could not be loaded.
    error: None, or one line saying why the photo gave no grid.
    timings: seconds spent in each step.
    """

    source: str
    image: np.ndarray | None
    grids: tuple[GridResult, ...]
    error: str | None
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def status(self) -> Outcome:
        """The first grid's status, or NO_GRID / ERROR when there is none."""
        if self.grids:
            return self.grids[0].status
        return Outcome.NO_GRID if self.image is not None else Outcome.ERROR

    @property
    def ok(self) -> bool:
        """True when the photo loaded and every grid in it was solved."""
        return bool(self.grids) and all(g.status in SOLVED_OUTCOMES for g in self.grids)

    @property
    def message(self) -> str:
        """One line for a person: the error, or each grid's message."""
        if self.error is not None:
            return self.error
        return "; ".join(g.message for g in self.grids)

    def draw(
        self,
        image: np.ndarray | None = None,
        mode: str = "solution",
        config: DrawConfig = DEFAULT_DRAW_CONFIG,
    ) -> np.ndarray:
        """A BGR copy of the photo (or ``image``) with every grid drawn in ``mode``."""
        base = self.image if image is None else image
        if base is None:
            raise ValueError("image is required: this result holds no photo")
        out = base
        for grid in self.grids:
            out = grid.draw(out, mode, config)
        if not self.grids:
            out = as_bgr(base)
        return out

    def to_dict(self) -> dict[str, object]:
        """The JSON contract of one photo (see ``sudokucam read --json``)."""
        return {
            "image": self.source,
            "grids": [g.to_dict() for g in self.grids],
            "error": self.error,
            "status": self.status,
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
        }
