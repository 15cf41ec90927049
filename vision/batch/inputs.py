"""What a batch reads: files and folders expanded into work units, one per image or PDF page.

A work unit is one page: an image file, one page of a multi-page TIFF, or one page of a
PDF. Its key is the source's absolute path, size, modification time and page number, so a
file that changes on disk is read again and an unchanged one is not. The bytes a worker
needs (the image file, or a one-page PDF cut from the document) travel with the unit, so
workers on other machines need no access to the input files.

Every real file is read once: folders are walked following symbolic links, but a link
back to a folder that contains it (a loop) and a link to nothing are passed over with
their reason, a folder reached twice is walked once, and a file reached twice (named
twice, through ``..``, through a link, or as a hard link) is read once, by the first path
it was found under.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...limits import DEFAULT_MAX_PIXELS, MAX_FILE_BYTES, MAX_PAGES, MAX_PDF_BYTES
from ..load import ImageLoadError, LoadProblem
from ..pages import (
    PDFIUM_LOCK,
    TIFF_MAGICS,
    PageCount,
    RenderedPage,
    extract_pdf_pages,
    open_pdf,
    pdf_page_count,
    render_pdf,
    render_scale,
    tiff_pages,
)

IMAGE_SUFFIXES = frozenset(
    {".jpg", ".jpeg", ".jpe", ".jfif", ".png", ".webp", ".bmp", ".tif", ".tiff", ".heic", ".heif"}
)
PDF_SUFFIXES = frozenset({".pdf"})
TIFF_SUFFIXES = frozenset({".tif", ".tiff"})
MAGIC_BYTES_TO_READ = 16
NOT_REGULAR = "not a regular file (a device, pipe or socket)"
OUTPUT_FOLDER = "the batch's own output folder (--out): its pictures are not inputs"
# An input that cannot be turned into pages (unreadable file, corrupt PDF, ...): the
# loader's own error, with its LoadProblem, whichever module found the problem.
BatchInputError = ImageLoadError
__all__ = [
    "PDFIUM_LOCK",
    "TIFF_MAGICS",
    "BatchInputError",
    "PageCount",
    "RenderedPage",
    "extract_pdf_pages",
    "open_pdf",
    "render_pdf",
    "render_scale",
    "tiff_pages",
]


@dataclass(frozen=True)
class WorkUnit:
    """One page to read: an image file (page 1), one page of a multi-page TIFF, or of a PDF.

    source: absolute path; size and mtime_ns: the file's size and modification time when
    the batch started; page: 1-based page number; pages: how many pages the source has;
    kind: "image" (TIFF pages too) or "pdf".
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
        """How the unit is named in messages: the file name, plus the page for PDF pages
        and pages of multi-page TIFFs."""
        name = Path(self.source).name
        paged = self.kind == "pdf" or self.pages > 1
        return f"{name} p{self.page}" if paged and self.page else name


@dataclass(frozen=True)
class Skipped:
    """An entry of a folder passed over: neither an image nor a PDF, unreadable, a symlink
    loop or a dangling link; ``reason`` says which."""

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


def expand(
    inputs: Sequence[Path], exclude: Sequence[Path] = ()
) -> tuple[list[tuple[Path, str]], list[Skipped]]:
    """Files to read (with their kind) and entries passed over, folders walked recursively.

    Files named directly are always read (the loader says why one is no image); in
    folders, hidden entries are ignored and files that are neither image nor PDF, symlink
    loops, dangling links and the ``exclude`` folders (the batch's output) are passed over.
    Each real file is listed once. Every input must exist: a missing one raises
    FileNotFoundError.
    """
    walk = _Walk(exclude)
    for given in inputs:
        path = given_path(Path(given))
        if not path.exists():
            problem = link_problem(path)
            raise FileNotFoundError(
                f"{given} does not exist" + (f" ({problem})" if problem else "")
            )
        if path.is_dir():
            walk.folder(path)
        else:
            walk.file(path, named=True)
    return walk.files, walk.skipped


def given_path(path: Path) -> Path:
    """An input as an absolute path: its folder resolved (``..`` and folder links followed),
    its own name kept, so a link named on the command line keeps its name."""
    path = path.expanduser().absolute()
    if path.name in ("", ".", ".."):
        return path.resolve()
    return path.parent.resolve() / path.name


class _Walk:
    """What expanding the inputs has found so far, and which real files and folders it saw."""

    def __init__(self, exclude: Sequence[Path] = ()) -> None:
        self.excluded = {Path(folder).resolve() for folder in exclude}
        self.files: list[tuple[Path, str]] = []
        self.skipped: list[Skipped] = []
        self.seen_files: set[tuple[int, int]] = set()  # (device, inode): one real file
        self.seen_folders: set[Path] = set()  # resolved paths

    def folder(self, folder: Path) -> None:
        """Walk a folder once, in sorted order, recursively, following links that lead out."""
        real = folder.resolve()
        if real in self.seen_folders:
            return
        if real in self.excluded:
            self.skipped.append(Skipped(str(folder), OUTPUT_FOLDER))
            return
        self.seen_folders.add(real)
        try:
            entries = sorted(folder.iterdir())
        except OSError as error:
            self.skipped.append(Skipped(str(folder), _cannot_read(error)))
            return
        for entry in entries:
            if not entry.name.startswith("."):
                self._entry(entry, real)

    def _entry(self, entry: Path, folder_real: Path) -> None:
        """One non-hidden entry of a folder whose resolved path is ``folder_real``."""
        problem = link_problem(entry, folder_real)
        if problem is not None:
            self.skipped.append(Skipped(str(entry), problem))
        elif entry.is_dir():
            self.folder(entry)
        elif entry.is_file():
            self.file(entry, named=False)
        else:
            self.skipped.append(Skipped(str(entry), NOT_REGULAR))

    def file(self, path: Path, *, named: bool) -> None:
        """List a file unless its real file is listed already; in folders, only images and PDFs."""
        try:
            info = path.stat()
        except OSError:
            info = None  # listed: reading it will say why it fails
        if info is not None:
            if not stat.S_ISREG(info.st_mode):  # never opened: a pipe would block, a device
                self.skipped.append(Skipped(str(path), NOT_REGULAR))  # never end
                return
            identity = (info.st_dev, info.st_ino)
            if identity in self.seen_files:
                return
            self.seen_files.add(identity)
        kind = sniff_kind(path)
        if kind is None and not named:
            self.skipped.append(Skipped(str(path), skip_reason(path)))
            return
        self.files.append((path, kind or ("pdf" if path.suffix.lower() == ".pdf" else "image")))


def link_problem(path: Path, folder_real: Path | None = None) -> str | None:
    """Why a symbolic link cannot be followed ("symlink loop ...", "dangling link ..."), or None.

    A link to a folder that contains ``folder_real`` (the resolved folder the link is in)
    is a loop: following it would walk the same files again and again.
    """
    if not path.is_symlink():
        return None
    try:
        target = path.resolve(strict=True)
    except FileNotFoundError:
        return f"dangling link: it points to {os.readlink(path)}, which does not exist"
    except (RuntimeError, OSError):  # Python < 3.13 raises RuntimeError on a loop
        return "symlink loop: the link leads back to itself"
    contains_link = folder_real is not None and (
        target == folder_real or target in folder_real.parents
    )
    if contains_link and target.is_dir():
        return f"symlink loop: it points to {target}, a folder that contains it"
    return None


def skip_reason(path: Path) -> str:
    """Why a file in a folder is passed over: it cannot be read, or is no image or PDF."""
    try:
        with path.open("rb") as handle:
            handle.read(1)
    except OSError as error:
        return _cannot_read(error)
    return "neither an image nor a PDF"


def _cannot_read(error: OSError) -> str:
    """The reason of an entry that the system refuses to read."""
    return f"cannot be read: {error.strerror or error}"


def discover(inputs: Sequence[Path], exclude: Sequence[Path] = ()) -> Inputs:
    """Expand the inputs into work units, passing over the ``exclude`` folders; PDFs are
    opened to count their pages. A PDF some of whose pages cannot be loaded gives units
    for the others and one failure naming the damaged pages."""
    files, skipped = expand(inputs, exclude)
    units: list[WorkUnit] = []
    failures: list[InputFailure] = []
    for path, kind in files:
        try:
            found, damaged = units_of(path, kind)
        except ImageLoadError as error:
            failures.append(InputFailure(_failed_unit(path, kind), str(error)))
            continue
        units.extend(found)
        if damaged is not None:
            failures.append(InputFailure(_failed_unit(path, kind), damaged))
    return Inputs(tuple(units), tuple(failures), tuple(skipped))


def units_of(path: Path, kind: str) -> tuple[list[WorkUnit], str | None]:
    """The work units of one file (one for an image, one per page of a TIFF or a PDF),
    and a line naming the pages of a PDF that cannot be loaded (None when all can)."""
    size, mtime_ns = _stat(path)
    if kind == "pdf":
        _check_size(path.name, size, MAX_PDF_BYTES, "PDF", "split it into smaller PDFs")
        counted = pdf_page_count(_read(path), path.name)
    else:
        _check_size(path.name, size, MAX_FILE_BYTES, "photo", "use a smaller photo")
        counted = PageCount(tiff_pages(path) if is_tiff(path) else 1)
    if counted.pages > MAX_PAGES:
        raise BatchInputError(
            f"{path.name} has {counted.pages} pages (limit {MAX_PAGES}); "
            "split it into smaller files",
            LoadProblem.TOO_LARGE,
        )
    units = [
        WorkUnit(str(path), size, mtime_ns, page, counted.pages, kind) for page in counted.readable
    ]
    return units, counted.broken_message(path.name)


def _check_size(name: str, size: int, limit: int, what: str, advice: str) -> None:
    """A BatchInputError when a file of ``size`` bytes is over ``limit``."""
    if size > limit:
        raise BatchInputError(
            f"{name} is too large for a {what}: {size / 2**20:.0f} MB "
            f"(limit {limit / 2**20:.0f} MB); {advice}",
            LoadProblem.TOO_LARGE,
        )


def is_tiff(path: Path) -> bool:
    """Whether a file is a TIFF, by its suffix or its first bytes."""
    if path.suffix.lower() in TIFF_SUFFIXES:
        return True
    try:
        with path.open("rb") as handle:
            return handle.read(MAGIC_BYTES_TO_READ).startswith(TIFF_MAGICS)
    except OSError:
        return False


def _read(path: Path) -> bytes:
    """The bytes of a file, or a BatchInputError."""
    try:
        return path.read_bytes()
    except OSError as error:
        raise BatchInputError(
            f"{path.name} cannot be read: {error.strerror or error}", LoadProblem.UNREADABLE
        ) from error


def _stat(path: Path) -> tuple[int, int]:
    """Size and modification time of a file, or a BatchInputError."""
    try:
        info = path.stat()
    except OSError as error:
        raise BatchInputError(
            f"{path.name} cannot be read: {error.strerror or error}", LoadProblem.UNREADABLE
        ) from error
    return info.st_size, info.st_mtime_ns


def _failed_unit(path: Path, kind: str) -> WorkUnit:
    """A page-0 unit standing for a whole input that failed before being split."""
    try:
        size, mtime_ns = _stat(path)
    except BatchInputError:
        size, mtime_ns = -1, -1
    return WorkUnit(str(path), size, mtime_ns, 0, 0, kind)


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
                raise BatchInputError(
                    f"{path.name} changed on disk while the batch ran", LoadProblem.DAMAGED
                )
            self._key = key
        return self._data


def count_pdf_pages(data: bytes, name: str) -> int:
    """How many pages a PDF lists, or an ImageLoadError when it cannot be opened or has none."""
    return pdf_page_count(data, name).pages


def render_pdf_page(
    data: bytes, page: int, dpi: float, name: str, *, max_pixels: int = DEFAULT_MAX_PIXELS
) -> np.ndarray:
    """A BGR uint8 image of one 1-based page of a PDF, rendered at ``dpi`` or, for a page
    too large for that, at the highest resolution that stays within ``max_pixels``."""
    return render_pdf(data, page, dpi, name, max_pixels=max_pixels).image
