"""Many photos at once: upload several photos or PDFs, see every solved picture, get a ZIP."""

from __future__ import annotations

import hashlib
import io
import zipfile
from dataclasses import dataclass

import cv2
import numpy as np
import pandas as pd
import streamlit as st

from ....vision.batch.work import WorkOptions
from ..state.backend import read_turn
from ..state.batch_jobs import BatchLimits, BatchResult, Record, run_batch
from ..state.settings import APP_CONFIG
from ..widgets.images import MAX_SHOWN_SIDE, shrink
from ..widgets.photo_input import (
    PAGED_TYPES,
    PHOTO_TYPES,
    PhotoInput,
    refuse_oversize,
    upload_limits,
)

PREFIX = "batch"
PAGED_SUFFIXES = (".pdf", ".tif", ".tiff")  # files whose every page is read
RESULT_KEY = f"{PREFIX}_result"
SOLVED = ("solved", "complete")
THUMB_SIDE = 360  # longer side of a gallery picture, in pixels
THUMB_WIDTH_PX = 170  # shown width: two side by side on a 390-px phone
THUMB_JPEG_QUALITY = 80
MARKDOWN_SPECIAL = frozenset("\\`*_{}[]()<>#+-.!|~:$")
STATUS_TEXT = {
    "solved": "solved",
    "complete": "complete",
    "invalid": "breaks the rules",
    "unsolvable": "no solution",
    "multiple_solutions": "several solutions",
    "no_grid": "no grid found",
    "error": "unreadable",
}


def table(rows: tuple[Record, ...]) -> pd.DataFrame:
    """The rows as a short table for the page."""
    return pd.DataFrame(
        {
            "File": [r.get("source", "") for r in rows],
            "Page": [_page(r) for r in rows],
            "Grid": [str(r.get("grid") or "") for r in rows],
            "Result": [STATUS_TEXT.get(str(r.get("status")), str(r.get("status"))) for r in rows],
            "Details": [_details(r) for r in rows],
        }
    )


def _page(row: Record) -> str:
    """The page number of a PDF or TIFF row; blank for a photo."""
    paged = str(row.get("source", "")).lower().endswith(PAGED_SUFFIXES)
    return str(row.get("page") or "") if paged else ""


def _details(row: Record) -> str:
    """What the table says about a row: its message or error, and how the page was read
    when not as asked (a huge PDF page rendered at a lower resolution)."""
    text = str(row.get("message") or row.get("error") or "")
    note = row.get("note")
    return f"{text} ({note})" if note and text else str(note or text)


def render() -> None:
    """The 'Many photos' page."""
    st.subheader("Many photos")
    files = st.file_uploader(
        "Photos or PDF pages",
        type=[*PHOTO_TYPES, *PAGED_TYPES],
        accept_multiple_files=True,
        key=f"{PREFIX}_files",
        max_upload_size=APP_CONFIG.max_upload_mb,
    )
    st.caption(upload_limits())
    accepted = [f for f in files or [] if not refuse_oversize(f.name, f.size)]
    uploads = [PhotoInput(f.name, f.getvalue()) for f in accepted]
    if not uploads:
        st.info(
            "Choose several photos (or PDFs and TIFFs: every page is read) "
            "to solve them all at once."
        )
        return
    digest = hashlib.sha1(
        b"".join(u.digest.encode() for u in uploads), usedforsecurity=False
    ).hexdigest()
    if st.button(f"Solve all {len(uploads)} files", type="primary", key=f"{PREFIX}_run"):
        result = _run(uploads)
        st.session_state[RESULT_KEY] = (digest, result, gallery(result))
    kept = st.session_state.get(RESULT_KEY)
    if kept is not None and kept[0] == digest:
        _show(kept[1], kept[2])


def _run(uploads: list[PhotoInput]) -> BatchResult:
    """Run the batch with a progress bar."""
    bar = st.progress(0.0, text="Reading…")

    def progress(share: float, label: str) -> None:
        bar.progress(min(share, 1.0), text=f"Read {label}")

    options = WorkOptions(
        dpi=APP_CONFIG.pdf_dpi, image_format="png", max_pixels=APP_CONFIG.max_pixels
    )
    limits = BatchLimits(APP_CONFIG.max_pages_per_file, APP_CONFIG.max_pages_per_batch)
    result = run_batch(uploads, options, progress, turn=read_turn, limits=limits)
    bar.empty()
    return result


@dataclass(frozen=True)
class Picture:
    """One grid's picture in the gallery: its label, outcome, thumbnail and name in the ZIP."""

    label: str
    outcome: str
    solved: bool
    thumbnail: bytes
    member: str


def gallery(result: BatchResult) -> tuple[Picture, ...]:
    """A small JPEG of every grid's picture in the ZIP, in the rows' order."""
    pictures = []
    with zipfile.ZipFile(io.BytesIO(result.zip_data)) as archive:
        for row in result.rows:
            member = row.get("image")
            if not member:
                continue
            small = shrink(_decode(archive.read(str(member))), THUMB_SIDE)
            solved = row.get("status") in SOLVED
            pictures.append(Picture(label(row), _outcome(row), solved, _jpeg(small), str(member)))
    return tuple(pictures)


def label(row: Record) -> str:
    """A row's name for people: the file, its page when paged, its grid when several."""
    name = str(row.get("source", ""))
    page = _page(row)
    grid = row.get("grid")
    parts = [name, f"page {page}" if page else "", f"grid {grid}" if grid and grid != 1 else ""]
    return ", ".join(p for p in parts if p)


def escaped(text: str) -> str:
    """Text shown as itself in Markdown (a file named `*a*.jpg` is not made italic)."""
    return "".join(f"\\{c}" if c in MARKDOWN_SPECIAL else c for c in text)


def _outcome(row: Record) -> str:
    """A row's result in words."""
    return STATUS_TEXT.get(str(row.get("status")), str(row.get("status")))


def _decode(data: bytes) -> np.ndarray:
    """A PNG or JPEG from the ZIP as a BGR array."""
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError("a solved picture could not be decoded")
    return image


def _jpeg(image: np.ndarray) -> bytes:
    """The BGR image as JPEG bytes."""
    ok, buffer = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, THUMB_JPEG_QUALITY])
    if not ok:
        raise ValueError("a thumbnail could not be encoded")
    return bytes(buffer.tobytes())


def _show(result: BatchResult, pictures: tuple[Picture, ...]) -> None:
    """The gallery of pictures, what failed and why, then the ZIP download."""
    st.success(f"{result.solved} of {len(result.rows)} grids solved.")
    _show_gallery(result, pictures)
    _show_failures(result.rows)
    st.download_button(
        "Download the solved images (ZIP)",
        data=result.zip_data,
        file_name="sudokucam-solved.zip",
        mime="application/zip",
        type="primary",
        key=f"{PREFIX}_download",
    )
    with st.expander("All results as a table"):
        st.dataframe(table(result.rows), hide_index=True)


def _show_gallery(result: BatchResult, pictures: tuple[Picture, ...]) -> None:
    """Every grid's picture, small, side by side; a tap on 'Full size' opens it large."""
    with st.container(horizontal=True, gap="small", key=f"{PREFIX}_gallery"):
        for number, picture in enumerate(pictures):
            with st.container(width=THUMB_WIDTH_PX, border=True, gap="small"):
                st.image(picture.thumbnail, width="stretch", alt=f"{picture.label}: answer")
                mark = ":material/check_circle:" if picture.solved else ":material/error:"
                st.caption(f"{mark} **{escaped(picture.label)}**: {picture.outcome}")
                if st.button("Full size", key=f"{PREFIX}_full_{number}", width="stretch"):
                    _full_size(picture.label, _full_picture(result, picture.member))


def _full_picture(result: BatchResult, member: str) -> np.ndarray:
    """A picture from the ZIP at display size, RGB."""
    with zipfile.ZipFile(io.BytesIO(result.zip_data)) as archive:
        image = shrink(_decode(archive.read(member)), MAX_SHOWN_SIDE)
    return cv2.cvtColor(image, cv2.COLOR_BGR2RGB)


@st.dialog("Solved picture", width="large")
def _full_size(name: str, image: np.ndarray) -> None:
    """One picture as large as the screen allows."""
    st.image(image, caption=name, width="stretch")


def _show_failures(rows: tuple[Record, ...]) -> None:
    """Each grid or page that was not solved, named, with the reason."""
    failed = [r for r in rows if r.get("status") not in SOLVED]
    if not failed:
        return
    st.markdown(f"**Not solved ({len(failed)})**")
    lines = []
    for row in failed:
        reason = _details(row) or _outcome(row)
        lines.append(f"- **{escaped(label(row))}**: {escaped(reason)}")
    st.markdown("\n".join(lines))
