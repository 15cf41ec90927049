"""The grid-likeness and lattice measures of vision/grid/lattice.py, vectorised for speed,
give exactly what their plain loops gave (the loops are kept here as the reference)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sudokucam.vision.grid.config import GridConfig, ScoreConfig
from sudokucam.vision.grid.lattice import (
    COVERAGE_BLUR_PX,
    _interior_levels,
    _measure_lines,
    _peaks_near,
)
from sudokucam.vision.grid.warp import cell_homographies, is_convex_clockwise, lattice_maps

SCORE = GridConfig().score


def interior_levels_by_rows(
    coverage: np.ndarray, start: int, cell: int, score: ScoreConfig
) -> np.ndarray:
    """The loop over the 9 rows of cells that ``_interior_levels`` replaces."""
    lo, hi = round(cell * score.interior_start_cells), round(cell * score.interior_end_cells)
    out = np.empty((9, coverage.shape[1]), dtype=np.float32)
    for k in range(9):
        base = start + k * cell
        out[k] = coverage[base + lo : base + hi].mean(axis=0)
    return out


def peak_in_column(values: np.ndarray, centre: int, radius: int) -> tuple[float, float]:
    """The column-by-column peak search that ``_peaks_near`` replaces, for one column."""
    lo = min(max(0, centre - radius), len(values) - 1)
    hi = max(min(len(values), centre + radius + 1), lo + 1)
    window = values[lo:hi]
    i = int(np.argmax(window))
    if 0 < i < len(window) - 1:
        a, b, c = window[i - 1], window[i], window[i + 1]
        denom = a - 2 * b + c
        if denom < 0:
            return float(lo + (i + 0.5 * (a - c) / denom)), float(b)
    return float(lo + i), float(window[i])


def coverage_like(rng: np.random.Generator, rows: int, share: float) -> np.ndarray:
    """(rows, 9) float32 shares of set pixels per cell-wide segment, as segment_coverage
    gives them (ties and plateaus included)."""
    mask = (rng.random((rows, 9 * 16)) < share).astype(np.float32)
    return np.asarray(mask.reshape(rows, 9, 16).mean(axis=2), dtype=np.float32)


@pytest.mark.parametrize("cell", [16, 24, 32])
def test_interior_levels_are_the_row_by_row_means(cell: int) -> None:
    rng = np.random.default_rng(cell)
    start = cell // 2
    for share in (0.0, 0.05, 0.3, 0.9, 1.0):
        coverage = coverage_like(rng, 2 * start + 9 * cell + 3, share)
        found = _interior_levels(coverage, start, cell, SCORE)
        assert found.dtype == np.float32
        assert np.array_equal(found, interior_levels_by_rows(coverage, start, cell, SCORE))


@pytest.mark.parametrize("radius", [1, 2, 5, 9])
def test_peaks_near_are_the_column_by_column_peaks(radius: int) -> None:
    rng = np.random.default_rng(radius)
    for share in (0.0, 0.1, 0.5, 1.0):
        values = coverage_like(rng, 60, share)
        values[:, 3] = np.round(values[:, 3] * 4) / 4  # plateaus: the first top counts
        for centre in (0, 1, radius, 30, 58, 59):
            positions, heights = _peaks_near(values, centre, radius)
            expected = [peak_in_column(values[:, j], centre, radius) for j in range(9)]
            assert positions.tolist() == [p for p, _ in expected], (centre, share)
            assert heights.tolist() == [h for _, h in expected], (centre, share)


def lattice_maps_at_once(lattice: np.ndarray, cell_size: int) -> tuple[np.ndarray, np.ndarray]:
    """The whole-grid computation that ``lattice_maps`` replaces (row of cells by row)."""
    cells = cell_homographies(lattice)
    n, c = cells.shape[0], cell_size
    local = np.arange(c, dtype=np.float64) / c
    u, v = np.meshgrid(local, local)
    uvw = np.stack([u.ravel(), v.ravel(), np.ones(c * c)])
    xyw = (cells.reshape(n * n, 3, 3) @ uvw).reshape(n, n, 3, c, c)
    xy = (xyw[:, :, :2] / xyw[:, :, 2:]).transpose(2, 0, 3, 1, 4).reshape(2, n * c, n * c)
    return xy[0].astype(np.float32), xy[1].astype(np.float32)


@pytest.mark.parametrize(("points", "cell"), [(10, 40), (10, 32), (12, 32), (12, 16)])
def test_lattice_maps_row_by_row_are_the_whole_grids(points: int, cell: int) -> None:
    rng = np.random.default_rng(points * cell)
    ys, xs = np.mgrid[0:points, 0:points].astype(np.float64)
    for _ in range(5):
        bend = rng.normal(0.0, 0.05 * cell, (2, points, points))
        lattice = np.stack([30 + cell * xs + 0.2 * ys + bend[0], 20 + cell * ys + bend[1]], -1)
        map_x, map_y = lattice_maps(lattice, cell)
        expected_x, expected_y = lattice_maps_at_once(lattice, cell)
        assert map_x.dtype == np.float32 and map_x.shape == expected_x.shape
        assert np.array_equal(map_x, expected_x) and np.array_equal(map_y, expected_y)


def convex_clockwise_by_numpy(quad: np.ndarray) -> bool:
    """The numpy computation that ``is_convex_clockwise`` replaces."""
    with np.errstate(invalid="ignore", over="ignore"):
        edges = np.roll(quad, -1, axis=0) - quad
        following = np.roll(edges, -1, axis=0)
        cross = edges[:, 0] * following[:, 1] - edges[:, 1] * following[:, 0]
    return bool(np.all(cross > 0))


def test_is_convex_clockwise_answers_as_numpy_did() -> None:
    """Random and nearly square quads, turned and mirrored ones, corners at infinity, NaN
    and huge coordinates: the same answer as the numpy version, every time."""
    rng = np.random.default_rng(0)
    square = np.array([[0, 0], [9, 0], [9, 9], [0, 9]], dtype=np.float64)
    odd = (np.inf, -np.inf, np.nan, 1e308, -1e308, 0.0)
    answers = set()
    for trial in range(3000):
        quad = rng.normal(0.0, 100.0, (4, 2))
        if trial % 3 == 0:
            quad = square * rng.uniform(1, 50) + rng.normal(0.0, 3.0, (4, 2))
        if trial % 5 == 0:
            quad = quad[::-1].copy()
        if trial % 7 == 0:
            quad[rng.integers(4), rng.integers(2)] = odd[rng.integers(len(odd))]
        expected = convex_clockwise_by_numpy(quad)
        assert is_convex_clockwise(quad) is expected, quad.tolist()
        answers.add(expected)
    assert answers == {True, False}


@pytest.mark.parametrize("seed", range(5))
def test_lines_measured_at_once_are_those_measured_one_by_one(seed: int) -> None:
    """With every window inside the coverage, the ten lines' peaks found together are the
    numbers ``_peaks_near`` finds line by line (plateaus and sub-pixel bends alike)."""
    rng = np.random.default_rng(seed)
    cell, start, search = 24, 30, 8
    coverage = rng.random((start + 9 * cell + 20, 9)).astype(np.float32)
    if seed % 2:
        coverage = (np.round(coverage * 4) / 4).astype(np.float32)  # equal highest values
    positions, strengths = _measure_lines(coverage, start, cell, search)
    smooth = cv2.GaussianBlur(coverage, (1, COVERAGE_BLUR_PX), 0)
    for k in range(10):
        expected = _peaks_near(smooth, start + k * cell, search)
        assert np.array_equal(positions[k], expected[0])
        assert np.array_equal(strengths[k], expected[1])
