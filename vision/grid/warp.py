"""Straighten a grid: homographies from corners, lattices, and cell-by-cell warps."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from ..types import GridDetection
from .config import DEFAULT_GRID_CONFIG, GridConfig

MIN_IMAGE_SIDE = 16  # px: a smaller image cannot hold a grid
PYRAMID_SMALLEST_SIDE = 96  # px: pyramids stop halving before a level gets smaller
DEGENERATE = 1e-12  # cell determinants closer to 0 are taken as this (a collapsed cell)


def check_image(image: object, name: str = "image") -> np.ndarray:
    """Return ``image`` if it is a uint8 (H, W) or (H, W, 3|4) array, else raise naming it."""
    if not isinstance(image, np.ndarray):
        raise TypeError(f"{name} must be a numpy array, got {type(image).__name__}")
    if image.dtype != np.uint8:
        raise TypeError(f"{name} must have dtype uint8, got {image.dtype}")
    if image.ndim == 3 and image.shape[2] in (1, 3, 4):
        pass
    elif image.ndim != 2:
        raise ValueError(f"{name} must have shape (H, W) or (H, W, 3), got {image.shape}")
    if image.shape[0] < MIN_IMAGE_SIDE or image.shape[1] < MIN_IMAGE_SIDE:
        raise ValueError(f"{name} is too small to hold a grid: shape {image.shape}")
    return image


def to_gray(image: np.ndarray) -> np.ndarray:
    """Grayscale uint8 version of a gray, BGR or BGRA image."""
    if image.ndim == 2:
        return image
    if image.shape[2] == 1:
        return image[:, :, 0]
    code = cv2.COLOR_BGRA2GRAY if image.shape[2] == 4 else cv2.COLOR_BGR2GRAY
    return cv2.cvtColor(image, code)


def check_corners(corners: object, name: str = "corners") -> np.ndarray:
    """Return corners as a (4, 2) float64 array of a convex quad in TL, TR, BR, BL order."""
    pts = np.asarray(corners, dtype=np.float64)
    if pts.shape != (4, 2):
        raise ValueError(f"{name} must have shape (4, 2), got {pts.shape}")
    if not np.all(np.isfinite(pts)):
        raise ValueError(f"{name} must be finite numbers")
    if not is_convex_clockwise(pts):
        raise ValueError(
            f"{name} must be a convex quad in the order top-left, top-right, "
            f"bottom-right, bottom-left: {pts.tolist()}"
        )
    return pts


def next_rows(rows: np.ndarray, step: int = 1) -> np.ndarray:
    """``rows`` with row i + ``step`` (cyclically) at row i: ``np.roll(rows, -step, axis=0)``
    without its overhead, for the few points of a quad."""
    step %= len(rows)
    return np.concatenate((rows[step:], rows[:step]))


def is_convex_clockwise(quad: np.ndarray) -> bool:
    """True when the quad turns the same way (clockwise on screen) at every corner
    (never for a quad with a corner at infinity).

    In Python floats (the same float64 arithmetic, without numpy's overhead for a few
    points: the grid search asks this a few hundred times a photo); inf - inf is no turn.
    """
    points = np.asarray(quad, dtype=np.float64).tolist()
    count = len(points)
    for i in range(count):
        (ax, ay), (bx, by), (cx, cy) = points[i], points[(i + 1) % count], points[(i + 2) % count]
        if not (bx - ax) * (cy - by) - (by - ay) * (cx - bx) > 0:
            return False
    return True


def order_corners(points: np.ndarray) -> np.ndarray:
    """Order four points as top-left, top-right, bottom-right, bottom-left."""
    pts = np.asarray(points, dtype=np.float64).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise on screen, starting near the left
    start = int(np.argmin(pts.sum(axis=1)))
    return next_rows(pts, start)


def square(size: float, margin: float = 0.0) -> np.ndarray:
    """Corners TL, TR, BR, BL of the square [margin, margin + size]²."""
    lo, hi = margin, margin + size
    return np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], dtype=np.float64)


def homography_to_square(corners: np.ndarray, size: float, margin: float = 0.0) -> np.ndarray:
    """Homography mapping the quad ``corners`` onto the square of side ``size``."""
    src = corners.astype(np.float32)
    dst = square(size, margin).astype(np.float32)
    return cv2.getPerspectiveTransform(src, dst).astype(np.float64)


def map_points(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a 3×3 homography to points of shape (..., 2)."""
    pts = np.asarray(points, dtype=np.float64)
    flat = pts.reshape(-1, 2)
    mapped = flat @ homography[:, :2].T + homography[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):  # a point sent to infinity: inf
        return (mapped[:, :2] / mapped[:, 2:3]).reshape(pts.shape)


def ideal_lattice(cell_size: float, margin: float = 0.0) -> np.ndarray:
    """(10, 10, 2) grid-line intersections of a straight grid of the given cell size."""
    ticks = margin + cell_size * np.arange(10, dtype=np.float64)
    xs, ys = np.meshgrid(ticks, ticks)
    return np.stack([xs, ys], axis=-1)


def lattice_from_inverse(inverse: np.ndarray, cell_size: float) -> np.ndarray:
    """Intersections in original pixels of a flat grid warped by ``inverse``."""
    return map_points(inverse, ideal_lattice(cell_size))


def build_pyramid(
    gray: np.ndarray, smallest_side: int = PYRAMID_SMALLEST_SIDE
) -> tuple[np.ndarray, ...]:
    """The image and its successive halvings (``cv2.pyrDown``) down to ``smallest_side``."""
    levels = [gray]
    while min(levels[-1].shape) >= 2 * smallest_side:
        levels.append(cv2.pyrDown(levels[-1]))
    return tuple(levels)


def pick_level(
    pyramid: tuple[np.ndarray, ...], quad: np.ndarray, target_side: float
) -> tuple[np.ndarray, float]:
    """The coarsest level on which ``quad`` is still at least ``target_side`` wide, and its scale.

    Warping from that level shrinks by less than 2, so thin lines are not lost to aliasing.
    """
    side = float(np.linalg.norm(quad[2] - quad[0]) + np.linalg.norm(quad[3] - quad[1])) / (
        2.0 * np.sqrt(2.0)
    )
    level = 0
    while level + 1 < len(pyramid) and side / 2 ** (level + 1) >= target_side:
        level += 1
    return pyramid[level], 0.5**level


def warp_flat(gray: np.ndarray, homography: np.ndarray, size: int) -> np.ndarray:
    """Warp with one homography into a size × size image (from a halved image if much larger)."""
    corners = map_points(np.linalg.inv(homography), square(float(size)))
    image, scale = pick_level(build_pyramid(gray, size), corners, size)
    return cv2.warpPerspective(
        image,
        homography @ np.diag([1 / scale, 1 / scale, 1.0]),
        (size, size),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )


def cell_homographies(lattice: np.ndarray) -> np.ndarray:
    """(n, n, 3, 3) homographies from the unit square onto each cell of an (n+1)² lattice.

    Closed form of the square-to-quad map (Heckbert 1989), for all cells at once.
    """
    p0, p1 = lattice[:-1, :-1], lattice[:-1, 1:]
    p2, p3 = lattice[1:, 1:], lattice[1:, :-1]
    s = p0 - p1 + p2 - p3
    d1, d2 = p1 - p2, p3 - p2
    den = d1[..., 0] * d2[..., 1] - d2[..., 0] * d1[..., 1]
    den = np.where(np.abs(den) < DEGENERATE, DEGENERATE, den)
    g = (s[..., 0] * d2[..., 1] - d2[..., 0] * s[..., 1]) / den
    h = (d1[..., 0] * s[..., 1] - s[..., 0] * d1[..., 1]) / den
    out = np.empty((*p0.shape[:2], 3, 3))
    out[..., :2, 0] = p1 - p0 + g[..., None] * p1
    out[..., :2, 1] = p3 - p0 + h[..., None] * p3
    out[..., :2, 2] = p0
    out[..., 2, 0], out[..., 2, 1], out[..., 2, 2] = g, h, 1.0
    return out


def lattice_maps(lattice: np.ndarray, cell_size: int) -> tuple[np.ndarray, np.ndarray]:
    """float32 (x, y) remap tables sending each cell of ``lattice`` onto a square cell.

    Pixel p of a straightened cell sits at p / cell_size in unit-cell coordinates. The
    tables are made one row of cells at a time: the float64 work of a row stays in the
    processor's cache, where the whole grid's at once took several times longer.
    """
    cells = cell_homographies(lattice)
    n, c = cells.shape[0], cell_size
    local = np.arange(c, dtype=np.float64) / c
    u, v = np.meshgrid(local, local)
    uvw = np.stack([u.ravel(), v.ravel(), np.ones(c * c)])  # (3, c²)
    maps = np.empty((2, n, c, n, c), dtype=np.float32)  # (x|y, cell row, v, cell column, u)
    for row in range(n):
        xyw = (cells[row] @ uvw).reshape(n, 3, c, c)
        maps[:, row] = (xyw[:, :2] / xyw[:, 2:]).transpose(1, 2, 0, 3)
    flat = maps.reshape(2, n * c, n * c)
    return flat[0], flat[1]


def remap_lattice(image: np.ndarray, lattice: np.ndarray, cell_size: int) -> np.ndarray:
    """Warp cell by cell from the image itself (gray or colour, no pyramid): each cell of
    ``lattice`` onto a square of ``cell_size`` pixels."""
    map_x, map_y = lattice_maps(lattice, cell_size)
    return cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def warp_lattice(gray: np.ndarray, lattice: np.ndarray, cell_size: int) -> np.ndarray:
    """Warp cell by cell: each cell of ``lattice`` gets its own homography onto a square cell."""
    map_x, map_y = lattice_maps(lattice, cell_size)
    corners = lattice[[0, 0, 9, 9], [0, 9, 9, 0]]
    image, scale = pick_level(build_pyramid(gray, 9 * cell_size), corners, 9 * cell_size)
    return cv2.remap(
        image, map_x * scale, map_y * scale, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def moved_detection(
    detection: GridDetection, scale: float, offset: tuple[float, float]
) -> GridDetection:
    """The same detection in other pixels, where a point p of its own lies at scale * p + offset.

    Corners, lattice and both homographies move; the warped grid stays as it is.
    """
    to_old = np.array(
        [[1 / scale, 0.0, -offset[0] / scale], [0.0, 1 / scale, -offset[1] / scale], [0, 0, 1]]
    )
    inverse = np.linalg.inv(to_old) @ detection.inverse
    shift = np.asarray(offset, dtype=np.float64)
    return replace(
        detection,
        corners=detection.corners * scale + shift,
        lattice=detection.lattice * scale + shift,
        homography=detection.homography @ to_old,
        inverse=inverse / inverse[2, 2],
    )


def is_bent(lattice: np.ndarray, inverse: np.ndarray, config: GridConfig) -> bool:
    """True when the measured lattice strays from the flat one by a noticeable part of a cell."""
    flat = lattice_from_inverse(inverse, config.cell_size)
    side = np.linalg.norm(flat[0, 0] - flat[9, 9]) / np.sqrt(2.0) / 9.0
    error = np.linalg.norm(lattice - flat, axis=-1).max()
    return bool(error > config.bent_residual_cells * max(side, 1e-9))


def _warp_grid(
    gray: np.ndarray,
    homography: np.ndarray,
    inverse: np.ndarray,
    lattice: np.ndarray | None,
    config: GridConfig,
) -> tuple[np.ndarray, np.ndarray]:
    """The grid's (10, 10, 2) lattice and warped image: cell by cell if a given lattice is bent.

    Without ``lattice`` it follows from ``inverse`` (the square-to-photo homography).
    """
    size = config.warp_size
    if lattice is None:
        return lattice_from_inverse(inverse, config.cell_size), warp_flat(gray, homography, size)
    grid = np.asarray(lattice, dtype=np.float64)
    if grid.shape != (10, 10, 2):
        raise ValueError(f"lattice must have shape (10, 10, 2), got {grid.shape}")
    if is_bent(grid, inverse, config):
        return grid, warp_lattice(gray, grid, config.cell_size)
    return grid, warp_flat(gray, homography, size)


def warp_from_corners(
    image: np.ndarray,
    corners: np.ndarray,
    config: GridConfig = DEFAULT_GRID_CONFIG,
    *,
    lattice: np.ndarray | None = None,
    score: float | None = None,
    outer: np.ndarray | None = None,
) -> GridDetection:
    """Build a detection from known corners (TL, TR, BR, BL, original pixels).

    ``corners`` are where the centres of the border lines meet (they map onto the
    warped square's corners). With ``lattice`` (measured (10, 10, 2) intersections) a
    bent page is warped cell by cell; otherwise the lattice follows from the corner
    homography. Without ``score`` the grid-likeness of the warped image is measured.
    ``outer`` (the border's outer corners) becomes ``GridDetection.corners``; without
    it the corners given are used.
    """
    check_image(image)
    quad = check_corners(corners)
    reported = quad if outer is None else check_corners(outer, "outer")
    homography = homography_to_square(quad, config.warp_size)
    inverse = np.linalg.inv(homography)
    inverse /= inverse[2, 2]
    gray = to_gray(image)
    grid, warped = _warp_grid(gray, homography, inverse, lattice, config)
    if score is None:
        from .lattice import score_quad  # lattice.py builds on this module

        score = score_quad(build_pyramid(gray), quad, config)
    return GridDetection(
        corners=reported,
        lattice=grid,
        homography=homography,
        inverse=inverse,
        warped=warped,
        score=float(score),
    )
