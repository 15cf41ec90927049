"""Find a small Sudoku (4×4, 6×6 or 8×8 cells) in a photo by the lines drawn inside a quad.

The 9×9 grid finder (``vision/grid/``) fits a 10 × 10 lattice and finds nothing on a page
of 6×6 puzzles. Here the finder's rough candidate quads (``find_candidates``) are each
warped square with a margin around, and the share of each row and column of the quad
covered by long runs of ink (``line_images``: lines, not digits; runs longer than most
of a cell of the size looked for, ``SmallGridConfig.run_cells``) gives two line profiles.
For each size n, n + 1 evenly spaced lines are fitted to each profile (``fit_lines``); a
quad is a grid of n cells a side when all its lines are there and nothing line-like lies
midway between them, when its box lines are drawn at least as thick as the others (2 rows
× 3 columns for 6×6: ``solver/geometry.py``'s ``BOX_SHAPES``), and when its lines do not
run on past the border (a part of a larger grid). A quad whose lines fit a 9×9 is never
taken for a small grid. A page photographed sideways shows a 6×6's boxes as 3 rows × 2
columns (an 8×8's as 4 × 2): such a grid is taken too (``SmallGridConfig.sideways``) and
turned a quarter turn, its boxes upright; which way up its digits stand is the reader's
to find (``read.orient_small``). Points are (x, y) pixels of the image searched.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from ...solver.geometry import BOX_SHAPES
from ..grid.candidates import find_candidates
from ..grid.config import DEFAULT_GRID_CONFIG, GridConfig
from ..grid.find import shrink
from ..grid.lattice import line_images
from ..grid.warp import check_image, homography_to_square, is_convex_clockwise, map_points, to_gray
from ..read.orientation import turn_detection
from ..types import GridDetection
from .config import DEFAULT_SMALL_GRID_CONFIG, SmallGridConfig

PROFILE_BLUR_PX = 3  # the line profiles are smoothed over this many pixels


@dataclass(frozen=True)
class LineFit:
    """n + 1 evenly spaced lines fitted to one line profile (warped pixels).

    positions: (n + 1,) where each line was measured. coverage: (n + 1,) the share of
    the grid's length each covers. between: the most covered place midway between two
    lines. outside: the coverage one spacing past each end (before, after).
    widths: (n + 1,) each line's drawn width in pixels.
    """

    positions: np.ndarray
    coverage: np.ndarray
    between: float
    outside: tuple[float, float]
    widths: np.ndarray


@dataclass(frozen=True)
class SmallGrid:
    """A small Sudoku found: its size (cells a side) and where it lies (``GridDetection``:
    corners, its (size + 1, size + 1, 2) lattice, and the grid straightened).

    both_ways: its lines pass for boxes lying either way (an 8×8's, thick every 2nd line
    one way and every 4th the other, pass for 4 × 2 boxes too): which way up it stands
    is left to its digits, every quarter turn read (``read.oriented``).
    """

    size: int
    detection: GridDetection
    both_ways: bool = False


def line_profiles(
    warped: np.ndarray, side: int, margin: int, grid: GridConfig, cells: int = 9
) -> tuple[np.ndarray, np.ndarray]:
    """The share of each row (horizontal lines) and column (vertical lines) of the grid's
    span covered by long runs of ink (longer than ``LineConfig.line_kernel_cells`` of a
    cell, for a grid of ``cells`` cells a side), in a quad warped to ``side`` with
    ``margin`` around. Ink is told from paper as for a 9×9 (``ink_kernel_cells`` of a
    ninth of the side, whatever ``cells``: a wider one takes a bold heading's letters
    for one dark band)."""
    ninth = side / 9
    cell = max(8, side // cells)
    config = replace(grid.lines, ink_kernel_cells=grid.lines.ink_kernel_cells * ninth / cell)
    lines = line_images(warped, cell, config)
    span = slice(margin, margin + side)
    rows = lines.horizontal[:, span].mean(axis=1)
    cols = lines.vertical[span, :].mean(axis=0)
    blur = (1, PROFILE_BLUR_PX)
    return (
        cv2.GaussianBlur(rows[:, None], blur, 0).ravel(),
        cv2.GaussianBlur(cols[:, None], blur, 0).ravel(),
    )


def fit_lines(
    profile: np.ndarray, n: int, side: int, margin: int, config: SmallGridConfig
) -> LineFit:
    """The best n + 1 evenly spaced lines of a line profile near the quad's edges."""
    peaks = _running_max(profile, config.peak_px)
    xs = np.arange(len(profile), dtype=np.float64)
    spacings = np.linspace(1 - config.spacing_slack, 1 + config.spacing_slack,
                           config.spacing_steps) * side / n  # fmt: skip
    reach = config.offset_slack * side
    offsets = np.arange(margin - reach, margin + reach + 0.5, 1.0)
    best, best_value = (float(margin), side / n), -np.inf
    for spacing in spacings:
        positions = offsets[:, None] + spacing * np.arange(n + 1)[None, :]
        values = np.interp(positions, xs, peaks, left=0.0, right=0.0).mean(axis=1)
        i = int(np.argmax(values))
        if values[i] > best_value:
            best_value, best = float(values[i]), (float(offsets[i]), float(spacing))
    return _measured(profile, peaks, best, n, config)


def _measured(
    profile: np.ndarray, peaks: np.ndarray, fit: tuple[float, float], n: int,
    config: SmallGridConfig,
) -> LineFit:  # fmt: skip
    """The fitted lines measured: each at its peak, its coverage and width, and the
    coverage between them and past the ends."""
    start, spacing = fit
    xs = np.arange(len(profile), dtype=np.float64)
    expected = start + spacing * np.arange(n + 1)
    positions = np.array([_peak_near(profile, p, config.peak_px) for p in expected])
    coverage = np.interp(positions, xs, peaks, left=0.0, right=0.0)
    middles = (positions[:-1] + positions[1:]) / 2
    between = float(np.interp(middles, xs, peaks, left=0.0, right=0.0).max())
    past = np.interp([start - spacing, start + (n + 1) * spacing], xs, peaks, left=0.0, right=0.0)
    widths = np.array([line_width(profile, p, spacing / 4) for p in positions])
    return LineFit(positions, coverage, between, (float(past[0]), float(past[1])), widths)


def _running_max(profile: np.ndarray, radius: int) -> np.ndarray:
    """Each value replaced by the largest within ``radius`` (a line a little off its place)."""
    kernel = np.ones((2 * radius + 1, 1), np.uint8)
    return cv2.dilate(profile.astype(np.float32)[:, None], kernel).ravel().astype(np.float64)


def _peak_near(profile: np.ndarray, centre: float, radius: int) -> float:
    """Where the profile is highest within ``radius`` of ``centre`` (centre if flat)."""
    lo = max(0, round(centre) - radius)
    hi = min(len(profile), round(centre) + radius + 1)
    if hi <= lo:
        return centre
    part = profile[lo:hi]
    return float(lo + int(np.argmax(part))) if part.max() > 0 else centre


def line_width(profile: np.ndarray, at: float, reach: float) -> float:
    """The drawn width of the line at ``at``, in pixels: its profile's area within ``reach``
    over its peak (the line's mean width along the stretch it covers). Not a count of
    pixels: a width of 2.6 pixels counted as 2 here and 3 there let a box line pass for
    thinner than a cell line on a page of shaded boxes."""
    lo, hi = max(0, round(at - reach)), min(len(profile), round(at + reach) + 1)
    part = profile[lo:hi]
    if not part.size or part.max() <= 0:
        return 0.0
    return float(part.sum() / part.max())


def is_grid_of(fit: LineFit, boxes: int, config: SmallGridConfig) -> bool:
    """Whether one direction's lines make a grid: all there, nothing between them, box
    lines (every ``boxes``-th) at least as thick as the others, none past the border."""
    if fit.coverage.min() < config.min_line or fit.between > config.max_between:
        return False
    if max(fit.outside) > config.max_outside:
        return False
    return box_contrast(fit, boxes) >= config.box_thickness


def box_contrast(fit: LineFit, boxes: int) -> float:
    """How many times as thick the box lines (every ``boxes``-th inner line) are drawn as
    the other inner lines, on average (infinite where there are no others)."""
    inner = np.arange(1, len(fit.widths) - 1)
    box = fit.widths[inner[inner % boxes == 0]]
    other = fit.widths[inner[inner % boxes != 0]]
    if not box.size or not other.size:
        return float("inf")
    return float(box.mean()) / max(float(other.mean()), 1e-9)


def is_nine(
    rows: np.ndarray, cols: np.ndarray, side: int, margin: int, config: SmallGridConfig
) -> bool:
    """Whether the line profiles hold a 9×9 grid: 10 evenly spaced lines each way, all
    but ``nine_lines_missing`` of them drawn (a cut or faint border line), spaced within
    ``nine_spacing_slack`` of a ninth of the quad (an 8×8's lines are an eighth apart)."""
    least = 10 - config.nine_lines_missing
    tight = replace(config, spacing_slack=config.nine_spacing_slack)
    fits = [fit_lines(p, 9, side, margin, tight) for p in (rows, cols)]
    return all(int(np.count_nonzero(f.coverage >= config.min_line)) >= least for f in fits)


@dataclass(frozen=True)
class QuadGrid:
    """The grid a quad holds: its size (cells a side), its row and column lines, and
    whether its boxes lie sideways (3 rows × 2 columns on a 6×6: the page turned), and
    whether its lines passed for boxes lying either way (``SmallGrid.both_ways``)."""

    size: int
    across: LineFit
    down: LineFit
    sideways: bool
    both_ways: bool = False


def box_shapes(n: int, sideways: bool) -> list[tuple[int, int]]:
    """The boxes (rows × columns) a grid of ``n`` cells a side may show: upright, then
    turned a quarter turn where ``sideways`` and that is another shape."""
    upright = BOX_SHAPES[n]
    turned = (upright[1], upright[0])
    return [upright, turned] if sideways and turned != upright else [upright]


def size_of_quad(
    warped: np.ndarray, side: int, margin: int, grid: GridConfig, config: SmallGridConfig
) -> QuadGrid | None:
    """The small grid whose lines a quad warped square holds; None for a 9×9 grid or no
    grid. Where its lines make a grid of boxes both ways (an 8×8's lines thick every 2nd
    across, every 4th down, pass for 4 × 2 boxes too), the way whose box lines stand out
    more is taken."""
    ninths = line_profiles(warped, side, margin, grid)
    if is_nine(*ninths, side, margin, config):
        return None
    for n in config.sizes:
        cells = config.run_cells or n  # runs longer than most of an n × n grid's cell
        rows, cols = ninths if cells == 9 else line_profiles(warped, side, margin, grid, cells)
        across = fit_lines(rows, n, side, margin, config)
        down = fit_lines(cols, n, side, margin, config)
        shapes = [
            (min(box_contrast(across, rows_), box_contrast(down, cols_)), (rows_, cols_))
            for rows_, cols_ in box_shapes(n, config.sideways)
            if is_grid_of(across, rows_, config) and is_grid_of(down, cols_, config)
        ]
        if shapes:  # both ways on an 8×8 (its 2 × 4 boxes' lines): the thicker box lines
            _, best = max(shapes)
            return QuadGrid(n, across, down, best != BOX_SHAPES[n], len(shapes) > 1)
    return None


def small_detection(
    gray: np.ndarray, to_warped: np.ndarray, n: int, fits: tuple[LineFit, LineFit],
    score: float, config: SmallGridConfig,
) -> GridDetection | None:  # fmt: skip
    """The detection of a grid whose lines were measured in a quad warped by ``to_warped``
    (from ``gray``'s pixels): its lattice of measured lines, straightened at ``cell_px``."""
    across, down = fits
    xs, ys = np.meshgrid(down.positions, across.positions)
    warped_points = np.stack([xs, ys], axis=-1).reshape(-1, 2)
    lattice = map_points(np.linalg.inv(to_warped), warped_points).reshape(n + 1, n + 1, 2)
    corners = lattice[[0, 0, -1, -1], [0, -1, -1, 0]]
    if not is_convex_clockwise(corners):
        return None
    cell = config.cell_px
    ideal = np.stack(np.meshgrid(np.arange(n + 1), np.arange(n + 1)), axis=-1) * float(cell)
    homography, _ = cv2.findHomography(lattice.reshape(-1, 2), ideal.reshape(-1, 2).astype(float))
    if homography is None:
        return None
    warped = cv2.warpPerspective(
        gray,
        homography,
        (n * cell, n * cell),
        flags=cv2.INTER_AREA,
        borderMode=cv2.BORDER_REPLICATE,
    )
    inverse = np.linalg.inv(homography)
    return GridDetection(corners, lattice, homography, inverse / inverse[2, 2], warped, score)


def find_small_grid(
    image: np.ndarray,
    grid: GridConfig = DEFAULT_GRID_CONFIG,
    config: SmallGridConfig = DEFAULT_SMALL_GRID_CONFIG,
) -> SmallGrid | None:
    """The biggest small Sudoku in a photo (BGR or gray), or None when there is none."""
    gray = to_gray(check_image(image))
    small, scale = shrink(gray, grid.search.max_side)
    side, margin = config.side_px, round(config.margin_share * config.side_px)
    for quad in find_candidates(small, grid.search)[: config.candidates]:
        corners = np.asarray(quad, np.float64) / scale
        to_warped = homography_to_square(corners, side, margin)
        whole = side + 2 * margin
        warped = cv2.warpPerspective(
            gray, to_warped, (whole, whole), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
        )
        found = size_of_quad(warped, side, margin, grid, config)
        if found is None:
            continue
        fits = (found.across, found.down)
        score = float(min(found.across.coverage.min(), found.down.coverage.min()))
        detection = small_detection(gray, to_warped, found.size, fits, score, config)
        if detection is not None:  # sideways boxes: a quarter turn stands them upright
            turned = turn_detection(detection, int(found.sideways))
            return SmallGrid(found.size, turned, found.both_ways)
    return None
