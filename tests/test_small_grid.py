"""Small Sudokus from a photo: the 6×6 grid (2×3 boxes) found by its lines, read, solved,
drawn, and said by `sudokucam read / solve`; 9×9 grids never taken for one."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from sudokucam.samples import render
from sudokucam.solver.geometry import BOX_SHAPES
from sudokucam.ui.cli import app
from sudokucam.vision.draw import cell_quad, check_lattice
from sudokucam.vision.pipeline import PipelineConfig, Reader
from sudokucam.vision.repair import DEFAULT_REPAIR_CONFIG
from sudokucam.vision.small.config import DEFAULT_SMALL_GRID_CONFIG, SmallGridConfig
from sudokucam.vision.small.find import find_small_grid, line_width
from sudokucam.vision.small.read import mask_digits

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "samples" / "small" / "six_book.jpg"
runner = CliRunner()
UPRIGHT_ONLY = SmallGridConfig(sideways=False)


@pytest.fixture(scope="module")
def truth() -> dict[str, Any]:
    return json.loads(SAMPLE.with_suffix(".json").read_text(encoding="utf-8"))


def drawn_grid(n: int, thick_every: tuple[int, int] | None = None, cell: int = 50) -> np.ndarray:
    """A white page with an n × n grid drawn: thin lines, thick ones every (rows, columns)
    of ``thick_every`` (the standard boxes when None), and a thick border."""
    box_rows, box_cols = thick_every or BOX_SHAPES[n]
    margin, side = 120, n * cell
    page = np.full((side + 2 * margin, side + 2 * margin, 3), 250, np.uint8)
    for i in range(n + 1):
        at = margin + i * cell
        across = 5 if i in (0, n) or i % box_rows == 0 else 1
        down = 5 if i in (0, n) or i % box_cols == 0 else 1
        cv2.line(page, (margin, at), (margin + side, at), (20, 20, 20), across)
        cv2.line(page, (at, margin), (at, margin + side), (20, 20, 20), down)
    return page


@pytest.mark.parametrize("n", [4, 6, 8])
def test_a_small_grid_is_found_with_its_size_and_lines(n: int) -> None:
    found = find_small_grid(drawn_grid(n))
    assert found is not None and found.size == n
    lattice = found.detection.lattice
    assert lattice.shape == (n + 1, n + 1, 2)
    expected = 120 + 50 * np.arange(n + 1)
    assert np.abs(lattice[0, :, 0] - expected).max() < 3
    assert np.abs(lattice[:, 0, 1] - expected).max() < 3
    assert found.detection.warped.shape == (n * 40, n * 40)


def test_a_9x9_grid_is_never_a_small_one() -> None:
    assert find_small_grid(drawn_grid(9)) is None


def test_a_9x9_grid_missing_a_border_line_is_never_a_small_one() -> None:
    """A 9×9 grid whose top border did not print (or was cut off) holds 8 rows of cells
    under 9 lines: not an 8×8 (its columns are ninths), and not a 9×9 part taken alone."""
    page = drawn_grid(9)
    page[112:128, 100:-100] = 250  # the top border line gone
    assert find_small_grid(page) is None


def test_a_6x6_block_of_a_9x9_grid_is_not_a_6x6_sudoku() -> None:
    """Six cells of a 9×9 grid have their thick line in the middle both ways: 3×3 boxes,
    not a 6×6's 2 rows × 3 columns."""
    assert find_small_grid(drawn_grid(6, thick_every=(3, 3))) is None


@pytest.mark.parametrize(("n", "sideways"), [(6, (3, 2)), (8, (4, 2))])
def test_a_small_grid_drawn_sideways_is_found_and_turned_upright(
    n: int, sideways: tuple[int, int]
) -> None:
    """A page turned a quarter turn shows a 6×6's boxes as 3 rows × 2 columns: found, and
    its detection turned so that its boxes are 2 × 3 again (the reader finds which way)."""
    found = find_small_grid(drawn_grid(n, thick_every=sideways))
    assert found is not None and found.size == n
    ink = 255.0 - found.detection.warped
    cell = ink.shape[0] // n
    for profile, box in zip((ink.sum(axis=1), ink.sum(axis=0)), BOX_SHAPES[n], strict=True):
        lines = [profile[i * cell - 4 : i * cell + 5].sum() for i in range(1, n)]
        boxes = [v for i, v in enumerate(lines, 1) if i % box == 0]
        others = [v for i, v in enumerate(lines, 1) if i % box != 0]
        assert min(boxes) > 1.5 * max(others)  # the box lines are the thick ones
    if n == 6:  # upright boxes only: 3 × 2 boxes are no 6×6 (an 8×8's pass both ways)
        assert find_small_grid(drawn_grid(n, thick_every=sideways), config=UPRIGHT_ONLY) is None


@pytest.mark.parametrize(
    "turn", [cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE]
)
def test_the_6x6_sample_turned_is_read_exactly_the_right_way_up(
    truth: dict[str, Any], turn: int
) -> None:
    """The committed 6×6 photographed sideways or upside down: read exactly, row 1 the
    puzzle's row 1 (its corners where the turned photo has them)."""
    photo = cv2.imread(str(SAMPLE))
    assert photo is not None
    result = Reader().read(cv2.rotate(photo, turn))
    assert len(result.grids) == 1
    grid = result.grids[0]
    assert grid.givens == truth["puzzle"]["givens"].replace(".", "0")
    assert grid.solution == truth["answer"]
    height, width = photo.shape[:2]
    x, y = np.asarray(truth["corners"], np.float64).T
    turned = {
        cv2.ROTATE_90_CLOCKWISE: (height - 1 - y, x),
        cv2.ROTATE_180: (width - 1 - x, height - 1 - y),
        cv2.ROTATE_90_COUNTERCLOCKWISE: (y, width - 1 - x),
    }[turn]
    assert np.abs(grid.detection.corners - np.stack(turned, axis=1)).max() < 6


def test_digits_above_the_size_are_ruled_out() -> None:
    probs = np.full((2, 19), 1 / 19)
    kept = mask_digits(probs, 6)
    assert np.allclose(kept.sum(axis=1), 1.0)
    assert not kept[:, 7:10].any() and not kept[:, 16:19].any()
    assert kept[0, 6] > 0 and kept[0, 15] > 0


def test_a_small_lattice_is_drawn_cell_by_cell() -> None:
    lattice = np.stack(np.meshgrid(np.arange(7.0), np.arange(7.0)), axis=-1) * 10
    assert check_lattice(lattice).shape == (7, 7, 2)
    assert cell_quad(lattice, 35).tolist() == [[50, 50], [60, 50], [60, 60], [50, 60]]
    with pytest.raises(ValueError, match="cell must be 0-35"):
        cell_quad(lattice, 36)


def test_the_6x6_sample_is_read_exactly_and_solved(truth: dict[str, Any]) -> None:
    result = Reader().read(SAMPLE)
    assert len(result.grids) == 1
    grid = result.grids[0]
    assert grid.givens == truth["puzzle"]["givens"].replace(".", "0")
    assert grid.solution == truth["answer"]
    assert grid.message.startswith("6×6 Sudoku: solved")
    data: dict[str, Any] = grid.to_dict()
    assert data["size"] == 6 and data["symbols"] == "123456" and data["variant"] == "classic"
    assert data["regions"] == ["111222", "111222", "333444", "333444", "555666", "555666"]
    assert len(data["contents"]) == 36 and data["check"]["empty"] == 36 - 13
    photo = cv2.imread(str(SAMPLE))
    assert photo is not None and result.draw().shape == photo.shape
    corners = np.asarray(truth["corners"])
    assert np.abs(grid.detection.corners - corners).max() < 6


def test_read_and_solve_a_6x6_photo_on_the_command_line(tmp_path: Path, truth: Any) -> None:
    done = runner.invoke(app, ["read", "--json", str(SAMPLE)])
    assert done.exit_code == 0, done.output
    (photo,) = json.loads(done.stdout)
    assert photo["grids"][0]["solution"] == truth["answer"] and photo["grids"][0]["size"] == 6
    out = tmp_path / "solved.png"
    done = runner.invoke(app, ["solve", str(SAMPLE), "-o", str(out)])
    assert done.exit_code == 0, done.output
    assert "+-------+-------+" in done.stdout
    first_row = " ".join(truth["answer"][:3]) + " | " + " ".join(truth["answer"][3:6])
    assert f"| {first_row} |" in done.stdout
    before, after = cv2.imread(str(SAMPLE)), cv2.imread(str(out))
    assert before is not None and after is not None and after.shape == before.shape
    assert np.abs(after.astype(int) - before.astype(int)).max() > 100  # the answer drawn


def test_an_empty_6x6_grid_is_read_as_one_without_a_single_answer() -> None:
    result = Reader().read(drawn_grid(6))
    assert result.error is None and len(result.grids) == 1
    grid = result.grids[0]
    assert grid.structure.size == 6 and grid.givens == "0" * 36
    assert grid.status == "multiple_solutions" and grid.solution is None
    assert grid.message.startswith("6×6 Sudoku: multiple solutions")


def test_an_8x8_taken_for_a_9x9_solved_by_calling_print_pen_is_read_as_8x8() -> None:
    """The 9×9 finder lays its lattice over this 8×8 and a line beside it, and "solves"
    that by taking printed digits for pen: the photo is looked at for a small grid too."""
    made = render.render_small_photo(706, 8, "shaded")
    grid = Reader().read(made.photo.image).grids[0]
    assert grid.structure.size == 8 and grid.message.startswith("8×8 Sudoku: solved")
    assert grid.solution == "".join(map(str, made.answer))


def jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """The image as its JPEG file gives it back (as a rendered photo is sent)."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR))


@pytest.mark.parametrize(
    ("seed", "style", "turn"),
    [(701, "book", cv2.ROTATE_180), (700, "newspaper", cv2.ROTATE_90_COUNTERCLOCKWISE)],
    ids=["180", "90ccw"],
)
def test_an_8x8_turned_and_taken_for_a_9x9_solved_by_unlikely_repairs_is_read_as_8x8(
    seed: int, style: str, turn: int
) -> None:
    """Turned, the page's heading lies beside the 8×8: the 9×9 finder lays its lattice
    over the 8×8's lines and that edge, and its digits pass for a 9×9 puzzle once two
    are "repaired" to digits the model gave 0-4 %. The photo is looked at for a small
    grid too (``SmallGridConfig.unlikely_repair``), which reads with no repair, and the
    9×9 repair itself takes no digit under 5 % (``RepairConfig.min_digit_probability``) and
    gives no answer where an as-likely repair gives another (``tie_log_loss``); with those
    guards off it is read as before. An 8×8's lines pass for boxes lying either
    way, so every quarter turn is read."""
    made = render.render_small_photo(seed, 8, style)
    image = cv2.rotate(jpeg(made.photo.image, made.photo.jpeg_quality), turn)
    grid = Reader().read(image).grids[0]
    assert grid.structure.size == 8 and grid.message.startswith("8×8 Sudoku: solved")
    assert grid.solution == "".join(map(str, made.answer))
    off = PipelineConfig(
        small=replace(DEFAULT_SMALL_GRID_CONFIG, unlikely_repair=0.0),
        repair=replace(DEFAULT_REPAIR_CONFIG, min_digit_probability=0.0, tie_log_loss=0.0),
    )
    as_nine = Reader(config=off).read(image).grids[0]
    assert as_nine.structure.size == 9 and as_nine.repairs  # what it was read as before


def test_an_8x8s_lines_pass_for_boxes_either_way_a_6x6s_do_not() -> None:
    eight = find_small_grid(drawn_grid(8))
    six = find_small_grid(drawn_grid(6))
    assert eight is not None and eight.both_ways
    assert six is not None and not six.both_ways


def test_a_line_width_is_measured_below_a_pixel() -> None:
    """A box line 2.9 pixels wide whose edges fall half on a pixel is thicker than a cell
    line 2.1 pixels wide centred on one, though fewer of its pixels reach half its peak:
    counted so, a shaded 8×8's box lines passed for thinner than its cell lines."""
    box = np.array([0.0, 0.45, 1.0, 1.0, 0.45, 0.0])
    cell = np.array([0.0, 0.0, 0.55, 1.0, 0.55, 0.0, 0.0])
    assert line_width(box, 2.5, 3.0) == pytest.approx(2.9)
    assert line_width(cell, 3.0, 3.0) == pytest.approx(2.1)
    assert line_width(np.zeros(7), 3.0, 3.0) == 0.0


@pytest.mark.parametrize("seed", [802, 809])
def test_an_8x8_half_solved_in_pen_on_shaded_boxes_is_read_as_8x8(seed: int) -> None:
    """Both pages were read as a 9×9 with no answer: on 809 the small-grid finder, in the
    photo decoded finer for the 9×9, measured a box line thinner than the cell lines (a
    whole-pixel width); on 802 two neat blue pen 7s passed for print until their ink's
    tint was weighed (the ink-colour step), and clashed with the printed 7s."""
    made = render.render_small_photo(seed, 8, "shaded", pen_fill=0.4, pen_mistakes=1)
    grid = Reader().read(jpeg(made.photo.image, made.photo.jpeg_quality)).grids[0]
    assert grid.structure.size == 8 and grid.message.startswith("8×8 Sudoku: solved")
    assert grid.solution == "".join(map(str, made.answer))
    truth = made.photo.truth
    assert grid.givens == "".join(str(int(v)) for v in truth.givens.ravel())
    assert grid.handwritten == "".join(str(int(v)) for v in truth.pen.ravel())


def test_a_4x4s_pen_strokes_midway_between_its_lines_are_no_line() -> None:
    """A column of pen 1s, 0.6 of a 4×4's cell high, is longer than 0.85 of a ninth of
    the grid (the 9×9's cell) but not of the 4×4's own cell: it is no line between the
    grid's lines, and the grid is found (with pen, 2 of 24 rendered 4×4 pages were not)."""
    page = drawn_grid(4)
    for row in range(4):
        x, y = 120 + 75, 120 + row * 50 + 25  # the middle of column 2's cells
        cv2.line(page, (x, y - 15), (x, y + 15), (120, 40, 60), 3)
    found = find_small_grid(page)
    assert found is not None and found.size == 4
