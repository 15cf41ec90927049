"""The page being printed: a multiplicative ink layer with sub-pixel rectangles, text, glyphs."""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from .types import RGB

INK: RGB = (0.11, 0.11, 0.13)


def _coverage(lo: float, hi: float) -> tuple[int, np.ndarray]:
    """First pixel and per-pixel coverage of the interval [lo, hi] (pixel i spans i±0.5)."""
    start, stop = math.floor(lo + 0.5), math.floor(hi + 0.5) + 1
    idx = np.arange(start, stop, dtype=np.float64)
    cov = np.clip(np.minimum(hi, idx + 0.5) - np.maximum(lo, idx - 0.5), 0.0, 1.0)
    return start, cov.astype(np.float32)


class Sheet:
    """A page being printed: a multiplicative ink layer over the paper (1 = no ink)."""

    def __init__(self, width: int, height: int) -> None:
        """A blank sheet of width × height pixels."""
        self.width, self.height = width, height
        self.ink = np.ones((height, width, 3), np.float32)

    def stamp(self, mask: np.ndarray, x0: int, y0: int, colour: RGB, strength: float = 1) -> None:
        """Print `colour` through a coverage mask (0..1) whose top-left pixel is at x0, y0."""
        h, w = mask.shape
        xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x0 + w, self.width), min(y0 + h, self.height)
        if xa >= xb or ya >= yb:
            return
        m = mask[ya - y0 : yb - y0, xa - x0 : xb - x0, None] * strength
        tint = 1.0 - np.asarray(colour, np.float32)
        self.ink[ya:yb, xa:xb] *= 1.0 - m * tint

    def rect(self, x0: float, y0: float, x1: float, y1: float, colour: RGB = INK) -> None:
        """An anti-aliased filled rectangle with exact sub-pixel edges."""
        xs, cx = _coverage(x0, x1)
        ys, cy = _coverage(y0, y1)
        self.stamp(np.outer(cy, cx), xs, ys, colour)

    def line(
        self, start: tuple[float, float], end: tuple[float, float], width: float, colour: RGB
    ) -> None:
        """An anti-aliased stroke from ``start`` to ``end`` (a pen line), ``width`` px wide."""
        pad = math.ceil(width) + 2
        x0, y0 = math.floor(min(start[0], end[0])) - pad, math.floor(min(start[1], end[1])) - pad
        x1, y1 = math.ceil(max(start[0], end[0])) + pad, math.ceil(max(start[1], end[1])) + pad
        scale = 4  # drawn 4× larger and shrunk: smooth edges
        img = Image.new("L", ((x1 - x0) * scale, (y1 - y0) * scale), 0)
        points = [((x - x0) * scale, (y - y0) * scale) for x, y in (start, end)]
        ImageDraw.Draw(img).line(points, fill=255, width=max(1, round(width * scale)))
        img = img.resize((x1 - x0, y1 - y0), Image.Resampling.BOX)
        self.stamp(np.asarray(img, np.float32) / 255.0, x0, y0, colour)

    def text(
        self, x: float, y: float, s: str, font: ImageFont.FreeTypeFont, colour: RGB = INK
    ) -> float:
        """Print a line of text with its top-left (ascender line) at x, y; returns its width.

        The canvas holds the text's origin as well as its ink: Pillow places text drawn from
        an origin above or left of its canvas a pixel off and cuts the glyphs' first row
        (a small printed 7 lost its bar and read as a 1).
        """
        if not s:
            return 0.0
        left, top, right, bottom = font.getbbox(s)
        ox, oy = math.floor(x + min(left, 0)) - 1, math.floor(y + min(top, 0)) - 1
        w, h = math.ceil(x + right) - ox + 2, math.ceil(y + bottom) - oy + 2
        img = Image.new("L", (w, h), 0)
        ImageDraw.Draw(img).text((x - ox, y - oy), s, font=font, fill=255)
        self.stamp(np.asarray(img, np.float32) / 255.0, ox, oy, colour)
        return float(font.getlength(s))

    def glyph(
        self,
        centre: tuple[float, float],
        s: str,
        font: ImageFont.FreeTypeFont,
        colour: RGB,
        angle: float = 0.0,
        stroke: int = 0,
        strength: float = 1.0,
    ) -> None:
        """Print a glyph with its ink box centred on `centre`, rotated by `angle` degrees."""
        img = glyph_image(s, font, stroke)
        if angle:
            img = img.rotate(angle, resample=Image.Resampling.BICUBIC)
        self.stamp_centred(np.asarray(img, np.float32) / 255.0, centre, colour, strength)

    def stamp_centred(
        self, mask: np.ndarray, centre: tuple[float, float], colour: RGB, strength: float = 1.0
    ) -> None:
        """Print `colour` through a square coverage mask centred on `centre`."""
        side = mask.shape[0]
        x0, y0 = round(centre[0] - side / 2), round(centre[1] - side / 2)
        self.stamp(mask, x0, y0, colour, strength)


def glyph_image(s: str, font: ImageFont.FreeTypeFont, stroke: int = 0) -> Image.Image:
    """A square greyscale image (255 = ink) of a glyph, its ink box in the middle, with room
    around it to be turned or bent."""
    left, top, right, bottom = font.getbbox(s, stroke_width=stroke)
    side = int(2 * max(right - left, bottom - top)) + 6
    img = Image.new("L", (side, side), 0)
    origin = (side / 2 - (left + right) / 2, side / 2 - (top + bottom) / 2)
    draw = ImageDraw.Draw(img)
    draw.text(origin, s, font=font, fill=255, stroke_width=stroke, stroke_fill=255)
    return img
