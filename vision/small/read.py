"""Read and solve a small Sudoku found in a photo (``find.SmallGrid``): n² cells, digits 1-n.

The cells of the straightened grid are cut as the 9×9 grid's are (``split_cells`` with
n cells a side) and read by the same digit model in one run; digits above n cannot be
in the grid, so their probabilities are set to nothing (``mask_digits``) before every
cell's digit and print-or-pen kind is settled (``decide_kinds``: the classifier, then the
copies, ink-shape and ink-colour steps, the last where the colour page is given: a neat
blue pen digit the grey cells cannot tell from print is told by its tint). A cell the
model takes for candidate notes (its notes class, or notes likelier than any one digit:
``notes_probability``) is never an entry; its noted digits are read by the
9×9's notes reader in the cell cut from the photo straightened finer (``noted``,
``fine.py``). A page photographed turned is read the right way up first: where the upright
reading is unsure, the turns that keep the boxes' shape (a half turn for 2×3 and 2×4
boxes, any quarter turn for square ones) are read too, and the grid turned to the one that
reads far better (``oriented``: the 9×9's ``orientation.read_oriented``, all turns in one
model call). The givens are solved by the solver of every size (``solve_variant``: rows,
columns and the boxes of ``BOX_SHAPES[n]``), the answer proved unique. A reading that
breaks a rule or has no single answer is tried again with its least sure cells read as
their next likeliest digit (``repaired``), as for a 9×9 grid but simpler: one or two
cells at a time, never to a digit the model ruled out (``SmallGridConfig.unlikely_repair``:
the grid is left unsolved, that repair named). The digits read as handwriting are the
person's entries where the printed digits alone have one answer
(``SmallGridConfig.pen_entries``, ``pen_entries``): left out of the givens, and checked
against the answer as a 9×9's are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import combinations

import numpy as np

from ...solver.geometry import BOX_SHAPES
from ...solver.outcome import SOLVED_OUTCOMES, Outcome, ProblemKind
from ...solver.solve import SolveResult
from ...solver.variant import VariantError
from ...solver.variant_solve import solve_variant
from ..read.cells import split_cells
from ..read.classifier import NOTES_CLASS, DigitClassifier
from ..read.config import ReadConfig
from ..read.decide import decide_kinds
from ..read.orientation import OrientationConfig, read_oriented, reading_log_prob
from ..repair import Problem, Repair, RepairOutcome, ruled_out
from ..types import CellReading, CellScores, GridStructure, Kind, digits_of, value_shares
from .config import DEFAULT_SMALL_GRID_CONFIG, SmallGridConfig
from .find import SmallGrid
from .fine import Straighten

DIGIT_CLASSES = 9  # the model's classes: 0 empty, 1-9 printed, 10-18 handwritten
REPAIR_CELLS = 6  # the least sure filled cells whose next likeliest reading is tried
MAX_REPAIRED = 2  # at most this many of them at once


# straightened grids -> their cells' scores, in one model call
Scorer = Callable[[Sequence[np.ndarray]], list[CellScores]]


def allowed_digits(probs: np.ndarray, n: int) -> np.ndarray:
    """(N, 19) probabilities with the digits above ``n`` (printed and handwritten) set to
    nothing, not renormalised: a cell read as a 9 on a 6×6 keeps little of its reading."""
    kept = np.asarray(probs, dtype=np.float64).copy()
    for digit in range(n + 1, DIGIT_CLASSES + 1):
        kept[:, digit] = 0.0
        kept[:, digit + DIGIT_CLASSES] = 0.0
    return kept


def mask_digits(probs: np.ndarray, n: int) -> np.ndarray:
    """(N, 19) probabilities with the digits above ``n`` (printed and handwritten) set to
    nothing and each row renormalised: a grid of n cells a side holds 1..n only."""
    kept = allowed_digits(probs, n)
    return kept / np.maximum(kept.sum(axis=1, keepdims=True), 1e-12)


def quarter_turns(n: int) -> tuple[int, ...]:
    """The turns (counter-clockwise quarter turns) that keep a grid's boxes as they are:
    every one for square boxes (4×4, 16×16), the half turn for 2×3 and 2×4 boxes."""
    box_rows, box_cols = BOX_SHAPES[n]
    return (1, 2, 3) if box_rows == box_cols else (2,)


def oriented(
    grid: SmallGrid, score: Scorer, config: OrientationConfig
) -> tuple[SmallGrid, CellScores]:
    """The grid, turned upright where another of its ``quarter_turns`` reads far better
    (``orientation.read_oriented``, the 9×9's step), and its cells' scores that way up;
    every quarter turn where its lines pass for boxes either way (``SmallGrid.both_ways``)."""
    n = grid.size
    turns = (1, 2, 3) if grid.both_ways else quarter_turns(n)

    def turn(warped: np.ndarray) -> tuple[int, CellScores]:
        """The best-reading turn of the grid and its scores."""
        scored = score([np.ascontiguousarray(np.rot90(warped, k)) for k in turns])
        best = max(range(len(turns)), key=lambda i: reading_log_prob(scored[i]))
        return turns[best], scored[best]

    upright = score([grid.detection.warped])[0]
    detection, scores = read_oriented(grid.detection, upright, turn, config)
    return SmallGrid(n, detection, grid.both_ways), scores


def small_scorer(classifier: DigitClassifier, n: int, notes_from: float) -> Scorer:
    """Scores the n² cells of straightened small grids, digits above n set to nothing
    (``allowed_digits``), and each cell's probability of holding candidate notes where the
    model has a notes class (``notes_probability``, ``notes_from`` where notes are its
    likeliest reading), every grid's cells in one model call."""

    def score(warped: Sequence[np.ndarray]) -> list[CellScores]:
        """Each grid's cells, their allowed digits' probabilities and notes."""
        cells = [split_cells(w, classifier.config.cells, n) for w in warped]
        probs, _ = classifier.predict(np.concatenate(cells))
        digits = classifier.digit_probs(probs)
        allowed = np.split(allowed_digits(digits, n), len(cells))
        noted = notes_probability(classifier, probs, digits, n, notes_from)
        notes = [None] * len(cells) if noted is None else np.split(noted, len(cells))
        return [
            CellScores(p.astype(np.float32), c, notes_probability=k)
            for p, c, k in zip(allowed, cells, notes, strict=True)
        ]

    return score


def notes_probability(
    classifier: DigitClassifier, probs: np.ndarray, digits: np.ndarray, n: int, notes_from: float
) -> np.ndarray | None:
    """(N,) each cell's probability of holding candidate notes only (the model's notes
    class), at least ``notes_from`` (taken for notes) where notes are likelier than the cell
    being empty and than any one digit 1..n it may hold (printed and written together):
    a cell's few small noted digits, each unlike an entry, spread the rest of its
    probability over many digits. None for a model without a notes class. ``digits``:
    the model's digit probabilities (``DigitClassifier.digit_probs``)."""
    if not classifier.config.has_notes:
        return None
    notes = np.asarray(probs[:, NOTES_CLASS], dtype=np.float64)
    rest = allowed_digits(digits, n) * (1.0 - notes)[:, None]  # shares of the whole again
    by_digit = rest[:, 1 : DIGIT_CLASSES + 1] + rest[:, DIGIT_CLASSES + 1 :]
    likeliest = notes > np.maximum(rest[:, 0], by_digit.max(axis=1))
    return np.where(likeliest, np.maximum(notes, notes_from), notes)


def read_small_cells(
    classifier: DigitClassifier,
    grid: SmallGrid,
    config: ReadConfig,
    orientation: OrientationConfig = DEFAULT_SMALL_GRID_CONFIG.orientation,
    straighten: Straighten | None = None,
    image: np.ndarray | None = None,
) -> tuple[SmallGrid, CellReading]:
    """The grid turned upright (``oriented``, with ``orientation``) and every cell's digit
    and kind, digits above the grid's size ruled out; the cells the model takes for
    candidate notes hold the digits noted in them (``noted``, cut finer by ``straighten``
    where given). ``image``: the colour (BGR) picture the grid was found in (the pixels
    of its lattice), for the ink-colour step; without it, or where it is grey, the kinds
    are settled without that step."""
    n = grid.size
    scorer = small_scorer(classifier, n, config.kind_decision.notes_from)
    grid, scores = oriented(grid, scorer, orientation)
    digits = mask_digits(scores.probs, n).astype(np.float32)
    scores = noted(classifier, grid, replace(scores, probs=digits), config, straighten)
    lattice = None if image is None else grid.detection.lattice
    reading = decide_kinds(scores, image, lattice, config=config.kind_decision)
    count = n * n
    return grid, replace(
        reading,
        trace=None,  # the trace names cells as on a 9×9 grid
        notes_sure=reading.notes_sure or (True,) * count,
        crossed_out=(False,) * count,
        unreadable=(False,) * count,
    )


def noted(
    classifier: DigitClassifier,
    grid: SmallGrid,
    scores: CellScores,
    config: ReadConfig,
    straighten: Straighten | None = None,
) -> CellScores:
    """The scores with the digits noted in each cell taken for notes (the notes reader of
    a 9×9, ``DigitClassifier.with_note_digits``), those above the grid's size left out
    (``within_size``). The notes cells are cut ``NotesConfig.detail`` times finer than the
    model's cells, from the grid straightened that finely by ``straighten`` where given
    (the photo's own pixels; else the straightened grid enlarged)."""
    notes = scores.notes_probability
    if notes is None:
        return scores
    warped = grid.detection.warped
    if straighten is not None and config.kind_decision.notes(notes).any():
        side = grid.size * classifier.config.cells.cell_px * config.notes.detail
        warped = straighten(grid.detection, side)
    return within_size(classifier.with_note_digits(scores, warped, config, grid.size), grid.size)


def within_size(scores: CellScores, n: int) -> CellScores:
    """The scores with the noted digits above ``n`` left out of each notes cell (a grid of
    n cells a side holds 1..n only), a cell that lost one no longer read completely."""
    if scores.note_digits is None:
        return scores
    kept = tuple("".join(d for d in noted if int(d) <= n) for noted in scores.note_digits)
    sure = scores.notes_sure or (True,) * len(kept)
    whole = tuple(s and k == d for s, k, d in zip(sure, kept, scores.note_digits, strict=True))
    return replace(scores, note_digits=kept, notes_sure=whole)


def givens_of(reading: CellReading) -> tuple[int, ...]:
    """Every digit of a reading (0 elsewhere), a digit taken for handwriting counted as
    printed (``written_cells`` says which are the person's entries)."""
    filled = np.isin(reading.kinds, (Kind.PRINTED, Kind.HANDWRITTEN))
    return tuple(int(d) if f else 0 for d, f in zip(reading.digits, filled, strict=True))


def written_cells(reading: CellReading, config: SmallGridConfig) -> np.ndarray:
    """(N,) bool: the cells whose digit is the person's entry, read as handwriting by at
    least ``config.pen_margin``; none unless ``config.min_pen_cells`` are (a lone printed
    digit taken for pen is likelier than a lone entry) or ``config.pen_entries`` is off."""
    count = len(reading.digits)
    odds = reading.kind_log_odds
    if not config.pen_entries or odds is None:
        return np.zeros(count, bool)
    written = (np.asarray(reading.kinds) == Kind.HANDWRITTEN) & (
        np.asarray(odds) <= -config.pen_margin
    )
    return written if int(written.sum()) >= config.min_pen_cells else np.zeros(count, bool)


def pen_entries(reading: CellReading, givens: str) -> str:
    """The digits read as handwriting in the cells the solved ``givens`` leave empty, as
    Digits ("0" elsewhere; a 16×16's 10-16 as A-G): the person's entries."""
    return digits_of(
        int(d) if k == Kind.HANDWRITTEN and g == "0" else 0
        for d, k, g in zip(reading.digits, reading.kinds, givens, strict=True)
    )


def solve_small(
    values: tuple[int, ...], n: int, time_limit_s: float, glyphs: str = ""
) -> SolveResult | None:
    """Solve a small classic Sudoku's values (None when they are no puzzle at all); its
    conflicts name values as the photo prints them (``GridStructure.printed``: the
    numbers, or the page's ``glyphs``)."""
    structure = GridStructure(size=n, glyphs=glyphs)
    try:
        return solve_variant(structure.puzzle(values), time_limit_s, structure.printed)
    except VariantError:
        return None


def solve_reading(
    reading: CellReading, n: int, config: SmallGridConfig, glyphs: str = ""
) -> RepairOutcome:
    """The reading's givens solved, or repaired (``repaired``) where they have no single
    answer; the problems named are those of the givens as read (values as the page prints
    them: ``glyphs``, else numbers). The printed digits alone are tried first where some
    were read as handwriting (``written_cells``, ``printed_alone``): with one answer, the
    handwriting is the person's entries (``pen_entries``)."""
    values = givens_of(reading)
    alone = printed_alone(reading, values, n, config, glyphs)
    if alone is not None:
        return outcome_of(alone, (), ())
    first = solve_small(values, n, config.time_limit_s, glyphs)
    if first is not None and first.status in SOLVED_OUTCOMES:
        return outcome_of(first, (), ())
    problems = problems_of(first, n)
    fixed, refused = repaired(reading, values, n, config, glyphs)
    if fixed is not None:
        result, repairs = fixed
        return outcome_of(result, repairs, problems)
    status = Outcome.INVALID if first is None else first.status
    problems += refused_problem(refused, config.unlikely_repair)
    return RepairOutcome(digits_of(values), (), None, status, problems, 1)


def printed_alone(
    reading: CellReading, values: tuple[int, ...], n: int, config: SmallGridConfig, glyphs: str
) -> SolveResult | None:
    """The printed digits solved without the cells taken for the person's entries, where
    they have one answer: each set of ``entry_sets`` in turn. None where none of these has
    one answer, or nothing was surely written (``written_cells``)."""
    written = written_cells(reading, config)
    if not written.any() or reading.kind_log_odds is None:
        return None
    for entries in entry_sets(reading, written, config):
        printed = tuple(0 if e else v for v, e in zip(values, entries, strict=True))
        alone = solve_small(printed, n, config.time_limit_s, glyphs)
        if alone is not None and alone.status in SOLVED_OUTCOMES:
            return alone
    return None


def entry_sets(
    reading: CellReading, written: np.ndarray, config: SmallGridConfig
) -> list[np.ndarray]:
    """The cells tried as the person's entries, in turn: those surely written
    (``written``); those less one of the ``config.pen_doubtful`` least surely pen (a
    printed digit leaning pen on a page of few cells), one at a time; then, where
    ``config.pen_leaning``, those and every other cell read as handwriting however
    slightly (a pen 2 leaning pen at -1.4 beside three sure entries, counted as printed,
    left a 4×4 no answer until a printed digit was "repaired" to one read at 0 %)."""
    odds = np.asarray(reading.kind_log_odds)
    doubtful = sorted(np.flatnonzero(written), key=lambda c: -float(odds[c]))
    sets = [written]
    for back in doubtful[: config.pen_doubtful]:
        fewer = written.copy()
        fewer[back] = False
        sets.append(fewer)
    leaning = written | (np.asarray(reading.kinds) == Kind.HANDWRITTEN)
    if config.pen_leaning and (leaning & ~written).any():
        sets.append(leaning)
    return sets


def solve_as_read(values: tuple[int, ...], n: int, time_limit_s: float) -> RepairOutcome:
    """A small grid's givens solved as they are, no repair (a person's corrections): the
    outcome names the problem if they have no single answer."""
    result = solve_small(values, n, time_limit_s)
    if result is not None and result.status in SOLVED_OUTCOMES:
        return outcome_of(result, (), ())
    status = Outcome.INVALID if result is None else result.status
    return RepairOutcome(digits_of(values), (), None, status, problems_of(result, n), 1)


def outcome_of(
    result: SolveResult, repairs: tuple[Repair, ...], problems: tuple[Problem, ...]
) -> RepairOutcome:
    """A solved reading's outcome: its givens (after the repairs) and the answer."""
    solution = None if result.solution is None else digits_of(result.solution.values)
    givens = digits_of(result.puzzle.values)
    return RepairOutcome(givens, repairs, solution, result.status, problems, 1 + len(repairs))


Found = tuple[SolveResult, tuple[Repair, ...]]  # repaired givens solved, and the changes


def repaired(
    reading: CellReading,
    values: tuple[int, ...],
    n: int,
    config: SmallGridConfig,
    glyphs: str = "",
    among: Sequence[int] | None = None,
) -> tuple[Found | None, tuple[Repair, ...]]:
    """The givens with one or two of the least sure filled cells (of ``among``, default
    all) read as their next likeliest value (another digit, or empty) that give one
    answer, and those changes (values named as the page prints them: ``glyphs``, else
    numbers); None if none do. A change to a digit the model gave less than
    ``config.unlikely_repair`` is never taken (``ruled_out``: a 4×4's printed 3
    "repaired" to a 2 read at 0 % solved it wrong); second, the first such repair that
    would have given one answer, to name (() where none)."""
    per_value = value_probabilities(reading)
    allowed = range(len(values)) if among is None else set(among)
    filled = [c for c, v in enumerate(values) if v and c in allowed]
    unsure = sorted(filled, key=lambda c: float(per_value[c, values[c]]))[:REPAIR_CELLS]
    refused: tuple[Repair, ...] = ()
    for count in range(1, MAX_REPAIRED + 1):
        for cells in combinations(unsure, count):
            changed = list(values)
            for c in cells:
                ranked = np.argsort(per_value[c])[::-1]
                changed[c] = int(next(v for v in ranked if v != values[c]))
            repairs = tuple(
                Repair(
                    c,
                    values[c],
                    changed[c],
                    float(per_value[c, values[c]]),
                    float(per_value[c, changed[c]]),
                    size=n,
                    symbols=glyphs,
                )
                for c in cells
            )
            unlikely = bool(ruled_out(repairs, config.unlikely_repair))
            if unlikely and refused:
                continue  # one refused repair is named; others need no solving
            result = solve_small(tuple(changed), n, config.time_limit_s, glyphs)
            if result is not None and result.status in SOLVED_OUTCOMES:
                if not unlikely:
                    return (result, repairs), refused
                refused = repairs
    return None, refused


def refused_problem(refused: tuple[Repair, ...], below: float) -> tuple[Problem, ...]:
    """The problem naming a repair not taken, its digits ruled out by the model (below
    ``below``); () where none was refused."""
    if not refused:
        return ()
    changes = "; ".join(r.text for r in refused)
    text = (
        f"only a repair gives one answer ({changes}), and it takes a digit the model "
        f"gave under {below:.0%}: no answer is given"
    )
    return (Problem(ProblemKind.UNLIKELY_REPAIR, tuple(r.cell for r in refused), text),)


def value_probabilities(reading: CellReading) -> np.ndarray:
    """(N, 10) probability that each cell is empty (column 0) or holds 1-9, in any ink; a
    reading of values past 9 (a 16×16's, ``sixteen.py``) has one column a value already."""
    probs = np.asarray(reading.probs, dtype=np.float64)
    return np.column_stack([probs[:, 0], value_shares(probs)])


def problems_of(result: SolveResult | None, n: int) -> tuple[Problem, ...]:
    """Why the givens as read have no single answer, in a person's words."""
    if result is None:
        return (Problem(ProblemKind.NO_SOLUTION, (), "the digits read are no puzzle"),)
    if result.conflicts:
        kinds = (ProblemKind.DUPLICATE, ProblemKind.DEAD_CELL)
        return tuple(
            Problem(kinds[0] if k.is_duplicate else kinds[1], k.cells, k.text)
            for k in result.conflicts
        )
    words = {
        Outcome.NO_SOLUTION: (ProblemKind.NO_SOLUTION, "no grid completes the digits read"),
        Outcome.MULTIPLE_SOLUTIONS: (
            ProblemKind.MULTIPLE_SOLUTIONS,
            "the digits read allow more than one solution",
        ),
    }
    kind, text = words.get(result.status, (ProblemKind.NO_SOLUTION, str(result.status)))
    return (Problem(kind, (), f"{text} ({n}×{n})"),)
