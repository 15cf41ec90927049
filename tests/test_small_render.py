"""The small-Sudoku renderer: unique puzzles of 2×3 (2×2, 2×4) boxes, photographed, truth kept."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sudokucam.samples import render
from sudokucam.samples.synth.small_drawing import small_puzzle
from sudokucam.solver.outcome import Outcome
from sudokucam.solver.variant_solve import solve_variant


@pytest.mark.parametrize("size", render.SMALL_SIZES)
def test_small_puzzles_have_one_answer_and_keep_the_boxes(size: int) -> None:
    puzzle, answer = small_puzzle(5, size)
    assert puzzle.size == size and puzzle.is_solution(answer)
    result = solve_variant(puzzle, 5.0)
    assert result.status is Outcome.SOLVED and result.solution is not None
    assert tuple(result.solution.values) == answer
    assert 0 < sum(1 for v in puzzle.givens if v) < size * size


def test_small_puzzles_differ_by_seed() -> None:
    answers = {small_puzzle(seed, 6)[1] for seed in range(6)}
    assert len(answers) == 6


def test_a_6x6_photo_truth_holds_its_grid(tmp_path: Path) -> None:
    made = render.render_small_photo(3, 6, "shaded", size=(640, 480))
    t = made.photo.truth
    assert made.photo.image.shape == (480, 640, 3) and made.photo.image.dtype == np.uint8
    assert t.lattice.shape == (7, 7, 2) and t.givens.shape == (6, 6)
    assert np.all(t.corners >= 0) and np.all(t.corners < [640, 480])
    data = made.truth_json()
    assert data["grid_size"] == 6 and data["style"] == "shaded"
    assert data["puzzle"]["size"] == 6 and len(data["puzzle"]["givens"]) == 36
    assert made.puzzle.is_solution([int(c) for c in data["answer"]])
    again = render.render_small_photo(3, 6, "shaded", size=(640, 480))
    assert np.array_equal(again.photo.image, made.photo.image)


def test_the_command_line_renders_a_batch_of_small_photos(tmp_path: Path) -> None:
    assert render.main(["--out", str(tmp_path), "--kind", "small", "--count", "1",
                        "--grid-size", "4"]) == 0  # fmt: skip
    truth = json.loads((tmp_path / "small" / "small4_0000.json").read_text(encoding="utf-8"))
    assert truth["grid_size"] == 4 and len(truth["answer"]) == 16
    assert (tmp_path / "small" / "small4_0000.jpg").stat().st_size > 10_000


def test_unknown_style_and_size_are_refused() -> None:
    with pytest.raises(ValueError, match="style is one of"):
        render.render_small_photo(0, 6, "neon")
    with pytest.raises(ValueError, match="size must be one of"):
        small_puzzle(0, 5)
