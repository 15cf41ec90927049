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
from ..solver.grid import value_word
from ..solver.logic.solving import Hint, hint
from ..solver.logic.variant_hint import VariantHint, variant_hint
from ..solver.outcome import SOLVED_OUTCOMES, Outcome, ProblemKind
from .check import (
    DEFAULT_CHECK_CONFIG,
    CheckConfig,
    UnsureEntry,
    answer_rests_on_sure_digits,
    judge_entries,
    notes_missing_answer,
)
from .draw import (
    DEFAULT_DRAW_CONFIG,
    CheckMarks,
    DrawConfig,
    answer_color,
    as_bgr,
    draw_check_marks,
    draw_digits,
)
from .load import Photo
from .repair import Problem, Repair
from .types import (
    CLASSIC_STRUCTURE,
    CellReading,
    Digits,
    GridDetection,
    GridStructure,
    Kind,
    digit_values,
    solver_grid,
)

DRAW_MODES = ("solution", "check")
CONTENT_NAMES = {  # the JSON word for what a cell holds
    Kind.EMPTY: "empty",
    Kind.PRINTED: "printed",
    Kind.HANDWRITTEN: "written",
    Kind.NOTES: "notes",
    Kind.CROSSED_OUT: "crossed_out",
    Kind.UNREADABLE: "unreadable",
}
NOTES_WRONG_TEXT = "your notes rule out the answer"
UNREADABLE_TEXT = "writing I cannot read: which digit is it?"
# a grid whose every cell holds a printed digit: an answer printed in full, not a puzzle
PRINTED_FULL_TEXT = "every cell is printed (an answer, not a puzzle): nothing to check"
MAX_NAMED = 12  # cells named in one list of the check's line; the rest are counted
CANNOT_CHECK = {  # why entries cannot be checked, by the grid's status
    Outcome.INVALID: "the digits read as printed break the rules",
    Outcome.NO_SOLUTION: "the digits read as printed have no solution",
    Outcome.MULTIPLE_SOLUTIONS: "the digits read as printed have more than one solution",
}

__all__ = [
    "CONTENT_NAMES",
    "DEFAULT_PUZZLE_POLICY_CONFIG",
    "DRAW_MODES",
    "EntryCounts",
    "GridResult",
    "PhotoResult",
    "PuzzlePolicyConfig",
    "SortedGrids",
    "UnsureEntry",
    "counted",
    "reading_order",
    "sort_grids",
]


def counted(count: int, one: str, many: str) -> str:
    """'1 cell' or '5 cells'."""
    return f"{count} {one if count == 1 else many}"


@dataclass(frozen=True)
class EntryCounts:
    """Where a person stands with a grid: cells left, written entries wrong, unsure and right.

    The one count and wording of what is left, said alike by ``sudokucam check`` and the
    app: a wrong entry is not a cell left, and both are said.

    empty: cells holding no digit (blank or holding only candidate notes): the cells left.
    wrong: entries surely wrong; right: entries that agree with the answer.
    unsure: entries that disagree with the answer but were not read surely.
    notes: how many of the cells left hold candidate notes.
    unreadable: how many of the cells left hold writing no digit could be read in.
    """

    empty: int
    wrong: int
    right: int
    unsure: int = 0
    notes: int = 0
    unreadable: int = 0

    @property
    def left(self) -> int:
        """Cells still to fill in (those with notes included)."""
        return self.empty

    def text(
        self,
        wrong_cells: Sequence[str] = (),
        unsure: Sequence[str] = (),
        wrong_notes: Sequence[str] = (),
        unreadable: Sequence[str] = (),
    ) -> str:
        """'5 cells left (2 with notes), 3 entries wrong (r6c2, r6c8, r9c2), 47 right'.

        ``wrong_cells``: the names of the wrong entries, said after their count;
        ``unsure``: one phrase per unsure entry ('r3c4: 9 or 2?'), said after theirs;
        ``wrong_notes``: the names of cells whose notes leave out the answer, and
        ``unreadable``: of cells holding writing no digit was read in, said last.
        A grid without entries, and a finished one, are said in their own words.
        """
        notes = "".join(f"; {name}: {NOTES_WRONG_TEXT}" for name in wrong_notes)
        asked = "".join(f"; {name}: {UNREADABLE_TEXT}" for name in unreadable)
        return self._headline(wrong_cells, unsure) + notes + asked

    def _headline(self, wrong_cells: Sequence[str], unsure: Sequence[str]) -> str:
        """The counts, or what a grid without entries or a finished one comes to."""
        left = f"{counted(self.empty, 'cell', 'cells')} left"
        with_notes = f" ({self.notes} with notes)" if self.notes else ""
        if self.wrong + self.unsure + self.right == 0:
            if self.empty == 0:
                return PRINTED_FULL_TEXT
            return f"no entries to check yet: {left}{with_notes}"
        if self.empty == 0 and self.wrong + self.unsure == 0:
            return f"complete: all {counted(self.right, 'entry', 'entries')} right"
        parts = [
            left + with_notes,
            f"{counted(self.wrong, 'entry', 'entries')} wrong{_listed(wrong_cells)}",
        ]
        if self.unsure:
            parts.append(f"{self.unsure} unsure{_listed(unsure)}")
        parts.append(f"{self.right} right")
        return ", ".join(parts)


def _listed(names: Sequence[str]) -> str:
    """' (a, b, c)', the first MAX_NAMED and how many more; '' for no names."""
    if not names:
        return ""
    more = f" and {len(names) - MAX_NAMED} more" if len(names) > MAX_NAMED else ""
    return f" ({', '.join(names[:MAX_NAMED])}{more})"


@dataclass(frozen=True)
class GridResult:
    """One grid read from a photo, solved if possible, with pen entries checked.

    givens: the printed digits (after any repair), '0' elsewhere.
    handwritten: the pen digits, '0' elsewhere.
    confidence: (81,) probability of what each cell holds as read (a digit: in either ink).
    status: SOLVED, COMPLETE (solved and every cell already filled correctly), INVALID,
        NO_SOLUTION or MULTIPLE_SOLUTIONS.
    solution: the digits of the one solution when the givens have exactly one, else None.
    repairs: givens the solver changed from the first reading.
    problems: why the givens as read had no single solution (conflicting cells, ...).
    message: one line for a person.
    check: when a written entry that disagrees with the answer counts as surely wrong.
    structure: the rules the grid's drawing sets (classic, Sudoku X, jigsaw; its regions,
        diagonals and cages), which the givens were solved under.
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
    check: CheckConfig = DEFAULT_CHECK_CONFIG
    structure: GridStructure = CLASSIC_STRUCTURE

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
    def notes(self) -> tuple[str, ...]:
        """(81,) the candidate digits noted in each cell left ("" where none, or a digit)."""
        return tuple(
            "" if g != "0" or h != "0" else n
            for g, h, n in zip(self.givens, self.handwritten, self.reading.notes, strict=True)
        )

    @property
    def contents(self) -> tuple[Kind, ...]:
        """(81,) what each cell holds: a printed given, a written entry, notes, a digit
        crossed out, or nothing.

        A cell read as notes stays notes where none of its digits is legible.
        """
        noted = [n or k == Kind.NOTES for n, k in zip(self.notes, self.reading.kinds, strict=True)]
        cells = len(self.givens)
        crossed = self.reading.crossed_out or (False,) * cells
        unread = self.reading.unreadable or (False,) * cells
        return tuple(
            Kind.PRINTED if g != "0" else Kind.HANDWRITTEN if h != "0" else
            Kind.NOTES if n else Kind.CROSSED_OUT if x else Kind.UNREADABLE if u else Kind.EMPTY
            for g, h, n, x, u in zip(self.givens, self.handwritten, noted, crossed, unread,
                                     strict=True)
        )  # fmt: skip

    @property
    def unreadable_cells(self) -> tuple[int, ...]:
        """Cells left that hold writing no digit could be read in (to ask the person about)."""
        return tuple(c for c, k in enumerate(self.contents) if k == Kind.UNREADABLE)

    @property
    def wrong_entries(self) -> tuple[int, ...]:
        """Written entries surely wrong: read surely, and not the answer (empty unsolved)."""
        return self._judged[0]

    def unsure_entries(self) -> tuple[UnsureEntry, ...]:
        """Written entries that disagree with the answer but were not read surely."""
        return self._judged[1]

    @property
    def _judged(self) -> tuple[tuple[int, ...], tuple[UnsureEntry, ...]]:
        """The entries disagreeing with the answer: surely wrong, and unsure."""
        if self.solution is None:
            return (), ()
        sure = answer_rests_on_sure_digits([repair_sureness(r) for r in self.repairs], self.check)
        return judge_entries(self.reading.probs, self.handwritten, self.solution, self.check, sure)

    def wrong_notes(self) -> tuple[int, ...]:
        """Cells whose candidate notes leave out the answer (empty without a solution).

        Only cells whose notes were read completely count (``complete_notes``).
        """
        if self.solution is None:
            return ()
        return notes_missing_answer(self.complete_notes, self.solution)

    @property
    def complete_notes(self) -> tuple[str, ...]:
        """(81,) the notes of the cells whose notes were read whole and hold at least
        ``check.min_candidates`` digits, "" elsewhere.

        A digit not read is not a digit left out, and a lone digit is a reminder, not the
        cell's candidates: only these notes may be said to rule out the answer, in the
        check and in the hint.
        """
        sure = self.reading.notes_sure or (True,) * len(self.givens)
        least = self.check.min_candidates
        return tuple(
            n if s and len(n) >= least else "" for n, s in zip(self.notes, sure, strict=True)
        )

    def cells_left(self) -> int:
        """Cells still to fill in: blank or holding only candidate notes."""
        return len(self.empty_cells)

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

    def next_hint(self) -> Hint | VariantHint | None:
        """What comes next from the right entries (others set aside) and the notes; None unsolved.

        A cell whose notes leave out the answer comes first; otherwise the step may use the
        person's notes (their candidates, within what the grid allows). Only notes read whole
        count (``complete_notes``). On a variant grid (Sudoku X, jigsaw, Killer) and on a
        small one (4×4, 6×6, 8×8) the step is one of the variant's, as for a puzzle typed
        (singles in its rows, columns, boxes, regions and diagonals, a cage's combinations,
        the 45 rule: ``variant_hint``); notes are not used there. A 16×16 is hinted as a
        small grid is, its values named as the page prints them (12, or the page's own
        symbols: ``GridStructure.printed``).
        """
        if self.solution is None:
            return None
        if not self.structure.is_classic or self.structure.size != 9:
            puzzle = self.structure.puzzle(digit_values(self.givens))
            right = digit_values(self.kept_entries)
            said = self.structure.printed
            return variant_hint(puzzle, right, digit_values(self.solution), said)
        entries = solver_grid(self.kept_entries)
        return hint(solver_grid(self.givens), entries, notes=self.complete_notes)

    @property
    def empty_cells(self) -> tuple[int, ...]:
        """Cells holding neither a printed nor a handwritten digit."""
        return tuple(
            c for c, (g, h) in enumerate(zip(self.givens, self.handwritten, strict=True))
            if g == "0" and h == "0"
        )  # fmt: skip

    @property
    def answer(self) -> dict[int, int]:
        """The digits to write in the empty cells ({cell: digit}); empty without a solution."""
        if self.solution is None:
            return {}
        values = digit_values(self.solution)
        return {c: values[c] for c in self.empty_cells}

    @property
    def entry_counts(self) -> EntryCounts:
        """Cells left (with notes), and how many written entries are wrong, unsure and right."""
        notes = sum(1 for k in self.contents if k == Kind.NOTES)
        return EntryCounts(
            self.cells_left(),
            len(self.wrong_entries),
            len(self.right_entries),
            len(self.unsure_entries()),
            notes,
            len(self.unreadable_cells),
        )

    @property
    def check_message(self) -> str:
        """One line on the entries: cells left, entries wrong, unsure and right, wrong notes."""
        if self.solution is None:
            return self._cannot_check()
        name, said = self.cell_name, self.value_word
        return self.entry_counts.text(
            [name(c) for c in self.wrong_entries],
            [
                f"{name(u.cell)}: {said(u.reading)} or {said(u.other)}?"
                for u in self.unsure_entries()
            ],
            [name(c) for c in self.wrong_notes()],
            [name(c) for c in self.unreadable_cells],
        )

    def cell_name(self, cell: int) -> str:
        """The r1c1-style name of a cell of this grid (of its size)."""
        return cell_name(cell, self.structure.size)

    def value_word(self, value: int) -> str:
        """A value (1..size) as the page prints it: 12 on a 16×16 of numbers, never its
        string's C; the page's own symbol on one printed with 0-9 and A-F or A-P."""
        return value_word(value, self.structure.printed)

    def _cannot_check(self) -> str:
        """Why the entries cannot be checked: the status in words, and the cells concerned."""
        reason = CANNOT_CHECK.get(self.status)
        if reason is None:
            return f"cannot check the entries: {self.message}"
        problems = "; ".join(p.text for p in self.problems[:4])
        more = f" and {len(self.problems) - 4} more" if len(self.problems) > 4 else ""
        detail = f" ({problems}{more})" if problems else ""
        return (
            f"cannot check the entries: {reason}{detail}; retake the photo, or correct the reading"
        )

    def draw(
        self, image: np.ndarray, mode: str = "solution", config: DrawConfig = DEFAULT_DRAW_CONFIG
    ) -> np.ndarray:
        """A BGR copy of ``image``: the answer in the empty cells, or the pen entries checked.

        mode "solution" writes the missing digits (without a solution it rings the cells
        that break the rules in red); "check" rings wrong pen entries red, right ones
        green, and in amber those to ask about (unsure entries, writing not read).
        """
        if mode not in DRAW_MODES:
            raise ValueError(f"mode must be one of {DRAW_MODES}, got {mode!r}")
        lattice = self.detection.lattice
        if mode == "solution" and self.solution is None:
            return draw_check_marks(image, lattice, CheckMarks(wrong=self.conflict_cells), config)
        if mode == "solution":
            color = answer_color(image, lattice, config)
            return draw_digits(image, lattice, self.answer, color, config, self.structure.glyphs)
        return draw_check_marks(image, lattice, self.check_marks(), config)

    def check_marks(self) -> CheckMarks:
        """The cells a check rings: wrong entries, those to ask about (unsure entries,
        writing not read) and right entries; photos, live video and the app draw these."""
        asked = tuple(u.cell for u in self.unsure_entries()) + self.unreadable_cells
        return CheckMarks(self.wrong_entries, asked, self.right_entries)

    def check_dict(self) -> dict[str, object]:
        """The check as JSON: entries wrong, unsure, right; cells left (with notes); wrong
        notes; cells holding writing no digit was read in."""
        name = self.cell_name
        return {
            "wrong": [name(c) for c in self.wrong_entries],
            "unsure": [
                {"cell": name(u.cell), "reading": u.reading, "other": u.other}
                for u in self.unsure_entries()
            ],
            "right": [name(c) for c in self.right_entries],
            "empty": len(self.empty_cells),
            "left": self.cells_left(),
            "with_notes": sum(1 for n in self.notes if n),
            "wrong_notes": [name(c) for c in self.wrong_notes()],
            "unreadable": [name(c) for c in self.unreadable_cells],
        }

    def structure_dict(self) -> dict[str, object]:
        """The grid's rules as JSON: size, variant, symbols, regions (every cell's region,
        a string of labels a row, boxes included), diagonals and cages."""
        s = self.structure
        return {
            "size": s.size,
            "variant": s.variant.value,
            "symbols": s.symbols,
            "regions": s.region_rows(),
            "diagonals": s.diagonals,
            "cages": [
                {"sum": k.total, "cells": [cell_name(c, s.size) for c in k.cells]} for k in s.cages
            ],
        }

    def to_dict(self, with_trace: bool = True) -> dict[str, object]:
        """The JSON contract of one grid (see ``sudokucam read --json``).

        ``with_trace``: include "trace", which step decided each cell's kind (a batch's
        table leaves it out).
        """
        doc: dict[str, object] = {
            "corners": np.round(self.detection.corners, 2).tolist(),
            "givens": self.structure.written(self.givens),
            "handwritten": self.structure.written(self.handwritten),
            "notes": list(self.notes),
            "contents": [CONTENT_NAMES[k] for k in self.contents],
            "confidence": [round(float(p), 4) for p in self.confidence],
            "status": self.status,
            "solution": None if self.solution is None else self.structure.written(self.solution),
            "message": self.message,
            "repairs": [r.to_dict() for r in self.repairs],
            "problems": [p.to_dict(self.structure.size) for p in self.problems],
            "check": self.check_dict(),
            "score": round(float(self.detection.score), 4),
        } | self.structure_dict()
        if with_trace:
            doc["trace"] = None if self.reading.trace is None else self.reading.trace.to_dict()
        return doc


@dataclass(frozen=True)
class PhotoResult:
    """Everything read from one photo: its grids or why there are none.

    The grids are the photo's puzzles in reading order, top to bottom, each row left to
    right; grids printed full (answers beside the puzzle) are its ``solutions``, not
    puzzles (``sort_grids`` below: one policy for every front-end).

    source: the path, or a short description of bytes or an array.
    photo: the photo as loaded (a BGR uint8 array, or a ``Photo`` decoded at full
        resolution only when ``image`` is asked for), None when it could not be loaded.
    error: None, or one line saying why the photo gave no grid.
    timings: seconds spent in each step.
    solutions: grids printed full (yesterday's answer): nothing to solve, not counted.
    """

    source: str
    photo: np.ndarray | Photo | None
    grids: tuple[GridResult, ...]
    error: str | None
    timings: dict[str, float] = field(default_factory=dict)
    solutions: tuple[GridResult, ...] = ()

    @property
    def image(self) -> np.ndarray | None:
        """The photo at full resolution (BGR uint8), None when it could not be loaded."""
        return self.photo.image if isinstance(self.photo, Photo) else self.photo

    @property
    def status(self) -> Outcome:
        """The first grid's status, or NO_GRID / ERROR when there is none."""
        if self.grids:
            return self.grids[0].status
        return Outcome.NO_GRID if self.photo is not None else Outcome.ERROR

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
            "solutions": [solution_dict(g) for g in self.solutions],
        }


def solution_dict(grid: GridResult) -> dict[str, object]:
    """A grid printed full (an answer beside the puzzles) in a photo's JSON: where it lies
    and its digits, so that a reader of the JSON knows it was seen and not solved."""
    doc = grid.to_dict(with_trace=False)
    return {"corners": doc["corners"], "givens": doc["givens"]}


# ----------------------------------------------------------------------------- several grids
# Which grids of a photo are puzzles, and in what order: one policy for every front-end.
# The command line, the app and the batch say a photo's grids alike: top to bottom in
# rows, each row left to right (``reading_order``), at most ``max_grids`` of them, and a
# grid printed (nearly) full is yesterday's answer, a *solution grid*, not a puzzle: named
# apart, never counted or numbered as a puzzle (``sort_grids``).


@dataclass(frozen=True)
class PuzzlePolicyConfig:
    """How a photo's grids are told apart and ordered.

    solution_min_printed: a grid with at least this many printed digits is a printed
        answer (a puzzle never prints so many; a few of an answer's 81 may be missed).
    row_overlap: a grid whose centre lies less than this share of a grid's height below
        the top one left belongs to that one's row.
    """

    solution_min_printed: int = 72
    row_overlap: float = 0.5

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if not 17 <= self.solution_min_printed <= 81:
            raise ValueError(f"solution_min_printed must be 17-81, got {self.solution_min_printed}")
        if not 0 < self.row_overlap <= 1:
            raise ValueError(f"row_overlap must be in (0, 1], got {self.row_overlap}")


DEFAULT_PUZZLE_POLICY_CONFIG = PuzzlePolicyConfig()


@dataclass(frozen=True)
class SortedGrids:
    """A photo's grids as the policy says them.

    puzzles: the grids to solve, in reading order (numbered 1, 2, ... by every front-end).
    solutions: grids printed full (answers), in reading order; not puzzles.
    """

    puzzles: tuple[GridResult, ...]
    solutions: tuple[GridResult, ...] = ()


def reading_order(quads: Sequence[np.ndarray], row_overlap: float = 0.5) -> list[int]:
    """Indices of ``quads`` ((4, 2) corner arrays) top to bottom in rows, each row left to right."""
    centres = [np.asarray(q, np.float64).reshape(-1, 2) for q in quads]
    left = sorted(range(len(quads)), key=lambda i: float(centres[i][:, 1].mean()))
    ordered: list[int] = []
    while left:
        top = centres[left[0]]
        reach = float(np.ptp(top[:, 1])) * row_overlap
        row = [i for i in left if centres[i][:, 1].mean() - top[:, 1].mean() < reach]
        ordered += sorted(row, key=lambda i: float(centres[i][:, 0].mean()))
        left = [i for i in left if i not in row]
    return ordered


def is_solution_grid(
    grid: GridResult, config: PuzzlePolicyConfig = DEFAULT_PUZZLE_POLICY_CONFIG
) -> bool:
    """True for a grid printed (nearly) full: an answer, nothing to solve."""
    return sum(1 for d in grid.givens if d != "0") >= config.solution_min_printed


def sort_grids(
    grids: Sequence[GridResult],
    max_grids: int,
    config: PuzzlePolicyConfig = DEFAULT_PUZZLE_POLICY_CONFIG,
) -> SortedGrids:
    """The puzzles of a photo in reading order, at most ``max_grids``, and its solution grids.

    A photo of solution grids only (a finished puzzle photographed) keeps them as its
    puzzles: they are what the person photographed.
    """
    if max_grids < 1:
        raise ValueError(f"max_grids must be at least 1, got {max_grids}")
    order = reading_order([g.detection.corners for g in grids], config.row_overlap)
    ordered = [grids[i] for i in order]
    puzzles = [g for g in ordered if not is_solution_grid(g, config)]
    solutions = [g for g in ordered if is_solution_grid(g, config)]
    if not puzzles:
        return SortedGrids(tuple(solutions[:max_grids]))
    return SortedGrids(tuple(puzzles[:max_grids]), tuple(solutions))


def repair_sureness(repair: Repair) -> float:
    """How surely a repair the answer rests on was read: the probability of the digit it
    took (a written entry taken as printed, a printed digit taken as another), of the empty
    cell it left, and 0 for a printed digit taken as written (which of two clashing digits
    is the print is the repair's guess: a written 7 read as a printed 1 may be the one
    kept, and the answer then is not the puzzle's)."""
    if repair.kind_changed and not repair.new:
        return 0.0
    return repair.new_probability
