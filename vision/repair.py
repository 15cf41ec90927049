"""Let the solver fix the reading: the most probable set of givens with exactly one solution.

When the printed digits read from a photo break the rules, or admit no solution or more
than one, some cell was probably misread. The classifier's probabilities say what else
each cell could be; a best-first search tries the alternatives in order of how much
probability they give up (log-probability loss) and keeps the first grid that has
exactly one solution. Only givens (printed digits) are repaired: pen entries are what a
person wrote, right or wrong, and are checked against the solution instead.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from ..solver.engine import find_solutions
from ..solver.geometry import cell_name, shape_for_size
from ..solver.grid import Grid
from ..solver.validate import find_conflicts, find_dead_cells
from .types import CellReading, Kind

Values = tuple[int, ...]  # 81 values row by row, 0 for empty
SHAPE = shape_for_size(9)


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
    """

    max_cells: int = 12
    max_alternatives: int = 3
    max_changes: int = 3
    max_log_loss: float = 16.0
    max_candidates: int = 5_000
    max_solver_calls: int = 100
    max_promotions: int = 12
    change_log_loss: float = 1.0
    kind_evidence_weight: float = 0.5
    probability_floor: float = 1e-12

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        for name in ("max_cells", "max_alternatives", "max_changes", "max_solver_calls"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative, got {getattr(self, name)}")
        if self.max_log_loss < 0:
            raise ValueError(f"max_log_loss must not be negative, got {self.max_log_loss}")


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

    old, new: the given before and after (0 = not a given). kind_changed: the digit stayed,
    but a handwritten one was taken as printed (old 0) or a printed one as handwritten
    (new 0). The probabilities are the classifier's for the digits (any ink).
    """

    cell: int
    old: int
    new: int
    old_probability: float
    new_probability: float
    kind_changed: bool = False

    @property
    def text(self) -> str:
        """A person's sentence, e.g. 'r1c3 read as 7 (55%), taken as 1 (40%)'."""
        name = cell_name(self.cell)
        if self.kind_changed and self.new:
            return f"{name} read as a handwritten {self.new}, taken as a printed {self.new}"
        if self.kind_changed:
            return f"{name} read as a printed {self.old}, taken as a handwritten {self.old}"
        return (
            f"{name} read as {_digit_word(self.old)} ({self.old_probability:.0%}), "
            f"taken as {_digit_word(self.new)} ({self.new_probability:.0%})"
        )

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready fields."""
        return {
            "cell": cell_name(self.cell),
            "index": self.cell,
            "old": self.old,
            "new": self.new,
            "old_probability": round(self.old_probability, 4),
            "new_probability": round(self.new_probability, 4),
            "kind_changed": self.kind_changed,
        }


@dataclass(frozen=True)
class Problem:
    """Why the givens have no single solution: what kind, the cells concerned, a sentence.

    kind: "duplicate" (two cells of a unit read as one digit), "dead_cell" (a cell left
    without a candidate), "no_solution" or "multiple_solutions".
    """

    kind: str
    cells: tuple[int, ...]
    text: str

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-ready fields."""
        return {"kind": self.kind, "cells": [cell_name(c) for c in self.cells], "text": self.text}


@dataclass(frozen=True)
class RepairOutcome:
    """The givens after the search, the changes made, and the solution if there is one.

    status: "solved" (exactly one solution), "invalid" (givens break the rules),
    "unsolvable" (no solution) or "multiple_solutions"; the last three describe the
    givens as read, with ``problems`` naming the cells concerned.
    """

    givens: Values
    repairs: tuple[Repair, ...]
    solution: Values | None
    status: str
    problems: tuple[Problem, ...]
    solver_calls: int


def digit_probabilities(reading: CellReading) -> np.ndarray:
    """(81, 10) probability that each cell is empty (column 0) or holds 1-9, in any ink."""
    probs = np.asarray(reading.probs, dtype=np.float64)
    out = np.empty((81, 10), dtype=np.float64)
    out[:, 0] = probs[:, 0]
    out[:, 1:] = probs[:, 1:10] + probs[:, 10:19]
    return out / np.maximum(out.sum(axis=1, keepdims=True), 1e-30)


def read_givens(reading: CellReading) -> Values:
    """The printed digits of a reading, 0 elsewhere."""
    printed = reading.kinds == Kind.PRINTED
    return tuple(int(d) if p else 0 for d, p in zip(reading.digits, printed, strict=True))


def repair_givens(
    reading: CellReading,
    config: RepairConfig = DEFAULT_REPAIR_CONFIG,
    givens: Sequence[int] | None = None,
) -> RepairOutcome:
    """Solve the givens of ``reading`` (or ``givens``), repairing the least sure cells if needed."""
    values = tuple(int(v) for v in givens) if givens is not None else read_givens(reading)
    _check_values(values)
    problems = find_problems(values)
    solutions = [] if problems else find_solutions(values, SHAPE, limit=2)
    calls = 0 if problems else 1
    if len(solutions) == 1:
        return RepairOutcome(values, (), tuple(solutions[0]), "solved", (), calls)
    if not problems:
        problems = describe_no_unique(values, solutions)
        promoted = promote_pen_cells(values, reading, config)
        if promoted is not None:
            repaired, repairs, solution, more = promoted
            return RepairOutcome(repaired, repairs, solution, "solved", problems, calls + more)
    found, more_calls = search_repairs(values, reading, problems, config)
    if found is not None:
        repaired, repairs, solution = found
        return RepairOutcome(repaired, repairs, solution, "solved", problems, calls + more_calls)
    return RepairOutcome(values, (), None, status_of(problems), problems, calls + more_calls)


def promote_pen_cells(
    values: Values, reading: CellReading, config: RepairConfig
) -> tuple[Values, tuple[Repair, ...], Values, int] | None:
    """Givens with too few digits: take pen-read cells as printed until one solution remains.

    Printed digits of an unusual typeface are sometimes read as handwriting, which leaves
    the givens short. The cells read as handwritten are added as givens one at a time, most
    print-like first (those that would break the rules are skipped), up to
    ``max_promotions``; the first grid with exactly one solution wins.
    """
    probs = np.asarray(reading.probs, dtype=np.float64)
    pen = [int(c) for c in np.flatnonzero(np.asarray(reading.kinds) == Kind.HANDWRITTEN)]
    digit = {c: int(reading.digits[c]) for c in pen}
    pen.sort(key=lambda c: probs[c, digit[c] + 9] - probs[c, digit[c]])
    trial, added, calls = list(values), [], 0
    for cell in pen[: config.max_promotions]:
        trial[cell] = digit[cell]
        if any(_unit_has_duplicate(trial, SHAPE.units[u]) for u in SHAPE.units_of[cell]):
            trial[cell] = 0
            continue
        added.append(cell)
        calls += 1
        solutions = find_solutions(trial, SHAPE, limit=2)
        if not solutions:
            return None
        if len(solutions) == 1:
            q = digit_probabilities(reading)
            repairs = tuple(
                Repair(c, 0, digit[c], float(q[c, digit[c]]), float(q[c, digit[c]]), True)
                for c in sorted(added)
            )
            return tuple(trial), repairs, tuple(solutions[0]), calls
    return None


def solve_givens(values: Sequence[int]) -> RepairOutcome:
    """Solve ``values`` as they are (no repair): the outcome names the problem if any."""
    vals = tuple(int(v) for v in values)
    _check_values(vals)
    problems = find_problems(vals)
    solutions = [] if problems else find_solutions(vals, SHAPE, limit=2)
    if len(solutions) == 1:
        return RepairOutcome(vals, (), tuple(solutions[0]), "solved", (), 1)
    problems = problems or describe_no_unique(vals, solutions)
    return RepairOutcome(vals, (), None, status_of(problems), problems, int(not problems))


def search_repairs(
    values: Values, reading: CellReading, problems: tuple[Problem, ...], config: RepairConfig
) -> tuple[tuple[Values, tuple[Repair, ...], Values] | None, int]:
    """Best-first over alternative readings: the most probable change with one solution.

    Returns (repaired givens, the repairs, the solution) or None, and the solver calls made.
    """
    suspects = {c for p in problems if p.kind in ("duplicate", "dead_cell") for c in p.cells}
    moves = candidate_moves(reading, values, suspects, config)
    costs = [m.cost for m in moves]
    broken = {u for u, unit in enumerate(SHAPE.units) if _unit_has_duplicate(values, unit)}
    calls = 0
    for n, (cost, chosen) in enumerate(subsets_by_cost(costs, config.max_changes)):
        if n >= config.max_candidates or cost > config.max_log_loss:
            break
        picked = [moves[i] for i in chosen]
        if len({m.cell for m in picked}) < len(picked):
            continue
        trial = list(values)
        for move in picked:
            trial[move.cell] = move.new
        touched = broken.union(*(SHAPE.units_of[m.cell] for m in picked))
        if any(_unit_has_duplicate(trial, SHAPE.units[u]) for u in touched):
            continue
        if calls >= config.max_solver_calls:
            break
        calls += 1
        solutions = find_solutions(trial, SHAPE, limit=2)
        if len(solutions) == 1:
            repairs = tuple(
                _repair(reading, values, m) for m in sorted(picked, key=lambda m: m.cell)
            )
            return (tuple(trial), repairs, tuple(solutions[0])), calls
    return None, calls


def _repair(reading: CellReading, values: Values, move: Move) -> Repair:
    """The Repair record of one move."""
    q = digit_probabilities(reading)[move.cell]
    old, new = values[move.cell], move.new
    if move.kind_changed:
        digit = old or new
        return Repair(move.cell, old, new, float(q[digit]), float(q[digit]), True)
    return Repair(move.cell, old, new, float(q[old]), float(q[new]))


def candidate_moves(
    reading: CellReading, values: Values, suspects: set[int], config: RepairConfig
) -> list[Move]:
    """The alternatives worth trying, cheapest first: other digits, and printed↔pen swaps.

    Every change costs ``change_log_loss`` (misreads are rare) plus the log-probability it
    gives up: for another digit, from the digit probabilities (any ink); for the other
    kind of ink, the cell's printed-vs-handwritten log-odds against the change, scaled by
    ``kind_evidence_weight`` (the classifier tells digits apart better than inks).
    """
    q = np.log(np.maximum(digit_probabilities(reading), config.probability_floor))
    probs = np.maximum(np.asarray(reading.probs, dtype=np.float64), config.probability_floor)
    pen_mode = bool(np.any(reading.kinds == Kind.HANDWRITTEN))
    per_cell: dict[int, list[Move]] = {}
    for cell in range(81):
        digit, kind = int(reading.digits[cell]), int(reading.kinds[cell])
        base = config.change_log_loss
        moves = [
            Move(base + max(0.0, float(q[cell, values[cell]] - q[cell, v])), cell, v, False)
            for v in range(10)
            if v != values[cell] and kind != Kind.HANDWRITTEN
        ]
        if kind != Kind.EMPTY and (pen_mode or kind == Kind.HANDWRITTEN):
            odds = float(np.log(probs[cell, digit] / probs[cell, digit + 9]))
            against = max(0.0, odds if kind == Kind.PRINTED else -odds)
            cost = base + config.kind_evidence_weight * against
            moves.append(Move(cost, cell, 0 if kind == Kind.PRINTED else digit, True))
        per_cell[cell] = sorted(moves)[: config.max_alternatives]
    ranked = sorted(
        (c for c in per_cell if per_cell[c]), key=lambda c: (c not in suspects, per_cell[c][0].cost)
    )
    return sorted(m for c in ranked[: config.max_cells] for m in per_cell[c])


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


def has_duplicate(values: Sequence[int]) -> bool:
    """True when a value appears twice in a row, column or box."""
    return any(_unit_has_duplicate(values, unit) for unit in SHAPE.units)


def _unit_has_duplicate(values: Sequence[int], unit: Sequence[int]) -> bool:
    """True when a value appears twice among the cells of ``unit``."""
    held = [values[c] for c in unit if values[c]]
    return len(held) != len(set(held))


def find_problems(values: Values) -> tuple[Problem, ...]:
    """Cells that break the rules: duplicates ('r1c3 and r1c7 both read as 5') and dead cells."""
    grid = Grid.from_values(values, 9)
    duplicates = tuple(
        Problem(
            "duplicate",
            k.cells,
            f"{cell_name(k.cells[0])} and {cell_name(k.cells[1])} both read as {k.value}",
        )
        for k in find_conflicts(grid)
    )
    if duplicates:
        return duplicates
    return tuple(Problem("dead_cell", k.cells, k.text) for k in find_dead_cells(grid))


def describe_no_unique(values: Values, solutions: Sequence[Sequence[int]]) -> tuple[Problem, ...]:
    """Why a rule-abiding set of givens has no single solution, naming cells where it can."""
    count = sum(1 for v in values if v)
    if not solutions:
        text = f"the {count} digits read break no rule, but no grid completes them"
        return (Problem("no_solution", (), text),)
    differ = tuple(c for c in range(81) if solutions[0][c] != solutions[1][c])
    names = ", ".join(cell_name(c) for c in differ[:6]) + (" …" if len(differ) > 6 else "")
    text = f"the {count} digits read allow more than one solution (they differ at {names})"
    return (Problem("multiple_solutions", differ, text),)


def status_of(problems: tuple[Problem, ...]) -> str:
    """The status word for givens with these problems: invalid, unsolvable, multiple_solutions."""
    kinds = {p.kind for p in problems}
    if "duplicate" in kinds:
        return "invalid"
    if "multiple_solutions" in kinds:
        return "multiple_solutions"
    return "unsolvable"


def _check_values(values: Values) -> None:
    """Raise ValueError unless ``values`` are 81 digits 0-9."""
    if len(values) != 81 or any(not 0 <= v <= 9 for v in values):
        raise ValueError(f"givens must be 81 values 0-9, got {len(values)} values")


def _digit_word(value: int) -> str:
    """'5' for a digit, 'empty' for 0."""
    return str(value) if value else "empty"
