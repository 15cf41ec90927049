"""Batch inputs: folders walked, files sniffed, PDFs split into pages and rendered."""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from sudokucam.vision.batch.inputs import (
    BatchInputError,
    PayloadReader,
    count_pdf_pages,
    discover,
    render_pdf_page,
    sniff_kind,
)


def _page(seed: int, size: tuple[int, int] = (120, 90)) -> Image.Image:
    """A small RGB image whose pixels depend on the seed."""
    rng = np.random.default_rng(seed)
    return Image.fromarray(rng.integers(0, 255, (*size, 3), dtype=np.uint8))


def _pdf(pages: int) -> bytes:
    """A PDF of ``pages`` pages, page i filled with a distinct grey level."""
    images = [Image.new("RGB", (72, 144), (10 * i, 10 * i, 10 * i)) for i in range(pages)]
    buffer = io.BytesIO()
    images[0].save(buffer, "PDF", resolution=72, save_all=True, append_images=images[1:])
    return buffer.getvalue()


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    """A folder tree with images, a PDF, a text file, a hidden file and a bad PDF."""
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    _page(1).save(tmp_path / "a.png")
    _page(2).save(tmp_path / "sub" / "b.jpg")
    _page(3).save(tmp_path / "sub" / "deeper" / "no_suffix", "PNG")
    (tmp_path / "sub" / "scan.pdf").write_bytes(_pdf(3))
    (tmp_path / "notes.txt").write_text("not a picture")
    (tmp_path / ".hidden.png").write_bytes(b"ignored")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 nothing else")
    return tmp_path


def test_discover_walks_folders_and_splits_pdfs(mixed: Path) -> None:
    """Every image and PDF page becomes a unit; text is skipped; a bad PDF fails."""
    found = discover([mixed])
    labels = [unit.label for unit in found.units]
    assert labels == ["a.png", "b.jpg", "no_suffix", "scan.pdf p1", "scan.pdf p2", "scan.pdf p3"]
    assert [s.source for s in found.skipped] == [str(mixed / "notes.txt")]
    assert len(found.failures) == 1
    assert found.failures[0].unit.source == str(mixed / "broken.pdf")
    assert "not a readable PDF" in found.failures[0].error
    assert len({unit.uid for unit in found.units}) == len(found.units)


def test_named_files_are_read_even_with_unknown_kind(mixed: Path) -> None:
    """A text file named on the command line is a unit (the loader will say why it fails)."""
    found = discover([mixed / "notes.txt", mixed / "a.png", mixed / "a.png"])
    assert [unit.label for unit in found.units] == ["notes.txt", "a.png"]
    assert not found.skipped


def test_missing_input_raises(tmp_path: Path) -> None:
    """A path that does not exist is a usage error, raised before any work."""
    with pytest.raises(FileNotFoundError, match="does not exist"):
        discover([tmp_path / "nope.jpg"])


def test_unit_key_changes_when_file_changes(tmp_path: Path) -> None:
    """Rewriting a file (new mtime) gives its unit a new key and uid."""
    path = tmp_path / "a.png"
    _page(1).save(path)
    before = discover([path]).units[0]
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    after = discover([path]).units[0]
    assert before.key[:2] == after.key[:2]
    assert before.uid != after.uid


@pytest.mark.parametrize(
    ("head", "kind"),
    [
        (b"%PDF-1.7\n", "pdf"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "image"),
        (b"\x89PNG\r\n\x1a\n", "image"),
        (b"RIFF\x00\x00\x00\x00WEBPVP8 ", "image"),
        (b"\x00\x00\x00\x18ftypheic", "image"),
        (b"hello world, plain text", None),
    ],
)
def test_sniff_kind_by_content(tmp_path: Path, head: bytes, kind: str | None) -> None:
    """Files without a known suffix are recognised by their first bytes."""
    path = tmp_path / "file.bin"
    path.write_bytes(head + b"\x00" * 16)
    assert sniff_kind(path) == kind


def test_payload_is_one_page_pdf_rendered_at_dpi(tmp_path: Path) -> None:
    """Each PDF unit carries its own page; rendering honours the dpi."""
    path = tmp_path / "scan.pdf"
    path.write_bytes(_pdf(3))
    units = discover([path]).units
    payloads = PayloadReader()
    for unit in units:
        data = payloads(unit)
        assert count_pdf_pages(data, "page") == 1
        image = render_pdf_page(data, 1, 144, "page")
        assert image.shape == (288, 144, 3)
        assert image.dtype == np.uint8
        level = 10 * (unit.page - 1)
        assert abs(int(np.median(image)) - level) <= 2


def test_payload_refuses_a_file_changed_since_discovery(tmp_path: Path) -> None:
    """A file that grew after discovery is refused rather than read under the old key."""
    path = tmp_path / "a.png"
    _page(1).save(path)
    unit = discover([path]).units[0]
    _page(1, (300, 200)).save(path)
    with pytest.raises(BatchInputError, match="changed"):
        PayloadReader()(unit)


def test_render_refuses_bad_page_and_dpi() -> None:
    """Asking for a page that is not there, or a silly dpi, is refused clearly."""
    data = _pdf(1)
    with pytest.raises(BatchInputError, match="no page 2"):
        render_pdf_page(data, 2, 100, "x.pdf")
    with pytest.raises(ValueError, match="dpi"):
        render_pdf_page(data, 1, 0, "x.pdf")
