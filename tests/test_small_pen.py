"""Pen entries on a small grid: rendered 6×6 pages half filled in by pen (one entry wrong
on purpose, ``samples/synth/small_drawing.py``) are read with the printed digits as the
puzzle and the handwriting as the person's entries, checked against the answer as a
9×9's are; ``SmallGridConfig.pen_entries=False`` counts every digit as printed."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

import numpy as np
import pytest

from sudokucam.benchmarks.small_photo_eval import jpeg_round_trip
from sudokucam.samples.synth.boxed_grids import SmallPhoto
from sudokucam.samples.synth.small_drawing import render_small_photo
from sudokucam.solver.outcome import Outcome
from sudokucam.vision.pipeline import DEFAULT_PIPELINE_CONFIG, Reader
from sudokucam.vision.read.classifier import DigitClassifier
from sudokucam.vision.read.config import ReadConfig
from sudokucam.vision.read.placement import PlacementConfig
from sudokucam.vision.results import GridResult
from sudokucam.vision.small.config import SmallGridConfig
from sudokucam.vision.small.read import entry_sets, read_small_cells, written_cells
from sudokucam.vision.types import CellReading, Kind

PAGE: dict[str, Any] = {"pen_fill": 0.6, "pen_mistakes": 1, "size": (1024, 768)}


@cache
def page(seed: int, style: str) -> SmallPhoto:
    """A rendered 6×6 page filled in by pen, one entry wrong."""
    return render_small_photo(seed, 6, style, **PAGE)


@cache
def reader() -> Reader:
    """The shipped model's reader."""
    return Reader()


def read(made: SmallPhoto, config_reader: Reader | None = None) -> GridResult:
    """The page's one grid, read."""
    result = (config_reader or reader()).read(made.photo.image)
    assert len(result.grids) == 1, result.message
    return result.grids[0]


def line(values: np.ndarray) -> str:
    """An n × n array as Digits."""
    return "".join(str(int(v)) for v in values.ravel())


@pytest.mark.parametrize(("seed", "style"), [(0, "newspaper"), (2, "shaded")])
def test_pen_entries_on_a_6x6_are_told_from_print_and_checked(seed: int, style: str) -> None:
    made = page(seed, style)
    truth = made.photo.truth
    assert truth.pen.any() and len(truth.mistakes) == 1
    grid = read(made)
    assert grid.structure.size == 6 and grid.status is Outcome.SOLVED
    assert grid.givens == line(truth.givens)  # the printed digits only
    assert grid.handwritten == line(truth.pen)  # the person's entries
    assert grid.solution == made.puzzle.write(made.answer)
    ((row, col),) = truth.mistakes
    assert grid.wrong_entries == (row * 6 + col,)  # the wrong entry, and only it
    assert len(grid.right_entries) == int(np.count_nonzero(truth.pen)) - 1
    assert grid.check_dict()["wrong"] == [f"r{row + 1}c{col + 1}"]


def test_without_pen_entries_every_digit_counts_as_printed() -> None:
    made = page(0, "newspaper")
    small = replace(DEFAULT_PIPELINE_CONFIG.small, pen_entries=False)
    grid = read(made, Reader(config=replace(DEFAULT_PIPELINE_CONFIG, small=small)))
    assert grid.handwritten == "0" * 36
    assert grid.status is not Outcome.SOLVED  # the wrong entry, taken for print, breaks it


def test_a_corrected_6x6_keeps_its_pen_entries_where_the_givens_leave_room() -> None:
    made = page(0, "newspaper")
    grid = read(made)
    pen_cell = next(c for c, d in enumerate(grid.handwritten) if d != "0")
    again = reader().resolve(grid, grid.givens)
    assert again.handwritten == grid.handwritten and again.solution == grid.solution
    typed = list(grid.givens)
    typed[pen_cell] = grid.solution[pen_cell] if grid.solution else "1"
    moved = reader().resolve(grid, "".join(typed))  # the pen digit typed as printed
    assert moved.handwritten[pen_cell] == "0" and moved.givens[pen_cell] != "0"
    with pytest.raises(ValueError, match="36 characters"):
        reader().resolve(grid, grid.givens + "0")


def reading_with(odds: dict[int, float]) -> CellReading:
    """A 4×4 reading: a 1 in every cell of ``odds``, written (negative) or printed, leaning
    by those log-odds."""
    digits = np.zeros(16, np.int64)
    kinds = np.full(16, int(Kind.EMPTY), np.int64)
    lean = np.zeros(16)
    for cell, value in odds.items():
        digits[cell], lean[cell] = 1, value
        kinds[cell] = int(Kind.HANDWRITTEN if value < 0 else Kind.PRINTED)
    return CellReading(np.zeros((16, 19), np.float32), digits, kinds, kind_log_odds=lean)


def test_only_digits_surely_written_and_not_alone_are_entries() -> None:
    config = SmallGridConfig()  # pen_margin 2, min_pen_cells 2
    both = written_cells(reading_with({0: -3.0, 5: -2.5, 10: 4.0}), config)
    assert list(np.flatnonzero(both)) == [0, 5]
    assert not written_cells(reading_with({0: -3.0, 10: 4.0}), config).any()  # alone
    assert not written_cells(reading_with({0: -1.5, 5: -1.0}), config).any()  # unsure
    off = replace(config, pen_entries=False)
    assert not written_cells(reading_with({0: -3.0, 5: -2.5}), off).any()


def test_a_pen_digit_that_reads_as_print_is_told_by_its_ink_colour() -> None:
    """On this shaded 6×6 the blue pen 4 at r6c5 looks printed to the grey cells (the
    classifier, copies and ink shape leave it print); its tint, bluer than the printed
    digits' black, makes it pen (the ink-colour step, given the colour page). Its ink
    also sits off the print's rows, which tells it without the colour (placement)."""
    made = page(27, "shaded")
    image = made.photo.image
    found = reader().find_other_size(image)
    assert found is not None and found.size == 6
    config, classifier = reader().config, reader().classifier
    assert isinstance(classifier, DigitClassifier)
    pen = made.photo.truth.pen.ravel() > 0

    unplaced = replace(
        config.read,
        kind_decision=replace(config.read.kind_decision, placement=PlacementConfig(weight=0.0)),
    )

    def pen_read_as_print(colour: np.ndarray | None, read: ReadConfig = unplaced) -> list[int]:
        """The pen cells read as printed, with or without the colour page."""
        _, reading = read_small_cells(
            classifier, found, read, config.small.orientation, None, colour
        )
        kinds = np.asarray(reading.kinds)
        assert not (~pen & (kinds == Kind.HANDWRITTEN)).any()  # no print taken for pen
        return [int(c) for c in np.flatnonzero(pen & (kinds == Kind.PRINTED))]

    assert pen_read_as_print(None) == [34]  # r6c5's 4, without the colour step
    assert pen_read_as_print(image) == []
    assert pen_read_as_print(None, config.read) == []  # placement tells it too
    grid = read(made)
    truth = made.photo.truth
    assert grid.givens == line(truth.givens) and grid.handwritten == line(truth.pen)
    assert grid.solution == made.puzzle.write(made.answer)
    ((row, col),) = truth.mistakes
    asked = set(grid.wrong_entries) | {u.cell for u in grid.unsure_entries()}
    assert set(grid.wrong_entries) <= {row * 6 + col} <= asked  # no right entry called wrong


def test_entries_tried_are_the_sure_ones_then_fewer_then_every_digit_leaning_pen() -> None:
    reading = reading_with({0: -5.0, 5: -2.5, 10: -1.0, 15: 4.0})
    config = SmallGridConfig()  # pen_doubtful 2, pen_leaning
    sets = [list(np.flatnonzero(s)) for s in entry_sets(reading, written_cells(reading, config),
                                                        config)]  # fmt: skip
    assert sets == [[0, 5], [0], [5], [0, 5, 10]]  # the least sure (5) given back first
    quiet = replace(config, pen_leaning=False)
    assert len(entry_sets(reading, written_cells(reading, quiet), quiet)) == 3


def test_a_4x4_whose_pen_digit_leans_pen_weakly_is_solved_right() -> None:
    """This children's-book 4×4's pen 2 at r4c3 leans pen at -1.4 only: counted as printed
    beside the three sure entries it left no answer, and a printed 3 was "repaired" to a 2
    the model read at 0 %, a wrong answer. Left out with them, the page solves right."""
    made = render_small_photo(811, 4, "kids", pen_fill=0.4, pen_mistakes=1)
    result = reader().read(jpeg_round_trip(made.photo.image, made.photo.jpeg_quality))
    grid = result.grids[0]
    assert grid.structure.size == 4 and not grid.repairs
    assert grid.solution == made.puzzle.write(made.answer)
    truth = made.photo.truth
    assert grid.givens == line(truth.givens) and grid.handwritten == line(truth.pen)
    ((row, col),) = truth.mistakes
    assert set(grid.wrong_entries) <= {row * 4 + col}
