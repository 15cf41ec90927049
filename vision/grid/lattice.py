"""How grid-like a quad's inside is, and where its 10 + 10 lines really lie.

Everything here works on a candidate quad warped to a small square with a margin around
it, so the outer lines sit inside the image. Lines are found in a binary "line image":
ink (anything darker than its surroundings, by a black-hat filter) opened with long thin
kernels so that digits vanish and only straight runs longer than part of a cell remain.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .config import GridConfig
from .warp import homography_to_square, ideal_lattice, map_points, pick_level, square

Pyramid = tuple[np.ndarray, ...]

SCORE_MARGIN_CELLS = 0.5


@dataclass(frozen=True)
class LineImages:
    """Binary ink and its horizontal / vertical long-run parts (0 or 1, float32)."""

    ink: np.ndarray
    horizontal: np.ndarray
    vertical: np.ndarray


def _odd(value: float) -> int:
    """Nearest odd integer at least 3."""
    n = max(3, round(value))
    return n if n % 2 else n + 1


def _percentile_u8(image: np.ndarray, share: float) -> float:
    """The value below which ``share`` of a uint8 image's pixels lie (via its histogram)."""
    counts = np.bincount(image.ravel(), minlength=256)
    return float(np.searchsorted(np.cumsum(counts), share * image.size))


def line_images(warped: np.ndarray, cell: int, config: GridConfig) -> LineImages:
    """Ink mask and its long horizontal and vertical runs for a warped grid image.

    Ink is whatever is darker than its surroundings (black-hat) by a share of the
    strongest such contrast in the image, so faint thin lines count on a dark photo.
    """
    size = _odd(cell * config.ink_kernel_cells)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
    darkness = cv2.morphologyEx(warped, cv2.MORPH_BLACKHAT, kernel)
    strongest = _percentile_u8(darkness, 0.99)
    level = max(config.min_ink_contrast, config.ink_contrast_fraction * strongest)
    ink = (darkness > level).astype(np.uint8)
    length = max(3, round(cell * config.line_kernel_cells))
    horizontal = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    vertical = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    return LineImages(
        ink.astype(np.float32), horizontal.astype(np.float32), vertical.astype(np.float32)
    )


def warp_with_margin(
    pyramid: Pyramid, quad: np.ndarray, cell: int, margin_cells: float
) -> tuple[np.ndarray, np.ndarray]:
    """Warp ``quad`` to 9 cells of ``cell`` px with a margin; return (image, homography).

    The homography maps the pixels of ``pyramid[0]`` to the warped image.
    """
    margin = margin_cells * cell
    side = round(9 * cell + 2 * margin)
    homography = homography_to_square(quad, 9 * cell, margin)
    image, scale = pick_level(pyramid, quad, 9 * cell)
    warped = cv2.warpPerspective(
        image,
        homography @ np.diag([1 / scale, 1 / scale, 1.0]),
        (side, side),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return warped, homography


def segment_coverage(mask: np.ndarray, start: int, cell: int) -> np.ndarray:
    """(rows, 9): share of each row's pixels set, per cell-wide column segment."""
    part = mask[:, start : start + 9 * cell]
    return part.reshape(mask.shape[0], 9, cell).mean(axis=2)


def _line_strengths(coverage: np.ndarray, start: int, cell: int, tol: int) -> np.ndarray:
    """(10, 9) strongest coverage near each expected line, per segment."""
    out = np.empty((10, coverage.shape[1]), dtype=np.float32)
    for k in range(10):
        centre = start + k * cell
        out[k] = coverage[max(0, centre - tol) : centre + tol + 1].max(axis=0)
    return out


def _interior_levels(coverage: np.ndarray, start: int, cell: int) -> np.ndarray:
    """(9, 9) mean coverage in the middle of each row of cells, per segment."""
    lo, hi = round(cell * 0.3), round(cell * 0.7)
    out = np.empty((9, coverage.shape[1]), dtype=np.float32)
    for k in range(9):
        base = start + k * cell
        out[k] = coverage[base + lo : base + hi].mean(axis=0)
    return out


def _direction_score(mask: np.ndarray, start: int, cell: int, config: GridConfig) -> float:
    """Line presence at the 10 expected places minus clutter between them, 0..1."""
    tol = max(1, round(cell * config.peak_tolerance_cells))
    coverage = segment_coverage(mask, start, cell)
    strengths = _line_strengths(coverage, start, cell, tol) / config.full_line_coverage
    lines = np.clip(strengths, 0.0, 1.0)
    interior = _interior_levels(coverage, start, cell)
    present = float(np.mean(lines))
    weakest_line = float(np.sort(lines.mean(axis=1))[1])  # second weakest: allow one cut line
    clutter = float(np.mean(interior))
    return max(0.0, 0.7 * present + 0.3 * weakest_line - config.clutter_weight * clutter)


def black_cell_count(warped: np.ndarray, start: int, cell: int, config: GridConfig) -> int:
    """Number of cells far darker inside than the cells around them (crossword black squares).

    Comparing with the neighbourhood (median of 5 × 5 cells) keeps shadows from counting.
    """
    inner = warped[start : start + 9 * cell, start : start + 9 * cell]
    pad = max(1, round(cell * 0.2))
    cells = inner.reshape(9, cell, 9, cell)[:, pad:-pad, :, pad:-pad].mean(axis=(1, 3))
    local = cv2.medianBlur(cells.round().astype(np.uint8), 5).astype(np.float64)
    contrast = local - _percentile_u8(warped, 0.01)
    black = (cells < local - config.black_cell_darkness * contrast) & (
        contrast > config.min_black_cell_contrast
    )
    return int(np.sum(black))


def score_warped(warped: np.ndarray, cell: int, margin: int, config: GridConfig) -> float:
    """Grid-likeness 0..1 of a warped grid whose line 0 lies at pixel ``margin``."""
    lines = line_images(warped, cell, config)
    horizontal = _direction_score(lines.horizontal, margin, cell, config)
    vertical = _direction_score(lines.vertical.T, margin, cell, config)
    score = float(np.sqrt(horizontal * vertical))
    black = black_cell_count(warped, margin, cell, config)
    excess = max(0, black - config.black_cells_allowed)
    return score * max(0.0, 1.0 - excess / config.black_cells_to_reject)


def score_quad(gray: Pyramid, quad: np.ndarray, config: GridConfig) -> float:
    """Grid-likeness 0..1 of the inside of a quad in a grayscale image."""
    cell = config.score_cell_size
    warped, _ = warp_with_margin(gray, quad, cell, SCORE_MARGIN_CELLS)
    return score_warped(warped, cell, round(SCORE_MARGIN_CELLS * cell), config)


def fit_spacing(profile: np.ndarray, cell: int, margin: float) -> tuple[float, float]:
    """Best (first line, spacing) of 10 evenly spaced peaks in a 1-D line profile.

    Spacing ranges over 0.8..1.25 cells; a mild prior keeps the fit near the candidate.
    """
    n = len(profile)
    xs = np.arange(n, dtype=np.float64)
    best = (margin, float(cell))
    best_value = -np.inf
    for spacing in np.linspace(0.8 * cell, 1.25 * cell, 19):
        last = n - 1 - 9 * spacing
        if last < 0:
            continue
        offsets = np.arange(0.0, last + 0.5, 1.0)
        positions = offsets[:, None] + spacing * np.arange(10)[None, :]
        values = np.interp(positions, xs, profile).sum(axis=1)
        prior = 0.02 * (np.abs(offsets - margin) / cell + 4.0 * abs(spacing / cell - 1.0))
        values = values / 10.0 - prior
        i = int(np.argmax(values))
        if values[i] > best_value:
            best_value = float(values[i])
            best = (float(offsets[i]), float(spacing))
    return best


def reframe_quad(gray: Pyramid, quad: np.ndarray, config: GridConfig) -> np.ndarray:
    """Move a rough quad onto the 10 evenly spaced lines found around it."""
    cell = config.refine_cell_size
    margin_cells = config.reframe_margin_cells
    warped, homography = warp_with_margin(gray, quad, cell, margin_cells)
    lines = line_images(warped, cell, config)
    margin = margin_cells * cell
    rows = cv2.GaussianBlur(lines.horizontal.mean(axis=1)[:, None], (1, 5), 0).ravel()
    cols = cv2.GaussianBlur(lines.vertical.mean(axis=0)[:, None], (1, 5), 0).ravel()
    y0, dy = fit_spacing(rows, cell, margin)
    x0, dx = fit_spacing(cols, cell, margin)
    box = np.array([[x0, y0], [x0 + 9 * dx, y0], [x0 + 9 * dx, y0 + 9 * dy], [x0, y0 + 9 * dy]])
    return map_points(np.linalg.inv(homography), box)


def _subpixel_peak(values: np.ndarray) -> tuple[float, float]:
    """Index (with parabolic sub-pixel refinement) and height of the maximum."""
    i = int(np.argmax(values))
    if 0 < i < len(values) - 1:
        a, b, c = values[i - 1], values[i], values[i + 1]
        denom = a - 2 * b + c
        if denom < 0:
            return i + 0.5 * (a - c) / denom, float(b)
    return float(i), float(values[i])


def _peak_near(values: np.ndarray, centre: float, radius: int) -> tuple[float, float]:
    """Sub-pixel position and height of the highest value within ``radius`` of ``centre``."""
    lo = min(max(0, round(centre) - radius), len(values) - 1)
    hi = max(min(len(values), round(centre) + radius + 1), lo + 1)
    offset, height = _subpixel_peak(values[lo:hi])
    return lo + offset, height


def _measure_lines(
    coverage: np.ndarray, start: int, cell: int, search: int
) -> tuple[np.ndarray, np.ndarray]:
    """(10, 9) positions and strengths of each line in each segment, searched near its place."""
    smooth = cv2.GaussianBlur(coverage, (1, 3), 0)
    positions = np.zeros((10, coverage.shape[1]))
    strengths = np.zeros((10, coverage.shape[1]))
    for k in range(10):
        for j in range(coverage.shape[1]):
            positions[k, j], strengths[k, j] = _peak_near(smooth[:, j], start + k * cell, search)
    return positions, strengths


def _line_curves(positions: np.ndarray, strengths: np.ndarray, start: int, cell: int) -> np.ndarray:
    """(10, 10): each line's position at the 10 crossings, from a weighted polynomial fit.

    Cubic for lines seen in at least seven segments, quadratic for five, else a constant.
    """
    centres = cell * (np.arange(9) + 0.5)
    crossings = cell * np.arange(10, dtype=np.float64)
    nominal = start + cell * np.arange(10, dtype=np.float64)[:, None]
    weights = np.clip(strengths, 0.0, 1.0) ** 2 + 1e-3
    design = np.vander(centres / cell - 4.5, 4, increasing=True)
    targets = np.vander(crossings / cell - 4.5, 4, increasing=True)
    out = np.empty((10, 10))
    for k in range(10):
        seen = int(np.sum(strengths[k] > 0.3))
        terms = 4 if seen >= 7 else 3 if seen >= 5 else 1
        a = design[:, :terms] * weights[k][:, None]
        coeffs = np.linalg.solve(
            a.T @ design[:, :terms] + 1e-6 * np.eye(terms), a.T @ (positions[k] - nominal[k])
        )
        out[k] = nominal[k] + targets[:, :terms] @ coeffs
    return out


def measure_lattice(
    gray: Pyramid, quad: np.ndarray, config: GridConfig, search_cells: float
) -> tuple[np.ndarray, np.ndarray]:
    """Measured (10, 10, 2) intersections in original pixels, and their (10, 10) confidence."""
    cell = config.refine_cell_size
    warped, homography = warp_with_margin(gray, quad, cell, SCORE_MARGIN_CELLS)
    lines = line_images(warped, cell, config)
    start = round(SCORE_MARGIN_CELLS * cell)
    search = max(1, round(search_cells * cell))
    ys, hs = _measure_lines(segment_coverage(lines.horizontal, start, cell), start, cell, search)
    xs, vs = _measure_lines(segment_coverage(lines.vertical.T, start, cell), start, cell, search)
    row_y = _line_curves(ys, hs, start, cell)  # row_y[k, j]: y of line k at vertical j
    col_x = _line_curves(xs, vs, start, cell)  # col_x[j, k]: x of vertical j at line k
    lattice = np.stack([col_x.T, row_y], axis=-1)
    confidence = np.minimum(_at_crossings(hs), _at_crossings(vs).T)
    return map_points(np.linalg.inv(homography), lattice), confidence


def _at_crossings(strengths: np.ndarray) -> np.ndarray:
    """(10, 10) strength of each line near each crossing: mean of the two neighbour segments."""
    padded = np.concatenate([strengths[:, :1], strengths, strengths[:, -1:]], axis=1)
    return 0.5 * (padded[:, :-1] + padded[:, 1:])


def fit_lattice(
    lattice: np.ndarray, confidence: np.ndarray, cell_px: float
) -> tuple[np.ndarray, np.ndarray]:
    """Homography from the ideal lattice (unit cells) to the measured one, and a cleaned lattice.

    The cleaned lattice is the homography plus a smooth cubic bend fitted to the well-seen
    points; points barely seen, or off that smooth surface by more than a fifth of a
    cell, are replaced by it.
    """
    ideal = ideal_lattice(1.0).reshape(-1, 2)
    measured = lattice.reshape(-1, 2)
    weights = np.clip(confidence.ravel(), 0.0, 1.0)
    good = weights > 0.25
    if good.sum() < 12:
        good, weights = np.ones(100, dtype=bool), np.ones(100)
    homography, _ = cv2.findHomography(
        ideal[good], measured[good], cv2.RANSAC, 0.5 * cell_px, maxIters=200
    )
    if homography is None:
        corners = lattice[[0, 0, 9, 9], [0, 9, 9, 0]].astype(np.float32)
        homography = cv2.getPerspectiveTransform(square(9.0).astype(np.float32), corners)
    flat = map_points(homography, ideal)
    smooth = flat + _smooth_bend(ideal / 9.0, measured - flat, np.where(good, weights, 0.0))
    keep = good & (np.linalg.norm(measured - smooth, axis=1) < 0.2 * cell_px)
    cleaned = np.where(keep[:, None], measured, smooth).reshape(10, 10, 2)
    return homography.astype(np.float64), cleaned


def _smooth_bend(uv: np.ndarray, residual: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Weighted least-squares cubic surface in (u, v) through the residuals, evaluated at uv."""
    u, v = uv[:, 0] - 0.5, uv[:, 1] - 0.5
    terms = np.stack(
        [np.ones_like(u), u, v, u * u, u * v, v * v, u**3, u * u * v, u * v * v, v**3], axis=1
    )
    weighted = terms * weights[:, None]
    gram = weighted.T @ terms + 1e-3 * np.eye(terms.shape[1])
    coeffs = np.linalg.solve(gram, weighted.T @ residual)
    return terms @ coeffs
