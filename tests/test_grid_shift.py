"""A lattice that took a page edge, a table edge or a shadow's edge for a grid line is
moved by whole cells back onto the real grid (vision/grid/shift.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sudokucam.samples import progress_dataset
from sudokucam.vision.grid.config import GridConfig
from sudokucam.vision.grid.find import _Found, find_grid, flat_lattice, onto_real_lines
from sudokucam.vision.grid.shift import grid_offsets, moved_quad, percentile_along
from sudokucam.vision.grid.warp import build_pyramid
from sudokucam.vision.load import load_image

GRID_CONFIG = GridConfig()
DIGITS = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
CELL = 32
LEFT, TOP = 96, 64


def page_on_table(cell: int = CELL) -> tuple[np.ndarray, np.ndarray]:
    """A printed grid whose page ends one cell right of it, on a dark grainy table, with a
    shadow from two cells below it and scribbles below the grid; and the grid's corners."""
    rng = np.random.default_rng(5)
    height, width = TOP + 14 * cell, LEFT + 12 * cell
    table = cv2.GaussianBlur(rng.normal(100, 10, (height, width)).astype(np.float32), (1, 9), 0)
    image = np.clip(table, 0, 255).astype(np.uint8)
    right, bottom = LEFT + 9 * cell, TOP + 9 * cell
    image[:, : right + cell] = 235  # the page, its edge one cell right of the grid
    cv2.line(image, (right + cell, 0), (right + cell, height), 60, 2)  # the page's rim
    for k in range(10):
        thick = 3 if k % 3 == 0 else 1
        cv2.line(image, (LEFT, TOP + k * cell), (right, TOP + k * cell), 25, thick)
        cv2.line(image, (LEFT + k * cell, TOP), (LEFT + k * cell, bottom), 25, thick)
    for index, char in enumerate(DIGITS):
        if char != "0":
            row, col = divmod(index, 9)
            origin = (LEFT + col * cell + cell // 4, TOP + row * cell + 3 * cell // 4)
            cv2.putText(image, char, origin, cv2.FONT_HERSHEY_SIMPLEX, cell / 40, 30, 2)
    words = (LEFT + cell // 2, bottom + 3 * cell // 4)
    cv2.putText(image, "30:27 made mistakes", words, cv2.FONT_HERSHEY_SIMPLEX, cell / 40, 60, 2)
    shade = image[bottom + 2 * cell :].astype(np.float32) * 0.5
    image[bottom + 2 * cell :] = shade.astype(np.uint8)
    corners = np.array([[LEFT, TOP], [right, TOP], [right, bottom], [LEFT, bottom]], float)
    return cv2.GaussianBlur(image, (3, 3), 0), corners


@pytest.mark.parametrize(
    ("right", "down"), [(1, 0), (0, 1), (0, 2), (1, 1), (-1, 0), (-2, 0), (0, -1)]
)
def test_shifted_lattice_is_moved_back(right: int, down: int) -> None:
    """Off by a cell or two (onto the page edge, the table, the shadow, the scribbles, or
    off the page's top-left margin): the move back is found."""
    image, truth = page_on_table()
    levels = build_pyramid(image)
    assert grid_offsets(levels, truth, GRID_CONFIG.shift) == (0, 0)
    assert grid_offsets(levels, moved_quad(truth, right, down), GRID_CONFIG.shift) == (
        -right,
        -down,
    )


def test_chosen_grid_is_moved_onto_its_real_lines() -> None:
    """The finder's last step puts a grid found a cell off back on the grid, measured."""
    image, truth = page_on_table()
    shifted = moved_quad(truth, 1, 0)
    found = _Found(shifted, flat_lattice(shifted), 0.9)
    (moved,) = onto_real_lines(build_pyramid(image), [found], 1.0, GRID_CONFIG)
    assert np.abs(moved.quad - truth).max() < 0.2 * CELL
    assert moved.score == found.score
    assert find_grid(image) is not None


def test_grids_side_by_side_are_not_moved_onto_each_other() -> None:
    """A grid is not moved where it would overlap another chosen grid."""
    image, truth = page_on_table()
    levels = build_pyramid(image)
    shifted = moved_quad(truth, 1, 0)
    other = moved_quad(truth, -5, 0)
    grids = [_Found(q, flat_lattice(q), 0.9) for q in (shifted, other)]
    moved = onto_real_lines(levels, grids, 1.0, GRID_CONFIG)
    assert np.abs(moved[0].quad - shifted).max() < 1e-9


@pytest.mark.slow
@pytest.mark.shared
@pytest.mark.skipif(
    not progress_dataset.available(), reason="../shared/data/times_progress is absent"
)
@pytest.mark.parametrize("name", ["02_22_honor_view_10_1.jpg", "02_25_iphone_14_1.jpg"])
def test_times_photos_with_the_page_edge_beside_the_grid(name: str) -> None:
    """Training photos whose grid was found a cell off, its edge on the page's edge."""
    photo = next(p for p in progress_dataset.load_split("train") if p.name == name)
    found = find_grid(load_image(photo.path))
    assert found is not None
    side = float(np.linalg.norm(photo.corners[1] - photo.corners[0]))
    assert np.abs(found.corners - photo.corners).max() <= 0.05 * side


@pytest.mark.parametrize("count", [1, 2, 5, 24, 31])
def test_percentile_along_gives_numpys_percentile_exactly(count: int) -> None:
    """The sort-based percentile along axis 1 is numpy's (linear method), bit for bit."""
    values = np.random.default_rng(count).integers(0, 256, (4, count, 37), dtype=np.uint8)
    for q in (0.0, 10.0, 33.3, 50.0, 75.0, 99.9, 100.0):
        expected = np.percentile(values.astype(np.float32), q, axis=1).astype(np.float32)
        found = percentile_along(values, q)
        assert found.dtype == np.float32
        assert np.array_equal(found, expected), (count, q)
