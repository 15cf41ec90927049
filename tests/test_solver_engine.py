"""The engine's stronger steps (box-line reductions, pairs, probing) lose no solution."""

from __future__ import annotations

import dataclasses
import random

import pytest

from sudokucam.solver import Grid, bitboard, engine, is_solution, shape_for_size
from sudokucam.solver.clock import Clock
from sudokucam.solver.sample import random_puzzle, random_solution

LIMIT = 40
BLANK = {6: 0.6, 9: 0.62, 12: 0.52, 16: 0.45}  # share of cells emptied: several solutions


def all_solutions(values: list[int], tables: engine.Tables) -> set[tuple[int, ...]]:
    """Up to LIMIT solutions found with the given tables, each checked by the oracle."""
    shape = shape_for_size(tables.size)
    state = engine.initial_state(values, tables)
    assert state is not None
    found: list[engine.State] = []
    search = engine.search_probing if tables.probes else engine.search
    search(state, tables, found, LIMIT)
    solutions = [Grid(shape, tuple(engine.decode(s, tables))) for s in found]
    assert all(is_solution(s, Grid(shape, tuple(values))) for s in solutions)
    assert len({s.values for s in solutions}) == len(solutions)  # none found twice
    return {s.values for s in solutions}


@pytest.mark.parametrize("size", [6, 9, 12, 16])
def test_stronger_steps_keep_every_solution(size: int) -> None:
    """Puzzles with several solutions: singles alone and every step find the same ones."""
    rng = random.Random(100 + size)
    shape = shape_for_size(size)
    plain = dataclasses.replace(engine.tables_for(shape), locked=False, pairs=False, probes=0)
    strong = dataclasses.replace(plain, locked=True, pairs=True)
    probing = dataclasses.replace(strong, probes=4)
    compared = 0
    for _ in range(6):
        values = list(random_solution(shape, rng).values)
        for cell in rng.sample(range(size * size), int(BLANK[size] * size * size)):
            values[cell] = 0
        results = [all_solutions(values, tables) for tables in (plain, strong, probing)]
        if all(len(r) < LIMIT for r in results):
            assert results[0] == results[1] == results[2]
            compared += 1
        else:
            assert all(len(r) == LIMIT for r in results)
    assert compared >= 2  # the check above really compared whole solution sets


@pytest.mark.parametrize("size", [16, pytest.param(25, marks=pytest.mark.slow)])
def test_big_unique_puzzle_solved_with_every_step(size: int) -> None:
    """A clue-rich unique puzzle of a big size: exactly one solution, and the right one."""
    shape = shape_for_size(size)
    tables = engine.tables_for(shape)
    assert tables.locked and tables.pairs and tables.probes
    puzzle = random_puzzle(shape, random.Random(size), {16: 0.45, 25: 0.55}[size])
    found = engine.find_solutions(list(puzzle.values), shape, limit=2)
    assert len(found) == 1
    assert is_solution(Grid(shape, tuple(found[0])), puzzle)


IMPOSSIBLE = ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4........."


def test_norvig_impossible_puzzle_is_refuted() -> None:
    """No solution: the bitboard search spends its budget, the stronger steps refute it."""
    values = list(Grid.parse(IMPOSSIBLE).values)
    tables = bitboard.board_tables(
        shape_for_size(9), engine.DEFAULT_ENGINE_CONFIG.bitboard_branch_ties
    )
    with pytest.raises(bitboard.BudgetSpentError):
        bitboard.search(bitboard.initial_board(values, tables), tables, [], 2, Clock(), [50])
    assert engine.find_solutions(values, limit=2) == []


@pytest.mark.parametrize("size", [4, 6, 8, 9, 12])
def test_bitboard_search_agrees_with_the_engine(size: int) -> None:
    """Puzzles with several solutions: the bitboard search finds the same ones, each once."""
    rng = random.Random(200 + size)
    shape = shape_for_size(size)
    plain = engine.tables_for(shape)
    tables = bitboard.board_tables(shape, engine.DEFAULT_ENGINE_CONFIG.bitboard_branch_ties)
    for _ in range(4):
        values = list(random_solution(shape, rng).values)
        for cell in rng.sample(range(size * size), int(BLANK.get(size, 0.6) * size * size)):
            values[cell] = 0
        ours: list[bitboard.Board] = []
        bitboard.search(bitboard.initial_board(values, tables), tables, ours, LIMIT, Clock(), [-1])
        found = {tuple(bitboard.decode(b, tables)) for b in ours}
        assert len(found) == len(ours)
        assert found == all_solutions(values, plain) or len(found) == LIMIT


def test_bitboard_finds_broken_givens() -> None:
    """Two equal givens in a row: no solution, found without a search."""
    values = [0] * 81
    values[0] = values[8] = 5
    assert engine.find_solutions(values, limit=2) == []
