"""The pages of a file: a photo is one page, a multi-page TIFF or a PDF one per page.

Every command reads the same inputs through this module (`read`, `solve`, `check`, the
app's many photos and `batch`): ``page_count`` says how many pages a file holds and which
of a PDF's pages cannot be loaded (a PDF whose page tree lies about its count),
``open_page`` gives one page as a ``Photo``. A PDF page is rendered at the asked dpi, or
lower when that would pass the pixel limit (a huge page is rendered smaller, never
refused; the page's ``note`` says so). Every refusal is an ``ImageLoadError`` with its
``LoadProblem``.
"""

from __future__ import annotations

import io
import math
import re
import threading
import warnings
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..limits import DEFAULT_DPI, DEFAULT_MAX_PIXELS, MAX_PAGES, round_pixels_text
from .load import ImageLoadError, LoadProblem, Photo, one_line, open_encoded

POINTS_PER_INCH = 72.0
TIFF_MAGICS = (b"II*\x00", b"MM\x00*")
# Each step of the search for a PDF render scale under the pixel limit shrinks it this much
# (the first guess is already within a pixel of the limit; rounding may need a step more).
RENDER_SCALE_STEP = 0.999
# pdfium's answer for a document it parsed but found no page in (at times; see is_pageless).
PDFIUM_NO_PAGES = "(PDFium: Success)"
COUNT_ZERO = re.compile(rb"/Count\s*0(?![\d.])")
PAGE_OBJECT = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")

# pdfium is not thread-safe: every call into it, in any thread of a process, holds this lock.
PDFIUM_LOCK = threading.Lock()


@dataclass(frozen=True)
class PageCount:
    """How many pages a file says it has, and which of them (1-based) cannot be loaded."""

    pages: int
    broken: tuple[int, ...] = ()

    @property
    def readable(self) -> tuple[int, ...]:
        """The 1-based pages that can be loaded."""
        return tuple(p for p in range(1, self.pages + 1) if p not in self.broken)

    def broken_message(self, name: str) -> str | None:
        """One line naming the pages that cannot be loaded (None when every page can)."""
        if not self.broken:
            return None
        shown = _page_ranges(self.broken)
        what = "page" if len(self.broken) == 1 else "pages"
        return f"{name} is damaged: it lists {self.pages} pages, but {what} {shown} cannot be read"


@dataclass(frozen=True)
class Page:
    """One page of a file as a photo; ``note`` says when it was not read as asked."""

    photo: Photo
    note: str | None = None


def is_pdf(data: bytes) -> bool:
    """Whether encoded bytes are a PDF, by their first bytes."""
    return data.startswith(b"%PDF")


def is_pageless(data: bytes) -> bool:
    """Whether a PDF pdfium would not open is a page tree without pages: it counts 0 pages
    and names no page object (pdfium's own error for it varies from call to call)."""
    return bool(COUNT_ZERO.search(data)) and not PAGE_OBJECT.search(data)


def is_tiff(data: bytes) -> bool:
    """Whether encoded bytes are a TIFF, by their first bytes."""
    return data.startswith(TIFF_MAGICS)


def page_count(data: bytes, name: str, *, max_pages: int = MAX_PAGES) -> PageCount:
    """How many pages ``data`` holds: a PDF's, a TIFF's frames, else 1; more than
    ``max_pages`` is refused (TOO_LARGE), a PDF without pages too (NO_PAGE)."""
    if is_pdf(data):
        counted = pdf_page_count(data, name)
    else:
        counted = PageCount(tiff_pages(data) if is_tiff(data) else 1)
    if counted.pages > max_pages:
        raise ImageLoadError(
            f"{name} is too large: {counted.pages} pages (limit {max_pages}); "
            "split it into smaller files",
            LoadProblem.TOO_LARGE,
        )
    return counted


def open_page(
    data: bytes,
    name: str,
    page: int = 1,
    *,
    dpi: float = DEFAULT_DPI,
    max_pixels: int = DEFAULT_MAX_PIXELS,
) -> Page:
    """One 1-based page of an image, multi-page TIFF or PDF as a photo.

    A PDF page is rendered at ``dpi``, or lower to stay within ``max_pixels`` (the note
    says so); an image page above ``max_pixels`` is refused.
    """
    if not is_pdf(data):
        return Page(open_encoded(data, name, max_pixels=max_pixels, page=page))
    rendered = render_pdf(data, page, dpi, name, max_pixels=max_pixels)
    image = rendered.image
    photo = Photo(name, (image.shape[1], image.shape[0]), image=image)
    if rendered.dpi >= dpi:
        return Page(photo)
    note = (
        f"rendered at {dpi_text(rendered.dpi)} dpi, not {dpi:g}, "
        f"to stay under {round_pixels_text(max_pixels)}"
    )
    return Page(photo, note)


def dpi_text(dpi: float) -> str:
    """A resolution rendered lower than asked, rounded down to a tenth ("70.6", "199.9"),
    so that it never reads as the resolution asked for."""
    return f"{math.floor(dpi * 10) / 10:g}"


def tiff_pages(data: bytes | Path) -> int:
    """How many pages (frames) a TIFF holds, from its headers; 1 when Pillow cannot tell
    (reading page 1 then says what is wrong with the file)."""
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a huge page: the loader refuses it by name
            with Image.open(io.BytesIO(data) if isinstance(data, bytes) else data) as image:
                return max(1, int(getattr(image, "n_frames", 1)))
    except Exception:  # any decoder complaint: reading page 1 will report it
        return 1


@contextmanager
def open_pdf(data: bytes, name: str) -> Iterator[Any]:
    """A pypdfium2 document of ``data``, held under the pdfium lock and closed after use.

    A PDF pdfium parses but finds no page in is refused as "has no pages" (NO_PAGE).
    """
    import pypdfium2 as pdfium

    with PDFIUM_LOCK:
        try:
            document = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as error:
            if PDFIUM_NO_PAGES in str(error) or is_pageless(data):
                raise ImageLoadError(f"{name} has no pages", LoadProblem.NO_PAGE) from error
            raise ImageLoadError(
                f"{name} is corrupt: not a readable PDF ({one_line(str(error))})",
                LoadProblem.DAMAGED,
            ) from error
        try:
            yield document
        finally:
            document.close()


def pdf_page_count(data: bytes, name: str) -> PageCount:
    """A PDF's page count and the pages pdfium cannot load (a page tree that lies)."""
    import pypdfium2 as pdfium

    with open_pdf(data, name) as document:
        pages = len(document)
        broken = []
        if pages <= MAX_PAGES:
            for index in range(pages):
                try:
                    document[index].close()
                except pdfium.PdfiumError:
                    broken.append(index + 1)
    if pages == 0 or len(broken) == pages:
        raise ImageLoadError(f"{name} has no pages", LoadProblem.NO_PAGE)
    return PageCount(pages, tuple(broken))


def extract_pdf_pages(data: bytes, pages: Iterable[int], name: str) -> list[bytes]:
    """One-page PDFs holding the given 1-based pages of a PDF document."""
    import pypdfium2 as pdfium

    out: list[bytes] = []
    with open_pdf(data, name) as document:
        for page in pages:
            _check_page(page, len(document), name)
            single = pdfium.PdfDocument.new()
            try:
                single.import_pages(document, [page - 1])
                buffer = io.BytesIO()
                single.save(buffer)
            except pdfium.PdfiumError as error:
                raise _unrenderable(name, page, error) from error
            finally:
                single.close()
            out.append(buffer.getvalue())
    return out


@dataclass(frozen=True)
class RenderedPage:
    """A rendered PDF page: BGR uint8 pixels and the resolution they were rendered at."""

    image: np.ndarray
    dpi: float


def render_pdf(
    data: bytes, page: int, dpi: float, name: str, *, max_pixels: int = DEFAULT_MAX_PIXELS
) -> RenderedPage:
    """One 1-based page of a PDF rendered at ``dpi``, or lower so it stays within
    ``max_pixels`` (a huge page is rendered smaller, never refused); says at what dpi.

    The page is rendered in BGR (never with a fourth byte per pixel) straight into the
    array returned, so its peak memory is that of the picture plus pdfium's own.
    """
    import pypdfium2 as pdfium

    if not dpi > 0:
        raise ValueError(f"dpi must be positive, got {dpi}")
    with open_pdf(data, name) as document:
        _check_page(page, len(document), name)
        try:
            pdf_page = document[page - 1]
            scale = render_scale(pdf_page.get_size(), dpi / POINTS_PER_INCH, max_pixels)
            bitmap = pdf_page.render(scale=scale, prefer_bgrx=False, maybe_alpha=False)
            image = _as_bgr(bitmap.to_numpy())
            bitmap.close()
        except pdfium.PdfiumError as error:
            raise _unrenderable(name, page, error) from error
    return RenderedPage(image, scale * POINTS_PER_INCH)


def render_scale(size_points: tuple[float, float], scale: float, max_pixels: int) -> float:
    """``scale`` (pixels per point), or less so a page of ``size_points`` renders to at
    most ``max_pixels`` pixels (each side rounded up, as a renderer may)."""
    width, height = (max(float(side), 1.0) for side in size_points)

    def pixels(at: float) -> int:
        return math.ceil(width * at) * math.ceil(height * at)

    if pixels(scale) <= max_pixels:
        return scale
    scale = math.sqrt(max_pixels / (width * height))
    while pixels(scale) > max_pixels:
        scale *= RENDER_SCALE_STEP
    return scale


def _check_page(page: int, pages: int, name: str) -> None:
    """Refuse a page number the document does not have (NO_PAGE)."""
    if not 1 <= page <= pages:
        raise ImageLoadError(f"{name} has no page {page} (it has {pages})", LoadProblem.NO_PAGE)


def _unrenderable(name: str, page: int, error: Exception) -> ImageLoadError:
    """The refusal of a PDF page pdfium cannot load or render (a damaged file)."""
    return ImageLoadError(
        f"{name} page {page} cannot be rendered: the PDF is damaged ({one_line(str(error))})",
        LoadProblem.DAMAGED,
    )


def _as_bgr(pixels: np.ndarray) -> np.ndarray:
    """A rendered bitmap (gray, BGR or BGRx) as BGR uint8.

    A packed BGR bitmap is taken as it is, never copied: its buffer is Python's own
    (``PdfBitmap.new_native``), kept alive by the array, so a page at the pixel limit
    costs its pixels once (150 MB at 50 megapixels), not twice.
    """
    if pixels.ndim == 2:
        return np.repeat(pixels[:, :, None], 3, axis=2)
    bgr = pixels[:, :, :3]
    return np.asarray(bgr, dtype=np.uint8) if bgr.flags.c_contiguous else np.ascontiguousarray(bgr)


def _page_ranges(pages: Iterable[int]) -> str:
    """1-based page numbers as ranges: "2-5", "2, 4, 7-9"."""
    runs: list[list[int]] = []
    for page in sorted(pages):
        if runs and page == runs[-1][1] + 1:
            runs[-1][1] = page
        else:
            runs.append([page, page])
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs)
