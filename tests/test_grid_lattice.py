"""The grid-likeness and lattice measures of vision/grid/lattice.py, vectorised for speed,
give exactly what their plain loops gave (the loops are kept here as the reference)."""

from __future__ import annotations

import numpy as np
import pytest

from sudokucam.vision.grid.config import GridConfig, ScoreConfig
from sudokucam.vision.grid.lattice import _interior_levels, _peaks_near

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
