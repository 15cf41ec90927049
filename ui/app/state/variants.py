"""Variant puzzles in the app: Sudoku X, jigsaw and Killer games, clashes and hints.

Pure functions of the solver's `VariantPuzzle` (no Streamlit), so that the searches among
them (`new_variant`, `variant_hint`, `solve_typed`) run in the server's search pool as
module-level jobs. The board shows 9×9 puzzles; other sizes are refused with a message
that names the command line instead.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field, replace
from enum import StrEnum

from ....solver import Outcome, SearchTimeoutError, SolveResult
from ....solver.grid import SYMBOLS
from ....solver.logic.variant_hint import VariantStep, variant_steps
from ....solver.solve import deadline_after
from ....solver.variant import Variant, VariantError, VariantPuzzle
from ....solver.variant_json import puzzle_from_json, puzzle_to_json
from ....solver.variant_sample import random_killer, random_regions, random_variant
from ....solver.variant_search import find_variant_solutions, variant_tables
from ....solver.variant_solve import solve_variant

SIZE = 9
STUCK = "Solution"  # a hint's technique when singles, cages and the 45 rule find nothing


class Kind(StrEnum):
    """The kinds of puzzle a person can choose, as the pages name them."""

    CLASSIC = "Classic"
    X = "Sudoku X"
    JIGSAW = "Jigsaw"
    KILLER = "Killer"


KINDS = tuple(kind.value for kind in Kind)
VARIANT_OF = {Kind.CLASSIC: Variant.CLASSIC, Kind.X: Variant.X, Kind.JIGSAW: Variant.JIGSAW,
              Kind.KILLER: Variant.KILLER}  # fmt: skip
KIND_OF = {variant: kind for kind, variant in VARIANT_OF.items()}


@dataclass(frozen=True)
class VariantGameConfig:
    """How new variant games are made.

    givens: for Sudoku X and jigsaw, the choices of how many givens stay (a puzzle is
    cut down from a full grid while it keeps one answer, stopping at this many; 0: as
    few as keep one answer). A Killer has cages and no givens.
    jigsaw_layouts: random region layouts tried before giving up (a layout may have no
    solution at all).
    layout_seconds: how long a layout's first solution is searched for before the layout
    is thrown away (one without any solution can take minutes to prove so).
    """

    givens: dict[str, int] = field(
        default_factory=lambda: {"Many (32)": 32, "Fewer (26)": 26, "Fewest": 0}
    )
    jigsaw_layouts: int = 20
    layout_seconds: float = 1.0


VARIANT_GAMES = VariantGameConfig()


def new_variant(kind: str, min_givens: int, seed: int) -> tuple[VariantPuzzle, tuple[int, ...]]:
    """A new 9×9 puzzle of the kind with exactly one solution, and that solution (seeded)."""
    rng = random.Random(seed)
    if kind == Kind.KILLER:
        return random_killer(rng, SIZE)
    if kind == Kind.X:
        made = random_variant(rng, SIZE, Variant.X, diagonals=True, min_clues=min_givens)
        if made is not None:
            return made
    if kind == Kind.JIGSAW:
        for _ in range(VARIANT_GAMES.jigsaw_layouts):
            regions = random_regions(SIZE, rng)
            if not has_solution(regions, VARIANT_GAMES.layout_seconds):
                continue
            made = random_variant(rng, SIZE, Variant.JIGSAW, regions, min_clues=min_givens)
            if made is not None:
                return made
    raise ValueError(f"no {kind} puzzle was found; press New puzzle again")


def has_solution(regions: tuple[int, ...], seconds: float) -> bool:
    """Whether a jigsaw layout has a solution found within `seconds` (False past them)."""
    tables = variant_tables(SIZE, regions, False, ())
    try:
        return bool(find_variant_solutions((0,) * SIZE * SIZE, tables, 1, deadline_after(seconds)))
    except SearchTimeoutError:
        return False


def parse_variant_json(text: str) -> VariantPuzzle:
    """The 9×9 puzzle a JSON text describes; VariantError names what is wrong."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise VariantError(f"that is not JSON ({exc.msg} at {where})") from None
    puzzle = puzzle_from_json(doc)
    if puzzle.size != SIZE:
        raise VariantError(
            f"this is a {puzzle.size}×{puzzle.size} puzzle and the board shows 9×9 ones; "
            "solve it with `sudokucam grid FILE.json`"
        )
    return puzzle


def with_givens(puzzle: VariantPuzzle, givens: tuple[int, ...]) -> VariantPuzzle:
    """The puzzle with other givens (typed on the board); VariantError if they break a rule."""
    return replace(puzzle, givens=tuple(givens))


def puzzle_text(puzzle: VariantPuzzle) -> str:
    """The puzzle as the JSON contract writes it (one line), leaving out what is empty or
    the default (no givens, the symbols 1-9, no regions, no diagonals)."""
    doc = puzzle_to_json(puzzle)
    if not any(puzzle.givens):
        del doc["givens"]
    if puzzle.symbols == SYMBOLS[: puzzle.size]:
        del doc["symbols"]
    return json.dumps({k: v for k, v in doc.items() if v not in (None, [], False)})


def solve_typed(puzzle: VariantPuzzle, time_limit_s: float) -> SolveResult:
    """Solve a typed variant puzzle, proving its answer unique (TIMEOUT past the limit)."""
    return solve_variant(puzzle, time_limit_s)


def clashing_cells(puzzle: VariantPuzzle, values: tuple[int, ...]) -> frozenset[int]:
    """Cells that break a rule as written: a value twice in a row, column, box, region,
    diagonal or cage, or a full cage whose values do not add up to its sum."""
    clashes: set[int] = set()
    for group in (*puzzle.units, *(cage.cells for cage in puzzle.cages)):
        seen: dict[int, list[int]] = {}
        for c in group:
            if values[c]:
                seen.setdefault(values[c], []).append(c)
        clashes.update(c for cells in seen.values() if len(cells) > 1 for c in cells)
    for cage in puzzle.cages:
        held = [values[c] for c in cage.cells]
        if all(held) and sum(held) != cage.total:
            clashes.update(cage.cells)
    return frozenset(clashes)


@dataclass(frozen=True)
class VariantHint:
    """The next step for a variant board, or the entries to correct first.

    status: STEP (a step), WRONG_ENTRIES (entries disagree with the solution) or SOLVED.
    step: the deduction (None unless STEP). wrong: the wrong entries.
    """

    status: Outcome
    step: VariantStep | None = None
    wrong: tuple[int, ...] = ()


def variant_hint(
    puzzle: VariantPuzzle, entries: tuple[int, ...], solution: tuple[int, ...]
) -> VariantHint:
    """The easiest step a person can take from the givens and entries (a value of the
    solution when singles, cage combinations and the 45 rule find nothing)."""
    values = tuple(g or e for g, e in zip(puzzle.givens, entries, strict=True))
    wrong = tuple(c for c, v in enumerate(values) if v and v != solution[c])
    if wrong:
        return VariantHint(Outcome.WRONG_ENTRIES, wrong=wrong)
    if 0 not in values:
        return VariantHint(Outcome.SOLVED)
    steps, _ = variant_steps(puzzle, values, 1)
    if steps:
        return VariantHint(Outcome.STEP, steps[0])
    cell = values.index(0)
    why = (
        "singles, cage combinations and the 45 rule find nothing more here; "
        f"the solution has {puzzle.cell_name(cell)} = {solution[cell]}"
    )
    step = VariantStep(STUCK, ((cell, solution[cell]),), (), (cell,), why)
    return VariantHint(Outcome.STEP, step)


def layout_words(puzzle: VariantPuzzle) -> str:
    """One sentence saying what the board's extra lines mean."""
    parts = []
    if puzzle.regions:
        parts.append("thick lines mark the regions, each holding 1-9 once")
    if puzzle.diagonals:
        parts.append("the shaded diagonals each hold 1-9 once")
    if puzzle.cages:
        parts.append(
            "each dashed cage holds different digits adding up to the small sum in its corner"
        )
    return ("; ".join(parts)[:1].upper() + "; ".join(parts)[1:] + ".") if parts else ""
