"""Variant puzzles in the app: Sudoku X, jigsaw and Killer games, clashes and hints.

Pure functions of the solver's `VariantPuzzle` (no Streamlit), so that the searches among
them (`new_variant`, `solve_typed`; hints: `solver.logic.variant_hint`) run in the
server's search pool as module-level jobs. The board shows 4×4, 6×6, 8×8, 9×9, 12×12
and 16×16 puzzles (``SIZES``); a classic puzzle of another size than 9×9 is a classic
`VariantPuzzle` of its size (the solver's boxes), whose clashes and hints follow the
same rules as a variant's.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from ....solver import SolveResult
from ....solver.geometry import BOX_SHAPES
from ....solver.grid import SYMBOLS
from ....solver.variant import Variant, VariantError, VariantPuzzle
from ....solver.variant_json import NotJsonError, load_puzzle_json, puzzle_to_json
from ....solver.variant_sample import (
    VariantConfig,
    random_jigsaw,
    random_killer,
    random_variant,
)
from ....solver.variant_solve import solve_variant

SIZE = 9
SIZES = (4, 6, 8, 9, 12, 16)  # the sizes the board draws (its boxes: the solver's BOX_SHAPES)


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
    given_shares: the same choices for a classic game of another size than 9×9, as the
        share of its cells that stay given (0: as few as keep one answer).
    no_fewest: sizes offered without "Fewest": cutting a 16×16 down as far as it keeps one
        answer took 5-31 s (measured), past the maker's 20 s limit; "Many" and "Fewer"
        took 1-8 s.
    making: the time limit, jigsaw layouts tried and seconds per layout of the solver's
    maker (``solver/variant_sample.py``).
    """

    givens: dict[str, int] = field(
        default_factory=lambda: {"Many (32)": 32, "Fewer (26)": 26, "Fewest": 0}
    )
    given_shares: tuple[tuple[str, float], ...] = (("Many", 0.5), ("Fewer", 0.4), ("Fewest", 0.0))
    no_fewest: tuple[int, ...] = (16,)
    making: VariantConfig = field(default_factory=VariantConfig)

    def givens_for(self, size: int) -> dict[str, int]:
        """The choices of how many givens stay in a new game of ``size`` cells a side."""
        if size == SIZE:
            return dict(self.givens)
        cells = size * size
        return {
            (f"{name} ({round(share * cells)})" if share else name): round(share * cells)
            for name, share in self.given_shares
            if share or size not in self.no_fewest
        }


VARIANT_GAMES = VariantGameConfig()


def new_variant(
    kind: str, min_givens: int, seed: int, size: int = SIZE
) -> tuple[VariantPuzzle, tuple[int, ...]]:
    """A new puzzle of the kind with exactly one solution, and that solution (seeded);
    GenerationTimeoutError when none was made in time. ``size``: cells a side; a size
    other than 9 makes a classic puzzle with the solver's boxes (``new_classic``)."""
    if size != SIZE:
        return new_classic(size, min_givens, seed)
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


def new_classic(size: int, min_givens: int, seed: int) -> tuple[VariantPuzzle, tuple[int, ...]]:
    """A new classic puzzle of ``size`` cells a side (its boxes the solver's), cut down
    from a full grid to ``min_givens`` givens while it keeps one answer (seeded), and its
    answer; GenerationTimeoutError past the maker's time limit."""
    if size not in SIZES:
        raise ValueError(f"size must be one of {SIZES}; got {size}")
    rng = random.Random(seed)
    made = random_variant(rng, size, Variant.CLASSIC, min_clues=min_givens,
                          config=VARIANT_GAMES.making)  # fmt: skip
    if made is None:  # an empty classic grid always has an answer
        raise ValueError(f"no {size}×{size} puzzle was found; press New puzzle again")
    return made


def classic_of(size: int, givens: tuple[int, ...] | None = None) -> VariantPuzzle:
    """A classic puzzle of ``size`` cells a side with these givens (None: empty)."""
    return VariantPuzzle(size, givens or (0,) * size * size, Variant.CLASSIC)


def box_words(size: int) -> str:
    """How a grid of ``size`` cells a side is boxed, in words: "boxes of 2 rows × 3 columns"."""
    rows, cols = BOX_SHAPES[size]
    return f"boxes of {rows} rows × {cols} columns"


def parse_variant_json(text: str) -> VariantPuzzle:
    """The puzzle a JSON text describes, of a size the board draws (``SIZES``);
    VariantError names what is wrong."""
    try:
        puzzle = load_puzzle_json(text)
    except NotJsonError as exc:
        raise VariantError(f"that is {exc}") from None
    if puzzle.size not in SIZES:
        shown = ", ".join(f"{n}×{n}" for n in SIZES)
        raise VariantError(
            f"this is a {puzzle.size}×{puzzle.size} puzzle and the board shows {shown} ones; "
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


def solve_typed(
    puzzle: VariantPuzzle, time_limit_s: float, said: Sequence[str] | None = ()
) -> SolveResult:
    """Solve a typed variant puzzle, proving its answer unique (TIMEOUT past the limit).
    ``said``: how its messages name values (() its symbols; None numbers, as the board
    shows a 16×16's 10-16)."""
    numbers = [str(v) for v in range(1, puzzle.size + 1)]
    return solve_variant(puzzle, time_limit_s, puzzle.symbols if said == () else said or numbers)


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
    span = f"1-{puzzle.size}"
    if puzzle.size != SIZE and not puzzle.regions:
        parts.append(f"each row, column and box ({box_words(puzzle.size)}) holds {span} once")
    if puzzle.regions:
        parts.append(f"thick lines mark the regions, each holding {span} once")
    if puzzle.diagonals:
        parts.append(f"the shaded diagonals each hold {span} once")
    if puzzle.cages:
        parts.append(
            "each dashed cage holds different digits adding up to the small sum in its corner"
        )
    return ("; ".join(parts)[:1].upper() + "; ".join(parts)[1:] + ".") if parts else ""
