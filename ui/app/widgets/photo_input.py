"""Where a photo comes from: an upload, the webcam, or one of the bundled samples.

The uploader says its limits beside it. The browser refuses a file over the size limit
before it is sent (and shows only a red mark), so the limit is written out; a file over
it that does arrive (sent by other means) gets an error naming its size and the limit.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from ..state.settings import APP_CONFIG

PHOTO_TYPES = ["jpg", "jpeg", "png", "webp", "heic", "heif"]
PAGED_TYPES = ["pdf", "tif", "tiff"]  # files of pages: the photo pages read one page at a time
SAMPLES_DIR = Path(__file__).resolve().parents[3] / "samples"
# The sample photos the app offers: shipped as package data (pyproject.toml's
# [tool.setuptools.package-data] lists the same files), so `pip install .` keeps them.
APP_SAMPLES = (
    "printed/demo.jpg",
    "printed/shadow.jpg",
    "bent/curl.jpg",
    "pages/page0.jpg",
    "screen/dark_mode.jpg",
    "progress/half_blue.jpg",
    "progress/notes_half.jpg",
    "progress/nearly_done.jpg",
)
UPLOAD = "Upload"
CAMERA = "Camera"
SAMPLE = "Sample"
NO_SAMPLE = "(choose a sample)"
MB = 2**20  # bytes in the megabytes of AppConfig.max_upload_mb (Streamlit's unit too)


@dataclass(frozen=True)
class PhotoInput:
    """A photo as the person gave it: a name to show and its encoded bytes.

    page: the 1-based page to read of a PDF or multi-page TIFF of ``pages`` pages (1 of
    1 for a photo).
    """

    name: str
    data: bytes
    page: int = 1
    pages: int = 1

    @property
    def digest(self) -> str:
        """A short fingerprint of the bytes (and of the page, in a file of several), to
        tell one photo or page from another."""
        digest = hashlib.sha1(self.data, usedforsecurity=False).hexdigest()[:12]
        return digest if self.pages == 1 else f"{digest}-p{self.page}"

    @property
    def label(self) -> str:
        """The photo's name, with its page in a file of several ("scan.pdf page 2")."""
        return self.name if self.pages == 1 else f"{self.name} page {self.page}"

    @property
    def stem(self) -> str:
        """The name to give a file made of it: "demo", "scan_p2" for page 2 of scan.pdf."""
        stem = Path(self.name).stem
        return stem if self.pages == 1 else f"{stem}_p{self.page}"


def sample_photos(kinds: tuple[str, ...] = ()) -> dict[str, Path]:
    """The shipped sample photos (``APP_SAMPLES``), 'kind/name' → path, those of `kinds` first."""
    found = [SAMPLES_DIR / name for name in APP_SAMPLES if (SAMPLES_DIR / name).is_file()]
    order = {k: i for i, k in enumerate(kinds)}
    found.sort(key=lambda p: (order.get(p.parent.name, len(order)), p.parent.name, p.name))
    return {f"{p.parent.name}/{p.stem}": p for p in found}


def chosen_photo(prefix: str, sample_kinds: tuple[str, ...] = ()) -> PhotoInput | None:
    """``photo_input`` in a panel that folds away once a photo is given, so that what the
    page makes of the photo, drawn above it, is the first thing on a phone's screen.

    The panel's label names the photo; it opens again with a tap to choose another.
    """
    given_key = f"{prefix}_given"
    given: str | None = st.session_state.get(given_key)
    label = f"Photo: {given} · tap to choose another" if given else "Choose a photo"
    with st.expander(label, expanded=given is None):
        photo = photo_input(prefix, sample_kinds)
    name = None if photo is None else photo.name
    if name != given:
        st.session_state[given_key] = name
        st.rerun()  # drawn again with the panel folded (or open again, when the photo went)
    return photo


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
        type=[*PHOTO_TYPES, *PAGED_TYPES],
        key=f"{prefix}_upload",
        max_upload_size=APP_CONFIG.max_upload_mb,
        help="JPEG, PNG, WebP or HEIC, or a scanned PDF or TIFF (pick its page). "
        "Straight above, the whole grid in the frame.",
    )
    st.caption(upload_limits())
    if upload is None:
        return None
    if refuse_oversize(upload.name, upload.size):
        return None
    return PhotoInput(upload.name, upload.getvalue())


def refuse_oversize(name: str, size: int) -> bool:
    """Say so on the page and return True when an upload of ``size`` bytes is over the limit."""
    if size <= APP_CONFIG.max_upload_mb * MB:
        return False
    st.error(too_big_message(name, size))
    return True


def upload_limits() -> str:
    """The caption beside an uploader: how large a photo may be."""
    return (
        f"Photos up to {APP_CONFIG.max_upload_mb} MB and {APP_CONFIG.max_pixels / 1e6:.0f} "
        "megapixels: a larger file gets a red mark and is not read."
    )


def too_big_message(name: str, size: int) -> str:
    """Why an uploaded file over the size limit is refused, and what to do."""
    return (
        f"**{name} is too large: {size / MB:.1f} MB (limit {APP_CONFIG.max_upload_mb} MB).** "
        "Use a smaller photo: a phone's medium or large size is plenty, or crop it to "
        "the puzzle."
    )


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
