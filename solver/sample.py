"""Random solved grids and unique puzzles of every size, for tests and benchmarks (seeded)."""

from __future__ import annotations

import random

from .engine import find_solutions
from .geometry import Shape
from .grid import Grid


def random_solution(shape: Shape, rng: random.Random) -> Grid:
    """A random valid full grid: a pattern grid with values, rows and columns shuffled."""
    br, bc, n = shape.box_rows, shape.box_cols, shape.size
    rows = _shuffled_lines(n, br, rng)
    cols = _shuffled_lines(n, bc, rng)
    symbols = list(range(1, n + 1))
    rng.shuffle(symbols)
    values = [symbols[(bc * (r % br) + r // br + c) % n] for r in rows for c in cols]
    return Grid(shape, tuple(values))


def _shuffled_lines(n: int, group: int, rng: random.Random) -> list[int]:
    """Line indices with the groups (bands or stacks) shuffled and lines shuffled inside each."""
    groups = [list(range(g, g + group)) for g in range(0, n, group)]
    rng.shuffle(groups)
    for g in groups:
        rng.shuffle(g)
    return [i for g in groups for i in g]


def random_puzzle(shape: Shape, rng: random.Random, clue_fraction: float = 0.0) -> Grid:
    """A puzzle with exactly one solution: clues removed in random order while it stays unique.

    Removal stops once the clues are down to clue_fraction of the cells (0.0 = minimal).
    """
    if not 0.0 <= clue_fraction <= 1.0:
        raise ValueError(f"clue_fraction must lie in [0, 1]; got {clue_fraction}")
    values = list(random_solution(shape, rng).values)
    target = round(clue_fraction * shape.ncells)
    clues = shape.ncells
    order = list(range(shape.ncells))
    rng.shuffle(order)
    for cell in order:
        if clues <= target:
            break
        kept = values[cell]
        values[cell] = 0
        if len(find_solutions(values, shape, limit=2)) == 1:
            clues -= 1
        else:
            values[cell] = kept
    return Grid(shape, tuple(values))
