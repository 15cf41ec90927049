"""Many photos at once: upload several photos or PDFs, get a results table and a ZIP."""

from __future__ import annotations

import hashlib

import pandas as pd
import streamlit as st

from ....vision.batch.work import WorkOptions
from ..state.batch_jobs import BatchResult, Record, run_batch
from ..state.settings import APP_CONFIG
from ..widgets.photo_input import PHOTO_TYPES, PhotoInput, refuse_oversize, upload_limits

PREFIX = "batch"
PAGED_SUFFIXES = (".pdf", ".tif", ".tiff")  # files whose every page is read
RESULT_KEY = f"{PREFIX}_result"
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
        type=[*PHOTO_TYPES, "tif", "tiff", "pdf"],
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
        st.session_state[RESULT_KEY] = (digest, _run(uploads))
    kept = st.session_state.get(RESULT_KEY)
    if kept is not None and kept[0] == digest:
        _show(kept[1])


def _run(uploads: list[PhotoInput]) -> BatchResult:
    """Run the batch with a progress bar."""
    bar = st.progress(0.0, text="Reading…")
    total = len(uploads)

    def progress(done: int, label: str) -> None:
        bar.progress(min(done / total, 1.0), text=f"Read {label}")

    options = WorkOptions(dpi=APP_CONFIG.pdf_dpi, image_format="png")
    result = run_batch(uploads, options, progress)
    bar.empty()
    return result


def _show(result: BatchResult) -> None:
    """The results table and the ZIP download."""
    st.success(f"{result.solved} of {len(result.rows)} grids solved.")
    st.dataframe(table(result.rows), hide_index=True)
    st.download_button(
        "Download the solved images (ZIP)",
        data=result.zip_data,
        file_name="sudokucam-solved.zip",
        mime="application/zip",
        type="primary",
        key=f"{PREFIX}_download",
    )
