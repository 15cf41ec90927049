"""The app's limits on what one person can ask of the server (issue 30): the *Many photos*
page's pixel limit, page limits and turns, and one error row for a damaged file.

Driven through streamlit.testing.v1.AppTest like tests/test_app.py; the batch runner
itself is also called directly for the limits that need many pages.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from sudokucam.tests.app_harness import open_app
from sudokucam.ui.app import layout
from sudokucam.ui.app.state.batch_jobs import BatchLimits, run_batch
from sudokucam.ui.app.state.settings import APP_CONFIG, AppConfig
from sudokucam.ui.app.widgets.photo_input import PhotoInput
from sudokucam.vision.batch.work import WorkOptions

pytest.importorskip("streamlit.testing.v1")

REPO = Path(__file__).resolve().parent.parent


def blank_png(width: int = 300, height: int = 200) -> bytes:
    """A plain light PNG (no grid on it)."""
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (235, 235, 235)).save(buffer, format="PNG")
    return buffer.getvalue()


def big_16bit_png(side: int = 7000) -> bytes:
    """A side×side 16-bit greyscale PNG: a few hundred KB, side² pixels once decoded."""
    buffer = io.BytesIO()
    Image.fromarray(np.full((side, side), 40000, np.uint16)).save(buffer, format="PNG")
    return buffer.getvalue()


def lying_pdf() -> bytes:
    """A one-page PDF whose page tree says it has 5 pages."""
    buffer = io.BytesIO()
    Image.new("RGB", (200, 200), "white").save(buffer, format="PDF")
    data = buffer.getvalue()
    assert data.count(b"/Count 1") == 1
    return data.replace(b"/Count 1", b"/Count 5")


def tiff_of(pages: int) -> bytes:
    """A multi-page TIFF of small blank pages."""
    frames = [Image.new("RGB", (120, 90), (230, 230, 230)) for _ in range(pages)]
    buffer = io.BytesIO()
    frames[0].save(buffer, format="TIFF", save_all=True, append_images=frames[1:])
    return buffer.getvalue()


def run_many(at: Any, files: list[tuple[str, bytes, str]]) -> Any:
    """Upload the files on the Many photos page and press Solve all; the results table."""
    at.file_uploader(key="batch_files").set_value(files).run()
    at.button(key="batch_run").click().run()
    assert not at.exception, at.exception
    return at.dataframe[0].value


@pytest.fixture
def counted_turns(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every turn the Many photos page takes from the server's read line, recorded."""
    from sudokucam.ui.app.pages import batch as batch_page
    from sudokucam.ui.app.state import backend

    taken: list[str] = []

    @contextmanager
    def turn() -> Iterator[None]:
        with backend.read_turn():
            taken.append("turn")
            yield

    monkeypatch.setattr(batch_page, "read_turn", turn)
    return taken


def test_many_photos_refuses_a_photo_over_the_pixel_limit_and_reads_in_turns(
    counted_turns: list[str],
) -> None:
    at = open_app(layout.BATCH)
    rows = run_many(
        at,
        [
            ("huge.png", big_16bit_png(), "image/png"),
            ("blank.png", blank_png(), "image/png"),
        ],
    )
    assert list(rows["File"]) == ["huge.png", "blank.png"]
    assert list(rows["Result"]) == ["unreadable", "no grid found"]
    huge = rows["Details"][0]
    assert "huge.png is too large" in huge and "49.0 megapixels (limit 25.0)" in huge
    assert counted_turns == ["turn", "turn"]  # one turn of the photo line per page


def test_a_pdf_whose_page_count_lies_is_one_row_and_the_photos_are_kept() -> None:
    at = open_app(layout.BATCH)
    rows = run_many(
        at,
        [
            ("first.png", blank_png(), "image/png"),
            ("lie.pdf", lying_pdf(), "application/pdf"),
            ("last.png", blank_png(400, 300), "image/png"),
        ],
    )
    files = list(rows["File"])
    assert files[0] == "first.png" and files[-1] == "last.png"
    lie = rows[(rows["File"] == "lie.pdf") & (rows["Result"] == "unreadable")]
    assert len(lie) == 1  # one error row, whatever the loader makes of the lie
    assert "lie.pdf" in lie["Details"].iloc[0] and "Traceback" not in lie["Details"].iloc[0]
    results = list(rows["Result"])
    assert results[0] == results[-1] == "no grid found"


def test_a_file_over_the_page_limit_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    from sudokucam.ui.app.pages import batch as batch_page

    config = replace(APP_CONFIG, max_pages_per_file=2)
    monkeypatch.setattr(batch_page, "APP_CONFIG", config)
    at = open_app(layout.BATCH)
    rows = run_many(
        at,
        [
            ("three.tif", tiff_of(3), "image/tiff"),
            ("two.tif", tiff_of(2), "image/tiff"),
        ],
    )
    assert list(rows["File"]) == ["three.tif", "two.tif", "two.tif"]
    assert rows["Details"][0] == (
        "three.tif has 3 pages; the app reads at most 2 pages of a file "
        "(split it, or use `sudokucam batch`)"
    )
    assert list(rows["Page"])[1:] == ["1", "2"]


def test_a_batch_stops_at_its_page_limit_and_names_the_files_left_out() -> None:
    options = WorkOptions(image_format="png", max_pixels=APP_CONFIG.max_pixels)
    uploads = [PhotoInput(f"p{i}.tif", tiff_of(2)) for i in range(3)]
    result = run_batch(uploads, options, limits=BatchLimits(pages_per_file=5, pages_per_batch=5))
    sources = [(r["source"], r["status"]) for r in result.rows]
    assert sources[:4] == [("p0.tif", "no_grid")] * 2 + [("p1.tif", "no_grid")] * 2
    assert sources[4] == ("p2.tif", "error")
    assert "at most 5 pages at once" in result.rows[4]["error"]


def test_a_pdf_of_many_pages_is_refused_without_being_split() -> None:
    """The count comes from the PDF's page tree; no page is extracted or read."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument.new()
    for _ in range(150):
        document.new_page(100, 100)
    buffer = io.BytesIO()
    document.save(buffer)
    read: list[str] = []

    @contextmanager
    def turn() -> Iterator[None]:
        read.append("page")
        yield

    options = WorkOptions(image_format="png")
    result = run_batch([PhotoInput("book.pdf", buffer.getvalue())], options, turn=turn)
    (row,) = result.rows
    assert row["status"] == "error" and read == []
    assert row["error"].startswith("book.pdf has 150 pages; the app reads at most 100 pages")


def test_app_config_checks_its_page_limits() -> None:
    with pytest.raises(ValueError):
        AppConfig(max_pages_per_file=0)
    with pytest.raises(ValueError):
        BatchLimits(pages_per_batch=0)


def test_a_batch_that_gets_no_turn_stops_instead_of_waiting_file_after_file() -> None:
    """The read line's own errors (no turn within the longest wait, the session gone)
    end the batch: they are not one more error row followed by another wait."""
    from sudokucam.ui.app.state.turns import TurnBusyError

    waits: list[str] = []

    @contextmanager
    def no_turn() -> Iterator[None]:
        waits.append("waited")
        raise TurnBusyError("the app is busy reading other photos; try again soon")
        yield

    options = WorkOptions(image_format="png")
    uploads = [PhotoInput(f"p{i}.png", blank_png()) for i in range(3)]
    with pytest.raises(TurnBusyError):
        run_batch(uploads, options, turn=no_turn)
    assert waits == ["waited"]
