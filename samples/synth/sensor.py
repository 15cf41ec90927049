"""Light and sensor: uneven lighting, cast shadows, blur, noise, levels and sharpening."""

from __future__ import annotations

import math

import cv2
import numpy as np

from .params import PhotoParams


def shadow_mask(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A soft shadow entering from one edge (a hand, a phone), 0..1."""
    small = (max(width // 8, 8), max(height // 8, 8))
    edge = int(rng.integers(4))
    depth = float(rng.uniform(0.25, 0.55))
    pts = rng.uniform(0, 1, (5, 2)) * np.array([1.0, depth])
    pts = np.vstack([[0.0, -0.2], [1.0, -0.2], pts[np.argsort(-pts[:, 0])]])  # from the top edge
    pts = {
        0: pts,
        1: pts[:, ::-1],
        2: np.c_[pts[:, 0], 1 - pts[:, 1]],
        3: np.c_[1 - pts[:, 1], pts[:, 0]],
    }[edge]
    mask: np.ndarray = np.zeros((small[1], small[0]), np.float32)
    cv2.fillPoly(mask, [np.round(pts * np.array(small)).astype(np.int32)], 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), 0.06 * max(small))
    return cv2.resize(mask, (width, height), interpolation=cv2.INTER_LINEAR)


def lighting(rng: np.random.Generator, width: int, height: int, p: PhotoParams) -> np.ndarray:
    """Brightness over the frame: a gradient, vignetting and maybe a cast shadow."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    xn, yn = (xx - width / 2) / max(width, height), (yy - height / 2) / max(width, height)
    angle = math.radians(p.light_angle_deg)
    field = 1.0 + p.light_gradient * (xn * math.cos(angle) + yn * math.sin(angle))
    field *= 1.0 - p.vignette * 2.0 * (xn**2 + yn**2)
    return field * (1.0 - p.shadow * shadow_mask(rng, width, height))


def optics(img: np.ndarray, p: PhotoParams) -> np.ndarray:
    """Defocus and motion blur."""
    if p.blur_sigma > 0.05:
        img = cv2.GaussianBlur(img, (0, 0), p.blur_sigma)
    if p.motion_blur_px >= 1.0:
        n = math.ceil(p.motion_blur_px) | 1
        kernel = np.zeros((n, n), np.float32)
        a = math.radians(p.motion_angle_deg)
        dx, dy = math.cos(a) * p.motion_blur_px / 2, math.sin(a) * p.motion_blur_px / 2
        c = n // 2
        cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1)
        img = cv2.filter2D(img, -1, kernel / kernel.sum())
    return img


def develop(rng: np.random.Generator, rgb: np.ndarray, p: PhotoParams) -> np.ndarray:
    """Light, blur, sensor noise, levels and sharpening; returns a BGR uint8 image."""
    h, w = rgb.shape[:2]
    img = rgb * lighting(rng, w, h, p)[..., None] * np.asarray(p.colour_cast, np.float32)
    img = optics(img.astype(np.float32), p)
    sigma = p.noise_sigma / 255.0
    noise = rng.normal(0, sigma, (h, w, 3)) * 0.6 + rng.normal(0, sigma, (h, w, 1)) * 0.8
    img = img + noise.astype(np.float32) * np.sqrt(np.clip(img, 0.05, 1.0))
    img = (img - p.black_level) / (p.white_level - p.black_level)
    if p.sharpen > 0:
        img = img + p.sharpen * (img - cv2.GaussianBlur(img, (0, 0), 1.2))
    out = np.clip(img * 255.0 + 0.5, 0, 255).astype(np.uint8)
    return cv2.cvtColor(out, cv2.COLOR_RGB2BGR)
