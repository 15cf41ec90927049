"""Generated puzzles have exactly one solution and grade at the level asked, every size."""

from __future__ import annotations

import random

import pytest

from sudokucam.solver import Grid, count_solutions, shape_for_size
from sudokucam.solver.logic import (
    GenerateConfig,
    GenerationTimeoutError,
    Level,
    generate,
    grade_puzzle,
    random_solution,
)
from sudokucam.solver.validate import check_complete


@pytest.mark.parametrize("size", [4, 6, 8, 9, 12, 16])
def test_random_solution_is_a_valid_full_grid(size: int) -> None:
    shape = shape_for_size(size)
    grid = Grid(shape, random_solution(shape, random.Random(size)))
    assert grid.is_complete and not check_complete(grid)


def _check(size: int, level: Level, seed: int, symmetric: bool = False) -> None:
    shape = shape_for_size(size)
    made = generate(shape, level, random.Random(seed), symmetric=symmetric)
    puzzle = Grid(shape, made.puzzle)
    assert count_solutions(puzzle, limit=2) == 1
    assert all(p in (0, s) for p, s in zip(made.puzzle, made.solution, strict=True))
    assert made.grade.level is level
    regraded, _ = grade_puzzle(puzzle)
    assert regraded is not None and regraded.level is level
    if symmetric:
        n2 = shape.ncells
        assert all(bool(made.puzzle[c]) == bool(made.puzzle[n2 - 1 - c]) for c in range(n2))


@pytest.mark.parametrize("level", list(Level))
def test_generate_9x9_each_level(level: Level) -> None:
    _check(9, level, seed=11)


@pytest.mark.parametrize(
    "size, level", [(4, Level.EASY), (6, Level.MEDIUM), (8, Level.DIFFICULT), (12, Level.EASY)]
)
def test_generate_other_sizes(size: int, level: Level) -> None:
    _check(size, level, seed=3)


def test_generate_symmetric() -> None:
    _check(9, Level.MEDIUM, seed=5, symmetric=True)


@pytest.mark.slow
def test_generate_16x16_easy() -> None:
    _check(16, Level.EASY, seed=1)


def test_four_by_four_cannot_be_hard() -> None:
    with pytest.raises(ValueError, match="no harder than Easy"):
        generate(shape_for_size(4), Level.MEDIUM, random.Random(0))


def test_generation_time_limit_is_a_clear_error() -> None:
    cfg = GenerateConfig(time_limit_s=0.0)
    with pytest.raises(GenerationTimeoutError, match="no Extremely Difficult 6×6 puzzle found"):
        # 6×6 extremely difficult puzzles are rare: the first try almost never is one.
        for seed in range(20):
            generate(shape_for_size(6), Level.EXTREMELY_DIFFICULT, random.Random(seed), config=cfg)
