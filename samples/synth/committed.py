"""The committed sample set in samples/: which photos, their fixed parameters, their size."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .files import encode_jpeg, page_meta, write_page, write_photo
from .marks import Marks
from .photo import render_photo
from .puzzle_page import render_page
from .truth import Photo


@dataclass(frozen=True)
class SampleSpec:
    """One committed sample: where it goes, its seed offset and fixed parameters."""

    kind: str
    name: str
    offset: int
    overrides: dict[str, Any] = field(default_factory=dict)


SAMPLES: tuple[SampleSpec, ...] = (
    SampleSpec(
        "printed",
        "demo",
        1,
        {
            "size": (1024, 768),
            "grid_fraction": 0.66,
            "centre_shift": (0.0, 0.09),
            "roll_deg": -3.0,
            "pitch_deg": 8.0,
            "yaw_deg": -4.0,
            "shadow": 0.0,
            "blur_sigma": 0.3,
            "motion_blur_px": 0.0,
            "noise_sigma": 1.5,
            "print_font": "Nimbus Sans Bold",
            "colour_cast": (1.0, 1.0, 0.97),
            "paper_tone": (0.93, 0.92, 0.88),
            "jpeg_quality": 85,
        },
    ),
    SampleSpec(
        "printed", "serif_rotated", 2, {"print_font": "C059", "roll_deg": 14.0, "size": (1024, 768)}
    ),
    SampleSpec("printed", "shadow", 3, {"shadow": 0.45, "print_font": "Liberation Sans"}),
    SampleSpec(
        "progress",
        "half_blue",
        4,
        {"pen_fill": 0.5, "pen_mistakes": 2, "pen_font": "dkg", "size": (1024, 768)},
    ),
    SampleSpec(
        "progress",
        "nearly_done",
        5,
        {"pen_fill": 0.9, "pen_mistakes": 3, "pen_font": "Breip", "size": (960, 1280)},
    ),
    SampleSpec("bent", "wave", 6, {"bend": "wave", "bend_depth": 0.1, "bend_period": 1.3}),
    SampleSpec("bent", "curl", 7, {"bend": "curl", "bend_depth": 0.14}),
    SampleSpec("webcam", "dim", 8, {"motion_blur_px": 3.0, "motion_angle_deg": 20.0}),
    SampleSpec("webcam", "pen", 9, {"pen_fill": 0.6, "pen_mistakes": 1, "pen_font": "Comic Neue"}),
    SampleSpec("scan", "clipping", 10, {}),
    SampleSpec(
        "progress",
        "notes_half",
        11,
        {
            "pen_fill": 0.4,
            "pen_mistakes": 1,
            "pen_font": "dkg",
            "size": (1024, 768),
            "marks": Marks(notes_fill=0.7, notes_wrong=1, erasures=2),
        },
    ),
    SampleSpec(
        "progress",
        "pencil",
        12,
        {
            "pen_fill": 0.8,
            "pen_mistakes": 1,
            "pen_font": "Comic Neue",
            "size": (800, 600),
            "marks": Marks(pencil=True, erasures=2),
        },
    ),
    SampleSpec("screen", "dark_mode", 13, {"print_font": "Liberation Sans", "size": (1024, 768)}),
)


SAMPLE_MAX_BYTES = 240_000  # committed JPEGs stay small


def fit_quality(photo: Photo, max_bytes: int) -> Photo:
    """The photo with its JPEG quality lowered (in steps of 3, to 50 at least) to fit a size."""
    quality = photo.jpeg_quality
    while quality > 50 and len(encode_jpeg(photo.image, quality)) > max_bytes:
        quality -= 3
    effects = {**photo.truth.effects, "jpeg_quality": quality}
    return replace(photo, truth=replace(photo.truth, effects=effects), jpeg_quality=quality)


def render_samples(out: Path, seed: int) -> list[Path]:
    """Render the committed sample set and one puzzle page into `out`."""
    written: list[Path] = []
    for spec in SAMPLES:
        photo = render_photo(seed * 1000 + spec.offset, spec.kind, **spec.overrides)
        written += write_photo(fit_quality(photo, SAMPLE_MAX_BYTES), out / spec.kind, spec.name)
    page_seed = seed * 1000 + 100
    image, truths = render_page(page_seed, n_puzzles=3, dpi=150)
    written += write_page(image, truths, out / "pages", "page0", page_meta(page_seed, 150))
    return written
