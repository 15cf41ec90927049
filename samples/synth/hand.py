"""A hand never writes one digit twice alike: each written glyph varied on its own.

A handwriting face gives every 7 the same outline; a person's 7s differ in slant, size,
width, stroke weight and pressure, and each is a little bent out of shape. ``write_glyph``
draws one written digit with all of that drawn at random for it (printed digits stay exact
copies of their face's glyph: they are drawn with ``Sheet.glyph``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from PIL.ImageFont import FreeTypeFont

from .sheet import Sheet, glyph_image
from .types import RGB


@dataclass(frozen=True)
class HandVariation:
    """How much one writer's glyphs differ from one another (each drawn per glyph).

    slant_deg: shear of the upright strokes, up to this either way.
    scale: the glyph's height scaled by up to this share either way; ``squash`` its width
        on top of that (a narrow or a round hand).
    stroke_px: the pen's stroke widened or thinned by up to this many pixels (pressure),
        on ``stroke_chance`` of the glyphs.
    pressure: the ink laid down varies over the glyph between this share and all of it,
        smoothly (a pen pressed harder on one stroke than on another).
    warp: elastic bending: each part of the glyph moved by up to about this share of its
        height, smoothly over ``warp_knots`` × ``warp_knots`` control points.
    baseline: the glyph moved up or down by up to this share of its height.
    """

    slant_deg: float = 10.0
    scale: float = 0.08
    squash: float = 0.12
    stroke_px: int = 1
    stroke_chance: float = 0.3
    pressure: float = 0.7
    warp: float = 0.035
    warp_knots: int = 4
    baseline: float = 0.06


DEFAULT_HAND = HandVariation()


def hand_rng(rng: np.random.Generator) -> np.random.Generator:
    """A generator for the variation of the glyphs, apart from ``rng``'s own stream (the
    page's other draws stay as they were), the same for the same ``rng``."""
    return rng.spawn(1)[0]


def write_glyph(
    sheet: Sheet,
    rng: np.random.Generator,
    centre: tuple[float, float],
    digit: str,
    font: FreeTypeFont,
    ink: RGB,
    angle: float = 0.0,
    stroke: int = 0,
    strength: float = 1.0,
    hand: HandVariation = DEFAULT_HAND,
) -> None:
    """Write one digit by hand: the face's glyph turned by ``angle`` degrees, then slanted,
    scaled, re-stroked, bent and pressed unevenly at random (``hand``)."""
    if rng.random() < hand.stroke_chance:
        stroke = max(0, stroke + int(rng.integers(-hand.stroke_px, hand.stroke_px + 1)))
    glyph = np.asarray(glyph_image(digit, font, stroke), np.float32) / 255.0
    size = glyph.shape[::-1]
    mask = np.asarray(cv2.warpAffine(glyph, glyph_affine(rng, glyph.shape[0], angle, hand), size))
    height = float(np.ptp(np.flatnonzero(mask.any(axis=1)))) if mask.any() else 0.0
    mask = bent(rng, mask, hand.warp * height, hand.warp_knots)
    mask *= smooth_field(rng, mask.shape, hand.warp_knots, hand.pressure)
    shift = float(rng.uniform(-hand.baseline, hand.baseline)) * height
    sheet.stamp_centred(np.clip(mask, 0.0, 1.0), (centre[0], centre[1] + shift), ink, strength)


def glyph_affine(
    rng: np.random.Generator, side: int, angle: float, hand: HandVariation
) -> np.ndarray:
    """The 2 × 3 map of a ``side``-pixel glyph image about its middle: turned by ``angle``
    (counter-clockwise, as PIL turns), slanted and scaled at random."""
    slant = math.tan(math.radians(float(rng.uniform(-hand.slant_deg, hand.slant_deg))))
    sy = 1.0 + float(rng.uniform(-hand.scale, hand.scale))
    sx = sy * (1.0 + float(rng.uniform(-hand.squash, hand.squash)))
    turn = math.radians(angle)
    rotation = np.array([[math.cos(turn), math.sin(turn)], [-math.sin(turn), math.cos(turn)]])
    linear = rotation @ np.array([[1.0, -slant], [0.0, 1.0]]) @ np.diag([sx, sy])
    middle = np.array([side / 2, side / 2])
    return np.hstack([linear, (middle - linear @ middle)[:, None]]).astype(np.float32)


def smooth_field(
    rng: np.random.Generator, shape: tuple[int, ...], knots: int, low: float
) -> np.ndarray:
    """A smooth random field over ``shape`` between ``low`` and 1."""
    coarse = rng.uniform(low, 1.0, (knots, knots)).astype(np.float32)
    return np.clip(cv2.resize(coarse, shape[::-1], interpolation=cv2.INTER_CUBIC), low, 1.0)


def bent(rng: np.random.Generator, mask: np.ndarray, reach: float, knots: int) -> np.ndarray:
    """``mask`` bent elastically: every pixel moved by a smooth random offset of about
    ``reach`` pixels (``knots`` × ``knots`` control points, cubic between them)."""
    if reach <= 0.0:
        return mask
    h, w = mask.shape
    field = rng.normal(0.0, reach, (2, knots, knots)).astype(np.float32)
    dx = cv2.resize(field[0], (w, h), interpolation=cv2.INTER_CUBIC)
    dy = cv2.resize(field[1], (w, h), interpolation=cv2.INTER_CUBIC)
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    return cv2.remap(mask, xs + dx, ys + dy, cv2.INTER_LINEAR, borderValue=0.0)
