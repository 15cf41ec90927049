"""Drawing onto the photo: every mark lands inside its own cell, in the grid's perspective."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sudokucam.vision.draw import DrawConfig, answer_color, cell_quad, draw_digits, draw_rings
from sudokucam.vision.grid.warp import homography_to_square, lattice_from_inverse

PAPER = 200


def tilted_lattice() -> np.ndarray:
    """The (10, 10, 2) lattice of a grid photographed at a slant."""
    corners = np.array([[140, 70], [560, 110], [600, 450], [90, 420]], dtype=np.float64)
    inverse = np.linalg.inv(homography_to_square(corners, 360.0))
    return lattice_from_inverse(inverse, 40.0)


def bent_lattice() -> np.ndarray:
    """A lattice whose rows sag like a curved page (no single homography fits it)."""
    lat = tilted_lattice().copy()
    lat[..., 1] += 12.0 * np.sin(np.linspace(0, np.pi, 10))[None, :]
    return lat


def cell_mask(shape: tuple[int, ...], lattice: np.ndarray, cell: int, grow: int) -> np.ndarray:
    """Boolean mask of one cell's quad, grown by ``grow`` pixels for anti-aliasing."""
    mask = np.zeros(shape[:2], dtype=np.uint8)
    cv2.fillConvexPoly(mask, np.round(cell_quad(lattice, cell)).astype(np.int32), 1)
    if grow:
        kernel = np.ones((2 * grow + 1, 2 * grow + 1), np.uint8)
        return cv2.dilate(mask, kernel).astype(bool)
    return mask.astype(bool)


def inked(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Where drawing changed the photo by more than a trace."""
    return np.abs(after.astype(int) - before.astype(int)).max(axis=2) > 8


@pytest.mark.parametrize("lattice", [tilted_lattice(), bent_lattice()], ids=["tilted", "bent"])
def test_digits_land_inside_their_cells(lattice: np.ndarray) -> None:
    photo = np.full((480, 640, 3), PAPER, dtype=np.uint8)
    digits = {0: 1, 8: 9, 40: 5, 44: 8, 72: 7, 80: 3}
    out = draw_digits(photo, lattice, digits)
    assert out.shape == photo.shape and out.dtype == np.uint8
    ink = inked(photo, out)
    allowed = np.zeros(ink.shape, dtype=bool)
    for cell in digits:
        inside = cell_mask(photo.shape, lattice, cell, grow=0)
        assert (ink & inside).sum() > 0.04 * inside.sum(), f"cell {cell} holds too little ink"
        allowed |= cell_mask(photo.shape, lattice, cell, grow=1)
    assert not (ink & ~allowed).any(), "ink outside the cells it belongs to"


def test_each_digit_sits_near_its_cell_centre() -> None:
    lattice = tilted_lattice()
    photo = np.full((480, 640, 3), PAPER, dtype=np.uint8)
    for cell in (0, 13, 67):
        ink = inked(photo, draw_digits(photo, lattice, {cell: 4}))
        ys, xs = np.nonzero(ink)
        quad = cell_quad(lattice, cell)
        side = np.linalg.norm(quad[1] - quad[0])
        assert np.hypot(xs.mean() - quad[:, 0].mean(), ys.mean() - quad[:, 1].mean()) < 0.2 * side


def test_digits_use_the_answer_colour() -> None:
    config = DrawConfig()
    photo = np.full((480, 640, 3), 255, dtype=np.uint8)
    out = draw_digits(photo, tilted_lattice(), {40: 8}, config=config)
    darkest = out.reshape(-1, 3)[np.argmin(out.reshape(-1, 3).sum(axis=1))]
    expected = np.array(config.answer_color) * config.opacity + 255 * (1 - config.opacity)
    assert np.abs(darkest.astype(float) - expected).max() < 8


def test_the_answer_is_light_on_a_grid_drawn_light_on_dark() -> None:
    """A grid of light lines on a dark ground (a screen in dark mode) gets the light answer
    colour; dark lines get the usual one, also on a dim, grey photo of paper."""
    config, lattice = DrawConfig(), tilted_lattice()
    for ground, lines, expected in ((25, 230, config.answer_on_dark_color),
                                    (PAPER, 20, config.answer_color),
                                    (90, 30, config.answer_color)):  # fmt: skip
        photo = np.full((480, 640, 3), ground, dtype=np.uint8)
        for row in lattice:
            cv2.polylines(photo, [np.round(row).astype(np.int32)], False, (lines,) * 3, 3)
        for column in lattice.transpose(1, 0, 2):
            cv2.polylines(photo, [np.round(column).astype(np.int32)], False, (lines,) * 3, 3)
        assert answer_color(photo, lattice, config) == expected


def test_rings_land_inside_their_cells() -> None:
    lattice = bent_lattice()
    photo = np.full((480, 640, 3), PAPER, dtype=np.uint8)
    out = draw_rings(photo, lattice, [3, 50], (0, 0, 255))
    ink = inked(photo, out)
    allowed = cell_mask(photo.shape, lattice, 3, 1) | cell_mask(photo.shape, lattice, 50, 1)
    assert not (ink & ~allowed).any()
    for cell in (3, 50):
        quad = cell_quad(lattice, cell)
        cx, cy = np.round(quad.mean(axis=0)).astype(int)
        assert not ink[cy, cx], "a ring leaves the middle of the cell (the entry) clear"
        assert (ink & cell_mask(photo.shape, lattice, cell, 0)).any()


def test_gray_and_cut_off_photos_keep_their_size() -> None:
    lattice = tilted_lattice() + np.array(
        [300.0, 0.0]
    )  # the right part of the grid is off the photo
    gray = np.full((480, 640), PAPER, dtype=np.uint8)
    out = draw_digits(gray, lattice, {c: 1 + c % 9 for c in range(81)})
    assert out.shape == (480, 640, 3)
    assert inked(cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR), out).any()


def test_misuse_is_refused() -> None:
    photo = np.zeros((50, 50, 3), dtype=np.uint8)
    with pytest.raises(ValueError, match="lattice"):
        draw_digits(photo, np.zeros((8, 8, 2)), {0: 1})  # 7 cells a side: no Sudoku
    with pytest.raises(ValueError, match="digits"):
        draw_digits(photo, tilted_lattice(), {0: 10})
    with pytest.raises(ValueError, match="cell"):
        draw_digits(photo, tilted_lattice(), {81: 1})
    with pytest.raises(TypeError, match="image"):
        draw_digits(photo.astype(np.float32), tilted_lattice(), {0: 1})
