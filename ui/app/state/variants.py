"""Variant puzzles in the app: Sudoku X, jigsaw and Killer games, clashes and hints.

Pure functions of the solver's `VariantPuzzle` (no Streamlit), so that the searches among
them (`new_variant`, `solve_typed`; hints: `solver.logic.variant_hint`) run in the
server's search pool as module-level jobs. The board shows 9×9 puzzles; other sizes are
refused with a message that names the command line instead.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field, replace
from enum import StrEnum

from ....solver import SolveResult
from ....solver.grid import SYMBOLS
from ....solver.variant import Variant, VariantError, VariantPuzzle
from ....solver.variant_json import puzzle_from_json, puzzle_to_json
from ....solver.variant_sample import (
    VariantConfig,
    random_jigsaw,
    random_killer,
    random_variant,
)
from ....solver.variant_solve import solve_variant

SIZE = 9


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
    making: the time limit, jigsaw layouts tried and seconds per layout of the solver's
    maker (``solver/variant_sample.py``).
    """

    givens: dict[str, int] = field(
        default_factory=lambda: {"Many (32)": 32, "Fewer (26)": 26, "Fewest": 0}
    )
    making: VariantConfig = field(default_factory=VariantConfig)


VARIANT_GAMES = VariantGameConfig()


def new_variant(kind: str, min_givens: int, seed: int) -> tuple[VariantPuzzle, tuple[int, ...]]:
    """A new 9×9 puzzle of the kind with exactly one solution, and that solution (seeded);
    GenerationTimeoutError when none was made in time."""
    rng = random.Random(seed)
    making = VARIANT_GAMES.making
    if kind == Kind.KILLER:
        return random_killer(rng, SIZE)
    if kind == Kind.JIGSAW:
        return random_jigsaw(rng, SIZE, min_givens, making)
    made = None
    if kind == Kind.X:
        made = random_variant(rng, SIZE, Variant.X, diagonals=True, min_clues=min_givens,
                              config=making)  # fmt: skip
    if made is None:
        raise ValueError(f"no {kind} puzzle was found; press New puzzle again")
    return made


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
