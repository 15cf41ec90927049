"""The engine's stronger steps (box-line reductions, naked and hidden pairs) lose nothing."""

from __future__ import annotations

import dataclasses
import random

import pytest

from sudokucam.solver import Grid, engine, is_solution, shape_for_size
from sudokucam.solver.sample import random_puzzle, random_solution

LIMIT = 40


def all_solutions(values: list[int], tables: engine.Tables) -> set[tuple[int, ...]]:
    """Up to LIMIT solutions found with the given tables, each checked by the oracle."""
    shape = shape_for_size(tables.size)
    state = engine.initial_state(values, tables)
    assert state is not None
    found: list[engine.State] = []
    engine.search(state, tables, found, LIMIT)
    solutions = [Grid(shape, tuple(engine.decode(s, tables))) for s in found]
    assert all(is_solution(s, Grid(shape, tuple(values))) for s in solutions)
    return {s.values for s in solutions}


@pytest.mark.parametrize("size", [6, 9, 12, 16])
def test_pairs_and_box_lines_keep_every_solution(size: int) -> None:
    """Puzzles with several solutions: singles alone and every step find the same ones."""
    rng = random.Random(100 + size)
    shape = shape_for_size(size)
    plain = dataclasses.replace(engine.tables_for(shape), locked=False, pairs=False)
    strong = dataclasses.replace(plain, locked=True, pairs=True)
    for _ in range(6):
        values = list(random_solution(shape, rng).values)
        for cell in rng.sample(range(size * size), int(0.6 * size * size)):
            values[cell] = 0
        weak, full = all_solutions(values, plain), all_solutions(values, strong)
        if len(weak) < LIMIT and len(full) < LIMIT:
            assert weak == full
        else:
            assert len(weak) == len(full) == LIMIT


@pytest.mark.parametrize("size", [16, 25])
def test_big_unique_puzzle_solved_with_every_step(size: int) -> None:
    """A clue-rich unique puzzle of a big size: exactly one solution, and the right one."""
    shape = shape_for_size(size)
    tables = engine.tables_for(shape)
    assert tables.locked and tables.pairs
    puzzle = random_puzzle(shape, random.Random(size), {16: 0.45, 25: 0.55}[size])
    found = engine.find_solutions(list(puzzle.values), shape, limit=2)
    assert len(found) == 1
    assert is_solution(Grid(shape, tuple(found[0])), puzzle)
