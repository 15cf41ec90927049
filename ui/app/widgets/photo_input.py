"""Where a photo comes from: an upload, the webcam, or one of the bundled samples."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from ..state.settings import APP_CONFIG

PHOTO_TYPES = ["jpg", "jpeg", "png", "webp", "heic", "heif"]
SAMPLES_DIR = Path(__file__).resolve().parents[3] / "samples"
UPLOAD = "Upload"
CAMERA = "Camera"
SAMPLE = "Sample"
NO_SAMPLE = "(choose a sample)"


@dataclass(frozen=True)
class PhotoInput:
    """A photo as the person gave it: a name to show and its encoded bytes."""

    name: str
    data: bytes

    @property
    def digest(self) -> str:
        """A short fingerprint of the bytes, to tell one photo from another."""
        return hashlib.sha1(self.data, usedforsecurity=False).hexdigest()[:12]


def sample_photos(kinds: tuple[str, ...] = ()) -> dict[str, Path]:
    """The bundled sample photos, 'kind/name' → path, those of `kinds` first."""
    if not SAMPLES_DIR.is_dir():
        return {}
    found = sorted(p for p in SAMPLES_DIR.glob("*/*.jpg") if p.is_file())
    order = {k: i for i, k in enumerate(kinds)}
    found.sort(key=lambda p: (order.get(p.parent.name, len(order)), p.parent.name, p.name))
    return {f"{p.parent.name}/{p.stem}": p for p in found}


def photo_input(prefix: str, sample_kinds: tuple[str, ...] = ()) -> PhotoInput | None:
    """Ask for one photo (upload, webcam or sample); None until one is given."""
    samples = sample_photos(sample_kinds)
    sources = [UPLOAD, CAMERA] + ([SAMPLE] if samples else [])
    how = st.radio("Photo from", sources, key=f"{prefix}_source", horizontal=True)
    if how == CAMERA:
        return _from_camera(prefix)
    if how == SAMPLE:
        return _from_samples(prefix, samples)
    return _from_upload(prefix)


def _from_upload(prefix: str) -> PhotoInput | None:
    """A photo file chosen by the person."""
    upload = st.file_uploader(
        "Upload a photo of the puzzle",
        type=PHOTO_TYPES,
        key=f"{prefix}_upload",
        max_upload_size=APP_CONFIG.max_upload_mb,
        help="JPEG, PNG, WebP or HEIC. Straight above, the whole grid in the frame.",
    )
    if upload is None:
        return None
    return PhotoInput(upload.name, upload.getvalue())


def _from_camera(prefix: str) -> PhotoInput | None:
    """A webcam shot, asked for at high resolution so the digits stay legible."""
    shot = st.camera_input(
        "Hold the puzzle flat, fill the frame with the grid, then take the photo",
        key=f"{prefix}_camera",
        resolution=APP_CONFIG.camera_resolution,
    )
    if shot is None:
        return None
    return PhotoInput("camera.jpg", shot.getvalue())


def _from_samples(prefix: str, samples: dict[str, Path]) -> PhotoInput | None:
    """One of the bundled sample photos."""
    choice = st.selectbox("Sample photo", [NO_SAMPLE, *samples], key=f"{prefix}_sample")
    if choice is None or choice == NO_SAMPLE:
        return None
    path = samples[choice]
    return PhotoInput(path.name, path.read_bytes())
