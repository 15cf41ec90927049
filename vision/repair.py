"""Let the solver fix the reading: the most probable set of givens with exactly one solution.

When the printed digits read from a photo break the rules, or admit no solution or more
than one, some cell was probably misread. The classifier's probabilities say what else
each cell could be; a best-first search tries the alternatives in order of how much
probability they give up (log-probability loss) and keeps the first grid that has
exactly one solution. Only givens (printed digits) are repaired: pen entries are what a
person wrote, right or wrong, and are checked against the solution instead, except where
the printed digits read allow several solutions: then some printed digits were probably
read as pen, and pen-read cells may be taken as printed (one by one, most print-like
first; all of them at once; or, in the search, as another printed digit), each named in
the repairs.

Every grid is solved, and its outcome decided, by the solver (``solve_before``: solve and
prove unique, before a deadline); this module keeps only the search, and
``describe_problems`` puts a failed solve in a reader's words. One grid's solving and
repair share one time limit (``RepairConfig.time_limit_s``): past it the outcome is TIMEOUT.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..solver.errors import SearchTimeoutError, timeout_message
from ..solver.geometry import cell_name
from ..solver.grid import Grid, value_word
from ..solver.outcome import Outcome, ProblemKind
from ..solver.solve import SolveResult, deadline_after, solve_before
from ..solver.validate import Conflict
from .types import NINE, CellReading, Digits, Kind, digit_values, digits_of

RULE_BREAKS = frozenset({ProblemKind.DUPLICATE, ProblemKind.DEAD_CELL, ProblemKind.FOREIGN_SYMBOL})
Values = tuple[int, ...]  # 81 cell values, 0 for empty
Solver = Callable[[Values, float | None], SolveResult]  # solve and prove unique before a deadline


def solve_classic(values: Values, deadline: float | None) -> SolveResult:
    """Solve a classic 9×9 (rows, columns, boxes) before ``deadline``."""
    return solve_before(Grid(NINE, values), deadline)


@dataclass(frozen=True)
class Rules:
    """What the repair keeps: the units whose cells hold different digits, and the solver
    that proves a grid's one solution (a variant's regions, diagonals and cages, or the
    classic rows, columns and boxes). ``cages``: whether the rules hold Killer cages,
    which make a puzzle without a single given (its writing is then never the puzzle:
    ``written_only``)."""

    units: tuple[tuple[int, ...], ...]
    solve: Solver
    cages: bool = False
    units_of: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Index the units of every cell."""
        held: list[list[int]] = [[] for _ in range(81)]
        for u, unit in enumerate(self.units):
            for c in unit:
                held[c].append(u)
        object.__setattr__(self, "units_of", tuple(tuple(h) for h in held))


CLASSIC_RULES = Rules(tuple(NINE.units), solve_classic)


@dataclass(frozen=True)
class RepairConfig:
    """Bounds on the search for a reading with exactly one solution.

    ``max_cells`` cells are open to change: the cells in a conflict first, then those whose
    reading is least sure. Each offers its ``max_alternatives`` most probable other
    readings. At most ``max_changes`` cells change at once, the changes together may give
    up at most ``max_log_loss`` nats of probability, at most ``max_candidates`` grids are
    checked against the rules and at most ``max_solver_calls`` are solved. The costs of
    single changes are described in ``candidate_moves``. When the givens allow several
    solutions, up to ``max_promotions`` pen-read cells may first be taken as printed.
    A cell is never taken as a digit the model gives less than ``min_digit_probability``
    (any ink): the photo does not support it (as ``SmallGridConfig.unlikely_repair`` on
    small grids), and a grid made unique by such a change is likelier a wrong answer.
    With ``clash_printed_first``, givens that clash or have no solution open the cells
    read as printed to change before those read as handwritten (a written digit taken
    for print is the likelier culprit than a missing given). With ``clash_opens_digit``,
    givens that read one digit twice in a unit open, right after the clashing cells, every
    other cell read as a printed one of that digit: a hand whose 7 reads as a printed 1
    writes more than one such 7, and the one that clashes with nothing is as wrong.
    A repair found is kept only when no other repair within ``tie_log_loss`` nats of it
    gives another answer (two as likely readings: neither answer is sure).
    Solving and repairing one grid takes at most ``time_limit_s`` seconds (None: no limit);
    past it the outcome is TIMEOUT.
    """

    max_cells: int = 12
    max_alternatives: int = 3
    max_changes: int = 3
    max_log_loss: float = 16.0
    max_candidates: int = 5_000
    max_solver_calls: int = 100
    max_promotions: int = 12
    min_digit_probability: float = 0.05
    clash_printed_first: bool = True
    clash_opens_digit: bool = True
    tie_log_loss: float = 0.5
    change_log_loss: float = 1.0
    kind_evidence_weight: float = 0.5
    probability_floor: float = 1e-12
    time_limit_s: float | None = 10.0

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        for name in ("max_cells", "max_alternatives", "max_changes", "max_solver_calls"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative, got {getattr(self, name)}")
        if not 0.0 <= self.min_digit_probability < 1.0:
            raise ValueError(
                f"min_digit_probability must be in [0, 1), got {self.min_digit_probability}"
            )
        for name in ("max_log_loss", "tie_log_loss"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative, got {getattr(self, name)}")
        if self.time_limit_s is not None and self.time_limit_s <= 0:
            raise ValueError(f"time_limit_s must be positive, got {self.time_limit_s}")


DEFAULT_REPAIR_CONFIG = RepairConfig()


@dataclass(frozen=True, order=True)
class Move:
    """One alternative reading of a cell: its cost (log-probability loss) and new given."""

    cost: float
    cell: int
    new: int
    kind_changed: bool


@dataclass(frozen=True)
class Repair:
    """One given changed by the search: the cell, what was read, what it became, and how sure.

    old, new: the given before and after (0 = not a given). kind_changed: a handwritten
    digit was taken as printed (old 0) or a printed one as handwritten (new 0). read: the
    digit read in a pen cell taken as printed, where it is not the digit taken (a printed
    digit of an unfamiliar face read as another pen digit); 0 where the digit stayed. The
    probabilities are the classifier's for the digits (any ink).
    """

    cell: int
    old: int
    new: int
    old_probability: float
    new_probability: float
    kind_changed: bool = False
    read: int = 0
    size: int = 9  # cells a side of the grid the cell is named in
    symbols: str = ""  # how the grid prints values 1..size where not as numbers

    @property
    def keeps_digit(self) -> bool:
        """True when only the ink changed: the digit read is the digit kept."""
        return self.kind_changed and self.read in (0, self.new)

    @property
    def text(self) -> str:
        """A person's sentence, e.g. 'r1c3 read as 7 (55%), taken as 1 (40%)'."""
        name = cell_name(self.cell, self.size)
        if self.kind_changed and self.new and not self.keeps_digit:
            return (
                f"{name} read as a handwritten {self.read} ({self.old_probability:.0%}), "
                f"taken as a printed {self.new} ({self.new_probability:.0%})"
            )
        if self.kind_changed and self.new:
            return f"{name} read as a handwritten {self.new}, taken as a printed {self.new}"
        if self.kind_changed:
            return f"{name} read as a printed {self.old}, taken as a handwritten {self.old}"
        return (
            f"{name} read as {_digit_word(self.old, self.symbols)} ({self.old_probability:.0%}), "
            f"taken as {_digit_word(self.new, self.symbols)} ({self.new_probability:.0%})"
        )

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready fields."""
        return {
            "cell": cell_name(self.cell, self.size),
            "index": self.cell,
            "old": self.old,
            "new": self.new,
            "old_probability": round(self.old_probability, 4),
            "new_probability": round(self.new_probability, 4),
            "kind_changed": self.kind_changed,
            "read": self.read,
        }


def ruled_out(repairs: Sequence[Repair], below: float) -> tuple[Repair, ...]:
    """The repairs that took a digit the model gave less than ``below`` (a digit for a
    digit; a cell emptied, or its ink changed, is not one): a reading the photo does not
    support (``SmallGridConfig.unlikely_repair``)."""
    return tuple(r for r in repairs if r.new and not r.kind_changed and r.new_probability < below)


@dataclass(frozen=True)
class Problem:
    """Why the givens have no single solution: what kind, the cells concerned, a sentence.

    kind: DUPLICATE (two cells of a unit read as one digit), DEAD_CELL (a cell left
    without a candidate), NO_SOLUTION or MULTIPLE_SOLUTIONS.
    """

    kind: ProblemKind
    cells: tuple[int, ...]
    text: str

    @property
    def breaks_rule(self) -> bool:
        """True for a duplicate or a dead cell: the cells themselves are at fault."""
        return self.kind in RULE_BREAKS

    def to_dict(self, size: int = 9) -> dict[str, object]:
        """Plain JSON-ready fields, the cells named on a grid of ``size`` cells a side."""
        return {
            "kind": self.kind,
            "cells": [cell_name(c, size) for c in self.cells],
            "text": self.text,
        }


@dataclass(frozen=True)
class RepairOutcome:
    """The givens after the search, the changes made, and the solution if there is one.

    status: SOLVED (exactly one solution), INVALID (givens break the rules), NO_SOLUTION
    or MULTIPLE_SOLUTIONS; the last three describe the givens as read, with ``problems``
    naming the cells concerned (also kept when a repair solved them).
    solver_calls: how many grids were solved on the way.
    """

    givens: Digits
    repairs: tuple[Repair, ...]
    solution: Digits | None
    status: Outcome
    problems: tuple[Problem, ...]
    solver_calls: int


Found = tuple[SolveResult, tuple[Repair, ...]]  # a repaired grid solved, and the changes made


def digit_probabilities(reading: CellReading) -> np.ndarray:
    """(81, 10) probability that each cell is empty (column 0) or holds 1-9, in any ink."""
    probs = np.asarray(reading.probs, dtype=np.float64)
    out = np.empty((81, 10), dtype=np.float64)
    out[:, 0] = probs[:, 0]
    out[:, 1:] = probs[:, 1:10] + probs[:, 10:19]
    return out / np.maximum(out.sum(axis=1, keepdims=True), 1e-30)


def read_givens(reading: CellReading) -> Digits:
    """The printed digits of a reading, '0' elsewhere."""
    printed = reading.kinds == Kind.PRINTED
    return digits_of(int(d) if p else 0 for d, p in zip(reading.digits, printed, strict=True))


def repair_givens(
    reading: CellReading,
    config: RepairConfig = DEFAULT_REPAIR_CONFIG,
    givens: Digits | None = None,
    rules: Rules = CLASSIC_RULES,
) -> RepairOutcome:
    """Solve the givens of ``reading`` (or ``givens``) under ``rules``, repairing the least
    sure cells if needed."""
    digits = read_givens(reading) if givens is None else givens
    deadline = deadline_after(config.time_limit_s)
    try:
        return _repair_before(reading, config, digits, deadline, rules)
    except SearchTimeoutError:
        return timed_out(digits, config.time_limit_s)


def _repair_before(
    reading: CellReading,
    config: RepairConfig,
    digits: Digits,
    deadline: float | None,
    rules: Rules = CLASSIC_RULES,
) -> RepairOutcome:
    """``repair_givens`` with a ``time.monotonic()`` deadline (SearchTimeoutError past it)."""
    first = _solve(digits, deadline, rules)
    problems, calls = describe_problems(first), _solver_calls(first)
    if first.status is Outcome.SOLVED:
        return _outcome(first, problems, (), calls)
    written = np.any(np.asarray(reading.kinds) == Kind.HANDWRITTEN)
    if digits == "0" * 81 and written and not rules.cages:
        return written_only(reading, deadline, rules)
    found: Found | None = None
    if not first.conflicts:  # the givens keep the rules: maybe some were read as pen
        found, more = promote_pen_cells(first.puzzle, reading, config, deadline, rules)
        calls += more
    if found is None and first.status is Outcome.MULTIPLE_SOLUTIONS:
        found, more = every_digit_as_given(first.puzzle, reading, deadline, rules)
        calls += more
    if found is None:
        found, more, tie = search_repairs(digits, reading, problems, config, deadline, rules)
        calls += more
        problems += tie
    if found is None:
        return _outcome(first, problems, (), calls)
    solved, repairs = found
    return _outcome(solved, problems, repairs, calls)


def solve_givens(
    givens: Digits, time_limit_s: float | None = None, rules: Rules = CLASSIC_RULES
) -> RepairOutcome:
    """Solve ``givens`` as they are (no repair) under ``rules``: the outcome names the
    problem if any."""
    try:
        result = _solve(givens, deadline_after(time_limit_s), rules)
    except SearchTimeoutError:
        return timed_out(givens, time_limit_s)
    return _outcome(result, describe_problems(result), (), _solver_calls(result))


def timed_out(givens: Digits, time_limit_s: float | None) -> RepairOutcome:
    """The outcome of givens whose solving ran past its time limit."""
    problem = Problem(ProblemKind.TIMEOUT, (), timeout_message(time_limit_s))
    return RepairOutcome(givens, (), None, Outcome.TIMEOUT, (problem,), 0)


def promote_pen_cells(
    puzzle: Grid,
    reading: CellReading,
    config: RepairConfig,
    deadline: float | None = None,
    rules: Rules = CLASSIC_RULES,
) -> tuple[Found | None, int]:
    """Givens with too few digits: take pen-read cells as printed until one solution remains.

    Printed digits of an unusual typeface are sometimes read as handwriting, which leaves
    the givens short. The cells read as handwritten are added as givens one at a time, most
    print-like first (those that would break the rules are skipped), up to
    ``max_promotions``; the first grid with exactly one solution wins. Returns it (or
    None) and the solver calls made.
    """
    probs = np.asarray(reading.probs, dtype=np.float64)
    pen = [int(c) for c in np.flatnonzero(np.asarray(reading.kinds) == Kind.HANDWRITTEN)]
    digit = {c: int(reading.digits[c]) for c in pen}
    pen.sort(key=lambda c: probs[c, digit[c] + 9] - probs[c, digit[c]])
    trial, added, calls = puzzle, [], 0
    for cell in pen[: config.max_promotions]:
        grown = trial.with_value(cell, digit[cell])
        if any(_unit_has_duplicate(grown.values, rules.units[u]) for u in rules.units_of[cell]):
            continue
        trial = grown
        added.append(cell)
        calls += 1
        result = rules.solve(trial.values, deadline)
        if result.status is Outcome.NO_SOLUTION:
            return None, calls
        if result.status is Outcome.SOLVED:
            q = digit_probabilities(reading)
            repairs = tuple(
                Repair(c, 0, digit[c], float(q[c, digit[c]]), float(q[c, digit[c]]), True)
                for c in sorted(added)
            )
            return (result, repairs), calls
    return None, calls


def written_only(
    reading: CellReading, deadline: float | None = None, rules: Rules = CLASSIC_RULES
) -> RepairOutcome:
    """A grid with no printed digit, only writing (a grid a person filled in or copied by
    hand): the written digits are the puzzle, each named as taken for printed, and
    their problems (two alike in a row, no or several solutions) are theirs."""
    pen = np.asarray(reading.kinds) == Kind.HANDWRITTEN
    written = digits_of(int(d) if p else 0 for d, p in zip(reading.digits, pen, strict=True))
    result = _solve(written, deadline, rules)
    q = digit_probabilities(reading)
    repairs = tuple(
        Repair(int(c), 0, int(reading.digits[c]), float(q[c, reading.digits[c]]),
               float(q[c, reading.digits[c]]), True)
        for c in np.flatnonzero(pen)
    )  # fmt: skip
    return _outcome(result, describe_problems(result), repairs, _solver_calls(result))


def every_digit_as_given(
    puzzle: Grid, reading: CellReading, deadline: float | None = None, rules: Rules = CLASSIC_RULES
) -> tuple[Found | None, int]:
    """Givens with several solutions: every digit read, printed or pen, taken as a given.

    A page in a face the model does not know can have many of its printed digits read as
    handwriting, more than ``promote_pen_cells`` adds. When all the digits read together
    keep the rules and have exactly one solution, that is the puzzle; each pen-read cell
    is reported as taken for printed. Returns it (or None) and the solver calls made.
    """
    pen = [int(c) for c in np.flatnonzero(np.asarray(reading.kinds) == Kind.HANDWRITTEN)]
    if not pen:
        return None, 0
    values = list(puzzle.values)
    for cell in pen:
        values[cell] = int(reading.digits[cell])
    if any(_unit_has_duplicate(values, unit) for unit in rules.units):
        return None, 0
    result = rules.solve(tuple(values), deadline)
    if result.status is not Outcome.SOLVED:
        return None, 1
    q = digit_probabilities(reading)
    repairs = tuple(
        Repair(c, 0, values[c], float(q[c, values[c]]), float(q[c, values[c]]), True) for c in pen
    )
    return (result, repairs), 1


def search_repairs(
    givens: Digits,
    reading: CellReading,
    problems: tuple[Problem, ...],
    config: RepairConfig,
    deadline: float | None = None,
    rules: Rules = CLASSIC_RULES,
) -> tuple[Found | None, int, tuple[Problem, ...]]:
    """Best-first over alternative readings: the most probable change with one solution.

    Returns the solved repaired grid and the repairs (or None), the solver calls made, and
    the problem of kind ``tied_repairs`` where two as likely repairs gave different answers.
    """
    suspects = {c for p in problems if p.breaks_rule for c in p.cells}
    short = any(p.kind is ProblemKind.MULTIPLE_SOLUTIONS for p in problems)
    if short:  # givens short: maybe print read as pen
        pen = np.asarray(reading.kinds) == Kind.HANDWRITTEN
        suspects |= {int(c) for c in np.flatnonzero(pen)}
    first = config.clash_printed_first and not short
    values = digit_values(givens)
    kin = clashing_digit_cells(values, problems) if config.clash_opens_digit else set()
    moves = candidate_moves(reading, givens, suspects, config, printed_first=first, kin=kin)
    broken = {u for u, unit in enumerate(rules.units) if _unit_has_duplicate(values, unit)}
    calls, known = 0, KnownOutcomes()
    best: tuple[float, Found] | None = None
    for cost, picked, trial in rule_keeping_trials(moves, values, broken, config, rules):
        if best is not None and cost > best[0] + config.tie_log_loss:
            break
        if known.settles(trial):
            continue
        if calls >= config.max_solver_calls:
            break
        calls += 1
        result = rules.solve(tuple(trial), deadline)
        known.add(trial, result.status)
        if result.status is not Outcome.SOLVED:
            continue
        ordered = sorted(picked, key=lambda m: m.cell)
        repairs = tuple(_repair(reading, values, m) for m in ordered)
        if best is None:
            best = cost, (result, repairs)
        elif result.solution == best[1][0].solution:
            return best[1], calls, ()
        else:  # as likely a repair with another answer: neither is sure
            return None, calls, (tied_problem(best[1][1], repairs),)
    return (None if best is None else best[1]), calls, ()


def tied_problem(first: tuple[Repair, ...], second: tuple[Repair, ...]) -> Problem:
    """The problem naming two repairs, as likely, that give different answers."""
    cells = tuple(sorted({r.cell for r in (*first, *second)}))
    one, other = ("; ".join(r.text for r in repairs) for repairs in (first, second))
    text = f"two readings as likely give different answers ({one} | {other}): no answer is given"
    return Problem(ProblemKind.TIED_REPAIRS, cells, text)


def rule_keeping_trials(
    moves: list[Move], values: Sequence[int], broken: set[int], config: RepairConfig, rules: Rules
) -> Iterator[tuple[float, list[Move], list[int]]]:
    """The sets of moves, cheapest first within the config's bounds, whose grids break no
    rule: (cost, moves, the 81 values)."""
    costs = [m.cost for m in moves]
    for n, (cost, chosen) in enumerate(subsets_by_cost(costs, config.max_changes)):
        if n >= config.max_candidates or cost > config.max_log_loss:
            return
        picked = [moves[i] for i in chosen]
        if len({m.cell for m in picked}) < len(picked):
            continue
        trial = list(values)
        for move in picked:
            trial[move.cell] = move.new
        touched = broken.union(*(rules.units_of[m.cell] for m in picked))
        if not any(_unit_has_duplicate(trial, rules.units[u]) for u in touched):
            yield cost, picked, trial


def clashing_digit_cells(values: Sequence[int], problems: tuple[Problem, ...]) -> set[int]:
    """Every given holding a digit that two givens of one unit share (``problems``'
    duplicates), the clashing cells among them."""
    clashing = {values[c] for p in problems if p.kind is ProblemKind.DUPLICATE for c in p.cells}
    return {c for c in range(len(values)) if values[c] and values[c] in clashing}


class KnownOutcomes:
    """Grids already solved in a search, to skip trials whose outcome follows from them.

    Givens that hold all of an unsolvable grid's givens are unsolvable too, and givens
    that hold only some of a grid's with several solutions have several too, so such a
    trial needs no solver call (a search for two changes otherwise spends its calls on
    the cheap changes that cannot help).
    """

    def __init__(self) -> None:
        """Nothing known yet."""
        self.unsolvable: list[np.ndarray] = []
        self.several: list[np.ndarray] = []

    def add(self, values: Sequence[int], status: Outcome) -> None:
        """Remember a trial's outcome where it says something about other trials."""
        if status is Outcome.NO_SOLUTION:
            self.unsolvable.append(np.asarray(values))
        elif status is Outcome.MULTIPLE_SOLUTIONS:
            self.several.append(np.asarray(values))

    def settles(self, values: Sequence[int]) -> bool:
        """Whether the outcome of ``values`` follows from a grid already solved (never SOLVED)."""
        trial = np.asarray(values)
        for dead in self.unsolvable:
            if np.all((dead == 0) | (dead == trial)):
                return True
        return any(np.all((trial == 0) | (trial == more)) for more in self.several)


def _repair(reading: CellReading, values: Sequence[int], move: Move) -> Repair:
    """The Repair record of one move."""
    q = digit_probabilities(reading)[move.cell]
    old, new = values[move.cell], move.new
    if move.kind_changed:
        read = int(reading.digits[move.cell])
        if new and read and read != new:  # a pen digit taken as another printed digit
            return Repair(move.cell, old, new, float(q[read]), float(q[new]), True, read)
        digit = old or new
        return Repair(move.cell, old, new, float(q[digit]), float(q[digit]), True)
    return Repair(move.cell, old, new, float(q[old]), float(q[new]))


def candidate_moves(
    reading: CellReading,
    givens: Digits,
    suspects: set[int],
    config: RepairConfig,
    printed_first: bool = False,
    kin: set[int] | frozenset[int] = frozenset(),
) -> list[Move]:
    """The alternatives worth trying, cheapest first: other digits, and printed↔pen swaps.

    The ``max_cells`` cells open to change are the ``suspects`` first, then the ``kin``
    (givens holding a clashing digit, ``clashing_digit_cells``), then (with
    ``printed_first``: givens that clash or have no solution hold a wrong printed digit,
    often a written one taken for print) the cells read as printed, then the others, each
    group least sure first.

    Every change costs ``change_log_loss`` (misreads are rare) plus the log-probability it
    gives up: for another digit, from the digit probabilities (any ink); for the other
    kind of ink, the cell's printed-vs-handwritten log-odds against the change, scaled by
    ``kind_evidence_weight`` (the classifier tells digits apart better than inks).
    """
    q = np.log(np.maximum(digit_probabilities(reading), config.probability_floor))
    probs = np.maximum(np.asarray(reading.probs, dtype=np.float64), config.probability_floor)
    floor = log_digit_floor(config)
    pen_mode = bool(np.any(reading.kinds == Kind.HANDWRITTEN))
    per_cell: dict[int, list[Move]] = {}
    for cell in range(81):
        digit, kind = int(reading.digits[cell]), int(reading.kinds[cell])
        if kind == Kind.NOTES:  # candidate notes are never an entry: nothing to repair
            continue
        old, base = int(givens[cell]), config.change_log_loss
        moves = [
            Move(base + max(0.0, float(q[cell, old] - q[cell, v])), cell, v, False)
            for v in range(10)
            if v != old and kind != Kind.HANDWRITTEN and (v == 0 or q[cell, v] >= floor)
        ]
        if kind != Kind.EMPTY and (pen_mode or kind == Kind.HANDWRITTEN):
            odds = float(np.log(probs[cell, digit] / probs[cell, digit + 9]))
            against = max(0.0, odds if kind == Kind.PRINTED else -odds)
            cost = base + config.kind_evidence_weight * against
            moves.append(Move(cost, cell, 0 if kind == Kind.PRINTED else digit, True))
        if kind == Kind.HANDWRITTEN:
            moves += pen_read_as_other_print(cell, digit, q, probs, config)
        per_cell[cell] = sorted(moves)[: config.max_alternatives]

    def rank(cell: int) -> tuple[bool, bool, bool, float]:
        """Suspects first, then their digit's givens, then (``printed_first``) printed
        cells, least sure first."""
        written = printed_first and int(reading.kinds[cell]) != Kind.PRINTED
        return cell not in suspects, cell not in kin, written, per_cell[cell][0].cost

    ranked = sorted((c for c in per_cell if per_cell[c]), key=rank)
    return sorted(m for c in ranked[: config.max_cells] for m in per_cell[c])


def pen_read_as_other_print(
    cell: int, digit: int, q: np.ndarray, probs: np.ndarray, config: RepairConfig
) -> list[Move]:
    """A pen cell taken as a printed given of another digit (an unfamiliar face misread
    twice): a digit change and an ink change, each paying what it gives up; never to a
    digit the model gives less than ``min_digit_probability``."""
    moves = []
    for v in range(1, 10):
        if v == digit or q[cell, v] < log_digit_floor(config):
            continue
        against = max(0.0, float(np.log(probs[cell, v + 9] / probs[cell, v])))
        loss = max(0.0, float(q[cell, digit] - q[cell, v]))
        cost = 2 * config.change_log_loss + loss + config.kind_evidence_weight * against
        moves.append(Move(cost, cell, v, True))
    return moves


def log_digit_floor(config: RepairConfig) -> float:
    """The log of ``min_digit_probability`` (-inf for 0): no cell is taken as a digit the
    model gives less."""
    p = config.min_digit_probability
    return float(np.log(p)) if p > 0 else float("-inf")


def subsets_by_cost(
    costs: Sequence[float], max_size: int
) -> Iterator[tuple[float, tuple[int, ...]]]:
    """Every non-empty subset of up to ``max_size`` indices of sorted ``costs``, cheapest first."""
    if not costs or max_size < 1:
        return
    heap: list[tuple[float, tuple[int, ...]]] = [(costs[0], (0,))]
    while heap:
        total, chosen = heapq.heappop(heap)
        yield total, chosen
        last = chosen[-1]
        if last + 1 < len(costs):
            if len(chosen) < max_size:
                heapq.heappush(heap, (total + costs[last + 1], (*chosen, last + 1)))
            swapped = total - costs[last] + costs[last + 1]
            heapq.heappush(heap, (swapped, (*chosen[:-1], last + 1)))


def _unit_has_duplicate(values: Sequence[int], unit: Sequence[int]) -> bool:
    """True when a value appears twice among the cells of ``unit``."""
    held = [values[c] for c in unit if values[c]]
    return len(held) != len(set(held))


def describe_problems(result: SolveResult) -> tuple[Problem, ...]:
    """Why solved givens have no single solution, in a reader's words; () when they have one."""
    if result.conflicts:
        return tuple(_conflict_problem(k) for k in result.conflicts)
    count = sum(1 for v in result.puzzle.values if v)
    if result.status is Outcome.NO_SOLUTION:
        text = f"the {count} digits read break no rule, but no grid completes them"
        return (Problem(ProblemKind.NO_SOLUTION, (), text),)
    if result.status is not Outcome.MULTIPLE_SOLUTIONS:
        return ()
    first, second = (s.values for s in result.solutions)
    differ = tuple(c for c in range(81) if first[c] != second[c])
    names = ", ".join(cell_name(c) for c in differ[:6]) + (" …" if len(differ) > 6 else "")
    text = f"the {count} digits read allow more than one solution (they differ at {names})"
    return (Problem(ProblemKind.MULTIPLE_SOLUTIONS, differ, text),)


def _conflict_problem(conflict: Conflict) -> Problem:
    """A duplicate ('r1c3 and r1c7 both read as 5') or a cell left without a candidate."""
    if not conflict.is_duplicate:
        return Problem(ProblemKind.DEAD_CELL, conflict.cells, conflict.text)
    first, second = (cell_name(c) for c in conflict.cells)
    text = f"{first} and {second} both read as {value_word(conflict.value)}"
    return Problem(ProblemKind.DUPLICATE, conflict.cells, text)


def _outcome(
    result: SolveResult, problems: tuple[Problem, ...], repairs: tuple[Repair, ...], calls: int
) -> RepairOutcome:
    """The RepairOutcome of the last solve: its givens, status and solution as Digits."""
    solution = None if result.solution is None else digits_of(result.solution.values)
    givens = digits_of(result.puzzle.values)
    return RepairOutcome(givens, repairs, solution, result.status, problems, calls)


def _solver_calls(result: SolveResult) -> int:
    """1 when the solve searched for solutions, 0 when the givens broke a rule first."""
    return 0 if result.conflicts else 1


def _solve(
    givens: Digits, deadline: float | None = None, rules: Rules = CLASSIC_RULES
) -> SolveResult:
    """Solve 81 digits 0-9 under ``rules`` (ValueError for anything else) before ``deadline``."""
    if len(givens) != 81 or not givens.isdigit() or not givens.isascii():
        raise ValueError(f"givens must be 81 digits 0-9, got {len(givens)} characters")
    return rules.solve(digit_values(givens), deadline)


def _digit_word(value: int, symbols: str = "") -> str:
    """'5' for a digit (a grid's own symbol where it has ``symbols``), 'empty' for 0."""
    return value_word(value, symbols or None) if value else "empty"
