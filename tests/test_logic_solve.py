"""Whole logical solves on real puzzles: every step is sound and explained; hints and grades."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from sudokucam.solver import Grid, Outcome, is_solution, shape_for_size, solve
from sudokucam.solver.logic import (
    ALL_TECHNIQUES,
    Level,
    Technique,
    grade_puzzle,
    hint,
    hint_all,
    logical_solve,
    solve_steps,
)

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def read_set(puzzles_dir: Path, name: str, count: int) -> list[str]:
    lines = (puzzles_dir / name).read_text().split()
    return [s for s in lines if len(s) == 81][:count]


def assert_sound(puzzle: str, techniques: frozenset[Technique] = ALL_TECHNIQUES) -> int:
    """Solve by logic; every placement is right and no elimination removes the answer."""
    grid = Grid.parse(puzzle)
    answer = Grid.parse(solve(puzzle)).values
    result = solve_steps(grid.shape, grid.values, techniques)
    for step in result.steps:
        for c, v in step.placements:
            assert answer[c] == v, str(step)
        for c, v in step.eliminations:
            assert answer[c] != v, str(step)
        assert step.explanation and (step.placements or step.eliminations)
        names = [grid.cell_name(c) for c, _ in step.placements + step.eliminations]
        assert all(n in step.explanation for n in names[:1]), str(step)
    assert result.solved, puzzle
    assert is_solution(Grid(grid.shape, result.values), grid)
    return len(result.steps)


@pytest.mark.shared
def test_top95_sound(puzzles_dir: Path) -> None:
    for p in read_set(puzzles_dir, "norvig_top95.txt", 12):
        assert_sound(p)


@pytest.mark.shared
@pytest.mark.slow
def test_forum_hardest_sound(puzzles_dir: Path) -> None:
    for p in read_set(puzzles_dir, "tdoku_forum_hardest_1905_11plus.txt", 3):
        assert_sound(p)


@pytest.mark.shared
def test_easy50_needs_no_forcing(puzzles_dir: Path) -> None:
    plain = ALL_TECHNIQUES - {
        Technique.AIC,
        Technique.FORCING_CHAIN,
        Technique.FORCING_NET,
        Technique.NESTED_FORCING,
    }
    for p in read_set(puzzles_dir, "norvig_easy50.txt", 10):
        assert_sound(p, plain)


@pytest.mark.parametrize(
    "size, puzzle",
    [
        (4, "...24....32....3"),
        (6, "1......23....4........15.....6..23.."),
        (8, "2......78.7.12......7....58...4.1.5......8.6.1....3.56....6.8.2."),
    ],
)
def test_small_sizes_solve(size: int, puzzle: str) -> None:
    grid = Grid.parse(puzzle, size)
    result = logical_solve(grid.shape, grid.values)
    assert result.by_logic
    assert is_solution(Grid(grid.shape, result.values), grid)


def test_forcing_chain_explains_the_contradiction() -> None:
    from sudokucam.solver.logic.forcing import forcing_chain
    from sudokucam.solver.logic.strategy import next_step

    grid = Grid.parse(
        ".5..9....1.....6.....3.8.....8.4...9514.......3....2..........4.8...6..77..15..6."
    )
    answer = Grid.parse(solve(grid.to_string())).values
    cand_steps = solve_steps(grid.shape, grid.values, ALL_TECHNIQUES)
    used = [s for s in cand_steps.steps if s.technique is Technique.FORCING_CHAIN]
    assert used, "this puzzle needs a forcing chain"
    step = used[0]
    assert step.explanation.startswith("Suppose") or "Either way" in step.explanation
    for c, v in step.eliminations:
        assert answer[c] != v
        assert grid.cell_name(c) in step.explanation
    assert callable(forcing_chain) and callable(next_step)


# --- hints ------------------------------------------------------------------------------


def test_hint_first_step() -> None:
    h = hint(Grid.parse(EASY))
    assert h.status is Outcome.STEP
    assert h.step is not None and h.step.technique is Technique.HIDDEN_SINGLE
    ((c, v),) = h.step.placements
    assert Grid.parse(solve(EASY)).values[c] == v


def test_hint_with_right_entries_continues_from_them() -> None:
    answer = solve(EASY)
    entries = "".join(
        a if i < 20 and p == "." else "." for i, (p, a) in enumerate(zip(EASY, answer, strict=True))
    )
    h = hint(Grid.parse(EASY), Grid.parse(entries))
    assert h.status is Outcome.STEP and h.step is not None
    assert all(c >= 20 or EASY[c] != "." for c, _ in h.step.placements + h.step.eliminations)


def test_hint_reports_wrong_entry_first() -> None:
    answer = solve(EASY)
    cell = EASY.index(".")
    wrong = str(int(answer[cell]) % 9 + 1)
    entries = "." * cell + wrong + "." * (80 - cell)
    h = hint(Grid.parse(EASY), Grid.parse(entries))
    assert h.status is Outcome.WRONG_ENTRIES
    assert h.wrong == (cell,)
    assert f"r1c{cell + 1}" in h.message and h.step is None


def test_hint_on_a_puzzle_with_two_solutions() -> None:
    h = hint(Grid.parse("." * 81))
    assert h.status is Outcome.MULTIPLE_SOLUTIONS


def test_hint_all_reaches_the_solution() -> None:
    first, steps = hint_all(Grid.parse(EASY))
    assert first.status is Outcome.STEP
    assert steps[0] == first.step
    placed = {c: v for s in steps for c, v in s.placements}
    answer = Grid.parse(solve(EASY)).values
    assert placed == {c: answer[c] for c in range(81) if EASY[c] == "."}


def test_hint_uses_a_guess_only_when_stuck() -> None:
    grid = Grid.parse(EASY)
    solve_ = logical_solve(grid.shape, grid.values)
    assert not solve_.guessed


# --- grades -----------------------------------------------------------------------------


def test_grade_easy_puzzle() -> None:
    g, why = grade_puzzle(Grid.parse(EASY))
    assert g is not None and why == ""
    assert g.level is Level.EASY and g.hardest is Technique.HIDDEN_SINGLE


def test_grade_rejects_non_unique() -> None:
    g, why = grade_puzzle(Grid.parse("." * 81))
    assert g is None and "more than one solution" in why


@pytest.mark.shared
def test_grading_is_monotone_on_the_sets(puzzles_dir: Path) -> None:
    easy = [grade_puzzle(Grid.parse(p))[0] for p in read_set(puzzles_dir, "norvig_easy50.txt", 50)]
    hard = [
        grade_puzzle(Grid.parse(p))[0]
        for p in read_set(puzzles_dir, "tdoku_magictour_top1465.txt", 25)
    ]
    e_scores = [g.score for g in easy if g]
    h_scores = [g.score for g in hard if g]
    assert statistics.median(e_scores) < statistics.median(h_scores)
    assert statistics.mean(g.level for g in easy if g) < statistics.mean(g.level for g in hard if g)
    assert max(g.level for g in easy if g) <= Level.DIFFICULT
    assert min(g.level for g in hard if g) >= Level.MEDIUM


def test_level_parse() -> None:
    assert Level.parse("extremely difficult") is Level.EXTREMELY_DIFFICULT
    assert Level.parse("Extreme") is Level.EXTREMELY_DIFFICULT
    assert Level.parse("MEDIUM") is Level.MEDIUM
    with pytest.raises(ValueError, match="level must be one of"):
        Level.parse("nightmare")


def test_every_size_has_a_shape() -> None:
    for n in (4, 6, 8, 9, 12, 16):
        assert shape_for_size(n).size == n
