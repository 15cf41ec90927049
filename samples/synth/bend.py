"""Bent pages: a wave (cockled newsprint) or a curl, as a map between flat and bent coordinates."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .params import PhotoParams


@dataclass(frozen=True)
class Bend:
    """A page bent along one axis: depth varies with the page coordinate along that axis.

    The bent page is foreshortened along the axis (the paper is inextensible), scaled
    across it by its depth towards the camera (nearer is bigger) and shifted across it in
    proportion to its depth, as a camera that looks at the page obliquely sees it.
    """

    axis: int  # 0: depth varies along x, 1: along y
    along: np.ndarray  # page coordinate samples along the axis
    bent: np.ndarray  # their bent coordinate (strictly increasing)
    scale: np.ndarray  # scale across the axis at each sample
    lift: np.ndarray  # shift across the axis at each sample (depth seen by a tilted camera)
    shade: np.ndarray  # brightness at each sample (light falls unevenly on the slopes)
    centre: tuple[float, float]

    def forward(self, points: np.ndarray) -> np.ndarray:
        """Page points (n, 2) to bent points."""
        a, c = self.axis, 1 - self.axis
        out = np.empty_like(points, dtype=np.float64)
        out[:, a] = np.interp(points[:, a], self.along, self.bent)
        s = np.interp(points[:, a], self.along, self.scale)
        lift = np.interp(points[:, a], self.along, self.lift)
        out[:, c] = self.centre[c] + (points[:, c] - self.centre[c]) * s + lift
        return out

    def backward(self, xb: np.ndarray, yb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Bent coordinates to page coordinates (arrays of any shape)."""
        along_b, across_b = (xb, yb) if self.axis == 0 else (yb, xb)
        along = np.interp(along_b, self.bent, self.along)
        c = self.centre[1 - self.axis]
        lift = np.interp(along, self.along, self.lift)
        across = c + (across_b - lift - c) / np.interp(along, self.along, self.scale)
        return (along, across) if self.axis == 0 else (across, along)


OBLIQUE_PARALLAX = 0.5  # across-axis shift per unit of depth (a camera ~30° off vertical)


def make_bend(p: PhotoParams, page_size: tuple[int, int], lattice: np.ndarray) -> Bend:
    """The bend of a page: flat, a gentle wave (cockled newsprint) or a curl near one side."""
    axis = 0 if p.bend_axis == "x" else 1
    side = float(np.linalg.norm(lattice[0, -1] - lattice[0, 0]))
    centre = tuple(float(v) for v in lattice[[0, -1]][:, [0, -1]].reshape(4, 2).mean(axis=0))
    length = page_size[axis]
    along = np.arange(-length, 2.0 * length + 1.0)
    z = page_depth(p, along, side, centre[axis])
    slope = np.gradient(z, along)
    arc = np.cumsum(1.0 / np.sqrt(1.0 + slope**2))
    arc += centre[axis] - np.interp(centre[axis], along, arc)
    viewing_distance = 3.0 * side
    scale = viewing_distance / (viewing_distance - np.minimum(z, 0.8 * viewing_distance))
    bent = centre[axis] + (arc - centre[axis]) * scale
    if np.any(np.diff(bent) <= 0):
        raise ValueError("bend_depth is too strong: the page would fold over itself")
    shade = np.clip(1.0 + 0.3 * slope / (1.0 + np.abs(slope)), 0.6, 1.15)
    lift = OBLIQUE_PARALLAX * z
    return Bend(axis, along, bent, scale, lift, shade, (centre[0], centre[1]))


def page_depth(p: PhotoParams, along: np.ndarray, side: float, centre: float) -> np.ndarray:
    """Height of the page towards the camera at each position along the bend axis."""
    depth = p.bend_depth * side
    if p.bend == "wave":
        return 0.5 * depth * np.sin(2 * math.pi * along / (p.bend_period * side) + p.bend_phase)
    if p.bend == "curl":
        start = centre + math.sin(p.bend_phase) * 0.45 * side
        direction = 1.0 if math.cos(p.bend_phase) >= 0 else -1.0
        return depth * (np.maximum(0.0, direction * (along - start)) / side) ** 2 * 4.0
    return np.zeros_like(along)


def shade_page(rgb: np.ndarray, bend: Bend) -> np.ndarray:
    """Darken or brighten the page where its bend turns it from or towards the light."""
    n = rgb.shape[1 - bend.axis]
    factor = np.interp(np.arange(n, dtype=np.float64), bend.along, bend.shade).astype(np.float32)
    return rgb * (factor[None, :, None] if bend.axis == 0 else factor[:, None, None])
