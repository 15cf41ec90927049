"""16×16 Sudokus from a photo: the grid (4×4 boxes) found by its 17 lines each way, the
numbers 1-16 read as one or two glyphs, solved, drawn, and said by `sudokucam read /
solve`; 9×9 grids never taken for one."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from sudokucam.ui.cli import app
from sudokucam.vision.draw import draw_digits
from sudokucam.vision.load import ScaledImage
from sudokucam.vision.pipeline import Reader, cut_off, solved_inside
from sudokucam.vision.results import PhotoResult
from sudokucam.vision.small.read import problems_of, solve_small
from sudokucam.vision.small.sixteen import (
    SIXTEEN,
    completed,
    find_sixteen_grid,
    number_probs,
    solve_sixteen,
    straightened_from,
)
from sudokucam.vision.small.sixteen_config import SixteenConfig
from sudokucam.vision.types import CellReading, Kind, digit_values, digits_of

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "samples" / "sixteen" / "magazine.jpg"
DEMO = REPO / "samples" / "printed" / "demo.jpg"
runner = CliRunner()


@pytest.fixture(scope="module")
def truth() -> dict[str, Any]:
    return json.loads(SAMPLE.with_suffix(".json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def read_sample() -> PhotoResult:
    return Reader().read(SAMPLE)


def drawn_grid(n: int, box: int, cell: int = 40) -> np.ndarray:
    """A white page with an n × n grid drawn: thin lines, thick ones every ``box`` cells
    and a thick border."""
    margin, side = 100, n * cell
    page = np.full((side + 2 * margin, side + 2 * margin, 3), 250, np.uint8)
    for i in range(n + 1):
        at = margin + i * cell
        width = 5 if i % box == 0 else 1
        cv2.line(page, (margin, at), (margin + side, at), (20, 20, 20), width)
        cv2.line(page, (at, margin), (at, margin + side), (20, 20, 20), width)
    return page


def log_probs(*digits: int) -> np.ndarray:
    """(D, 10) log-probabilities of glyphs each surely the digit given (0-9)."""
    probs = np.full((len(digits), 10), 1e-6)
    probs[np.arange(len(digits)), digits] = 1.0
    return np.log(probs)


def test_a_16x16_grid_is_found_with_its_lines() -> None:
    page = drawn_grid(16, 4)
    found = find_sixteen_grid(page)
    assert found is not None and found.size == 16
    expected = 100 + 40 * np.arange(17)
    assert np.abs(found.detection.lattice[0, :, 0] - expected).max() < 3
    assert np.abs(found.detection.lattice[:, 0, 1] - expected).max() < 3


@pytest.mark.parametrize(("n", "box"), [(9, 3), (8, 4), (12, 4)])
def test_other_grids_are_never_a_16x16(n: int, box: int) -> None:
    assert find_sixteen_grid(drawn_grid(n, box)) is None


def test_a_page_of_a_16x16_is_read_as_one_not_as_one_of_its_boxes() -> None:
    page = drawn_grid(16, 4)
    found = Reader().find_other_size(page)  # a box alone passes for a 4×4
    assert found is not None and found.size == 16
    result = Reader().read(page)  # empty: no single answer, but a 16×16 (no KenKen)
    assert [g.structure.size for g in result.grids] == [16]
    assert result.grids[0].status == "multiple_solutions"


def test_no_16x16_is_looked_for_when_disabled() -> None:
    assert find_sixteen_grid(drawn_grid(16, 4), config=SixteenConfig(enabled=False)) is None


def test_a_cell_number_is_one_glyph_or_a_1_and_another() -> None:
    assert int(np.argmax(number_probs(log_probs(), 0.02))) == 0
    assert int(np.argmax(number_probs(log_probs(7), 0.02))) == 7
    assert int(np.argmax(number_probs(log_probs(1, 6), 0.02))) == 16
    assert int(np.argmax(number_probs(log_probs(1, 0), 0.02))) == 10
    seventeen = number_probs(log_probs(1, 7), 0.02)  # past 16: never read
    assert seventeen.shape == (17,) and seventeen[1:10].sum() == 0
    assert abs(float(seventeen.sum()) - 1) < 1e-9


def test_numbers_past_9_are_written_as_letters_and_back() -> None:
    values = (0, 1, 9, 10, 16)
    assert digits_of(values) == "019AG"
    assert digit_values("019AG") == values


def test_a_two_digit_answer_is_drawn_in_its_cell() -> None:
    page = drawn_grid(16, 4)
    lattice = find_sixteen_grid(page)
    assert lattice is not None
    drawn = draw_digits(page, lattice.detection.lattice, {0: 16})
    changed = np.argwhere(np.abs(drawn.astype(int) - page.astype(int)).max(axis=2) > 60)
    assert changed.size and changed.min(axis=0).min() >= 100 - 2
    assert changed.max(axis=0).max() <= 140 + 2  # inside r1c1 (100-140 px)
    with pytest.raises(ValueError, match="1-16"):
        draw_digits(page, lattice.detection.lattice, {0: 17})


def test_a_grid_past_the_photo_edge_is_cut_off(read_sample: PhotoResult) -> None:
    result = read_sample
    assert not cut_off(result.grids, (1600, 1200), 0.01)
    assert cut_off(result.grids, (1000, 1200), 0.01)
    assert not cut_off((), (1600, 1200), 0.01)


def test_a_puzzle_solved_with_empty_cells_inside_the_photo_is_not_looked_at_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 9×9 puzzle whose last column the frame cuts, solved with empty cells of its own
    inside the photo: no answer grid cut off, so no 16×16 is looked for (it cost some
    170 ms); a grid whose only empty cells lie past the edge (yesterday's answer) still
    counts as cut off."""
    photo = cv2.imread(str(DEMO))
    assert photo is not None
    right = Reader().read(photo).grids[0].detection.corners[1:3, 0].min()  # the right side
    crop = np.ascontiguousarray(photo[:, : int(right) - 20])
    size = (crop.shape[1], crop.shape[0])
    looked: list[bool] = []

    def small_grids(*_: object, **__: object) -> tuple[()]:
        """Notes that the photo was looked at for a grid of another size."""
        looked.append(True)
        return ()

    monkeypatch.setattr(Reader, "small_grids", small_grids)
    grids = Reader().read(crop).grids
    assert len(grids) == 1 and grids[0].solution is not None
    assert cut_off(grids, size, 0.01) and solved_inside(grids, size)
    assert not looked
    shown = "".join("0" if c % 9 == 8 else d for c, d in enumerate(grids[0].solution))
    assert not solved_inside((replace(grids[0], givens=shown),), size)


def test_the_16x16_sample_is_read_exactly_and_solved(
    truth: dict[str, Any], read_sample: PhotoResult
) -> None:
    result = read_sample
    assert len(result.grids) == 1
    grid = result.grids[0]
    givens = digits_of(v for row in truth["givens"] for v in row)
    assert grid.givens == givens and "G" in givens  # 16 as printed
    assert grid.solution == truth["answer"]
    assert grid.message.startswith("16×16 Sudoku: solved")
    data: dict[str, Any] = grid.to_dict()
    assert data["size"] == 16 and data["symbols"] == "123456789ABCDEFG"
    assert data["regions"][4] == "5555666677778888" and len(data["contents"]) == 256
    photo = cv2.imread(str(SAMPLE))
    assert photo is not None and result.draw().shape == photo.shape
    corners = np.asarray(truth["corners"])
    assert np.abs(grid.detection.corners - corners).max() < 6


@pytest.mark.parametrize("turn", [cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180])
def test_the_16x16_sample_turned_is_read_exactly_the_right_way_up(
    truth: dict[str, Any], turn: int
) -> None:
    """The committed 16×16 photographed sideways or upside down: its 4×4 boxes look the
    same any way up, the numbers say which way is up; read exactly, row 1 the puzzle's."""
    photo = cv2.imread(str(SAMPLE))
    assert photo is not None
    result = Reader().read(cv2.rotate(photo, turn))
    assert len(result.grids) == 1
    grid = result.grids[0]
    assert grid.givens == digits_of(v for row in truth["givens"] for v in row)
    assert grid.solution == truth["answer"]
    height, width = photo.shape[:2]
    x, y = np.asarray(truth["corners"], np.float64).T
    sideways = turn == cv2.ROTATE_90_CLOCKWISE
    turned = (height - 1 - y, x) if sideways else (width - 1 - x, height - 1 - y)
    assert np.abs(grid.detection.corners - np.stack(turned, axis=1)).max() < 6


def test_read_and_solve_a_16x16_photo_on_the_command_line(tmp_path: Path, truth: Any) -> None:
    done = runner.invoke(app, ["read", "--json", str(SAMPLE)])
    assert done.exit_code == 0, done.output
    (photo,) = json.loads(done.stdout)
    assert photo["grids"][0]["solution"] == truth["answer"] and photo["grids"][0]["size"] == 16
    out = tmp_path / "solved.png"
    done = runner.invoke(app, ["solve", str(SAMPLE), "-o", str(out)])
    assert done.exit_code == 0, done.output
    assert "+-------------+-------------+" in done.stdout
    first = [digit_values(ch)[0] for ch in truth["answer"][:4]]
    assert "| " + " ".join(f"{v:>2}" for v in first) + " |" in done.stdout
    before, after = cv2.imread(str(SAMPLE)), cv2.imread(str(out))
    assert before is not None and after is not None and after.shape == before.shape
    assert np.abs(after.astype(int) - before.astype(int)).max() > 100  # the answer drawn


def test_the_app_reader_looks_for_a_16x16_too() -> None:
    from sudokucam.ui.app.state import backend

    reader = backend.shared_reader()  # its board draws 16×16s (tests/test_app_small.py)
    found = reader.find_other_size(drawn_grid(16, 4))
    assert found is not None and found.size == 16


def test_numbers_misread_past_the_next_likeliest_are_repaired_by_the_answer(
    truth: dict[str, Any],
) -> None:
    givens = np.array([v for row in truth["givens"] for v in row])
    probs = np.zeros((256, 17))
    probs[np.arange(256), givens] = 0.99
    wrong = [int(c) for c in np.nonzero(givens >= 10)[0][::15][:3]]  # the rest: one answer
    for c in wrong:  # a 10-16 read as another two-digit number, the truth almost ruled out
        read = 10 + (givens[c] - 9) % 7
        probs[c] = 0.0
        probs[c, read], probs[c, 1 + read % 16], probs[c, givens[c]] = 0.8, 0.19, 0.01
    values = np.argmax(probs, axis=1)
    kinds = np.where(values > 0, int(Kind.PRINTED), int(Kind.EMPTY))
    reading = CellReading(probs.astype(np.float32), values, kinds.astype(np.int64))
    config = SixteenConfig()
    unhurried = replace(config, lines=replace(config.lines, time_limit_s=60.0))  # a busy CI
    outcome = solve_sixteen(reading, unhurried)
    assert outcome.status == "solved" and outcome.solution == truth["answer"]
    assert sorted(r.cell for r in outcome.repairs) == sorted(wrong)
    assert outcome.givens == digits_of(givens)


def test_a_16x16_reads_problems_in_numbers_as_printed() -> None:
    """Two 12s read in one box: the message names 12 as the page prints it (not the
    JSON string's C), and the JSON names the cells on the 16×16."""
    values = [0] * 256
    values[0] = values[17] = 12
    result = solve_small(tuple(values), SIXTEEN, 5.0)
    problems = problems_of(result, SIXTEEN)
    assert [p.text for p in problems] == ["r1c1 and r2c2 both hold 12"]
    assert problems[0].to_dict(SIXTEEN)["cells"] == ["r1c1", "r2c2"]


def test_a_16x16_found_in_a_coarse_decode_is_cut_again_from_a_finer_one() -> None:
    full = drawn_grid(16, 4)
    half = cv2.resize(full, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    coarse, fine = ScaledImage(half, 2, (0.5, 0.5)), ScaledImage(full, 1)  # centres
    found, direct = find_sixteen_grid(half), find_sixteen_grid(full)
    assert found is not None and direct is not None
    again = straightened_from(found, coarse, fine).detection.warped
    assert again.shape == direct.detection.warped.shape
    blurred = np.abs(found.detection.warped.astype(int) - direct.detection.warped.astype(int))
    assert np.abs(again.astype(int) - direct.detection.warped.astype(int)).mean() < blurred.mean()


def test_a_completion_search_past_its_deadline_is_no_completion() -> None:
    """The open-least repair's search of an almost empty 16×16 stopped by its deadline gives
    no completion (the photo is refused), never the solver's timeout as a traceback."""
    values = (1, *([0] * 255))
    logs = np.zeros((256, 17))
    assert completed(values, [0], logs, limit=1000, deadline=time.monotonic() - 1.0) is None
