"""The 16×16 renderer: unique puzzles of 4×4 boxes with the numbers 1-16, photographed at
a phone photo's size, truth kept in the ``grid FILE.json`` form (symbols 1-9, A-G)."""

from __future__ import annotations

import numpy as np
import pytest

from sudokucam.samples import render
from sudokucam.samples.synth.sixteen_drawing import CLUES, sixteen_puzzle
from sudokucam.solver.outcome import Outcome
from sudokucam.solver.variant_json import puzzle_from_json
from sudokucam.solver.variant_solve import solve_variant


def test_16x16_puzzles_have_one_answer_and_differ_by_seed() -> None:
    puzzle, answer = sixteen_puzzle(3)
    assert puzzle.size == 16 and puzzle.is_solution(answer)
    result = solve_variant(puzzle, 10.0)
    assert result.status is Outcome.SOLVED and result.solution is not None
    assert tuple(result.solution.values) == answer
    assert CLUES[0] <= sum(1 for v in puzzle.givens if v) <= CLUES[1]
    assert sixteen_puzzle(4)[1] != answer


def test_a_16x16_photo_truth_holds_its_grid() -> None:
    made = render.render_sixteen_photo(5, "bold", size=(800, 600))
    t = made.photo.truth
    assert made.photo.image.shape == (600, 800, 3) and made.photo.image.dtype == np.uint8
    assert t.lattice.shape == (17, 17, 2) and t.givens.shape == (16, 16)
    assert np.all(t.corners >= 0) and np.all(t.corners < [800, 600])
    assert (t.givens > 9).any()  # two-digit numbers are printed
    data = made.truth_json()
    assert data["grid_size"] == 16 and data["style"] == "bold"
    typed = puzzle_from_json(data["puzzle"])
    assert typed.givens == made.puzzle.givens and data["puzzle"]["symbols"] == "123456789ABCDEFG"
    assert len(data["answer"]) == 256 and typed.is_solution(made.answer)


def test_an_unknown_16x16_style_is_refused() -> None:
    with pytest.raises(ValueError, match="magazine"):
        render.render_sixteen_photo(1, "poster")
