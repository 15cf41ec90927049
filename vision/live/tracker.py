"""Follow a grid from frame to frame: Lucas-Kanade optical flow and a RANSAC homography.

Every tracked point keeps the grid coordinates it had when it was seeded (0..n across,
0..n down for a grid of n cells a side, 9 for a classic one: lattice[i, j] is at (j, i));
after each step one homography from grid coordinates to the frame is fitted to the points
that followed, so the grid's position never depends on a single point.
"""

from __future__ import annotations

import cv2
import numpy as np

from .config import TrackConfig

SIZE = 9  # cells a side of a classic grid


def grid_points(size: int = SIZE) -> np.ndarray:
    """(size + 1, size + 1, 2) grid coordinates of a grid's line crossings."""
    ticks = np.arange(size + 1.0)
    return np.stack(np.meshgrid(ticks, ticks), axis=-1)


GRID_POINTS = grid_points()  # (10, 10, 2)


def shrink_gray(frame: np.ndarray, max_side: int) -> tuple[np.ndarray, float]:
    """The frame in gray, shrunk so its longer side is at most ``max_side``, and the scale."""
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    scale = min(1.0, max_side / max(gray.shape[:2]))
    if scale < 1.0:
        size = (round(gray.shape[1] * scale), round(gray.shape[0] * scale))
        gray = cv2.resize(gray, size, interpolation=cv2.INTER_AREA)
    return gray, scale


def map_points(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """(n, 2) points through a 3×3 homography."""
    out = cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), h)
    return out.reshape(-1, 2)


def grid_homography(lattice: np.ndarray) -> np.ndarray:
    """The least-squares homography from grid coordinates to the lattice's pixels (an
    (n + 1, n + 1, 2) lattice of a grid of n cells a side)."""
    points = grid_points(lattice.shape[0] - 1)
    h, _ = cv2.findHomography(points.reshape(-1, 2), lattice.reshape(-1, 2), 0)
    if h is None:
        raise ValueError("the lattice is degenerate")
    return h


def lattice_of(h: np.ndarray, size: int = SIZE) -> np.ndarray:
    """(size + 1, size + 1, 2) grid-line crossings of a grid-to-frame homography."""
    lines = size + 1
    return map_points(h, grid_points(size).reshape(-1, 2)).reshape(lines, lines, 2)


class GridTracker:
    """Tracks one grid through a stream of frames (in frame pixels outside, shrunk inside)."""

    def __init__(self, config: TrackConfig) -> None:
        """An idle tracker; ``start`` gives it a grid."""
        self.config = config
        self.homography: np.ndarray | None = None  # grid coordinates to frame pixels
        self.size = SIZE  # cells a side of the grid tracked
        self._gray: np.ndarray | None = None
        self._points = np.zeros((0, 2), np.float32)  # in shrunk pixels
        self._grid = np.zeros((0, 2), np.float64)  # the same points in grid coordinates
        self._seeded = 0

    def start(self, frame: np.ndarray, lattice: np.ndarray) -> None:
        """Begin tracking the grid whose (n + 1, n + 1, 2) lattice the frame shows."""
        self.size = lattice.shape[0] - 1
        self.homography = grid_homography(lattice)
        self._gray, scale = shrink_gray(frame, self.config.max_side)
        self._seed(scale)

    def stop(self) -> None:
        """Forget the grid."""
        self.homography, self._gray = None, None

    def _seed(self, scale: float) -> None:
        """Pick corner features inside the grid, plus its crossings, with grid coordinates."""
        assert self.homography is not None and self._gray is not None
        n = self.size
        lattice = lattice_of(self.homography, n) * scale
        mask = np.zeros(self._gray.shape, np.uint8)
        quad = lattice[[0, 0, n, n], [0, n, n, 0]]
        cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 255)
        cell = float(np.linalg.norm(quad[1] - quad[0])) / n
        found = cv2.goodFeaturesToTrack(
            self._gray, self.config.max_features, self.config.feature_quality,
            max(2.0, self.config.feature_spacing_cells * cell), mask=mask,
        )  # fmt: skip
        features = np.zeros((0, 2)) if found is None else found.reshape(-1, 2)
        points = np.vstack([lattice.reshape(-1, 2), features]).astype(np.float32)
        self._points = points
        self._grid = map_points(np.linalg.inv(self.homography), points / scale)
        self._seeded = len(points)

    def step(self, frame: np.ndarray) -> bool:
        """Follow the grid into the next frame; False (and stopped) when it is lost."""
        if self.homography is None or self._gray is None:
            return False
        gray, scale = shrink_gray(frame, self.config.max_side)
        if gray.shape != self._gray.shape:  # the stream changed its size (a busy sender)
            self.stop()
            return False
        kept = self._flow(self._gray, gray)
        self._gray = gray
        h = self._fit(kept, scale) if kept.sum() >= self.config.min_points else None
        if h is None or self._outside_share(h, frame.shape) > self.config.max_outside_share:
            self.stop()
            return False
        self.homography = h
        if len(self._points) < self.config.reseed_share * self._seeded:
            self._seed(scale)
        return True

    def _flow(self, before: np.ndarray, after: np.ndarray) -> np.ndarray:
        """Move the points into ``after``; the mask of those tracked there and back."""
        if len(self._points) == 0:
            return np.zeros(0, bool)
        window = (self.config.window_px, self.config.window_px)
        levels = self.config.pyramid_levels
        start = self._points.reshape(-1, 1, 2)
        moved, ok, _ = cv2.calcOpticalFlowPyrLK(
            before, after, start, np.empty_like(start), winSize=window, maxLevel=levels
        )
        back, ok_back, _ = cv2.calcOpticalFlowPyrLK(
            after, before, moved, np.empty_like(start), winSize=window, maxLevel=levels
        )
        error = np.linalg.norm((back - start).reshape(-1, 2), axis=1)
        kept = (ok.ravel() == 1) & (ok_back.ravel() == 1) & (error < self.config.max_back_error_px)
        self._points = np.asarray(moved, np.float32).reshape(-1, 2)
        return np.asarray(kept)

    def _fit(self, kept: np.ndarray, scale: float) -> np.ndarray | None:
        """The homography from grid coordinates to the kept points; None when too few agree."""
        grid, points = self._grid[kept], self._points[kept].astype(np.float64) / scale
        h, inliers = cv2.findHomography(grid, points, cv2.RANSAC, self.config.ransac_px)
        if h is None or inliers is None:
            return None
        good = inliers.ravel() == 1
        if good.sum() < max(self.config.min_points, self.config.min_inlier_share * len(grid)):
            return None
        self._grid = grid[good]
        self._points = self._points[kept][good]
        return h

    def _outside_share(self, h: np.ndarray, shape: tuple[int, ...]) -> float:
        """The share of the grid's crossings that lie outside the frame."""
        lattice = lattice_of(h, self.size).reshape(-1, 2)
        height, width = shape[:2]
        inside = (
            (lattice[:, 0] >= 0) & (lattice[:, 0] < width)
            & (lattice[:, 1] >= 0) & (lattice[:, 1] < height)
        )  # fmt: skip
        return float(1.0 - inside.mean())
