"""The Streamlit app run in-process through streamlit.testing.v1.AppTest, as every app
test opens it.

Imported as ``sudokucam.tests.app_harness``; a test module skips first where Streamlit's
testing module is missing (``pytest.importorskip("streamlit.testing.v1")``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sudokucam.ui.app import layout

APP = Path(__file__).resolve().parent.parent / "ui" / "streamlit_app.py"
RUN_TIMEOUT_S = 120  # one run of the app's script (a photo read on a busy machine)


def open_app(mode: str) -> Any:
    """The app run once with the tab ``mode`` open."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(APP), default_timeout=RUN_TIMEOUT_S)
    at.session_state[layout.MODE_KEY] = mode
    at.run()
    assert not at.exception, at.exception
    return at


UPLOADERS = {layout.PHOTO: "photo_upload", layout.PROGRESS: "progress_upload"}


def uploaded(mode: str, photo: Path) -> Any:
    """The app's page ``mode`` (*Solve a photo* or *Check my progress*) with ``photo``
    uploaded and read."""
    at = open_app(mode)
    at.file_uploader(key=UPLOADERS[mode]).upload(photo.name, photo.read_bytes(), "image/jpeg")
    at.run()
    assert not at.exception, at.exception
    return at
