"""Solving: shared benchmark sets, every size, statuses, exceptions, validation, the oracle."""

from __future__ import annotations

import dataclasses
import random
from functools import cache
from pathlib import Path

import pytest

from sudokucam.solver import (
    Grid,
    InvalidPuzzleError,
    MultipleSolutionsError,
    NoSolutionError,
    Outcome,
    PuzzleError,
    PuzzleParseError,
    check_complete,
    count_solutions,
    engine,
    find_conflicts,
    find_dead_cells,
    is_solution,
    shape_for_size,
    solve,
    solve_grid,
)
from sudokucam.solver.grid import value_word
from sudokucam.solver.sample import random_puzzle, random_solution

ANTI_BACKTRACK = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
NINE_LINES = """\
4 0 0 0 0 0 6 0 0
0 9 0 0 8 0 0 5 0
0 0 7 1 4 9 2 0 0
1 0 0 0 3 0 9 0 0
0 0 0 0 0 0 0 2 6
9 7 0 0 0 5 0 8 0
0 2 0 0 0 8 0 0 0
0 5 0 0 0 0 0 6 0
0 0 1 0 7 0 0 0 3
"""
UNIQUE_SETS = [
    "norvig_easy50.txt",
    "norvig_top95.txt",
    "norvig_hardest.txt",
    "norvig_sudoku10k.txt",
    "tdoku_unbiased_first1000.txt",
    "tdoku_17_clue.txt",
    "tdoku_magictour_top1465.txt",
    "tdoku_forum_hardest_1905_11plus.txt",
]
SAMPLE = 200


def sample(path: Path, k: int = SAMPLE, seed: int = 0) -> list[str]:
    """A seeded sample of a one-puzzle-a-line file."""
    lines = [s for s in path.read_text().split() if s]
    return lines if len(lines) <= k else random.Random(seed).sample(lines, k)


@cache
def generated(size: int) -> Grid:
    """A seeded unique puzzle of one size (minimal below 16×16, clue-rich above)."""
    fraction = {16: 0.5, 25: 0.6}.get(size, 0.0)
    return random_puzzle(shape_for_size(size), random.Random(size), fraction)


@pytest.mark.parametrize("name", UNIQUE_SETS)
def test_shared_set_solved_uniquely(puzzles_dir: Path, name: str) -> None:
    for puzzle in sample(puzzles_dir / name):
        result = solve_grid(puzzle)
        assert result.status is Outcome.SOLVED, puzzle
        assert len(result.solutions) == 1
        assert is_solution(result.solutions[0], puzzle), puzzle
        assert solve(puzzle) == result.solutions[0].to_string()


def test_serg_set_has_two_differing_solutions(puzzles_dir: Path) -> None:
    for puzzle in sample(puzzles_dir / "tdoku_serg_benchmark.txt"):
        assert count_solutions(puzzle, limit=2) == 2, puzzle
        result = solve_grid(puzzle)
        assert result.status is Outcome.MULTIPLE_SOLUTIONS
        first, second = result.solutions
        assert first != second
        assert is_solution(first, puzzle) and is_solution(second, puzzle)


def test_multiple_solutions_error_carries_both(puzzles_dir: Path) -> None:
    puzzle = sample(puzzles_dir / "tdoku_serg_benchmark.txt", 1)[0]
    with pytest.raises(MultipleSolutionsError) as info:
        solve(puzzle)
    a, b = info.value.solutions
    assert a != b and is_solution(a, puzzle) and is_solution(b, puzzle)
    assert "more than one solution (they differ at r" in str(info.value)


def test_nine_line_example_answer() -> None:
    answer = solve(Grid.parse(NINE_LINES))
    assert Grid.parse(answer).rows()[0] == (4, 1, 8, 2, 5, 3, 6, 9, 7)
    assert is_solution(answer, Grid.parse(NINE_LINES))


def test_anti_backtracking_puzzle() -> None:
    answer = solve(ANTI_BACKTRACK)
    assert answer[:9] == "987654321"
    assert is_solution(answer, ANTI_BACKTRACK)
    assert count_solutions(ANTI_BACKTRACK) == 1


@pytest.mark.parametrize("size", [4, 6, 8, 9, 12, 16, 25])
def test_every_size(size: int) -> None:
    puzzle = generated(size)
    assert 0 < len(puzzle.empty_cells) < size * size
    result = solve_grid(puzzle)
    assert result.status is Outcome.SOLVED
    solution = result.solutions[0]
    assert is_solution(solution, puzzle)
    assert not check_complete(solution)
    assert count_solutions(list(puzzle.values)) == 1


@pytest.mark.parametrize("size", [4, 6, 8, 9, 12, 16, 25])
def test_random_solution_is_valid(size: int) -> None:
    grid = random_solution(shape_for_size(size), random.Random(3))
    assert grid.is_complete and not check_complete(grid)


def test_empty_grids_count_solutions() -> None:
    assert count_solutions([0] * 16, limit=1000) == 288  # every 4×4 Sudoku
    assert count_solutions("." * 81, limit=5) == 5


def test_duplicate_givens_are_named() -> None:
    puzzle = "..5...5.." + "." * 72  # r1c3 and r1c7 both 5
    conflicts = find_conflicts(Grid.parse(puzzle))
    assert [str(c) for c in conflicts] == ["r1c3 and r1c7 both hold 5"]
    result = solve_grid(puzzle)
    assert result.status is Outcome.INVALID
    assert result.conflicts[0].cells == (2, 6)
    with pytest.raises(InvalidPuzzleError) as info:
        solve(puzzle)
    assert info.value.conflicts == conflicts
    assert "r1c3 and r1c7 both hold 5" in str(info.value)
    assert count_solutions(puzzle) == 0


def test_values_past_9_are_named_as_the_board_prints_them() -> None:
    """A 16×16 board prints 10-16 as numbers (``Grid.pretty``, a photo's grid): messages
    say 12, never the line form's C; a grid with symbols of its own is named in them."""
    values = [0] * 256
    values[0] = values[17] = 12  # r1c1 and r2c2, in one box
    grid = Grid.from_values(values, 16)
    assert [str(c) for c in find_conflicts(grid)] == ["r1c1 and r2c2 both hold 12"]
    assert solve_grid(grid).message == "invalid givens: r1c1 and r2c2 both hold 12"
    assert str(find_conflicts(grid, "0123456789ABCDEF")[0]) == "r1c1 and r2c2 both hold B"
    full = list(range(1, 17)) * 16  # every row 1-16: each column repeats its value
    failure = str(check_complete(Grid.from_values(full, 16))[0])
    assert failure.startswith("column 1 repeats 1 and lacks 2, 3") and failure.endswith("15, 16")
    assert (value_word(16), value_word(3, "WXYZ")) == ("16", "Y")
    with pytest.raises(ValueError, match="value must be 1-4"):
        value_word(5, "WXYZ")


def test_duplicate_in_a_box_only() -> None:
    puzzle = "1........" + ".1......." + "." * 63
    assert [str(c) for c in find_conflicts(Grid.parse(puzzle))] == ["r1c1 and r2c2 both hold 1"]


def test_cell_without_candidate_is_reported() -> None:
    puzzle = "12345678." + "........9" + "." * 63  # r1c9 can hold only 9, but column 9 has it
    dead = find_dead_cells(Grid.parse(puzzle))
    assert [c.cells for c in dead] == [(8,)]
    assert "r1c9 has no candidate left" in str(dead[0])
    result = solve_grid(puzzle)
    assert result.status is Outcome.NO_SOLUTION
    with pytest.raises(NoSolutionError, match="r1c9 has no candidate left"):
        solve(puzzle)


def test_no_solution_found_by_search() -> None:
    # r1c1 and r1c9 need {1, 9}; columns 1 and 9 hold 1, so both cells need 9.
    puzzle = ".2345678." + "." * 27 + "1........" + "........1" + "." * 27
    grid = Grid.parse(puzzle)
    assert not find_conflicts(grid) and not find_dead_cells(grid)
    result = solve_grid(grid)
    assert result.status is Outcome.NO_SOLUTION
    assert count_solutions(grid) == 0
    with pytest.raises(NoSolutionError):
        solve(grid)


def test_errors_share_the_base_class() -> None:
    for error in (InvalidPuzzleError, NoSolutionError, MultipleSolutionsError, PuzzleParseError):
        assert issubclass(error, PuzzleError)
    with pytest.raises(PuzzleParseError):
        solve("123")


def test_check_complete_names_failing_units() -> None:
    solution = solve(ANTI_BACKTRACK)
    swapped = solution[1] + solution[0] + solution[2:]  # swap r1c1 and r1c2
    failures = check_complete(Grid.parse(swapped))
    names = sorted(f.name for f in failures)
    assert names == ["column 1", "column 2"]
    assert "column 1 repeats" in str(failures[0]) and "lacks" in str(failures[0])
    assert not is_solution(swapped, ANTI_BACKTRACK)
    assert not check_complete(Grid.parse(solution))


def test_oracle_rejects_changed_givens_and_gaps() -> None:
    solution = solve(ANTI_BACKTRACK)
    assert is_solution(solution, ANTI_BACKTRACK)
    other = solve_grid("." * 81)  # a valid grid that ignores the givens
    assert other.status is Outcome.MULTIPLE_SOLUTIONS
    assert not is_solution(other.solutions[0], ANTI_BACKTRACK)
    assert not is_solution(solution[:-1] + ".", ANTI_BACKTRACK)


def test_count_solutions_rejects_bad_limit() -> None:
    with pytest.raises(ValueError, match="limit must be at least 1"):
        count_solutions(ANTI_BACKTRACK, limit=0)


def test_pretty_prints_boxes() -> None:
    lines = Grid.parse(ANTI_BACKTRACK).pretty().splitlines()
    assert lines[0] == "+-------+-------+-------+"
    assert lines[2] == "| . . . | . . 3 | . 8 5 |"
    assert len(lines) == 13
    small = Grid.parse("1234341221434321").pretty().splitlines()
    assert small[:2] == ["+-----+-----+", "| 1 2 | 3 4 |"]
    six = Grid.parse("." * 36).pretty().splitlines()
    assert six[0] == "+-------+-------+" and len(six) == 10  # 2×3 boxes: 3 bands of 2 rows


@pytest.mark.parametrize("size", [9, 12, 16])
def test_box_line_reductions_lose_no_solution(size: int) -> None:
    """Counting with and without the box-line step agrees on puzzles with many solutions."""
    rng = random.Random(size)
    shape = shape_for_size(size)
    plain = dataclasses.replace(engine.tables_for(shape), locked=False)
    locked = dataclasses.replace(plain, locked=True)
    for _ in range(5):
        values = list(random_solution(shape, rng).values)
        for cell in rng.sample(range(size * size), int(0.62 * size * size)):
            values[cell] = 0
        counts = []
        for tables in (plain, locked):
            state = engine.initial_state(values, tables)
            assert state is not None
            found: list[engine.State] = []
            engine.search(state, tables, found, 30)
            solutions = [Grid(shape, tuple(engine.decode(s, tables))) for s in found]
            assert all(is_solution(s, Grid(shape, tuple(values))) for s in solutions)
            counts.append(len({s.values for s in solutions}))
        assert counts[0] == counts[1] >= 1
