"""Trace the 20 grid lines of a found grid, and measure the thickness of its border.

The grid is straightened cell by cell with the lattice found so far (one extra ring of
cells, extrapolated, shows the border and what lies outside it), so each line lies
near a known row or column of the straightened image. Along each line, in windows of
half a cell, the line's local position is the centroid of its dark, line-shaped ink; a
smooth curve through those positions (a local linear fit that drops outliers) gives
the line's offset at every crossing. The corrected crossings are mapped back to the
photo through the same cells. A few rounds of this follow a waved or curled page.

The border's thickness comes from the straightened image's brightness across each
outer line: where it rises half way back to the paper on the outside is the grid's
outer edge, where a person (or an annotator) puts the grid's corners.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .config import GridConfig, LineConfig, TraceConfig
from .lattice import MIN_KERNEL_PX, odd_size
from .warp import cell_homographies, lattice_maps, map_points, pick_level

Pyramid = tuple[np.ndarray, ...]

THICKEN_PX = 3  # ink is thickened across a line by a pixel each way before runs are kept
MIN_REACH_PX = 2  # every search around a line looks at least this many px each way
SLOPE_PRIOR = 0.25  # as if every local fit had samples half a cell (0.5²) apart
MIN_FIT_WEIGHT = 0.05  # a local fit with less total weight is 0
LINE_REACH_PARTS = 5  # a line's darkest point lies within cell // 5 of its centre
MIN_SPACING_PX = 1e-9  # lines closer than this give no direction across them


@dataclass(frozen=True)
class Straightened:
    """A grid warped cell by cell, with one ring of extrapolated cells around it.

    Grid line k (0..9) lies at pixel ``(k + 1) * cell`` of ``image``; ``cells`` holds the
    (11, 11, 3, 3) homographies from unit cells to photo pixels.
    """

    image: np.ndarray
    cell: int
    cells: np.ndarray


def extend_lattice(lattice: np.ndarray) -> np.ndarray:
    """(12, 12, 2): the lattice with one ring of points extrapolated around it."""
    rows = np.concatenate(
        [2 * lattice[:1] - lattice[1:2], lattice, 2 * lattice[-1:] - lattice[-2:-1]], axis=0
    )
    return np.concatenate(
        [2 * rows[:, :1] - rows[:, 1:2], rows, 2 * rows[:, -1:] - rows[:, -2:-1]], axis=1
    )


def warp_cell_by_cell(pyramid: Pyramid, lattice: np.ndarray, cell: int) -> Straightened:
    """Warp the grid and one ring of cells around it, cell by cell, from ``pyramid[0]`` pixels."""
    extended = extend_lattice(lattice)
    map_x, map_y = lattice_maps(extended, cell)
    image, scale = pick_level(pyramid, lattice[[0, 0, 9, 9], [0, 9, 9, 0]], 9 * cell)
    warped = cv2.remap(
        image, map_x * scale, map_y * scale, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return Straightened(warped, cell, cell_homographies(extended))


def to_photo(grid: Straightened, points: np.ndarray) -> np.ndarray:
    """Map (..., 2) points in straightened pixels back to photo pixels.

    Each point goes through the homography of the grid cell it lies in (points just
    outside the grid use the nearest grid cell, not the extrapolated ring).
    """
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2) / grid.cell
    index = np.clip(np.floor(pts), 1, grid.cells.shape[0] - 2).astype(np.int64)
    local = pts - index
    h = grid.cells[index[:, 1], index[:, 0]]  # (m, 3, 3)
    xyw = np.einsum("mkl,ml->mk", h, np.column_stack([local, np.ones(len(local))]))
    return (xyw[:, :2] / xyw[:, 2:3]).reshape(np.shape(points))


def line_weight(warped: np.ndarray, cell: int, lines: LineConfig) -> tuple[np.ndarray, np.ndarray]:
    """Darkness of long horizontal runs and of long vertical runs (float32, 0 elsewhere).

    The ink is thickened across each direction by a pixel first, so a thin line that
    steps from one row to the next still forms one long run.
    """
    size = odd_size(cell * lines.ink_kernel_cells)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
    darkness = cv2.morphologyEx(warped, cv2.MORPH_BLACKHAT, kernel)
    level = max(lines.min_ink_contrast, lines.ink_contrast_fraction * float(darkness.max()))
    ink = (darkness > level).astype(np.uint8)
    length = max(MIN_KERNEL_PX, round(cell * lines.line_kernel_cells))
    tall = cv2.dilate(ink, np.ones((THICKEN_PX, 1), np.uint8))
    wide = cv2.dilate(ink, np.ones((1, THICKEN_PX), np.uint8))
    horizontal = cv2.morphologyEx(tall, cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    vertical = cv2.morphologyEx(wide, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    dark = darkness.astype(np.float32)
    return dark * horizontal, dark * vertical


def window_profiles(weight: np.ndarray, cell: int, windows: int) -> np.ndarray:
    """(rows, windows): mean weight of each row over equal windows spanning the grid's columns."""
    span = weight[:, cell : 10 * cell]
    step = span.shape[1] // windows
    part = span[:, : step * windows].reshape(weight.shape[0], windows, step)
    return part.mean(axis=2)


def window_faintest(weight: np.ndarray, cell: int, windows: int, stretch: int) -> np.ndarray:
    """(rows, windows): each row's weight at its faintest within ``stretch`` px along it,
    averaged over equal windows (rows summed with a pixel each side first, so a line
    that falls between two rows counts whole).

    A solid line keeps its darkness all along; a dashed or dotted line is faint
    wherever ``stretch`` px reach a gap.
    """
    across = cv2.boxFilter(weight, -1, (1, THICKEN_PX), normalize=False)
    faintest = cv2.erode(across, np.ones((1, max(1, stretch)), np.uint8))
    return window_profiles(faintest, cell, windows)


def line_offsets(
    profiles: np.ndarray, faintest: np.ndarray, cell: int, search: int, trace: TraceConfig
) -> tuple[np.ndarray, np.ndarray]:
    """(10, windows) offset in px of each line from its row in each window, and its strength.

    The line is the highest peak of the profile within ``search`` px of its row (a peak at
    the edge of the search counts ``far_peak_discount`` less than one on the row); for a
    thin line (not a box line or border), the peak darkest at its faintest
    (``grid_line_peak``): a dashed cage line beside a thin grid line is as dark on
    average, never all along. The offset is the weighted centroid of the ink around that
    peak; strength is its height over the line's median.
    """
    rows = (np.arange(1, 11) * cell)[:, None] + np.arange(-search, search + 1)[None, :]
    rows = np.clip(rows, 1, profiles.shape[0] - 2)
    near = profiles[rows]  # (10, 2s+1, windows)
    smooth = _across(near)
    distance = np.arange(-search, search + 1) / search
    prior = 1.0 - trace.far_peak_discount * distance**2  # nearer lines first
    score = smooth * prior[None, :, None]
    thin = (np.arange(10) % 3 != 0)[:, None]  # box lines and borders: far darker than a cage line
    top = np.where(
        thin,
        grid_line_peak(score, _across(faintest[rows]), trace.solid_reach_cells * cell, trace),
        score.argmax(axis=1),
    )
    reach = max(MIN_REACH_PX, round(trace.centroid_reach_cells * cell))  # thick borders too
    span = np.arange(-reach, reach + 1)
    picks = np.clip(top[:, None, :] + span[:, None], 0, 2 * search)
    values = np.take_along_axis(near, picks, axis=1)
    total = values.sum(axis=1)
    centroid = (values * (picks - search)).sum(axis=1) / np.maximum(total, 1e-6)
    height = np.take_along_axis(smooth, top[:, None, :], axis=1)[:, 0]
    typical = np.median(height, axis=1, keepdims=True)
    strength = np.clip(height / np.maximum(typical, 1e-6), 0.0, 1.0)
    strength[height <= 1e-6] = 0.0
    return centroid, strength


def _across(near: np.ndarray) -> np.ndarray:
    """``near`` (lines, positions, windows) smoothed across the line by a [1, 2, 1] / 4 kernel."""
    smooth = near.copy()
    smooth[:, 1:-1] = 0.25 * near[:, :-2] + 0.5 * near[:, 1:-1] + 0.25 * near[:, 2:]
    return smooth


def grid_line_peak(
    score: np.ndarray, faintest: np.ndarray, reach: float, trace: TraceConfig
) -> np.ndarray:
    """(lines, windows) index of the grid line's peak in ``score`` (lines, positions, windows).

    Peaks (local maxima) at least ``peak_share`` of the highest and at most ``reach`` px
    from it are candidates; the one
    whose ``faintest`` darkness is highest wins when it is ``solid_ratio`` times as dark at
    its faintest as the highest peak (a dashed line's gaps show) and at least
    ``solid_height`` of the highest's height (a line dark all along, not the piece of a
    stroke beside a grid line printed faint). Otherwise, the highest.
    """
    highest = np.argmax(score, axis=1)
    padded = np.pad(score, ((0, 0), (1, 1), (0, 0)), constant_values=-np.inf)
    peak = (score >= padded[:, :-2]) & (score >= padded[:, 2:])
    best = np.take_along_axis(score, highest[:, None, :], axis=1)
    peak &= score >= trace.peak_share * best
    positions = np.arange(score.shape[1])[None, :, None]
    peak &= np.abs(positions - highest[:, None, :]) <= reach  # a cage line's inset away at most
    solid = np.where(peak, faintest, -np.inf)
    choice = np.argmax(solid, axis=1)
    chosen = np.take_along_axis(faintest, choice[:, None, :], axis=1)[:, 0]
    first = np.take_along_axis(faintest, highest[:, None, :], axis=1)[:, 0]
    solid = chosen >= trace.solid_height * best[:, 0]  # dark all along, not a stroke's piece
    better = solid & (chosen > trace.solid_ratio * np.maximum(first, 0.0))
    return np.where(better, choice, highest)


def smooth_curves(
    offsets: np.ndarray, strength: np.ndarray, cell: int, trace: TraceConfig
) -> np.ndarray:
    """(10, 10) each line's offset at the 10 crossings: robust local linear fits along it.

    Windows are weighted by their strength and a Gaussian of their distance (in cells)
    from the crossing; windows off the first fit by more than ``outlier_cells`` (and than
    ``outlier_spread`` median deviations) drop out.
    """
    windows = offsets.shape[1]
    t = (np.arange(windows) + 0.5) * 9.0 / windows  # window centres, cells from line 0
    targets = np.arange(10, dtype=np.float64)
    weights = np.where(strength > trace.min_strength, strength**2, 0.0)
    fitted, _ = _local_linear(t, offsets, weights, t, trace.sigma_cells)
    spread = np.abs(offsets - fitted)
    allowed = np.maximum(
        trace.outlier_cells * cell, trace.outlier_spread * np.median(spread, axis=1)
    )
    weights = weights * (spread <= allowed[:, None])
    local, support = _local_linear(t, offsets, weights, targets, trace.sigma_cells)
    wide, _ = _local_linear(
        t, offsets, weights, targets, trace.wide_sigma_factor * trace.sigma_cells
    )
    share = support / (support + trace.half_support)  # little seen: lean on the wider fit
    return share * local + (1.0 - share) * wide


def _local_linear(
    t: np.ndarray, values: np.ndarray, weights: np.ndarray, at: np.ndarray, sigma: float
) -> tuple[np.ndarray, np.ndarray]:
    """Weighted local linear fits of values (lines, len(t)) at ``at``, and their total weight.

    Both are (lines, len(at)); a fit with (almost) no weight is 0.
    """
    dt = t[None, :] - at[:, None]  # (targets, samples)
    g = weights[:, None, :] * np.exp(-0.5 * (dt / sigma) ** 2)[None]  # (lines, targets, samples)
    s0 = g.sum(axis=2) + 1e-9
    s1 = (g * dt).sum(axis=2)
    s2 = (g * dt * dt).sum(axis=2) + SLOPE_PRIOR * s0  # a slope needs samples spread apart
    y0 = (g * values[:, None, :]).sum(axis=2)
    y1 = (g * dt * values[:, None, :]).sum(axis=2)
    det = s0 * s2 - s1 * s1
    value = (s2 * y0 - s1 * y1) / np.maximum(det, 1e-12)
    return np.where(s0 > MIN_FIT_WEIGHT, value, 0.0), s0


def trace_once(
    pyramid: Pyramid, lattice: np.ndarray, config: GridConfig, search_cells: float
) -> tuple[np.ndarray, Straightened]:
    """The lattice corrected by one round of line tracing, and the straightened image used."""
    trace = config.trace
    cell = trace.cell_size
    grid = warp_cell_by_cell(pyramid, lattice, cell)
    horizontal, vertical = line_weight(grid.image, cell, config.lines)
    search = max(MIN_REACH_PX, round(search_cells * cell))
    windows = trace.windows_per_cell * 9
    stretch = round(trace.faintest_stretch_cells * cell)
    dy, hs = line_offsets(
        window_profiles(horizontal, cell, windows),
        window_faintest(horizontal, cell, windows, stretch),
        cell,
        search,
        trace,
    )
    dx, vs = line_offsets(
        window_profiles(vertical.T, cell, windows),
        window_faintest(vertical.T, cell, windows, stretch),
        cell,
        search,
        trace,
    )
    row_y = np.clip(smooth_curves(dy, hs, cell, trace), -search, search)  # [line k, vertical j]
    col_x = np.clip(smooth_curves(dx, vs, cell, trace), -search, search)  # [vertical j, line k]
    nominal = (np.arange(10) + 1.0) * cell
    xs = nominal[None, :] + col_x.T  # [k, j]
    ys = nominal[:, None] + row_y
    return to_photo(grid, np.stack([xs, ys], axis=-1)), grid


def pin_border(lattice: np.ndarray, trace: TraceConfig) -> np.ndarray:
    """The lattice with border points that stray from the next two lines' trend put back on it.

    A border line may lock onto a rule or a frame just outside the grid; the lines inside
    predict it (evenly spaced, to within the bend of a cell or two). A point moves only
    where the predictions from lines 1-2 and from lines 1-3 agree, only across its border
    line, and only when it lies off its border line as put back (``off_line``): a point
    on the line through its neighbours is right where lines inside, pulled aside by a
    digit near the border, stray together.
    """
    out = lattice.copy()
    for axis in (0, 1):
        view = np.moveaxis(out, axis, 0)  # view[k]: line k of this direction
        for edge, first, second, third in ((0, 1, 2, 3), (9, 8, 7, 6)):
            step = view[first] - view[second]
            spacing = np.linalg.norm(step, axis=-1)
            across = step / np.maximum(spacing, MIN_SPACING_PX)[:, None]  # unit, outward
            predicted = _along(view[first] + step, across)
            other = _along(1.5 * view[first] - 0.5 * view[third], across)
            limit = trace.border_trend_cells * spacing
            agree = np.abs(predicted - other) < 0.5 * limit
            off = predicted - _along(view[edge], across)
            stray = agree & (np.abs(off) > limit)
            moved = view[edge] + np.where(stray, off, 0.0)[:, None] * across
            stray &= off_line(view[edge], moved, trace) > limit
            view[edge][stray] = moved[stray]
    return out


def off_line(points: np.ndarray, line: np.ndarray, trace: TraceConfig) -> np.ndarray:
    """(n,) how far each of the (n, 2) points lies from the straight line through the
    ``line`` points ``border_own_near`` to ``border_own_far`` places from it (either side)."""
    places = np.arange(len(line))
    gap = np.abs(places[:, None] - places[None, :])
    weights = ((gap >= trace.border_own_near) & (gap <= trace.border_own_far)).astype(float)
    weights /= weights.sum(axis=1, keepdims=True)
    centre = weights @ line  # (n, 2)
    spread = line[None, :, :] - centre[:, None, :]  # (n, n, 2)
    scatter = np.einsum("ik,ikl,ikm->ilm", weights, spread, spread)
    _, vectors = np.linalg.eigh(scatter)  # ascending: the first is normal to the line
    return np.abs(_along(points - centre, vectors[:, :, 0]))


def _along(points: np.ndarray, directions: np.ndarray) -> np.ndarray:
    """(n,) the position of each of the (n, 2) points along its unit direction."""
    return np.einsum("nk,nk->n", points, directions)


def trace_lattice(
    pyramid: Pyramid, lattice: np.ndarray, config: GridConfig
) -> tuple[np.ndarray, Straightened]:
    """The lattice after ``rounds`` of tracing with shrinking search, and the grid
    straightened with it (where its border is measured and its outer corners mapped).

    The image the last round traced in would do only when that round moved little: where
    ``pin_border`` put a border point back, it lies off the returned lattice by as much.
    """
    trace = config.trace
    search = trace.search_cells
    for _ in range(trace.rounds):
        lattice, _ = trace_once(pyramid, lattice, config, search)
        lattice = pin_border(lattice, trace)
        search *= trace.search_shrink
    return lattice, warp_cell_by_cell(pyramid, lattice, trace.cell_size)


def edge_offset(profile: np.ndarray, centre: int, cell: int, min_contrast: float) -> float | None:
    """How far (px) outward of ``centre`` a dark line's outer edge lies in a brightness profile.

    Index 0 of ``profile`` is outside the grid. The edge is where the brightness climbs
    half way from the line's darkest point back to the paper outside; when the outside
    is not brighter than the line (page edge, dark table) the inner half-width is used.
    Lines less than ``min_contrast`` gray levels darker than the paper inside give None.
    """
    line_reach = cell // LINE_REACH_PARTS  # paper is looked for beyond this, to half a cell
    reach = max(MIN_REACH_PX, line_reach)
    lo = centre - reach
    dark_at = lo + int(np.argmin(profile[lo : centre + reach + 1]))
    dark = float(profile[dark_at])
    inner = float(profile[centre + line_reach : centre + cell // 2].max())
    outer = float(profile[max(0, centre - cell // 2) : centre - line_reach].max())
    inner_edge = _half_crossing(profile, dark_at, 0.5 * (dark + inner), +1)
    if inner - dark < min_contrast or inner_edge is None:
        return None
    outer_edge = None
    if outer - dark >= 0.5 * (inner - dark):
        outer_edge = _half_crossing(profile, dark_at, 0.5 * (dark + outer), -1)
    if outer_edge is None:
        outer_edge = 2 * dark_at - inner_edge
    return float(centre - outer_edge)


def _half_crossing(profile: np.ndarray, start: int, level: float, step: int) -> float | None:
    """Sub-pixel position where ``profile`` first rises to ``level`` walking from ``start``."""
    i = start
    while 0 <= i + step < len(profile):
        a, b = float(profile[i]), float(profile[i + step])
        if b >= level:
            return i + step * (level - a) / max(b - a, 1e-9)
        i += step
    return None


def border_offsets(grid: Straightened, trace: TraceConfig) -> np.ndarray:
    """(4,) px from the centre of the top, right, bottom and left border to its outer edge.

    Each side's profile is the median, over cell-wide windows along the side's middle
    (its 7 inner cells), of the brightness across it; sides that cannot be measured
    take the others' median.
    """
    image = grid.image.astype(np.float32)
    cell = grid.cell
    flipped = 11 * cell - 1 - 10 * cell  # where line 9 lies once the image is flipped
    sides = [(image, cell), (image.T[::-1], flipped), (image[::-1], flipped), (image.T, cell)]
    values = []
    for view, centre in sides:  # outside the grid at index 0 of each view
        middle = view[:, 2 * cell : 9 * cell]
        windows = middle.reshape(middle.shape[0], 7, cell).mean(axis=2)
        profile = np.median(windows, axis=1)
        values.append(edge_offset(profile, centre, cell, trace.min_border_contrast))
    known = [v for v in values if v is not None]
    if not known:
        return np.zeros(4)
    fallback = float(np.median(known))
    out = np.array([fallback if v is None else v for v in values])
    return np.clip(out, 0.0, trace.max_border_cells * cell)


def outer_corners(grid: Straightened, offsets: np.ndarray) -> np.ndarray:
    """(4, 2) corners TL, TR, BR, BL of the border's outer edge, in photo pixels."""
    top, right, bottom, left = offsets
    c = grid.cell
    points = np.array(
        [
            [c - left, c - top],
            [10 * c + right, c - top],
            [10 * c + right, 10 * c + bottom],
            [c - left, 10 * c + bottom],
        ],
        dtype=np.float64,
    )
    return to_photo(grid, points)


def lattice_homography(lattice: np.ndarray, cell_px: float, trace: TraceConfig) -> np.ndarray:
    """Homography from the ideal unit lattice to the (10, 10, 2) lattice, robust to stray points."""
    ideal = np.stack(np.meshgrid(np.arange(10.0), np.arange(10.0)), axis=-1).reshape(-1, 2)
    measured = lattice.reshape(-1, 2)
    homography, inliers = cv2.findHomography(
        ideal, measured, cv2.RANSAC, trace.ransac_cells * cell_px
    )
    if homography is None:
        homography, _ = cv2.findHomography(ideal, measured, 0)
    elif inliers is not None and inliers.sum() >= trace.min_inliers:
        keep = inliers.ravel() > 0
        homography, _ = cv2.findHomography(ideal[keep], measured[keep], 0)
    return np.asarray(homography, dtype=np.float64)


def flatten(lattice: np.ndarray, trace: TraceConfig) -> tuple[np.ndarray, bool]:
    """The lattice of the homography fitted to the 100 points, and whether the page is bent.

    A page is bent when a tenth of the points or more (``bent_percentile``) stray from
    that homography by ``bent_share_cells``; a few stray points on a flat page are
    mis-traced ones.
    """
    cell_px = float(np.linalg.norm(lattice[9, 9] - lattice[0, 0])) / (9.0 * np.sqrt(2.0))
    ideal = np.stack(np.meshgrid(np.arange(10.0), np.arange(10.0)), axis=-1)
    flat = map_points(lattice_homography(lattice, cell_px, trace), ideal)
    residual = np.linalg.norm(lattice - flat, axis=-1)
    bent = float(np.percentile(residual, trace.bent_percentile)) > trace.bent_share_cells * cell_px
    return flat, bent
