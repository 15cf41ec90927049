"""Sudoku X with drawn diagonal lines: the lines are taken out, the digits they cross kept."""

from __future__ import annotations

import numpy as np
import pytest

from sudokucam.samples.synth.variant_drawing import render_variant_photo
from sudokucam.vision.pipeline import default_reader
from sudokucam.vision.structure.config import DiagonalConfig
from sudokucam.vision.structure.lines import find_line, straight_fit, without_diagonal_lines

CELL = 40
SIDE = 9 * CELL
PAPER, LINE, INK = 245, 140, 15


def x_grid(shift: int) -> np.ndarray:
    """A white straightened grid, both diagonals drawn grey ``shift`` pixels below where
    they should be (a warp a little off), a black stroke crossing the middle cell."""
    img = np.full((SIDE, SIDE), PAPER, np.uint8)
    for k in range(0, SIDE + 1, CELL):
        img[:, max(k - 1, 0) : k + 1] = INK
        img[max(k - 1, 0) : k + 1, :] = INK
    for i in range(SIDE):
        for j in (i + shift, SIDE - 1 - i + shift):
            if 0 <= j < SIDE:
                img[j, i] = min(img[j, i], LINE)
                img[min(j + 1, SIDE - 1), i] = min(img[min(j + 1, SIDE - 1), i], LINE)
    middle = 4 * CELL
    img[middle + 8 : middle + 32, middle + 17 : middle + 22] = INK  # an upright stroke, a "1"
    return img


def test_the_line_is_found_where_it_lies() -> None:
    dark = 255.0 - x_grid(2).astype(np.float32)
    line = find_line(dark, 9, False, DiagonalConfig())
    assert abs(line.start - 1.0) <= 0.5 and abs(line.end - 1.0) <= 0.5  # 2 px down: 1 shift
    assert 255 - line.darkness == pytest.approx(LINE, abs=25)


def test_lines_go_and_the_strokes_they_cross_stay() -> None:
    img = x_grid(2)
    clean = without_diagonal_lines(img, 9, DiagonalConfig())
    grey = (img == LINE) & (clean == img)
    assert not grey.any(), f"{int(grey.sum())} pixels of the lines left"
    middle = 4 * CELL
    stroke = (slice(middle + 8, middle + 32), slice(middle + 17, middle + 22))
    assert (clean[stroke] == INK).all(), "the stroke the line crosses was painted out"
    off = np.ones_like(img, bool)
    off[stroke] = False
    assert (clean[(img == INK) & off] == INK).mean() > 0.97  # the grid lines stay


def test_a_straight_fit_leaves_out_cells_drawn_aside() -> None:
    shifts = np.array([0.0, 0.5, 0.5, -4.0, 1.0, 1.0, 4.0, 1.5, 2.0])
    slope, at0 = straight_fit(shifts, 1.0)
    assert slope == pytest.approx(0.25, abs=0.1) and at0 == pytest.approx(-0.1, abs=0.5)


@pytest.mark.slow
def test_digits_crossed_by_the_diagonal_lines_are_read() -> None:
    """Seed 509 drawn with lines: five printed digits on the diagonals were read as empty
    (crossed out) before the lines were taken out where they lie."""
    vp = render_variant_photo(509, "x", "lines")
    result = default_reader().read(vp.photo.image)
    grid = result.grids[0]
    assert grid.givens == "".join(map(str, vp.puzzle.givens))
    assert grid.handwritten == "0" * 81
