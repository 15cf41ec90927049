"""Hints for variant puzzles (Killer, X, jigsaw), explained as a person solves them.

The steps, easiest first: a naked single, a hidden single (in any row, column, box,
region or diagonal), a cage's combinations (the sets of different values that make its
sum, kept where each cell can still take part), and the 45 rule (the innies or outies
of a house add up to a known sum; one such cell is placed at once). Candidates start as
every value no peer (unit or cage) holds, and each step's eliminations carry on to the
next (`variant_steps`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod

from ..geometry import Cell, cell_name
from ..grid import value_word
from ..outcome import Outcome
from ..rule45 import HouseSum, house_sums
from ..variant import VariantPuzzle, cage_combinations

STUCK = "Solution"  # a hint's technique when singles, cages and the 45 rule find nothing
MAX_CHOICES = 1_000_000  # a 45-rule group with more choices is cut by its bounds alone
Candidates = list[set[int]]  # by cell: the values still possible (empty for a filled cell)


@dataclass(frozen=True)
class VariantStep:
    """One deduction on a variant puzzle: values placed, candidates struck, and why."""

    technique: str
    placements: tuple[tuple[Cell, int], ...]
    eliminations: tuple[tuple[Cell, int], ...]
    cells: tuple[Cell, ...]
    explanation: str

    def to_dict(self, size: int) -> dict[str, object]:
        """Plain data for JSON output, cells named r1c1-style."""
        return {
            "technique": self.technique,
            "placements": [{"cell": cell_name(c, size), "value": v} for c, v in self.placements],
            "eliminations": [
                {"cell": cell_name(c, size), "value": v} for c, v in self.eliminations
            ],
            "cells": [cell_name(c, size) for c in self.cells],
            "explanation": self.explanation,
        }

    def __str__(self) -> str:
        return f"{self.technique}: {self.explanation}"


@dataclass(frozen=True)
class Board:
    """What the finders look at: the puzzle, its values so far, and the peers of each cell."""

    puzzle: VariantPuzzle
    values: list[int]
    cands: Candidates
    peers: tuple[frozenset[Cell], ...]
    groups: tuple[HouseSum, ...]  # the 45 rule's sums
    said: Sequence[str] | None = ()  # how values are named: () the puzzle's symbols, None numbers


def board_for(
    puzzle: VariantPuzzle, values: tuple[int, ...] | None = None, said: Sequence[str] | None = ()
) -> Board:
    """The board of a puzzle (givens, or givens with entries) with candidates from peers.

    said: how its steps name values (``value_word``): () in the puzzle's symbols, None as
    numbers (a board that shows 10-16 as numbers)."""
    n = puzzle.size
    vals = list(values if values is not None else puzzle.givens)
    peers: list[set[Cell]] = [set() for _ in range(n * n)]
    for group in (*puzzle.units, *(k.cells for k in puzzle.cages)):
        for c in group:
            peers[c].update(group)
    frozen = tuple(frozenset(p - {c}) for c, p in enumerate(peers))
    cands = [
        set() if vals[c] else set(range(1, n + 1)) - {vals[p] for p in frozen[c]}
        for c in range(n * n)
    ]
    groups = house_sums(n, puzzle.units, puzzle.cages, bool(puzzle.regions)) if puzzle.cages else ()
    return Board(puzzle, vals, cands, frozen, groups, said)


def _name(b: Board, c: Cell) -> str:
    """r1c1-style name of a cell of the board."""
    return cell_name(c, b.puzzle.size)


def _word(b: Board, value: int) -> str:
    """A value as the board's puzzle prints it (its symbols; numbers where ``b.said`` is None)."""
    return value_word(value, b.puzzle.symbols if b.said == () else b.said)


def naked_single(b: Board) -> VariantStep | None:
    """A cell with one candidate left."""
    for c, cs in enumerate(b.cands):
        if len(cs) == 1:
            v = next(iter(cs))
            held = "its units and cage hold" if b.puzzle.cages else "its units hold"
            why = f"{_name(b, c)} can only be {_word(b, v)}: {held} every other value"
            return VariantStep("Naked single", ((c, v),), (), (c,), why)
    return None


def hidden_single(b: Board) -> VariantStep | None:
    """A value with one place left in a unit."""
    for u, unit in enumerate(b.puzzle.units):
        held = {b.values[c] for c in unit}
        for v in range(1, b.puzzle.size + 1):
            places = [c for c in unit if v in b.cands[c]]
            if v not in held and len(places) == 1:
                c = places[0]
                why = f"{_word(b, v)} fits only {_name(b, c)} in {b.puzzle.unit_name(u)}"
                return VariantStep("Hidden single", ((c, v),), (), tuple(unit), why)
    return None


def _combos_left(b: Board, cells: tuple[Cell, ...], total: int) -> list[frozenset[int]]:
    """The sets of different values making `total` that the cells can still hold."""
    fixed = {b.values[c] for c in cells} - {0}
    found = []
    for combo in cage_combinations(total, len(cells), b.puzzle.size):
        if not fixed <= combo:
            continue
        open_cells = [c for c in cells if not b.values[c]]
        need = combo - fixed
        if all(b.cands[c] & need for c in open_cells) and need <= set().union(
            *(b.cands[c] for c in open_cells)
        ):
            found.append(combo)
    return found


def _cut_to(b: Board, cells: tuple[Cell, ...], allowed: set[int]) -> tuple[tuple[Cell, int], ...]:
    """The candidates of these open cells outside `allowed`."""
    return tuple((c, v) for c in cells for v in sorted(b.cands[c] - allowed) if not b.values[c])


def _written(combos: list[frozenset[int]]) -> str:
    """'1 and 2' for one set; '1+5+9 or 2+4+9' for several."""
    if len(combos) == 1:
        vals = sorted(combos[0])
        return (
            ", ".join(map(str, vals[:-1])) + f" and {vals[-1]}" if len(vals) > 1 else str(vals[0])
        )
    return " or ".join("+".join(map(str, sorted(k))) for k in combos)


def cage_combination(b: Board) -> VariantStep | None:
    """A cage whose sets of values rule out some of its cells' candidates."""
    n = b.puzzle.size
    for cage in b.puzzle.cages:
        if len(cage.cells) == 1 and not b.values[cage.cells[0]]:
            c = cage.cells[0]
            why = f"{cage.name(n)} holds its sum: {_name(b, c)} is {cage.total}"
            return VariantStep("Cage combination", ((c, cage.total),), (), cage.cells, why)
        combos = _combos_left(b, cage.cells, cage.total)
        gone = _cut_to(b, cage.cells, set().union(*combos))
        if gone and combos:
            struck = ", ".join(f"{_name(b, c)}≠{_word(b, v)}" for c, v in gone[:6])
            more = f" and {len(gone) - 6} more" if len(gone) > 6 else ""
            why = f"{cage.name(n)} can only hold {_written(combos)}, so {struck}{more}"
            return VariantStep("Cage combination", (), gone, cage.cells, why)
    return None


def rule_45(b: Board) -> VariantStep | None:
    """The 45 rule: a lone innie or outie placed, or a group's sum cutting candidates."""
    for group in b.groups:
        open_cells = tuple(c for c in group.cells if not b.values[c])
        left = group.total - sum(b.values[c] for c in group.cells)
        if len(open_cells) == 1 and left in b.cands[open_cells[0]]:
            c = open_cells[0]
            why = group.describe(b.puzzle.size)
            if group.cells != (c,):  # one cell alone: the rule already says its value
                why += f", so {_name(b, c)} is {left}"
            return VariantStep("45 rule", ((c, left),), (), group.cells, why)
        if not open_cells:
            continue
        allowed = _sum_allows(b, open_cells, left)
        gone = tuple((c, v) for c in open_cells for v in sorted(b.cands[c] - allowed[c]))
        if gone:
            struck = ", ".join(f"{_name(b, c)}≠{_word(b, v)}" for c, v in gone[:6])
            more = f" and {len(gone) - 6} more" if len(gone) > 6 else ""
            why = f"{group.describe(b.puzzle.size)}, so {struck}{more}"
            return VariantStep("45 rule", (), gone, group.cells, why)
    return None


def _sum_allows(b: Board, cells: tuple[Cell, ...], total: int) -> dict[Cell, set[int]]:
    """The candidates of each cell that some choice for the others (peers different)
    completes to `total`; past MAX_CHOICES choices, the bounds alone."""
    if prod(len(b.cands[c]) for c in cells) > MAX_CHOICES:
        return _bounds_allow(b, cells, total)
    order = sorted(cells, key=lambda c: len(b.cands[c]))
    least = [sum(min(b.cands[c], default=0) for c in order[i:]) for i in range(len(order) + 1)]
    most = [sum(max(b.cands[c], default=0) for c in order[i:]) for i in range(len(order) + 1)]
    allowed: dict[Cell, set[int]] = {c: set() for c in cells}
    chosen: list[tuple[Cell, int]] = []

    def walk(i: int, left: int) -> None:
        if i == len(order):
            for c, v in chosen:
                allowed[c].add(v)
            return
        c = order[i]
        for v in b.cands[c]:
            if not least[i + 1] <= left - v <= most[i + 1]:
                continue
            if any(w == v and d in b.peers[c] for d, w in chosen):
                continue
            chosen.append((c, v))
            walk(i + 1, left - v)
            chosen.pop()

    walk(0, total)
    return allowed


def _bounds_allow(b: Board, cells: tuple[Cell, ...], total: int) -> dict[Cell, set[int]]:
    """The candidates of each cell within what the others' least and most leave."""
    least = sum(min(b.cands[c], default=0) for c in cells)
    most = sum(max(b.cands[c], default=0) for c in cells)
    return {
        c: {
            v
            for v in b.cands[c]
            if total - (most - max(b.cands[c])) >= v >= total - (least - min(b.cands[c]))
        }
        for c in cells
    }


FINDERS: tuple[Callable[[Board], VariantStep | None], ...] = (
    naked_single,
    hidden_single,
    cage_combination,
    rule_45,
)


def next_variant_step(b: Board) -> VariantStep | None:
    """The easiest step on the board, or None when these techniques find nothing."""
    for finder in FINDERS:
        step = finder(b)
        if step is not None:
            return step
    return None


def apply(b: Board, step: VariantStep) -> None:
    """Write a step's placements and strike its eliminations, in place."""
    for c, v in step.eliminations:
        b.cands[c].discard(v)
    for c, v in step.placements:
        b.values[c] = v
        b.cands[c] = set()
        for p in b.peers[c]:
            b.cands[p].discard(v)


def variant_steps(
    puzzle: VariantPuzzle,
    values: tuple[int, ...] | None = None,
    limit: int = 10_000,
    said: Sequence[str] | None = (),
) -> tuple[list[VariantStep], bool]:
    """Steps from the givens (or givens with entries) until solved or stuck, and whether
    the grid was completed (``said``: as ``board_for``'s)."""
    b = board_for(puzzle, values, said)
    steps: list[VariantStep] = []
    while 0 in b.values and len(steps) < limit:
        step = next_variant_step(b)
        if step is None:
            break
        steps.append(step)
        apply(b, step)
    return steps, 0 not in b.values


@dataclass(frozen=True)
class VariantHint:
    """The next step for a variant grid, or the entries to correct first.

    status: STEP (a step), WRONG_ENTRIES (entries disagree with the solution) or SOLVED.
    message: one line on it (the step's words for STEP). step: the deduction (None
    unless STEP). wrong: the wrong entries.
    """

    status: Outcome
    message: str
    step: VariantStep | None = None
    wrong: tuple[Cell, ...] = ()


def variant_hint(
    puzzle: VariantPuzzle,
    entries: tuple[int, ...],
    solution: tuple[int, ...],
    said: Sequence[str] | None = (),
) -> VariantHint:
    """The easiest step a person can take from the givens and entries (0 empty), given
    the puzzle's solution (a value of it when singles, cage combinations and the 45 rule
    find nothing). ``said``: how values are named (``board_for``)."""
    values = tuple(g or e for g, e in zip(puzzle.givens, entries, strict=True))
    wrong = tuple(c for c, v in enumerate(values) if v and v != solution[c])
    if wrong:
        names = ", ".join(puzzle.cell_name(c) for c in wrong)
        return VariantHint(Outcome.WRONG_ENTRIES, f"wrong entries at {names}", wrong=wrong)
    if 0 not in values:
        return VariantHint(Outcome.SOLVED, "the grid is complete and correct")
    steps, _ = variant_steps(puzzle, values, 1, said)
    step = steps[0] if steps else stuck_step(puzzle, values, solution, said=said)
    return VariantHint(Outcome.STEP, str(step), step)


def stuck_step(
    puzzle: VariantPuzzle,
    values: tuple[int, ...],
    solution: tuple[int, ...],
    placed: frozenset[Cell] = frozenset(),
    said: Sequence[str] | None = (),
) -> VariantStep:
    """A step saying the techniques find nothing more, giving one value of the solution
    (in the first empty cell not in ``placed``; ``said``: as ``board_for``'s)."""
    c = next(c for c, v in enumerate(values) if not v and c not in placed)
    why = (
        "singles, cage combinations and the 45 rule find nothing more here; "
        f"the solution has {puzzle.cell_name(c)} = "
        f"{value_word(solution[c], puzzle.symbols if said == () else said)}"
    )
    return VariantStep(STUCK, ((c, solution[c]),), (), (c,), why)
