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

from .config import GridConfig, LineConfig, RefineConfig, ScoreConfig
from .warp import homography_to_square, ideal_lattice, map_points, pick_level, square

Pyramid = tuple[np.ndarray, ...]

MIN_KERNEL_PX = 3  # smallest side of a morphology kernel
SCORE_MARGIN_CELLS = 0.5  # margin around the warped quad when scoring and measuring
PROFILE_BLUR_PX = 5  # Gaussian smoothing of the line profiles fitted by spacing
COVERAGE_BLUR_PX = 3  # Gaussian smoothing across a line before its peak is located
CUBIC_TERMS = 4  # terms of a cubic polynomial
QUADRATIC_TERMS = 3  # terms of a quadratic one (a constant has 1)
STRENGTH_FLOOR = 1e-3  # weight of a segment where its line is unseen
FIT_RIDGE = 1e-6  # ridge regularisation of the per-line polynomial fits
BEND_RIDGE = 1e-3  # ridge regularisation of the smooth bend surface


@dataclass(frozen=True)
class LineImages:
    """Binary ink and its horizontal / vertical long-run parts (0 or 1, float32)."""

    ink: np.ndarray
    horizontal: np.ndarray
    vertical: np.ndarray


def odd_size(value: float) -> int:
    """``value`` rounded, made odd by going one up, and at least ``MIN_KERNEL_PX``."""
    n = max(MIN_KERNEL_PX, round(value))
    return n if n % 2 else n + 1


# The most pixels whose histogram OpenCV counts exactly (its counts are float32).
EXACT_HISTOGRAM_PIXELS = 2**24


def _percentile_u8(image: np.ndarray, share: float) -> float:
    """The value below which ``share`` of a uint8 image's pixels lie (via its histogram)."""
    if image.dtype == np.uint8 and 0 < image.size < EXACT_HISTOGRAM_PIXELS:
        row = np.ascontiguousarray(image).reshape(1, -1)
        counts = cv2.calcHist([row], [0], None, [256], [0, 256]).ravel().astype(np.int64)
    else:
        counts = np.bincount(image.ravel(), minlength=256)
    return float(np.searchsorted(np.cumsum(counts), share * image.size))


def line_images(warped: np.ndarray, cell: int, lines: LineConfig) -> LineImages:
    """Ink mask and its long horizontal and vertical runs for a warped grid image.

    Ink is whatever is darker than its surroundings (black-hat) by a share of the
    strongest such contrast in the image, so faint thin lines count on a dark photo.
    """
    size = odd_size(cell * lines.ink_kernel_cells)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
    darkness = cv2.morphologyEx(warped, cv2.MORPH_BLACKHAT, kernel)
    strongest = _percentile_u8(darkness, lines.strongest_share)
    level = max(lines.min_ink_contrast, lines.ink_contrast_fraction * strongest)
    ink = (darkness > level).astype(np.uint8)
    length = max(MIN_KERNEL_PX, round(cell * lines.line_kernel_cells))
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
    centres = start + cell * np.arange(10)
    if centres[0] >= tol and centres[-1] + tol < coverage.shape[0]:  # every window whole
        windows = coverage[centres[:, None] + np.arange(-tol, tol + 1)]
        return windows.max(axis=1).astype(np.float32)
    out = np.empty((10, coverage.shape[1]), dtype=np.float32)
    for k, centre in enumerate(centres.tolist()):
        out[k] = coverage[max(0, centre - tol) : centre + tol + 1].max(axis=0)
    return out


def _interior_levels(coverage: np.ndarray, start: int, cell: int, score: ScoreConfig) -> np.ndarray:
    """(9, 9) mean coverage in the middle of each row of cells, per segment."""
    lo, hi = round(cell * score.interior_start_cells), round(cell * score.interior_end_cells)
    rows = start + cell * np.arange(9)[:, None] + np.arange(lo, hi)[None, :]
    return np.asarray(coverage[rows].mean(axis=1), dtype=np.float32)


def _direction_score(mask: np.ndarray, start: int, cell: int, score: ScoreConfig) -> float:
    """Line presence at the 10 expected places minus clutter between them, 0..1."""
    tol = max(1, round(cell * score.peak_tolerance_cells))
    coverage = segment_coverage(mask, start, cell)
    strengths = _line_strengths(coverage, start, cell, tol) / score.full_line_coverage
    lines = np.clip(strengths, 0.0, 1.0)
    interior = _interior_levels(coverage, start, cell, score)
    present = float(np.mean(lines))
    weakest_line = float(np.sort(lines.mean(axis=1))[score.cut_lines_allowed])
    clutter = float(np.mean(interior))
    return max(
        0.0,
        score.presence_weight * present
        + score.weakest_line_weight * weakest_line
        - score.clutter_weight * clutter,
    )


def black_cell_count(warped: np.ndarray, start: int, cell: int, score: ScoreConfig) -> int:
    """Number of cells far darker inside than the cells around them (crossword black squares).

    Comparing with the neighbourhood (median of ``black_cell_neighbourhood``² cells)
    keeps shadows from counting.
    """
    inner = warped[start : start + 9 * cell, start : start + 9 * cell]
    pad = max(1, round(cell * score.black_cell_inset_cells))
    cells = inner.reshape(9, cell, 9, cell)[:, pad:-pad, :, pad:-pad].mean(axis=(1, 3))
    rounded = cells.round().astype(np.uint8)
    local = cv2.medianBlur(rounded, score.black_cell_neighbourhood).astype(np.float64)
    contrast = local - _percentile_u8(warped, score.ink_black_share)
    black = (cells < local - score.black_cell_darkness * contrast) & (
        contrast > score.min_black_cell_contrast
    )
    return int(np.sum(black))


def score_warped(warped: np.ndarray, cell: int, margin: int, config: GridConfig) -> float:
    """Grid-likeness 0..1 of a warped grid whose line 0 lies at pixel ``margin``."""
    score = config.score
    lines = line_images(warped, cell, config.lines)
    horizontal = _direction_score(lines.horizontal, margin, cell, score)
    vertical = _direction_score(lines.vertical.T, margin, cell, score)
    likeness = float(np.sqrt(horizontal * vertical))
    black = black_cell_count(warped, margin, cell, score)
    excess = max(0, black - score.black_cells_allowed)
    return likeness * max(0.0, 1.0 - excess / score.black_cells_to_reject)


def score_quad(gray: Pyramid, quad: np.ndarray, config: GridConfig) -> float:
    """Grid-likeness 0..1 of the inside of a quad in a grayscale image."""
    cell = config.score.cell_size
    warped, _ = warp_with_margin(gray, quad, cell, SCORE_MARGIN_CELLS)
    return score_warped(warped, cell, round(SCORE_MARGIN_CELLS * cell), config)


def fit_spacing(
    profile: np.ndarray, cell: int, margin: float, refine: RefineConfig
) -> tuple[float, float]:
    """Best (first line, spacing) of 10 evenly spaced peaks in a 1-D line profile.

    Spacing ranges over ``min_spacing_cells``..``max_spacing_cells``; a mild prior keeps
    the fit near the candidate.
    """
    n = len(profile)
    xs = np.arange(n, dtype=np.float64)
    best = (margin, float(cell))
    best_value = -np.inf
    spacings = np.linspace(
        refine.min_spacing_cells * cell, refine.max_spacing_cells * cell, refine.spacing_steps
    )
    for spacing in spacings:
        last = n - 1 - 9 * spacing
        if last < 0:
            continue
        offsets = np.arange(0.0, last + 0.5, 1.0)
        positions = offsets[:, None] + spacing * np.arange(10)[None, :]
        values = np.interp(positions, xs, profile).sum(axis=1)
        moved = np.abs(offsets - margin) / cell
        prior = refine.prior_weight * (moved + refine.spacing_prior * abs(spacing / cell - 1.0))
        values = values / 10.0 - prior
        i = int(np.argmax(values))
        if values[i] > best_value:
            best_value = float(values[i])
            best = (float(offsets[i]), float(spacing))
    return best


def reframe_quad(gray: Pyramid, quad: np.ndarray, config: GridConfig) -> np.ndarray:
    """Move a rough quad onto the 10 evenly spaced lines found around it."""
    refine = config.refine
    cell = refine.cell_size
    margin_cells = refine.reframe_margin_cells
    warped, homography = warp_with_margin(gray, quad, cell, margin_cells)
    lines = line_images(warped, cell, config.lines)
    margin = margin_cells * cell
    blur = (1, PROFILE_BLUR_PX)
    rows = cv2.GaussianBlur(lines.horizontal.mean(axis=1)[:, None], blur, 0).ravel()
    cols = cv2.GaussianBlur(lines.vertical.mean(axis=0)[:, None], blur, 0).ravel()
    y0, dy = fit_spacing(rows, cell, margin, refine)
    x0, dx = fit_spacing(cols, cell, margin, refine)
    box = np.array([[x0, y0], [x0 + 9 * dx, y0], [x0 + 9 * dx, y0 + 9 * dy], [x0, y0 + 9 * dy]])
    return map_points(np.linalg.inv(homography), box)


def _peaks_near(values: np.ndarray, centre: int, radius: int) -> tuple[np.ndarray, np.ndarray]:
    """Per column of ``values`` (n, m): the sub-pixel row and the height of its highest
    value within ``radius`` rows of row ``centre`` (the first of equal highest).

    The peak is refined by the parabola through it and its two neighbours where it has
    both and the parabola opens downwards; positions are computed in the values' float32,
    as the column-by-column version did.
    """
    lo = min(max(0, centre - radius), len(values) - 1)
    hi = max(min(len(values), centre + radius + 1), lo + 1)
    window = values[lo:hi]
    top = np.argmax(window, axis=0)
    columns = np.arange(window.shape[1])
    height = window[top, columns]
    inside = (top > 0) & (top < len(window) - 1)
    before = window[np.maximum(top - 1, 0), columns]
    after = window[np.minimum(top + 1, len(window) - 1), columns]
    denom = before - 2 * height + after
    bend = inside & (denom < 0)
    with np.errstate(divide="ignore", invalid="ignore"):  # used only where denom < 0
        refined = top.astype(height.dtype) + 0.5 * (before - after) / denom
    offset = np.where(bend, refined, top.astype(height.dtype))
    return (lo + offset).astype(np.float64), height.astype(np.float64)


def _measure_lines(
    coverage: np.ndarray, start: int, cell: int, search: int
) -> tuple[np.ndarray, np.ndarray]:
    """(10, 9) positions and strengths of each line in each segment, searched near its place."""
    smooth = cv2.GaussianBlur(coverage, (1, COVERAGE_BLUR_PX), 0)
    centres = start + cell * np.arange(10)
    if centres[0] >= search and centres[-1] + search < len(smooth):  # every window whole
        windows = smooth[centres[:, None] + np.arange(-search, search + 1)]  # (10, 2s+1, m)
        offsets, heights = _window_peaks(windows)
        first = (centres - search)[:, None].astype(offsets.dtype)  # added in the values' float
        return (first + offsets).astype(np.float64), heights.astype(np.float64)
    positions = np.zeros((10, coverage.shape[1]))
    strengths = np.zeros((10, coverage.shape[1]))
    for k in range(10):
        positions[k], strengths[k] = _peaks_near(smooth, start + k * cell, search)
    return positions, strengths


def _window_peaks(windows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``_peaks_near`` of whole windows at once: per window (w, m) of (n, w, m) ``windows``,
    each column's sub-pixel peak row in the window and its height, the same numbers (in
    the windows' float type)."""
    top = np.argmax(windows, axis=1)[:, None, :]  # (n, 1, m)
    height = np.take_along_axis(windows, top, axis=1)[:, 0]
    last = windows.shape[1] - 1
    before = np.take_along_axis(windows, np.maximum(top - 1, 0), axis=1)[:, 0]
    after = np.take_along_axis(windows, np.minimum(top + 1, last), axis=1)[:, 0]
    top = top[:, 0]
    denom = before - 2 * height + after
    bend = (top > 0) & (top < last) & (denom < 0)
    with np.errstate(divide="ignore", invalid="ignore"):  # used only where denom < 0
        refined = top.astype(height.dtype) + 0.5 * (before - after) / denom
    return np.where(bend, refined, top.astype(height.dtype)), height


def _curve_terms(seen: int, refine: RefineConfig) -> int:
    """Polynomial terms for a line seen in ``seen`` segments: cubic, quadratic or constant."""
    if seen >= refine.cubic_min_segments:
        return CUBIC_TERMS
    return QUADRATIC_TERMS if seen >= refine.quadratic_min_segments else 1


def _line_curves(
    positions: np.ndarray, strengths: np.ndarray, start: int, cell: int, refine: RefineConfig
) -> np.ndarray:
    """(10, 10): each line's position at the 10 crossings, from a weighted polynomial fit.

    The polynomial is in cells from the grid's middle; its degree follows how many
    segments see the line (``_curve_terms``).
    """
    centres = cell * (np.arange(9) + 0.5)
    crossings = cell * np.arange(10, dtype=np.float64)
    nominal = start + cell * np.arange(10, dtype=np.float64)[:, None]
    weights = np.clip(strengths, 0.0, 1.0) ** 2 + STRENGTH_FLOOR
    design = np.vander(centres / cell - 4.5, CUBIC_TERMS, increasing=True)
    targets = np.vander(crossings / cell - 4.5, CUBIC_TERMS, increasing=True)
    out = np.empty((10, 10))
    for k in range(10):
        terms = _curve_terms(int(np.sum(strengths[k] > refine.seen_strength)), refine)
        a = design[:, :terms] * weights[k][:, None]
        coeffs = np.linalg.solve(
            a.T @ design[:, :terms] + FIT_RIDGE * np.eye(terms), a.T @ (positions[k] - nominal[k])
        )
        out[k] = nominal[k] + targets[:, :terms] @ coeffs
    return out


def measure_lattice(
    gray: Pyramid, quad: np.ndarray, config: GridConfig, search_cells: float
) -> tuple[np.ndarray, np.ndarray]:
    """Measured (10, 10, 2) intersections in original pixels, and their (10, 10) confidence."""
    cell = config.refine.cell_size
    warped, homography = warp_with_margin(gray, quad, cell, SCORE_MARGIN_CELLS)
    lines = line_images(warped, cell, config.lines)
    start = round(SCORE_MARGIN_CELLS * cell)
    search = max(1, round(search_cells * cell))
    ys, hs = _measure_lines(segment_coverage(lines.horizontal, start, cell), start, cell, search)
    xs, vs = _measure_lines(segment_coverage(lines.vertical.T, start, cell), start, cell, search)
    row_y = _line_curves(ys, hs, start, cell, config.refine)  # [k, j]: y of line k at vertical j
    col_x = _line_curves(xs, vs, start, cell, config.refine)  # [j, k]: x of vertical j at line k
    lattice = np.stack([col_x.T, row_y], axis=-1)
    confidence = np.minimum(_at_crossings(hs), _at_crossings(vs).T)
    return map_points(np.linalg.inv(homography), lattice), confidence


def _at_crossings(strengths: np.ndarray) -> np.ndarray:
    """(10, 10) strength of each line near each crossing: mean of the two neighbour segments."""
    padded = np.concatenate([strengths[:, :1], strengths, strengths[:, -1:]], axis=1)
    return 0.5 * (padded[:, :-1] + padded[:, 1:])


def fit_lattice(
    lattice: np.ndarray, confidence: np.ndarray, cell_px: float, refine: RefineConfig
) -> tuple[np.ndarray, np.ndarray]:
    """Homography from the ideal lattice (unit cells) to the measured one, and a cleaned lattice.

    The cleaned lattice is the homography plus a smooth cubic bend fitted to the well-seen
    points; points barely seen, or off that smooth surface by more than
    ``bend_outlier_cells``, are replaced by it.
    """
    ideal = ideal_lattice(1.0).reshape(-1, 2)
    measured = lattice.reshape(-1, 2)
    weights = np.clip(confidence.ravel(), 0.0, 1.0)
    good = weights > refine.well_seen_confidence
    if good.sum() < refine.min_well_seen:
        good, weights = np.ones(100, dtype=bool), np.ones(100)
    homography = _robust_homography(lattice, good, cell_px, refine)
    flat = map_points(homography, ideal)
    smooth = flat + _smooth_bend(ideal / 9.0, measured - flat, np.where(good, weights, 0.0))
    off = np.linalg.norm(measured - smooth, axis=1)
    keep = good & (off < refine.bend_outlier_cells * cell_px)
    cleaned = np.where(keep[:, None], measured, smooth).reshape(10, 10, 2)
    return homography.astype(np.float64), cleaned


def _robust_homography(
    lattice: np.ndarray, good: np.ndarray, cell_px: float, refine: RefineConfig
) -> np.ndarray:
    """RANSAC homography from the unit lattice onto its ``good`` (flat index) measured points.

    When RANSAC finds none, the homography of the lattice's four corners.
    """
    ideal = ideal_lattice(1.0).reshape(-1, 2)
    homography, _ = cv2.findHomography(
        ideal[good],
        lattice.reshape(-1, 2)[good],
        cv2.RANSAC,
        refine.ransac_cells * cell_px,
        maxIters=refine.ransac_iterations,
    )
    if homography is None:
        corners = lattice[[0, 0, 9, 9], [0, 9, 9, 0]].astype(np.float32)
        homography = cv2.getPerspectiveTransform(square(9.0).astype(np.float32), corners)
    return np.asarray(homography)


def _smooth_bend(uv: np.ndarray, residual: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Weighted least-squares cubic surface in (u, v) through the residuals, evaluated at uv."""
    u, v = uv[:, 0] - 0.5, uv[:, 1] - 0.5
    terms = np.stack(
        [np.ones_like(u), u, v, u * u, u * v, v * v, u**3, u * u * v, u * v * v, v**3], axis=1
    )
    weighted = terms * weights[:, None]
    gram = weighted.T @ terms + BEND_RIDGE * np.eye(terms.shape[1])
    coeffs = np.linalg.solve(gram, weighted.T @ residual)
    return terms @ coeffs
