"""Draw digits and rings onto a photo, each cell in the grid's own perspective.

Every mark is first rendered once as an anti-aliased stamp in a canonical square cell,
then warped onto the cell's quad (four neighbouring points of ``GridDetection.lattice``)
with that cell's own homography and blended onto the photo. A cell-by-cell warp follows
a bent page as well as a flat one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ..solver.geometry import BOX_SHAPES

Color = tuple[int, int, int]  # B, G, R


@dataclass(frozen=True)
class DrawConfig:
    """How answers and checks look on the photo.

    Colours are BGR; the answer is written in ``answer_on_dark_color`` on a grid drawn
    light on dark (a screen in dark mode), else in ``answer_color``. A stamp is rendered
    at ``stamp_px`` square and then warped onto its cell; digits are
    ``digit_height_fraction`` of a cell tall; rings have a radius of
    ``ring_radius_fraction`` and a width of ``ring_width_fraction`` of a cell.
    """

    answer_color: Color = (205, 85, 0)
    answer_on_dark_color: Color = (255, 190, 110)  # light blue: the answer on a dark ground
    right_color: Color = (40, 165, 0)
    wrong_color: Color = (20, 20, 225)
    unsure_color: Color = (0, 170, 240)  # amber: an entry to ask the person about
    stamp_px: int = 96
    digit_height_fraction: float = 0.62
    digit_stroke_fraction: float = 0.025
    ring_radius_fraction: float = 0.44
    ring_width_fraction: float = 0.06
    opacity: float = 0.92

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if self.stamp_px < 16:
            raise ValueError(f"stamp_px must be at least 16, got {self.stamp_px}")
        if not 0 < self.opacity <= 1:
            raise ValueError(f"opacity must be in (0, 1], got {self.opacity}")
        if not 0 < self.digit_height_fraction <= 1:
            raise ValueError("digit_height_fraction must be in (0, 1]")
        if not 0 < self.ring_radius_fraction <= 0.5:
            raise ValueError("ring_radius_fraction must be in (0, 0.5]")


DEFAULT_DRAW_CONFIG = DrawConfig()


def draw_digits(
    image: np.ndarray,
    lattice: np.ndarray,
    digits: Mapping[int, int],
    color: Color | None = None,
    config: DrawConfig = DEFAULT_DRAW_CONFIG,
    symbols: str = "",
) -> np.ndarray:
    """A BGR copy of ``image`` with ``digits`` ({cell: 1-9}; up to 16 on a 16×16's
    lattice) written in their cells: as numbers, or as ``symbols[digit - 1]`` where the
    grid prints symbols (a 16×16's 0-9 and A-F, or A-P)."""
    out = as_bgr(image)
    lat = check_lattice(lattice)
    most = max(9, lat.shape[0] - 1)
    for cell, digit in digits.items():
        if not 1 <= digit <= most:
            raise ValueError(f"digits[{cell}] must be 1-{most}, got {digit}")
        text = symbols[digit - 1] if symbols else str(int(digit))
        stamp = digit_stamp(
            text, config.stamp_px, config.digit_height_fraction, config.digit_stroke_fraction
        )
        paste_stamp(out, stamp, cell_quad(lat, cell), color or config.answer_color, config.opacity)
    return out


# a cell's four corners as slices of the lattice, and how far from each corner towards the
# cell's middle its ground is sampled (past the line, short of any digit)
CELL_CORNERS = (
    (slice(None, -1), slice(None, -1)),
    (slice(None, -1), slice(1, None)),
    (slice(1, None), slice(1, None)),
    (slice(1, None), slice(None, -1)),
)
GROUND_INSET = 0.3


def answer_color(
    image: np.ndarray, lattice: np.ndarray, config: DrawConfig = DEFAULT_DRAW_CONFIG
) -> Color:
    """The colour the answer is written in on this grid: light where the grid is drawn light
    on a dark ground (its lines brighter than its cells' corners, where no digit is), else
    dark."""
    lat = check_lattice(lattice)
    middles = (lat[:-1, :-1] + lat[1:, 1:] + lat[:-1, 1:] + lat[1:, :-1]) / 4
    corners = [lat[a, b] + GROUND_INSET * (middles - lat[a, b]) for a, b in CELL_CORNERS]
    edges = [(lat[:-1, :] + lat[1:, :]) / 2, (lat[:, :-1] + lat[:, 1:]) / 2]
    lines = np.concatenate([lat.reshape(-1, 2), *(e.reshape(-1, 2) for e in edges)])
    ground = np.concatenate([c.reshape(-1, 2) for c in corners])
    light_lines = median_grey(image, lines) > median_grey(image, ground)
    return config.answer_on_dark_color if light_lines else config.answer_color


def median_grey(image: np.ndarray, points: np.ndarray) -> float:
    """The median grey (0-255) of ``image`` at (..., 2) ``points`` (x, y), nearest pixel."""
    height, width = image.shape[:2]
    xy = np.round(points.reshape(-1, 2)).astype(int)
    xs, ys = np.clip(xy[:, 0], 0, width - 1), np.clip(xy[:, 1], 0, height - 1)
    values = image[ys, xs]
    return float(np.median(values.mean(axis=-1) if values.ndim == 2 else values))


def draw_rings(
    image: np.ndarray,
    lattice: np.ndarray,
    cells: Iterable[int],
    color: Color,
    config: DrawConfig = DEFAULT_DRAW_CONFIG,
) -> np.ndarray:
    """A BGR copy of ``image`` with a ring around each of ``cells``."""
    out = as_bgr(image)
    lat = check_lattice(lattice)
    stamp = ring_stamp(config.stamp_px, config.ring_radius_fraction, config.ring_width_fraction)
    for cell in cells:
        paste_stamp(out, stamp, cell_quad(lat, cell), color, config.opacity)
    return out


def draw_outline(
    image: np.ndarray, corners: np.ndarray, color: Color, thickness: int = 2
) -> np.ndarray:
    """A BGR copy of ``image`` with the quad ``corners`` outlined."""
    out = as_bgr(image)
    pts = np.round(np.asarray(corners, dtype=np.float64) * 16).astype(np.int32).reshape(-1, 1, 2)
    cv2.polylines(out, [pts], True, color, thickness, cv2.LINE_AA, shift=4)
    return out


@dataclass(frozen=True)
class CheckMarks:
    """The cells a check rings: entries wrong (or cells breaking the rules), entries to
    ask the person about (unsure, or writing no digit was read in), and entries right."""

    wrong: tuple[int, ...] = ()
    unsure: tuple[int, ...] = ()
    right: tuple[int, ...] = ()


def check_rings(
    marks: CheckMarks, config: DrawConfig = DEFAULT_DRAW_CONFIG
) -> tuple[tuple[tuple[int, ...], Color], ...]:
    """(cells, colour) of each kind of check ring, in the order drawn: the one palette of
    photos, live video and the app (red wrong, amber unsure, green right)."""
    return (
        (marks.wrong, config.wrong_color),
        (marks.unsure, config.unsure_color),
        (marks.right, config.right_color),
    )


def draw_check_marks(
    image: np.ndarray,
    lattice: np.ndarray,
    marks: CheckMarks,
    config: DrawConfig = DEFAULT_DRAW_CONFIG,
) -> np.ndarray:
    """A BGR copy of ``image`` with the check's rings (``check_rings``) on its cells."""
    out = as_bgr(image)
    for cells, color in check_rings(marks, config):
        out = draw_rings(out, lattice, cells, color, config)
    return out


def crop_box(
    corners: np.ndarray, shape: tuple[int, ...], margin_fraction: float
) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) of the corners' bounding box plus a margin, inside the image.

    The margin is ``margin_fraction`` of the box's larger side; the box is never empty.
    """
    low = corners.min(axis=0)
    high = corners.max(axis=0)
    margin = margin_fraction * float(max(high - low))
    height, width = shape[:2]
    x0 = int(np.clip(np.floor(low[0] - margin), 0, width - 1))
    y0 = int(np.clip(np.floor(low[1] - margin), 0, height - 1))
    x1 = int(np.clip(np.ceil(high[0] + margin), x0 + 1, width))
    y1 = int(np.clip(np.ceil(high[1] + margin), y0 + 1, height))
    return x0, y0, x1, y1


def cell_quad(lattice: np.ndarray, cell: int) -> np.ndarray:
    """(4, 2) corners TL, TR, BR, BL of one cell (row-major index, 0-80 on a 9×9 grid's
    (10, 10, 2) lattice, 0 to n² - 1 on an n × n grid's) in photo pixels."""
    n = lattice.shape[0] - 1
    if not 0 <= cell < n * n:
        raise ValueError(f"cell must be 0-{n * n - 1}, got {cell}")
    r, c = divmod(cell, n)
    return np.array(
        [lattice[r, c], lattice[r, c + 1], lattice[r + 1, c + 1], lattice[r + 1, c]],
        dtype=np.float64,
    )


def paste_stamp(
    out: np.ndarray, stamp: np.ndarray, quad: np.ndarray, color: Color, opacity: float
) -> None:
    """Warp the alpha ``stamp`` (square, float32 0-1) onto ``quad`` of ``out`` and blend in."""
    height, width = out.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if x1 <= x0 or y1 <= y0:
        return
    side = float(stamp.shape[0])
    src = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
    dst = (quad - [x0, y0]).astype(np.float32)
    h = cv2.getPerspectiveTransform(src, dst)
    alpha = cv2.warpPerspective(
        stamp,
        h,
        (x1 - x0, y1 - y0),
        flags=cv2.INTER_AREA if _shrinks(quad, side) else cv2.INTER_LINEAR,
    )
    alpha = (np.clip(alpha, 0.0, 1.0) * opacity)[..., None]
    roi = out[y0:y1, x0:x1].astype(np.float32)
    blended = roi * (1.0 - alpha) + np.asarray(color, dtype=np.float32) * alpha
    out[y0:y1, x0:x1] = np.round(blended).astype(np.uint8)


def _shrinks(quad: np.ndarray, side: float) -> bool:
    """True when the stamp is drawn smaller than it was rendered."""
    return bool(np.linalg.norm(quad[2] - quad[0]) < side * np.sqrt(2.0))


TWO_DIGIT_SCALE = 0.75  # a number of two digits is drawn this much smaller than a digit


@lru_cache(maxsize=64)
def digit_stamp(
    digit: int | str, size: int, height_fraction: float, stroke_fraction: float
) -> np.ndarray:
    """An anti-aliased digit (or a grid's symbol: a 16×16's A) centred in a size×size
    float32 alpha image (1 = ink)."""
    text = str(digit)
    narrower = TWO_DIGIT_SCALE if len(text) > 1 else 1.0  # 10-16 of a 16×16 fit the cell
    font = ImageFont.load_default(size=max(8, round(size * height_fraction * narrower / 0.72)))
    canvas = Image.new("L", (size, size), 0)
    pen = ImageDraw.Draw(canvas)
    stroke = max(0, round(size * stroke_fraction))
    left, top, right, bottom = pen.textbbox((0, 0), text, font=font, stroke_width=stroke)
    x = (size - (right - left)) / 2 - left
    y = (size - (bottom - top)) / 2 - top
    pen.text((x, y), text, font=font, fill=255, stroke_width=stroke, stroke_fill=255)
    return np.asarray(canvas, dtype=np.float32) / 255.0


@lru_cache(maxsize=8)
def ring_stamp(size: int, radius_fraction: float, width_fraction: float) -> np.ndarray:
    """An anti-aliased ring centred in a size×size float32 alpha image (1 = ink)."""
    canvas = np.zeros((size, size), dtype=np.uint8)
    shift = 4
    centre = round(size / 2 * (1 << shift))
    radius = round(size * (radius_fraction - width_fraction / 2) * (1 << shift))
    width = max(1, round(size * width_fraction))
    cv2.circle(canvas, (centre, centre), radius, 255, width, cv2.LINE_AA, shift)
    return canvas.astype(np.float32) / 255.0


def as_bgr(image: np.ndarray) -> np.ndarray:
    """A 3-channel BGR uint8 copy of a gray, BGR or BGRA image."""
    if not isinstance(image, np.ndarray):
        raise TypeError(f"image must be a numpy array, got {type(image).__name__}")
    if image.dtype != np.uint8:
        raise TypeError(f"image must have dtype uint8, got {image.dtype}")
    if image.ndim == 2 or (image.ndim == 3 and image.shape[2] == 1):
        return cv2.cvtColor(image.reshape(image.shape[:2]), cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return image.copy()
    raise ValueError(f"image must have shape (H, W), (H, W, 3) or (H, W, 4), got {image.shape}")


def check_lattice(lattice: object) -> np.ndarray:
    """Return ``lattice`` as a finite (n + 1, n + 1, 2) float64 array (n cells a side: 9,
    or a small grid's 4, 6 or 8), else raise naming it."""
    lat = np.asarray(lattice, dtype=np.float64)
    square = lat.ndim == 3 and lat.shape[2] == 2 and lat.shape[0] == lat.shape[1]
    if not square or lat.shape[0] - 1 not in BOX_SHAPES:
        raise ValueError(
            f"lattice must have shape (10, 10, 2), or (n + 1, n + 1, 2) for a grid of n "
            f"cells a side ({', '.join(map(str, BOX_SHAPES))}), got {lat.shape}"
        )
    if not np.all(np.isfinite(lat)):
        raise ValueError("lattice must hold finite numbers")
    return lat
