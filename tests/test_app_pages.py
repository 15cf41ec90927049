"""The single-photo pages read PDFs and multi-page TIFFs (issue 30): a file of one page is
just read, a file of several gets a page picker (page 1 first, the count shown), and the
limits hold (pages per file, pixels, the server's reading turns).

Driven through streamlit.testing.v1.AppTest like tests/test_app.py; the PDFs and TIFFs
are made here with Pillow from the project's own sample photos.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from sudokucam.tests.app_harness import open_app
from sudokucam.ui.app import layout
from sudokucam.ui.app.state.settings import AppConfig

pytest.importorskip("streamlit.testing.v1")

REPO = Path(__file__).resolve().parent.parent
BLANK = (230, 230, 230)  # a page without a grid


def texts(elements: Any) -> list[str]:
    """The text of every element of a list (success, error, markdown, ...)."""
    return [str(e.value) for e in elements]


def solution_of(sample: Path) -> str:
    """The 81-digit solution of a committed sample photo."""
    truth = json.loads(sample.with_suffix(".json").read_text(encoding="utf-8"))
    return "".join(str(v) for row in truth["solution"] for v in row)


def paged(pages: list[Image.Image], fmt: str, resolution: float = 150.0) -> bytes:
    """The pages as one PDF or multi-page TIFF."""
    buffer = io.BytesIO()
    extra: dict[str, object] = {"resolution": resolution} if fmt == "PDF" else {}
    pages[0].save(buffer, format=fmt, save_all=True, append_images=pages[1:], **extra)
    return buffer.getvalue()


def blank(size: tuple[int, int] = (600, 800)) -> Image.Image:
    """A plain page (no grid on it)."""
    return Image.new("RGB", size, BLANK)


def page_picker(at: Any, prefix: str) -> Any:
    """The page picker of the page `prefix`, which must be there."""
    found = [s for s in at.selectbox if str(s.key).startswith(f"{prefix}_page_")]
    assert len(found) == 1, [s.key for s in at.selectbox]
    return found[0]


def has_picker(at: Any, prefix: str) -> bool:
    """Whether the page shows a page picker."""
    return any(str(s.key).startswith(f"{prefix}_page_") for s in at.selectbox)


@pytest.fixture
def turns(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every reading turn the photo pages take from the server's line, recorded."""
    from sudokucam.ui.app.state import backend

    taken: list[str] = []
    real = backend.read_turn

    @contextmanager
    def turn() -> Iterator[None]:
        with real():
            taken.append("turn")
            yield

    monkeypatch.setattr(backend, "read_turn", turn)
    return taken


def test_a_pdf_page_is_picked_and_solved(samples_dir: Path, turns: list[str]) -> None:
    demo = samples_dir / "printed" / "demo.jpg"
    pdf = paged([blank(), Image.open(demo).convert("RGB")], "PDF")
    at = open_app(layout.PHOTO)
    at.file_uploader(key="photo_upload").upload("scan.pdf", pdf, "application/pdf").run()
    assert not at.exception, at.exception
    picker = page_picker(at, "photo")
    assert picker.label == "scan.pdf has 2 pages: which one to read?"
    assert picker.options == ["Page 1 of 2", "Page 2 of 2"] and picker.value == 1
    assert "No Sudoku grid was found" in "\n".join(texts(at.error))
    assert turns == ["turn", "turn"]  # the pages counted, then page 1 read: each in a turn
    page_picker(at, "photo").set_value(2).run()
    assert not at.exception, at.exception
    assert texts(at.code) == [solution_of(demo)]
    assert any(s.startswith("Solved") for s in texts(at.success))
    assert at.get("download_button")[0].proto.label == "Download the solved photo"
    assert turns == ["turn"] * 3  # page 2 read in a turn; the pages not counted again


def test_a_one_page_pdf_is_just_read(samples_dir: Path) -> None:
    demo = samples_dir / "printed" / "demo.jpg"
    at = open_app(layout.PHOTO)
    pdf = paged([Image.open(demo).convert("RGB")], "PDF")
    at.file_uploader(key="photo_upload").upload("one.pdf", pdf, "application/pdf").run()
    assert not at.exception, at.exception
    assert not has_picker(at, "photo")
    assert texts(at.code) == [solution_of(demo)]


def test_a_multi_page_tiff_is_checked_page_by_page(samples_dir: Path) -> None:
    photo = samples_dir / "progress" / "half_blue.jpg"
    tiff = paged([Image.open(photo).convert("RGB"), blank()], "TIFF")
    at = open_app(layout.PROGRESS)
    at.file_uploader(key="progress_upload").upload("scan.tif", tiff, "image/tiff").run()
    assert not at.exception, at.exception
    assert page_picker(at, "progress").options == ["Page 1 of 2", "Page 2 of 2"]
    assert [m.label for m in at.metric] == ["Cells left", "Entries wrong", "To check",
                                            "Entries right"]  # fmt: skip
    page_picker(at, "progress").set_value(2).run()
    assert not at.exception, at.exception
    assert "No Sudoku grid was found" in "\n".join(texts(at.error))
    assert not at.metric


def test_a_pdf_over_the_page_limit_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        "sudokucam.ui.app.state.backend.APP_CONFIG", AppConfig(max_pages_per_file=3)
    )
    at = open_app(layout.PHOTO)
    pdf = paged([blank((100, 100)) for _ in range(5)], "PDF")
    at.file_uploader(key="photo_upload").upload("long.pdf", pdf, "application/pdf").run()
    assert not at.exception, at.exception
    message = "\n".join(texts(at.error))
    assert "long.pdf is too large: 5 pages (limit 3)" in message
    assert not has_picker(at, "photo")


def test_a_huge_pdf_page_is_rendered_under_the_pixel_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        "sudokucam.ui.app.state.backend.APP_CONFIG", AppConfig(max_pixels=1_000_000)
    )
    at = open_app(layout.PHOTO)
    pdf = paged([blank((2000, 2000))], "PDF", resolution=100.0)  # 20 × 20 inches
    at.file_uploader(key="photo_upload").upload("poster.pdf", pdf, "application/pdf").run()
    assert not at.exception, at.exception
    captions = "\n".join(texts(at.caption))
    assert "poster.pdf: rendered at 50 dpi, not 200, to stay under 1 megapixels." in captions
    assert "No Sudoku grid was found" in "\n".join(texts(at.error))
    shown = at.session_state["photo_result"][1].image
    assert shown.shape[0] * shown.shape[1] <= 1_000_000


def test_a_tiff_page_over_the_pixel_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        "sudokucam.ui.app.state.backend.APP_CONFIG", AppConfig(max_pixels=1_000_000)
    )
    at = open_app(layout.PHOTO)
    tiff = paged([blank((100, 100)), blank((2000, 1000))], "TIFF")
    at.file_uploader(key="photo_upload").upload("two.tif", tiff, "image/tiff").run()
    assert "No Sudoku grid was found" in "\n".join(texts(at.error))
    page_picker(at, "photo").set_value(2).run()
    assert not at.exception, at.exception
    message = "\n".join(texts(at.error))
    assert "two.tif page 2 is too large: 2000×1000 = 2.0 megapixels (limit 1.0)" in message


def test_a_pdf_whose_page_count_lies_reads_its_one_page_and_says_so() -> None:
    pdf = paged([blank((200, 200))], "PDF")
    assert pdf.count(b"/Count 1") == 1
    at = open_app(layout.PHOTO)
    lying = pdf.replace(b"/Count 1", b"/Count 5")
    at.file_uploader(key="photo_upload").upload("lies.pdf", lying, "application/pdf").run()
    assert not at.exception, at.exception
    warning = "\n".join(texts(at.warning))
    assert "lies.pdf is damaged: it lists 5 pages, but pages 2-5 cannot be read" in warning
    assert not has_picker(at, "photo")
    assert "No Sudoku grid was found" in "\n".join(texts(at.error))


def test_a_pdf_without_pages_says_so() -> None:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument.new()
    buffer = io.BytesIO()
    document.save(buffer)
    document.close()
    at = open_app(layout.PROGRESS)
    at.file_uploader(key="progress_upload").upload("empty.pdf", buffer.getvalue(),
                                                   "application/pdf")  # fmt: skip
    at.run()
    assert not at.exception, at.exception
    message = "\n".join(texts(at.error))
    assert "That file could not be read as a photo: empty.pdf has no pages." in message
    assert not has_picker(at, "progress") and not at.metric


def test_each_page_of_a_file_is_its_own_photo() -> None:
    from sudokucam.ui.app.widgets.photo_input import PhotoInput

    photo = PhotoInput("demo.jpg", b"bytes")
    first, second = PhotoInput("scan.pdf", b"bytes", 1, 3), PhotoInput("scan.pdf", b"bytes", 2, 3)
    assert (photo.label, photo.stem) == ("demo.jpg", "demo")
    assert (second.label, second.stem) == ("scan.pdf page 2", "scan_p2")
    assert len({photo.digest, first.digest, second.digest}) == 3  # a board and a result each
    assert first.digest.startswith(photo.digest)
