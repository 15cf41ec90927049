"""Photo parameters: every number that decides a photo, and the ranges of each kind."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .fonts import PEN_FONTS, PRINT_FONTS
from .types import RGB, Range


@dataclass(frozen=True)
class PhotoParams:
    """Everything that decides one photo (recorded as `effects` in the ground truth)."""

    kind: str
    size: tuple[int, int]  # output width, height
    clues: int
    grid_fraction: float  # grid side / shorter image side
    centre_shift: tuple[float, float]  # grid centre offset, fraction of width / height
    roll_deg: float
    pitch_deg: float
    yaw_deg: float
    focal_factor: float  # focal length / longer image side
    supersample: float  # page pixels per output pixel at the grid
    bend: str  # "none", "wave" or "curl"
    bend_axis: str  # "x" (depth varies along x) or "y"
    bend_depth: float  # fraction of the grid side
    bend_period: float  # fraction of the grid side (wave)
    bend_phase: float
    light_gradient: float
    light_angle_deg: float
    vignette: float
    shadow: float  # darkness of a soft cast shadow, 0 = none
    colour_cast: RGB
    black_level: float
    white_level: float
    blur_sigma: float
    motion_blur_px: float
    motion_angle_deg: float
    noise_sigma: float  # in 0..255 units
    sharpen: float
    jpeg_quality: int
    pen_fill: float  # fraction of the empty cells filled in by pen
    pen_mistakes: int
    background: str  # "table" or "lid" (scanner)
    print_font: str
    pen_font: str
    paper_tone: RGB
    pen_ink: RGB | None = None  # the pen's colour; None: one of pen.PEN_INKS at random


@dataclass(frozen=True)
class KindRanges:
    """Ranges the parameters of one kind of photo are drawn from."""

    sizes: tuple[tuple[int, int], ...] = (
        (1024, 768),
        (768, 1024),
        (1280, 960),
        (960, 1280),
        (800, 600),
    )
    clues: tuple[int, int] = (24, 32)
    grid_fraction: Range = (0.55, 0.82)
    centre_shift: Range = (-0.05, 0.05)
    roll_deg: Range = (-9.0, 9.0)
    pitch_deg: Range = (-14.0, 14.0)
    yaw_deg: Range = (-10.0, 10.0)
    focal_factor: Range = (0.85, 1.3)
    supersample: float = 1.4
    bends: tuple[str, ...] = ("none",)
    bend_depth: Range = (0.0, 0.0)
    bend_period: Range = (1.0, 2.0)
    light_gradient: Range = (0.0, 0.35)
    vignette: Range = (0.0, 0.3)
    shadow_chance: float = 0.3
    shadow: Range = (0.15, 0.4)
    colour_cast: Range = (-0.06, 0.06)
    black_level: Range = (0.0, 0.08)
    white_level: Range = (0.85, 1.0)
    blur_sigma: Range = (0.0, 0.8)
    motion_chance: float = 0.15
    motion_blur_px: Range = (2.0, 4.0)
    noise_sigma: Range = (1.0, 3.0)
    sharpen: Range = (0.0, 0.6)
    jpeg_quality: tuple[int, int] = (75, 88)
    pen_fill: Range = (0.0, 0.0)
    pen_mistakes: tuple[int, int] = (0, 0)
    background: str = "table"


KINDS: dict[str, KindRanges] = {
    "printed": KindRanges(),
    "progress": KindRanges(pen_fill=(0.3, 0.95), pen_mistakes=(1, 4)),
    "bent": KindRanges(bends=("wave", "curl"), bend_depth=(0.03, 0.12), roll_deg=(-5.0, 5.0)),
    "webcam": KindRanges(
        sizes=((640, 480),),
        grid_fraction=(0.62, 0.85),
        supersample=1.6,
        blur_sigma=(0.9, 1.6),
        noise_sigma=(3.0, 6.0),
        black_level=(-0.12, -0.04),
        white_level=(0.9, 1.05),
        sharpen=(0.0, 0.0),
        jpeg_quality=(55, 70),
        pen_fill=(0.0, 0.0),
    ),
    # a phone or monitor showing the puzzle in dark mode, photographed: light lines and
    # digits on a dark ground, lit from within (no shadow, little gradient), a little out
    # of focus
    "screen": KindRanges(
        light_gradient=(0.0, 0.1),
        vignette=(0.0, 0.1),
        shadow_chance=0.0,
        colour_cast=(-0.03, 0.03),
        blur_sigma=(0.5, 1.1),
    ),
    "scan": KindRanges(
        sizes=((1100, 1400), (1400, 1100)),
        grid_fraction=(0.42, 0.48),
        centre_shift=(-0.03, 0.03),
        roll_deg=(-1.5, 1.5),
        pitch_deg=(0.0, 0.0),
        yaw_deg=(0.0, 0.0),
        focal_factor=(60.0, 60.0),
        supersample=1.0,
        light_gradient=(0.0, 0.03),
        vignette=(0.0, 0.0),
        shadow_chance=0.0,
        colour_cast=(-0.01, 0.01),
        black_level=(0.08, 0.14),
        white_level=(0.8, 0.86),
        blur_sigma=(0.4, 0.6),
        motion_chance=0.0,
        noise_sigma=(0.6, 1.2),
        sharpen=(0.0, 0.0),
        jpeg_quality=(88, 90),
        background="lid",
    ),
}


def _uniform(rng: np.random.Generator, bounds: Range) -> float:
    """A float drawn uniformly from a range."""
    return float(rng.uniform(bounds[0], bounds[1]))


def _integer(rng: np.random.Generator, bounds: tuple[int, int]) -> int:
    """An integer drawn uniformly from an inclusive range."""
    return int(rng.integers(bounds[0], bounds[1] + 1))


def sample_params(kind: str, rng: np.random.Generator) -> PhotoParams:
    """Draw the parameters of one photo of a kind (always the same number of draws)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {sorted(KINDS)}, got {kind!r}")
    k = KINDS[kind]
    shadow, motion = rng.random() < k.shadow_chance, rng.random() < k.motion_chance
    tone = float(rng.uniform(0.86, 0.95))
    return PhotoParams(
        kind=kind,
        size=k.sizes[int(rng.integers(len(k.sizes)))],
        clues=_integer(rng, k.clues),
        grid_fraction=_uniform(rng, k.grid_fraction),
        centre_shift=(_uniform(rng, k.centre_shift), _uniform(rng, k.centre_shift)),
        roll_deg=_uniform(rng, k.roll_deg),
        pitch_deg=_uniform(rng, k.pitch_deg),
        yaw_deg=_uniform(rng, k.yaw_deg),
        focal_factor=_uniform(rng, k.focal_factor),
        supersample=k.supersample,
        bend=str(k.bends[int(rng.integers(len(k.bends)))]),
        bend_axis="x" if rng.random() < 0.65 else "y",
        bend_depth=_uniform(rng, k.bend_depth),
        bend_period=_uniform(rng, k.bend_period),
        bend_phase=_uniform(rng, (0.0, 2 * math.pi)),
        light_gradient=_uniform(rng, k.light_gradient),
        light_angle_deg=_uniform(rng, (0.0, 360.0)),
        vignette=_uniform(rng, k.vignette),
        shadow=_uniform(rng, k.shadow) if shadow else 0.0,
        colour_cast=(
            1.0 + _uniform(rng, k.colour_cast),
            1.0,
            1.0 - _uniform(rng, k.colour_cast) - abs(_uniform(rng, k.colour_cast)),
        ),
        black_level=_uniform(rng, k.black_level),
        white_level=_uniform(rng, k.white_level),
        blur_sigma=_uniform(rng, k.blur_sigma),
        motion_blur_px=_uniform(rng, k.motion_blur_px) if motion else 0.0,
        motion_angle_deg=_uniform(rng, (0.0, 180.0)),
        noise_sigma=_uniform(rng, k.noise_sigma),
        sharpen=_uniform(rng, k.sharpen),
        jpeg_quality=_integer(rng, k.jpeg_quality),
        pen_fill=_uniform(rng, k.pen_fill),
        pen_mistakes=_integer(rng, k.pen_mistakes),
        background=k.background,
        print_font=sorted(PRINT_FONTS)[int(rng.integers(len(PRINT_FONTS)))],
        pen_font=sorted(PEN_FONTS)[int(rng.integers(len(PEN_FONTS)))],
        paper_tone=(
            tone,
            tone * float(rng.uniform(0.97, 1.0)),
            tone * float(rng.uniform(0.9, 0.98)),
        ),
    )
