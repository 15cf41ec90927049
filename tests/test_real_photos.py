"""Reading real phone photos (the Wicht-Hennebert dataset in ../shared) exactly.

Skipped when ../shared or the model is absent. Only the validation split
(``models/validation_ids.txt``) is read: it was never used to train or tune the model.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from sudokucam.samples.dataset import photo_path, truth, validation_ids
from sudokucam.vision.pipeline import PipelineConfig, Reader
from sudokucam.vision.read.config import ReadConfig
from sudokucam.vision.read.copies import CopyConfig
from sudokucam.vision.read.decide import KindDecisionConfig
from sudokucam.vision.read.ink_colour import InkColourConfig
from sudokucam.vision.read.placement import PlacementConfig
from sudokucam.vision.read.symmetry import SymmetryConfig
from sudokucam.vision.results import PhotoResult

# Share of grids read exactly (digits and printed/pen kinds): issue 13's no-regression
# lines, 96.7 % (printed) and 93.3 % (pen-filled), less a hair for rounding. The pipeline
# measures 96.7 % and 93.3 % on this split (benchmarks/photo_eval.py), so one more miss in
# either fails the test.
FLOORS = {"v2": 0.966, "mixed": 0.933}

pytestmark = [
    pytest.mark.slow,
    pytest.mark.shared,
]


@cache
def reader() -> Reader:
    """One Reader for every test (the model loads once)."""
    return Reader()


@cache
def read(path: Path) -> PhotoResult:
    """Read one photo once per test session."""
    return reader().read(path)


def wrong_cells(result: PhotoResult, givens: str, pen: str) -> list[int] | None:
    """Cells read wrong (digit or kind), or None when no grid was found."""
    if not result.grids:
        return None
    grid = result.grids[0]
    return [c for c in range(81) if (grid.givens[c], grid.handwritten[c]) != (givens[c], pen[c])]


@pytest.mark.parametrize("version", ["v2", "mixed"])
def test_validation_photos_are_read_exactly(photos_dir: Path, version: str) -> None:
    failures = {}
    for photo_id in validation_ids():
        givens, pen, _ = truth(photo_id, version, photos_dir)
        result = read(photo_path(photo_id, version, photos_dir))
        wrong = wrong_cells(result, givens, pen)
        if wrong != []:
            failures[photo_id] = "no grid" if wrong is None else wrong
    share = 1 - len(failures) / len(validation_ids())
    assert share >= FLOORS[version], f"{share:.0%} exact; failures: {failures}"


@pytest.mark.parametrize("version", ["v2", "mixed"])
def test_every_validation_photo_solves_to_its_true_answer(photos_dir: Path, version: str) -> None:
    """Even where a printed/pen kind is misread, the answer comes out right."""
    wrong = []
    for photo_id in validation_ids():
        _, _, solution = truth(photo_id, version, photos_dir)
        result = read(photo_path(photo_id, version, photos_dir))
        if not result.grids or result.grids[0].solution != solution:
            wrong.append(photo_id)
    assert wrong == []


@pytest.mark.parametrize("version", ["v2", "mixed"])
def test_solved_photos_have_the_true_solution(photos_dir: Path, version: str) -> None:
    for photo_id in validation_ids():
        _, _, solution = truth(photo_id, version, photos_dir)
        result = read(photo_path(photo_id, version, photos_dir))
        for grid in result.grids:
            if grid.solution is not None and not grid.repairs:
                assert grid.solution == solution, f"image{photo_id} ({version})"


@pytest.mark.parametrize("photo_id", [1007])
def test_red_pen_entries_that_look_printed_are_told_apart_by_colour(
    photos_dir: Path, photo_id: int
) -> None:
    """Photo 1007 is filled in coloured pen; a neat pen digit passes for print in grey
    alone (digits_v2 and v3; with digits_v1 it was photo 10), unless where its ink sits
    in the cell or the givens' half-turn pattern is weighed too. Photo 19's did too
    until the copies step (its pen digit is unlike the puzzle's printed copies of it)."""
    path = photo_path(photo_id, "mixed", photos_dir)
    givens, pen, _ = truth(photo_id, "mixed", photos_dir)
    colourless = KindDecisionConfig(
        ink_colour=InkColourConfig(weight=0.0),
        placement=PlacementConfig(weight=0.0),
        symmetry=SymmetryConfig(weight=0.0),
    )
    grey_only = Reader(config=PipelineConfig(read=ReadConfig(kind_decision=colourless)))
    assert wrong_cells(grey_only.read(path), givens, pen), "grey alone reads it right now"
    assert wrong_cells(read(path), givens, pen) == []
    grey = replace(colourless, placement=PlacementConfig(), symmetry=SymmetryConfig())
    placed = Reader(config=PipelineConfig(read=ReadConfig(kind_decision=grey)))
    assert wrong_cells(placed.read(path), givens, pen) == []


def test_a_neat_pen_digit_unlike_the_printed_copies_is_pen_even_in_grey(photos_dir: Path) -> None:
    """Photo 19's neat red pen digit passes for print to the classifier; compared with the
    puzzle's printed copies of its digit it is read as pen without its colour."""
    path = photo_path(19, "mixed", photos_dir)
    givens, pen, _ = truth(19, "mixed", photos_dir)
    colourless = KindDecisionConfig(ink_colour=InkColourConfig(weight=0.0))
    grey_only = Reader(config=PipelineConfig(read=ReadConfig(kind_decision=colourless)))
    assert wrong_cells(grey_only.read(path), givens, pen) == []
    neither = KindDecisionConfig(
        copies=CopyConfig(weight=0.0), ink_colour=InkColourConfig(weight=0)
    )
    no_copies = PipelineConfig(read=ReadConfig(kind_decision=neither))
    assert wrong_cells(Reader(config=no_copies).read(path), givens, pen)
