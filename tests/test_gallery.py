"""Many photos: the gallery of solved pictures, each failure with its reason, the ZIP;
through AppTest and in Debian's Chromium at phone width."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from sudokucam.tests.browser_harness import PHONE, chromium, open_tab
from sudokucam.ui.app import layout
from sudokucam.ui.app.pages.batch import THUMB_SIDE, escaped, label

REPO = Path(__file__).resolve().parent.parent
APP = REPO / "ui" / "streamlit_app.py"
PHOTOS = [REPO / "samples" / "printed" / n for n in ("demo.jpg", "shadow.jpg")]
WAIT_MS = 120_000
TIMEOUT = 180


def blank_png() -> bytes:
    """A white picture: no grid in it."""
    return bytes(cv2.imencode(".png", np.full((300, 400, 3), 255, np.uint8))[1].tobytes())


def uploads() -> list[tuple[str, bytes, str]]:
    """Two sample photos, a blank picture whose name has Markdown in it, a broken file."""
    files = [(p.name, p.read_bytes(), "image/jpeg") for p in PHOTOS]
    return [*files, ("blank_*x*.png", blank_png(), "image/png"), ("broken.png", b"no", "image/png")]


def test_labels_and_markdown_escaping() -> None:
    assert label({"source": "a.jpg", "grid": 1}) == "a.jpg"
    assert label({"source": "b.pdf", "page": 2, "grid": 2}) == "b.pdf, page 2, grid 2"
    assert label({"source": "c.png", "page": 1, "grid": None}) == "c.png"
    assert escaped("*a*_[x](y).jpg") == "\\*a\\*\\_\\[x\\]\\(y\\)\\.jpg"


@pytest.fixture(scope="module")
def batch_app() -> Any:
    """The app after solving the uploads on the Many photos page."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.session_state[layout.MODE_KEY] = layout.BATCH
    at.run()
    at.file_uploader(key="batch_files").set_value(uploads()).run()
    at.button(key="batch_run").click().run()
    assert not at.exception, at.exception
    return at


def test_gallery_shows_each_solved_picture_small(batch_app: Any) -> None:
    at = batch_app
    assert [str(s.value) for s in at.success] == ["2 of 4 grids solved."]
    captions = [str(c.value) for c in at.caption]
    assert ":material/check_circle: **demo\\.jpg**: solved" in captions
    assert ":material/check_circle: **shadow\\.jpg**: solved" in captions
    pictures = at.session_state["batch_result"][2]
    assert [p.label for p in pictures] == ["demo.jpg", "shadow.jpg"]
    for picture in pictures:
        small = cv2.imdecode(np.frombuffer(picture.thumbnail, np.uint8), cv2.IMREAD_COLOR)
        assert small is not None and max(small.shape[:2]) <= THUMB_SIDE
        zip_data = at.session_state["batch_result"][1].zip_data
        full = zipfile.ZipFile(io.BytesIO(zip_data)).read(picture.member)
        assert len(picture.thumbnail) < len(full) / 3
    assert len(at.get("image")) == 2


def test_each_failure_is_named_with_its_reason(batch_app: Any) -> None:
    text = "\n".join(str(m.value) for m in batch_app.markdown)
    assert "**Not solved (2)**" in text
    assert "- **blank\\_\\*x\\*\\.png**: no Sudoku grid found in the photo" in text
    assert "- **broken\\.png**: broken\\.png is not an image" in text
    assert batch_app.get("download_button")[0].proto.label == "Download the solved images (ZIP)"


def test_full_size_opens_the_picture(batch_app: Any) -> None:
    batch_app.button(key="batch_full_1").click().run()
    assert not batch_app.exception, batch_app.exception
    images = batch_app.get("image")
    assert len(images) == 3  # two thumbnails and the large one
    assert "shadow.jpg" in str(images[-1].proto)


# ---------------------------------------------------------------------------- browser


@pytest.mark.slow
@pytest.mark.browser
def test_gallery_on_a_phone(app_url: str, tmp_path: Path) -> None:
    files = []
    for name, data, _ in uploads():
        (tmp_path / name).write_bytes(data)
        files.append(str(tmp_path / name))
    with chromium() as browser:
        page = open_tab(browser, app_url, layout.BATCH, PHONE, WAIT_MS)
        page.locator("input[type=file][multiple]").set_input_files(files)
        page.get_by_role("button", name="Solve all 4 files").click(timeout=WAIT_MS)
        page.get_by_text("Not solved (2)").wait_for(timeout=WAIT_MS)
        first = page.get_by_role("img", name="demo.jpg: answer")
        second = page.get_by_role("img", name="shadow.jpg: answer")
        one, two = first.bounding_box(), second.bounding_box()
        assert one is not None and two is not None
        assert abs(one["y"] - two["y"]) < 2 and two["x"] > one["x"] + one["width"]  # side by side
        page.get_by_role("button", name="Full size").nth(1).click()
        dialog = page.get_by_role("dialog")
        dialog.get_by_text("shadow.jpg").wait_for(timeout=WAIT_MS)
        big = dialog.get_by_role("img").bounding_box()
        assert big is not None and big["width"] > 2 * two["width"]
        page.screenshot(path=tmp_path / "gallery_full_size.png")
