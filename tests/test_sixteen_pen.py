"""A 16×16 of the numbers 1-16 half solved in pen: printed told from written per cell
(the digit model's printed and handwritten classes), decided for the whole puzzle (the
printed numbers alone have one answer), the entries checked against the answer."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from sudokucam.samples import render
from sudokucam.samples.synth.sixteen_drawing import sixteen_puzzle
from sudokucam.ui.cli import app
from sudokucam.vision.check.judge import judge_entries
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.small.sixteen import pen_share, printed_reading, solve_sixteen
from sudokucam.vision.types import Kind, digit_values, digits_of

runner = CliRunner()
VALUES = 17


def one_hot(values: tuple[int, ...]) -> np.ndarray:
    """(256, 17) sure value probabilities of ``values`` (0 empty)."""
    probs = np.full((len(values), VALUES), 1e-6)
    probs[np.arange(len(values)), values] = 1.0
    return probs / probs.sum(axis=1, keepdims=True)


def test_a_glyph_is_pen_by_the_model_s_handwritten_classes() -> None:
    probs = np.zeros((2, 19))
    probs[0, 3], probs[0, 12] = 0.9, 0.1  # a printed 3, a little pen
    probs[1, 12] = 1.0  # a handwritten 3
    assert np.allclose(pen_share(probs), [0.1, 1.0])


def test_a_cell_is_handwritten_where_its_odds_of_print_are_low_enough() -> None:
    values = (5, 12, 0, 7)
    reading = printed_reading(one_hot(values), np.array([0.01, 0.99, 0.0, 0.6]), pen_odds=0.0)
    assert list(reading.kinds) == [Kind.PRINTED, Kind.HANDWRITTEN, Kind.EMPTY, Kind.HANDWRITTEN]
    assert reading.kind_log_odds is not None and reading.kind_log_odds[1] < -4


def test_pen_entries_are_left_out_of_the_givens_where_the_print_alone_has_one_answer() -> None:
    puzzle, answer = sixteen_puzzle(7)
    givens = puzzle.givens
    empty = [c for c, v in enumerate(givens) if not v]
    right, wrong = empty[:20], empty[20]
    values = list(givens)
    for c in right:
        values[c] = answer[c]
    values[wrong] = answer[wrong] % 16 + 1  # a wrong entry: with it, no answer
    pen = np.zeros(256)
    pen[right] = 0.9  # read as pen, but not surely: the ladder reaches them
    pen[wrong] = 0.999
    reading = printed_reading(one_hot(tuple(values)), pen, pen_odds=1.0)
    outcome = solve_sixteen(reading)
    assert outcome.givens == digits_of(givens)
    assert outcome.solution == digits_of(answer)


def test_entries_past_9_are_judged_as_values() -> None:
    solution = digits_of([16, 10, 3])
    written = digits_of([16, 12, 0])  # right, surely wrong, none
    probs = one_hot((16, 12, 0))
    wrong, unsure = judge_entries(probs, written, solution)
    assert wrong == (1,) and unsure == ()


@pytest.mark.slow
def test_a_16x16_half_solved_in_pen_is_checked() -> None:
    """A rendered 16×16 of numbers with pen entries (two wrong): every printed number read
    as a given, the answer right, no right entry called wrong, most entries found as
    written (a pen number read as another is asked about, never called wrong)."""
    made = render.render_sixteen_photo(1600, "magazine", pen_fill=0.5, pen_mistakes=2,
                                       size=(1600, 1200))  # fmt: skip
    truth = made.photo.truth
    (grid,) = Reader().read(made.photo.image).grids
    assert grid.solution == digits_of(made.answer)
    printed = np.flatnonzero(truth.givens.ravel())
    assert np.array_equal(
        np.array(digit_values(grid.givens))[printed], truth.givens.ravel()[printed]
    )
    pen = truth.pen.ravel()
    found = np.array(digit_values(grid.handwritten))
    assert ((found > 0) & (found == pen)).sum() >= 0.7 * (pen > 0).sum()  # 59 of 78 measured
    mistakes = {r * 16 + c for r, c in truth.mistakes}
    assert set(grid.wrong_entries) <= mistakes
    asked = {u.cell for u in grid.unsure_entries()}
    assert set(np.flatnonzero((found > 0) & (found != pen))) <= asked


@pytest.mark.slow
def test_check_names_the_wrong_pen_entries_of_a_16x16(tmp_path: Path) -> None:
    made = render.render_sixteen_photo(1601, "bold", pen_fill=0.4, pen_mistakes=2,
                                       size=(1600, 1200))  # fmt: skip
    photo = tmp_path / "half.jpg"
    cv2.imwrite(str(photo), made.photo.image)
    marked = tmp_path / "marked.png"
    done = runner.invoke(app, ["check", "--json", str(photo), "-o", str(marked)])
    assert done.exit_code == 0, done.output
    (grid,) = json.loads(done.stdout)["grids"]
    mistakes = {f"r{r + 1}c{c + 1}" for r, c in made.photo.truth.mistakes}
    assert set(grid["check"]["wrong"]) <= mistakes
    assert grid["check"]["right"], "no right entry found"
    assert marked.is_file()
