"""Small grids (4×4, 6×6, 8×8) from a photo of a half-solved page: candidate notes drawn by
the renderer and read as notes (never as an entry), the notes cut finer from the photo,
and the next step given by `check --hint` as for a typed small grid."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from sudokucam.samples import render
from sudokucam.samples.synth.marks import Marks, choose_notes
from sudokucam.tests.test_small_grid import drawn_grid
from sudokucam.ui.cli import app
from sudokucam.vision.load import ScaledImage
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.read.classifier import NOTES_CLASS, DigitClassifier
from sudokucam.vision.read.decide import NOTES_FROM
from sudokucam.vision.small.config import DEFAULT_SMALL_GRID_CONFIG
from sudokucam.vision.small.find import find_small_grid
from sudokucam.vision.small.fine import page_to_finer, straightened
from sudokucam.vision.small.read import notes_probability, within_size
from sudokucam.vision.types import CellScores, Kind

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "samples" / "small" / "six_book.jpg"
runner = CliRunner()
# a half-solved 6×6 page: pen in 40 % of the cells (one wrong), pencil notes in 70 % of the rest
NOTES_PAGE: dict[str, Any] = {"pen_fill": 0.4, "pen_mistakes": 1, "size": (1024, 768)}
NOTES_MARKS = Marks(notes_fill=0.7, notes_wrong=1)
NOTES_SEED = 801


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """The half-solved 6×6 page with notes, written as a JPEG, and what it was made of."""
    made = render.render_small_photo(NOTES_SEED, 6, "newspaper", marks=NOTES_MARKS, **NOTES_PAGE)
    path = tmp_path_factory.mktemp("notes") / "notes6.jpg"
    cv2.imwrite(str(path), made.photo.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return path, made


# ----------------------------------------------------------------------------- the renderer


def test_notes_on_a_small_grid_hold_its_digits_and_the_answer() -> None:
    solution = np.arange(36).reshape(6, 6) % 6 + 1
    taken = np.zeros((6, 6), bool)
    taken[0] = True
    notes, wrong = choose_notes(
        np.random.default_rng(3), taken, solution, Marks(notes_fill=1.0, notes_wrong=2)
    )
    assert notes.shape == (6, 6) and len(wrong) == 2
    assert not any(notes[0])  # no notes where a digit stands
    for r, c in np.argwhere(~taken):
        noted = str(notes[r, c])
        assert noted and set(noted) <= set("123456") and noted == "".join(sorted(set(noted)))
        assert (str(solution[r, c]) in noted) == ((int(r), int(c)) not in wrong)


def test_marks_left_off_keep_a_small_page_as_it_was() -> None:
    plain = render.render_small_photo(7, 4, "shaded", size=(640, 480))
    marked = render.render_small_photo(7, 4, "shaded", marks=Marks(), size=(640, 480))
    assert np.array_equal(plain.photo.image, marked.photo.image)
    assert marked.photo.truth.notes is not None and not marked.photo.truth.notes.any()


def test_a_small_page_with_notes_has_their_truth(page: tuple[Path, Any]) -> None:
    _, made = page
    truth = made.truth_json()
    notes = [n for row in truth["notes"] for n in row]
    contents = [k for row in truth["contents"] for k in row]
    assert len(notes) == 36 and len(contents) == 36 and truth["notes_wrong"]
    assert [bool(n) for n in notes] == [k == "notes" for k in contents]
    assert sum(k == "written" for k in contents) == int(np.count_nonzero(made.photo.truth.pen))
    assert truth["effects"]["marks"]["notes_fill"] == NOTES_MARKS.notes_fill


# ----------------------------------------------------------------------------- the reader


def test_notes_cells_are_read_as_notes_never_as_entries(page: tuple[Path, Any]) -> None:
    path, made = page
    image = cv2.imread(str(path))
    assert image is not None
    result = Reader().read(image)
    (grid,) = result.grids
    truth = made.photo.truth
    assert grid.structure.size == 6 and grid.solution == "".join(map(str, made.answer))
    notes = [str(n) for n in truth.notes.ravel()]
    noted = [c for c, n in enumerate(notes) if n]
    assert [grid.contents[c] for c in noted] == [Kind.NOTES] * len(noted)
    exact = [c for c in noted if grid.notes[c] == notes[c]]
    assert len(exact) >= 0.8 * len(noted), [(notes[c], grid.notes[c]) for c in noted]
    assert all(set(grid.notes[c]) <= set("123456") for c in noted)
    pen = "".join(map(str, truth.pen.ravel()))
    assert grid.handwritten == pen  # every entry read, and nothing else taken for one
    flagged = set(grid.wrong_entries) | {u.cell for u in grid.unsure_entries()}
    # the mistake is called wrong or asked about (as the benchmarks count a flag), and no
    # right entry is called wrong
    assert {(c // 6, c % 6) for c in flagged} == set(truth.mistakes)
    assert {(c // 6, c % 6) for c in grid.wrong_entries} <= set(truth.mistakes)


def test_read_json_gives_a_small_grids_notes(page: tuple[Path, Any]) -> None:
    path, made = page
    done = runner.invoke(app, ["read", "--json", str(path)])
    assert done.exit_code == 0, done.output
    (photo,) = json.loads(done.stdout)
    (grid,) = photo["grids"]
    truth = made.photo.truth
    assert len(grid["notes"]) == 36 and len(grid["contents"]) == 36
    expected = ["notes" if n else "" for n in truth.notes.ravel()]
    assert ["notes" if k == "notes" else "" for k in grid["contents"]] == expected


def test_check_with_a_hint_on_a_half_solved_6x6_gives_the_next_step(
    page: tuple[Path, Any], tmp_path: Path
) -> None:
    path, made = page
    out = tmp_path / "checked.png"
    done = runner.invoke(app, ["check", "--hint", str(path), "-o", str(out)])
    assert done.exit_code == 0, done.output
    ((row, col),) = made.photo.truth.mistakes
    name = f"r{row + 1}c{col + 1}"  # the mistake, called wrong or asked about
    assert f"1 entry wrong ({name})" in done.stdout or f"1 unsure ({name}:" in done.stdout
    (line,) = [t for t in done.stdout.splitlines() if t.startswith("next: ")]
    assert "no hint" not in line and "single" in line.lower(), line
    doc = runner.invoke(app, ["check", "--hint", "--json", str(path), "-o", str(out)])
    step = json.loads(doc.stdout)["grids"][0]["next"]
    assert step["status"] == "step" and step["step"]["placements"], step
    for placed in step["step"]["placements"]:
        row, col = map(int, str(placed["cell"])[1:].split("c"))
        assert 1 <= row <= 6 and 1 <= col <= 6
        cell = (row - 1) * 6 + col - 1
        assert made.answer[cell] == placed["value"] and made.photo.truth.givens.ravel()[cell] == 0


def test_check_with_a_hint_on_the_6x6_sample_gives_a_step(tmp_path: Path) -> None:
    done = runner.invoke(app, ["check", "--hint", str(SAMPLE), "-o", str(tmp_path / "c.png")])
    assert done.exit_code == 0, done.output
    assert "23 cells left" in done.stdout
    assert "next: Naked single" in done.stdout or "next: Hidden single" in done.stdout


# ----------------------------------------------------------------------------- the parts


def test_a_grid_straightened_again_from_its_page_is_the_same_and_finer() -> None:
    page = drawn_grid(6)
    found = find_small_grid(page, config=DEFAULT_SMALL_GRID_CONFIG)
    assert found is not None and found.size == 6
    warped = found.detection.warped
    whole = ScaledImage(page, 1)
    again = straightened(found.detection, warped.shape[0], whole, whole)
    assert np.abs(again.astype(int) - warped.astype(int)).max() <= 1
    fine = straightened(found.detection, 3 * warped.shape[0], whole, whole)
    shrunk = cv2.resize(fine, warped.shape[::-1], interpolation=cv2.INTER_AREA)
    assert np.abs(shrunk.astype(int) - warped.astype(int)).mean() < 3
    with pytest.raises(ValueError, match="side"):
        straightened(found.detection, 4, whole, whole)


def test_a_point_of_a_finer_decode_maps_onto_the_page() -> None:
    page = ScaledImage(np.zeros((10, 10, 3), np.uint8), 4, (1.5, 1.5))
    finer = ScaledImage(np.zeros((40, 40, 3), np.uint8), 1)
    to_page = page_to_finer(page, finer)
    point = np.array([21.5, 9.5, 1.0])
    mapped = to_page @ point
    assert np.allclose(page.to_full(mapped[:2]), finer.to_full(point[:2]))


def test_notes_likelier_than_any_one_digit_are_taken_for_notes() -> None:
    classifier = DigitClassifier()
    classes = len(classifier.config.class_names)
    probs = np.zeros((3, classes), np.float32)
    probs[0, NOTES_CLASS] = 0.38  # the rest spread over digits: notes are likeliest
    probs[0, 1:7] = probs[0, 10:16] = 0.62 / 12
    probs[1, NOTES_CLASS], probs[1, 3] = 0.38, 0.62  # a 3 is likelier
    probs[2, NOTES_CLASS], probs[2, 9] = 0.38, 0.62  # a 9 is no digit of a 6×6
    taken = notes_probability(classifier, probs, classifier.digit_probs(probs), 6, NOTES_FROM)
    assert taken is not None
    assert taken[0] == pytest.approx(NOTES_FROM) and taken[1] == pytest.approx(0.38)
    assert taken[2] == pytest.approx(NOTES_FROM)


def test_noted_digits_past_the_size_are_left_out() -> None:
    scores = CellScores(
        np.zeros((3, 19), np.float32), note_digits=("126", "47", ""), notes_sure=(True,) * 3
    )
    kept = within_size(scores, 6)
    assert kept.note_digits == ("126", "4", "")
    assert kept.notes_sure == (True, False, True)
