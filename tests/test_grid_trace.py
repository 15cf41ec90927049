"""Border points of a traced lattice put back onto the trend of the lines inside, and the
outer corners measured on the lattice as traced (vision/grid/trace.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sudokucam.samples import progress_dataset
from sudokucam.vision.grid.config import GridConfig
from sudokucam.vision.grid.trace import pin_border, to_photo, trace_lattice
from sudokucam.vision.grid.warp import build_pyramid
from sudokucam.vision.pipeline import Reader

GRID_CONFIG = GridConfig()
CELL = 40.0
ORIGIN = np.array([60.0, 50.0])


def even_lattice() -> np.ndarray:
    """(10, 10, 2) crossings of a flat grid of ``CELL`` px cells, [row, column] = (x, y)."""
    rows, cols = np.meshgrid(np.arange(10.0), np.arange(10.0), indexing="ij")
    return ORIGIN + CELL * np.stack([cols, rows], axis=-1)


def test_border_on_a_rule_is_put_back() -> None:
    """A top border traced a third of a cell out, onto a rule above the grid, goes back."""
    truth = even_lattice()
    traced = truth.copy()
    traced[0, :, 1] -= 0.3 * CELL
    assert np.allclose(pin_border(traced, GRID_CONFIG.trace), truth)


def test_border_point_on_its_line_stays_where_lines_inside_stray() -> None:
    """A digit beside the top of columns 7 and 8 pulls their top crossings aside: their
    trend points past the right border's corner, which lies on the border's own line."""
    traced = even_lattice()
    traced[0, 8, 0] += 0.3 * CELL
    traced[0, 7, 0] += 0.15 * CELL  # the two predictions of the corner then agree
    assert np.array_equal(pin_border(traced, GRID_CONFIG.trace), traced)


def test_border_point_bent_off_its_line_moves_only_across_it() -> None:
    """The right border bent out at its top (onto a page edge) goes back across the
    border only: along it, the point keeps where the top border put it."""
    truth = even_lattice()
    traced = truth.copy()
    traced[0, 9] += [0.4 * CELL, 0.05 * CELL]
    pinned = pin_border(traced, GRID_CONFIG.trace)
    assert pinned[0, 9, 0] == pytest.approx(truth[0, 9, 0])
    assert pinned[0, 9, 1] == pytest.approx(traced[0, 9, 1])


def drawn_grid() -> np.ndarray:
    """A white page with the 20 lines of ``even_lattice`` drawn (thick border)."""
    image = np.full((520, 520), 235, np.uint8)
    lattice = even_lattice()
    for k in range(10):
        thick = 3 if k % 3 == 0 else 1
        for line in (lattice[k], lattice[:, k]):
            start, end = np.round(line[[0, -1]]).astype(int)
            cv2.line(image, tuple(map(int, start)), tuple(map(int, end)), 30, thick)
    return cv2.GaussianBlur(image, (3, 3), 0)


def test_traced_grid_image_follows_the_returned_lattice() -> None:
    """The image the border is measured in is straightened with the lattice returned."""
    start = even_lattice() + np.array([2.5, -1.5])
    lattice, grid = trace_lattice(build_pyramid(drawn_grid()), start, GRID_CONFIG)
    nominal = (np.arange(10.0) + 1.0) * grid.cell
    places = np.stack(np.meshgrid(nominal, nominal), axis=-1)
    assert np.allclose(to_photo(grid, places), lattice, atol=1e-6)
    assert np.abs(lattice - even_lattice()).max() < 1.0


@pytest.mark.slow
@pytest.mark.shared
@pytest.mark.skipif(
    not progress_dataset.available(), reason="../shared/data/times_progress is absent"
)
@pytest.mark.parametrize("name", ["01_04_honor_view_10_0.jpg", "01_04_iphone_14_1.jpg"])
def test_times_photos_whose_right_column_is_pulled_by_a_digit(name: str) -> None:
    """Held-out photos whose top-right corner lies beside a written 5 and a paper edge."""
    photo = next(p for p in progress_dataset.load_split("val") if p.name == name)
    result = Reader().read(photo.path)
    assert result.grids
    corners = result.grids[0].detection.corners
    side = float(np.linalg.norm(photo.corners[1] - photo.corners[0]))
    error = min(
        float(np.linalg.norm(np.roll(corners, k, axis=0) - photo.corners, axis=1).max())
        for k in range(4)
    )
    assert error <= 0.03 * side
