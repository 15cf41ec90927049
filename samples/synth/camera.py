"""The camera: pinhole perspective framing the grid, and the photograph of a bent page."""

from __future__ import annotations

import math

import cv2
import numpy as np

from .bend import Bend, make_bend, shade_page
from .newspaper_page import PageDraft
from .paper import table_surface
from .params import PhotoParams


def rotation(roll: float, pitch: float, yaw: float) -> np.ndarray:
    """Camera rotation from angles in degrees: roll in the image plane, pitch and yaw tilts."""
    r, p, y = (math.radians(v) for v in (roll, pitch, yaw))
    rz = np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, math.cos(p), -math.sin(p)], [0, math.sin(p), math.cos(p)]])
    ry = np.array([[math.cos(y), 0, math.sin(y)], [0, 1, 0], [-math.sin(y), 0, math.cos(y)]])
    return rz @ rx @ ry


def apply_homography(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Map (n, 2) points through a 3×3 homography."""
    ph = np.column_stack([points, np.ones(len(points))]) @ h.T
    return ph[:, :2] / ph[:, 2:3]


def camera_homography(grid_quad: np.ndarray, p: PhotoParams) -> np.ndarray:
    """Homography of a pinhole camera looking at the (bent-space) page plane, before framing."""
    w, h = p.size
    centre = grid_quad.mean(axis=0)
    side = float(np.linalg.norm(grid_quad[1] - grid_quad[0]))
    to_unit = np.array(
        [[1 / side, 0, -centre[0] / side], [0, 1 / side, -centre[1] / side], [0, 0, 1]]
    )
    focal = p.focal_factor * max(w, h)
    distance = focal / (p.grid_fraction * min(w, h))
    rot = rotation(p.roll_deg, p.pitch_deg, p.yaw_deg)
    project = np.diag([focal, focal, 1.0]) @ np.column_stack(
        [rot[:, 0], rot[:, 1], [0, 0, distance]]
    )
    return project @ to_unit


def frame(h: np.ndarray, grid_points: np.ndarray, p: PhotoParams) -> np.ndarray:
    """Scale and shift the camera image so the grid has its size and place, fully in view."""
    w, hgt = p.size
    proj = apply_homography(h, grid_points)
    lo, hi = proj.min(axis=0), proj.max(axis=0)
    scale = p.grid_fraction * min(w, hgt) / float(max(hi - lo))
    target = np.array([w / 2 + p.centre_shift[0] * w, hgt / 2 + p.centre_shift[1] * hgt])
    margin = 0.03 * min(w, hgt)
    for _ in range(60):
        t = target - scale * (lo + hi) / 2
        a = np.array([[scale, 0, t[0]], [0, scale, t[1]], [0, 0, 1]])
        pts = apply_homography(a @ h, grid_points)
        if pts.min() >= margin and np.all(pts.max(axis=0) <= np.array([w, hgt]) - 1 - margin):
            return a @ h
        scale *= 0.96
        target = 0.8 * target + 0.2 * np.array([w / 2, hgt / 2])
    raise ValueError("the grid does not fit the frame: lower grid_fraction or the tilts")


def photograph(
    rng: np.random.Generator, page: PageDraft, p: PhotoParams
) -> tuple[np.ndarray, np.ndarray]:
    """Bend and photograph the page; returns the RGB float image and the lattice in pixels
    (the page's lattice, (n + 1, n + 1, 2) for a grid of n cells a side: 10 × 10 for 9 × 9)."""
    height, width = page.rgb.shape[:2]
    bend = make_bend(p, (width, height), page.lattice)
    flat_lattice = page.lattice.reshape(-1, 2)
    bent_lattice = bend.forward(flat_lattice)
    corners = page.lattice[[0, 0, -1, -1], [0, -1, -1, 0]]  # TL, TR, BR, BL
    h = frame(camera_homography(bend.forward(corners), p), bent_lattice, p)
    lattice = apply_homography(h, bent_lattice).reshape(page.lattice.shape)
    maps = sampling_maps(h, bend, p.size)
    img, alpha = project_page(shade_page(page.rgb, bend), maps, p.supersample)
    ground = background(rng, alpha, p)
    return img * alpha[..., None] + ground * (1.0 - alpha[..., None]), lattice


def sampling_maps(
    h: np.ndarray, bend: Bend, size: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """For each output pixel, the flat-page x and y it sees (float32 maps for cv2.remap)."""
    w_out, h_out = size
    u, v = np.meshgrid(np.arange(w_out, dtype=np.float64), np.arange(h_out, dtype=np.float64))
    src = np.stack([u.ravel(), v.ravel(), np.ones(u.size)]).T @ np.linalg.inv(h).T
    xp, yp = bend.backward(src[:, 0] / src[:, 2], src[:, 1] / src[:, 2])
    return xp.reshape(h_out, w_out).astype(np.float32), yp.reshape(h_out, w_out).astype(np.float32)


def project_page(
    rgb: np.ndarray, maps: tuple[np.ndarray, np.ndarray], supersample: float
) -> tuple[np.ndarray, np.ndarray]:
    """The page resampled into the frame (anti-aliased) and its coverage of each pixel, 0..1."""
    map_x, map_y = maps
    sigma = 0.5 * math.sqrt(max(supersample**2 - 1.0, 0.0))
    if sigma > 0.05:
        rgb = cv2.GaussianBlur(rgb, (0, 0), sigma)
    img = cv2.remap(rgb, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    ones = np.ones(rgb.shape[:2], np.float32)
    alpha = cv2.remap(ones, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    return img, alpha


def background(rng: np.random.Generator, alpha: np.ndarray, p: PhotoParams) -> np.ndarray:
    """The surface around the page; on a table, with the page's soft shadow."""
    w_out, h_out = p.size
    ground = table_surface(rng, w_out, h_out, p.background)
    if p.background == "table":
        shadow = cv2.GaussianBlur(alpha, (0, 0), 0.01 * max(p.size) + 1)
        ground *= (1.0 - 0.35 * np.roll(shadow, (4, 4), axis=(0, 1)))[..., None]
    return ground
