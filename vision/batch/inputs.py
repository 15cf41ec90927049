"""What a batch reads: files and folders expanded into work units, one per image or PDF page.

A work unit is one page: an image file, or one page of a PDF. Its key is the source's
absolute path, size, modification time and page number, so a file that changes on disk is
read again and an unchanged one is not. The bytes a worker needs (the image file, or a
one-page PDF cut from the document) travel with the unit, so workers on other machines
need no access to the input files.
"""

from __future__ import annotations

import hashlib
import io
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import SudokucamError

IMAGE_SUFFIXES = frozenset(
    {".jpg", ".jpeg", ".jpe", ".jfif", ".png", ".webp", ".bmp", ".tif", ".tiff", ".heic", ".heif"}
)
PDF_SUFFIXES = frozenset({".pdf"})
MAGIC_BYTES_TO_READ = 16
POINTS_PER_INCH = 72.0

# pdfium is not thread-safe: every call into it, in any thread of a process, holds this lock.
PDFIUM_LOCK = threading.Lock()


class BatchInputError(SudokucamError):
    """An input that cannot be turned into pages (unreadable file, corrupt PDF, ...)."""


@dataclass(frozen=True)
class WorkUnit:
    """One page to read: an image file (page 1) or one page of a PDF.

    source: absolute path; size and mtime_ns: the file's size and modification time when
    the batch started; page: 1-based page number; pages: how many pages the source has;
    kind: "image" or "pdf".
    """

    source: str
    size: int
    mtime_ns: int
    page: int
    pages: int
    kind: str

    @property
    def key(self) -> tuple[str, int, int, int]:
        """What identifies this unit across runs: path, size, modification time, page."""
        return (self.source, self.size, self.mtime_ns, self.page)

    @property
    def file_key(self) -> tuple[str, int, int]:
        """What identifies the unit's file (every page of a PDF shares it): path, size, time."""
        return (self.source, self.size, self.mtime_ns)

    @property
    def uid(self) -> str:
        """A short stable name for the unit, safe to use in file names."""
        text = "\0".join(str(part) for part in self.key)
        return hashlib.sha1(text.encode("utf-8"), usedforsecurity=False).hexdigest()[:16]

    @property
    def label(self) -> str:
        """How the unit is named in messages: the file name, plus the page for PDF pages."""
        name = Path(self.source).name
        return f"{name} p{self.page}" if self.kind == "pdf" and self.page else name


@dataclass(frozen=True)
class Skipped:
    """A file found in a folder that is neither an image nor a PDF."""

    source: str
    reason: str


@dataclass(frozen=True)
class InputFailure:
    """An input that could not be split into pages; ``unit`` carries its key (page 0)."""

    unit: WorkUnit
    error: str


@dataclass(frozen=True)
class Inputs:
    """Everything a batch found: pages to read, inputs that failed, files passed over."""

    units: tuple[WorkUnit, ...]
    failures: tuple[InputFailure, ...]
    skipped: tuple[Skipped, ...]


def sniff_kind(path: Path) -> str | None:
    """ "image", "pdf" or None, from the suffix or else the first bytes of the file."""
    suffix = path.suffix.lower()
    if suffix in IMAGE_SUFFIXES:
        return "image"
    if suffix in PDF_SUFFIXES:
        return "pdf"
    try:
        with path.open("rb") as handle:
            head = handle.read(MAGIC_BYTES_TO_READ)
    except OSError:
        return None
    return _kind_from_magic(head)


def _kind_from_magic(head: bytes) -> str | None:
    """ "image", "pdf" or None from a file's first bytes."""
    if head.startswith(b"%PDF"):
        return "pdf"
    image_magics = (b"\xff\xd8\xff", b"\x89PNG", b"BM", b"II*\x00", b"MM\x00*")
    if head.startswith(image_magics):
        return "image"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image"
    if head[4:8] == b"ftyp" and head[8:12] in (b"heic", b"heix", b"mif1", b"msf1", b"heif"):
        return "image"
    return None


def expand(inputs: Sequence[Path]) -> tuple[list[tuple[Path, str]], list[Skipped]]:
    """Files to read (with their kind) and files passed over, folders walked recursively.

    Files named directly are always read (the loader says why one is no image); in
    folders, hidden entries are ignored and files that are neither image nor PDF are
    passed over. Every input must exist: a missing one raises FileNotFoundError.
    """
    files: list[tuple[Path, str]] = []
    skipped: list[Skipped] = []
    seen: set[Path] = set()
    for given in inputs:
        path = Path(given).expanduser().absolute()
        if not path.exists():
            raise FileNotFoundError(f"{given} does not exist")
        candidates = _walk(path) if path.is_dir() else iter([path])
        for file in candidates:
            if file in seen:
                continue
            seen.add(file)
            kind = sniff_kind(file)
            if kind is None and path.is_dir():
                skipped.append(Skipped(str(file), skip_reason(file)))
                continue
            files.append((file, kind or ("pdf" if file.suffix.lower() == ".pdf" else "image")))
    return files, skipped


def skip_reason(path: Path) -> str:
    """Why a file in a folder is passed over: it cannot be read, or is no image or PDF."""
    try:
        with path.open("rb") as handle:
            handle.read(1)
    except OSError as error:
        return f"cannot be read: {error.strerror or error}"
    return "neither an image nor a PDF"


def _walk(folder: Path) -> Iterator[Path]:
    """Every non-hidden file under ``folder``, in sorted order, recursively."""
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            yield from _walk(entry)
        elif entry.is_file():
            yield entry


def discover(inputs: Sequence[Path]) -> Inputs:
    """Expand the inputs into work units; PDFs are opened to count their pages."""
    files, skipped = expand(inputs)
    units: list[WorkUnit] = []
    failures: list[InputFailure] = []
    for path, kind in files:
        try:
            units.extend(units_of(path, kind))
        except BatchInputError as error:
            failures.append(InputFailure(_failed_unit(path, kind), str(error)))
    return Inputs(tuple(units), tuple(failures), tuple(skipped))


def units_of(path: Path, kind: str) -> list[WorkUnit]:
    """The work units of one file: one for an image, one per page of a PDF."""
    size, mtime_ns = _stat(path)
    pages = count_pdf_pages(_read(path), path.name) if kind == "pdf" else 1
    return [WorkUnit(str(path), size, mtime_ns, page, pages, kind) for page in range(1, pages + 1)]


def _read(path: Path) -> bytes:
    """The bytes of a file, or a BatchInputError."""
    try:
        return path.read_bytes()
    except OSError as error:
        raise BatchInputError(f"{path.name} cannot be read: {error.strerror or error}") from error


def _stat(path: Path) -> tuple[int, int]:
    """Size and modification time of a file, or a BatchInputError."""
    try:
        info = path.stat()
    except OSError as error:
        raise BatchInputError(f"{path.name} cannot be read: {error.strerror or error}") from error
    return info.st_size, info.st_mtime_ns


def _failed_unit(path: Path, kind: str) -> WorkUnit:
    """A page-0 unit standing for a whole input that failed before being split."""
    try:
        size, mtime_ns = _stat(path)
    except BatchInputError:
        size, mtime_ns = -1, -1
    return WorkUnit(str(path), size, mtime_ns, 0, 0, kind)


@contextmanager
def open_pdf(data: bytes, name: str) -> Iterator[Any]:
    """A pypdfium2 document of ``data``, held under the pdfium lock and closed after use."""
    import pypdfium2 as pdfium

    with PDFIUM_LOCK:
        try:
            document = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as error:
            raise BatchInputError(f"{name} is not a readable PDF ({error})") from error
        try:
            yield document
        finally:
            document.close()


def count_pdf_pages(data: bytes, name: str) -> int:
    """How many pages a PDF has, or a BatchInputError when it cannot be opened."""
    with open_pdf(data, name) as document:
        pages = len(document)
    if pages == 0:
        raise BatchInputError(f"{name} is a PDF without pages")
    return pages


class PayloadReader:
    """Reads the bytes a worker needs for a unit; keeps the last file read for its next page."""

    def __init__(self) -> None:
        self._key: tuple[str, int, int] | None = None
        self._data = b""

    def __call__(self, unit: WorkUnit) -> bytes:
        """The image file, or the unit's page as a one-page PDF (render its page 1)."""
        data = self._file_bytes(unit)
        if unit.kind != "pdf" or unit.pages == 1:
            return data
        return extract_pdf_pages(data, [unit.page], Path(unit.source).name)[0]

    def _file_bytes(self, unit: WorkUnit) -> bytes:
        """The source file's bytes, read once for all the pages of a PDF."""
        key = (unit.source, unit.size, unit.mtime_ns)
        if key != self._key:
            path = Path(unit.source)
            self._data = _read(path)
            if len(self._data) != unit.size:
                raise BatchInputError(f"{path.name} changed on disk while the batch ran")
            self._key = key
        return self._data


def extract_pdf_pages(data: bytes, pages: Iterable[int], name: str) -> list[bytes]:
    """One-page PDFs holding the given 1-based pages of a PDF document."""
    import pypdfium2 as pdfium

    out: list[bytes] = []
    with open_pdf(data, name) as document:
        for page in pages:
            single = pdfium.PdfDocument.new()
            single.import_pages(document, [page - 1])
            buffer = io.BytesIO()
            single.save(buffer)
            single.close()
            out.append(buffer.getvalue())
    return out


def render_pdf_page(data: bytes, page: int, dpi: float, name: str) -> np.ndarray:
    """A BGR uint8 image of one 1-based page of a PDF, rendered at ``dpi``."""
    import pypdfium2 as pdfium

    if not dpi > 0:
        raise ValueError(f"dpi must be positive, got {dpi}")
    with open_pdf(data, name) as document:
        if not 1 <= page <= len(document):
            raise BatchInputError(f"{name} has no page {page}")
        try:
            bitmap = document[page - 1].render(scale=dpi / POINTS_PER_INCH)
            pixels = np.array(bitmap.to_numpy(), copy=True)
        except pdfium.PdfiumError as error:
            raise BatchInputError(f"{name} page {page} cannot be rendered ({error})") from error
    return _as_bgr(pixels)


def _as_bgr(pixels: np.ndarray) -> np.ndarray:
    """A rendered bitmap (gray, BGR or BGRx) as contiguous BGR uint8."""
    if pixels.ndim == 2:
        return np.ascontiguousarray(np.repeat(pixels[:, :, None], 3, axis=2))
    return np.ascontiguousarray(pixels[:, :, :3])
