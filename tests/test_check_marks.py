"""Check marks: photos, live video and the app ring cells through one function, one palette."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from sudokucam.ui.app.state.backend import outlined, unsure_cells
from sudokucam.vision.draw import (
    DEFAULT_DRAW_CONFIG,
    CheckMarks,
    Color,
    cell_quad,
    check_rings,
    draw_check_marks,
)
from sudokucam.vision.live.overlay import AnswerOverlay
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.results import GridResult

CELL = 48
PAPER = 225
SAME_COLOUR = 6  # at most this far (per channel, un-blended) from a palette colour
MARKS = CheckMarks(wrong=(0, 30), unsure=(40,), right=(52, 80))
PALETTE = {
    "wrong": DEFAULT_DRAW_CONFIG.wrong_color,
    "unsure": DEFAULT_DRAW_CONFIG.unsure_color,
    "right": DEFAULT_DRAW_CONFIG.right_color,
}


def flat_lattice(cell: int) -> np.ndarray:
    """(10, 10, 2) crossings of an upright grid of ``cell``-pixel cells at the origin."""
    steps = np.arange(10, dtype=np.float64) * cell
    xs, ys = np.meshgrid(steps, steps)
    return np.stack([xs, ys], axis=-1)


def ring_colour(before: np.ndarray, after: np.ndarray, lattice: np.ndarray, cell: int) -> str:
    """The palette name of the colour drawn in ``cell`` ('' where nothing was drawn,
    'other ...' for a colour not in it).

    The most changed pixel inside the cell is un-blended (drawn at ``opacity`` over the
    photo) before it is compared with the palette.
    """
    mask = np.zeros(before.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(cell_quad(lattice, cell)).astype(np.int32), 1)
    change = np.abs(after.astype(int) - before.astype(int)).max(axis=2) * mask
    if change.max() <= 8:
        return ""
    y, x = np.unravel_index(int(np.argmax(change)), change.shape)
    opacity = DEFAULT_DRAW_CONFIG.opacity
    drawn = (after[y, x].astype(float) - (1 - opacity) * before[y, x]) / opacity
    distance = {name: float(np.abs(drawn - colour).max()) for name, colour in PALETTE.items()}
    nearest = min(distance, key=lambda name: distance[name])
    return nearest if distance[nearest] <= SAME_COLOUR else f"other {np.round(drawn)}"


def expected_names(marks: CheckMarks) -> dict[int, str]:
    """{cell: palette name} of a check's marks."""
    return {
        **{c: "wrong" for c in marks.wrong},
        **{c: "unsure" for c in marks.unsure},
        **{c: "right" for c in marks.right},
    }


def named(before: np.ndarray, after: np.ndarray, lattice: np.ndarray) -> dict[int, str]:
    """{cell: palette name} of every cell something was drawn in."""
    names = {c: ring_colour(before, after, lattice, c) for c in range(81)}
    return {c: n for c, n in names.items() if n}


def live_drawn(marks: CheckMarks, frame: np.ndarray) -> np.ndarray:
    """``frame`` with a live overlay of ``marks`` warped onto an upright grid of CELL px."""
    overlay = AnswerOverlay(CELL)
    overlay.add_check_marks(marks)
    return overlay.draw(frame, np.diag([float(CELL), float(CELL), 1.0]))


def test_one_palette_names_each_mark() -> None:
    colours: list[Color] = [colour for _, colour in check_rings(MARKS)]
    assert colours == [PALETTE["wrong"], PALETTE["unsure"], PALETTE["right"]]
    assert len(set(colours)) == 3
    rings = dict(check_rings(MARKS))
    assert rings[MARKS.unsure] == DEFAULT_DRAW_CONFIG.unsure_color


def test_photos_and_live_video_ring_the_same_cells_in_the_same_colours() -> None:
    paper = np.full((9 * CELL + 8, 9 * CELL + 8, 3), PAPER, np.uint8)
    lattice = flat_lattice(CELL)
    photo = draw_check_marks(paper, lattice, MARKS)
    video = live_drawn(MARKS, paper)
    assert named(paper, photo, lattice) == expected_names(MARKS)
    assert named(paper, video, lattice) == expected_names(MARKS)


@pytest.fixture(scope="module")
def checked(samples_dir: Path) -> tuple[np.ndarray, GridResult]:
    """A committed half-filled page, read and checked by the photo reader."""
    image = cv2.imread(str(samples_dir / "progress" / "half_blue.jpg"))
    assert image is not None
    result = Reader().read(image)
    assert result.grids and result.grids[0].solution is not None
    return image, result.grids[0]


def test_a_checked_photo_and_its_live_overlay_ring_what_the_check_marks(
    checked: tuple[np.ndarray, GridResult],
) -> None:
    image, grid = checked
    marks = grid.check_marks()
    assert marks.wrong and marks.right  # the sample holds mistakes and right entries
    lattice = grid.detection.lattice
    assert named(image, grid.draw(image, "check"), lattice) == expected_names(marks)
    paper = np.full((9 * CELL + 8, 9 * CELL + 8, 3), PAPER, np.uint8)
    assert named(paper, live_drawn(marks, paper), flat_lattice(CELL)) == expected_names(marks)


def test_the_app_rings_unsure_digits_in_the_same_amber(
    checked: tuple[np.ndarray, GridResult],
) -> None:
    image, grid = checked
    doubtful = (20, 40, 60)  # inside the grid, away from its outline
    confidence = np.ones(81)
    confidence[list(doubtful)] = 0.1
    drawn = outlined(image, replace(grid, confidence=confidence))
    inside = {c for c in range(81) if 0 < c // 9 < 8 and 0 < c % 9 < 8}  # off the outline
    cells = named(image, drawn, grid.detection.lattice)
    assert {c: n for c, n in cells.items() if c in inside} == {c: "unsure" for c in doubtful}


def test_a_sure_digit_whose_ink_the_page_decided_is_not_ringed_unsure(samples_dir: Path) -> None:
    """webcam/pen's pen 7 at r1c9 looks printed to the digit model alone (its kind is
    settled by the pen's colour): its digit is sure, so the app does not ring it."""
    image = cv2.imread(str(samples_dir / "webcam" / "pen.jpg"))
    assert image is not None
    grid = Reader().read(image).grids[0]
    reading = grid.reading
    assert (grid.handwritten[8], grid.givens[8]) == ("7", "0")
    assert reading.probs[8, 7] > reading.probs[8, 16]  # the model alone: a printed 7
    assert grid.confidence[8] > 0.95
    assert 8 not in unsure_cells(grid)
