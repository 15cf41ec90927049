"""Many uploads at once, through the batch processor's per-page function.

Each uploaded image is one page, and each page of a PDF or a multi-page TIFF another;
every page goes through ``vision.batch.work.process_unit``, the same function `sudokucam
batch` runs (so a photo over the pixel limit is refused from its header and a huge PDF
page is rendered under it), one page per turn of the server's photo-reading line, and
the solved images and a results table are packed into one ZIP. A file with more pages
than `BatchLimits` allows, or that breaks while being split into pages (a PDF whose
page count lies), is one error row; the other uploads are read all the same.
"""

from __future__ import annotations

import io
import logging
import zipfile
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ....vision.batch.inputs import (
    TIFF_MAGICS,
    TIFF_SUFFIXES,
    BatchInputError,
    WorkUnit,
    count_pdf_pages,
    extract_pdf_pages,
    tiff_pages,
)
from ....vision.batch.store import UnitOutcome, csv_bytes, image_name, page_row, source_stems
from ....vision.batch.work import WorkOptions, process_unit
from ..widgets.photo_input import PhotoInput

Record = dict[str, Any]
Turn = Callable[[], AbstractContextManager[None]]
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BatchLimits:
    """How much one batch of uploads may ask of the server.

    pages_per_file: a PDF or TIFF with more pages is refused (one error row).
    pages_per_batch: pages read in one batch; the files past it are refused.
    """

    pages_per_file: int = 100
    pages_per_batch: int = 200

    def __post_init__(self) -> None:
        """Check the limits make sense."""
        if min(self.pages_per_file, self.pages_per_batch) < 1:
            raise ValueError("pages_per_file and pages_per_batch must be at least 1")


@dataclass(frozen=True)
class BatchResult:
    """What a batch of uploads gave: one row per grid or failed page, and the ZIP."""

    rows: tuple[Record, ...]
    zip_data: bytes

    @property
    def solved(self) -> int:
        """How many grids were solved."""
        return sum(1 for r in self.rows if r.get("status") in ("solved", "complete"))


def page_count(upload: PhotoInput) -> int:
    """How many pages an upload has: a PDF's or a TIFF's pages, 1 for a photo."""
    suffix = Path(upload.name).suffix.lower()
    if suffix == ".pdf":
        return count_pdf_pages(upload.data, upload.name)
    if suffix in TIFF_SUFFIXES or upload.data.startswith(TIFF_MAGICS):
        return tiff_pages(upload.data)
    return 1


def page_unit(upload: PhotoInput, page: int, count: int) -> tuple[WorkUnit, bytes]:
    """The work unit of one page of an upload and the bytes it needs (a one-page PDF for
    a PDF's page; the whole file for a photo or a TIFF's page)."""
    if Path(upload.name).suffix.lower() != ".pdf":
        return WorkUnit(upload.name, len(upload.data), 0, page, count, "image"), upload.data
    unit = WorkUnit(upload.name, len(upload.data), 0, page, count, "pdf")
    if count == 1:
        return unit, upload.data
    try:
        return unit, extract_pdf_pages(upload.data, [page], upload.name)[0]
    except BatchInputError:
        raise
    except Exception as exc:  # pdfium's own errors: a damaged file, a page count that lies
        raise BatchInputError(
            f"{upload.name} is damaged: page {page} of the {count} it lists cannot be read "
            f"({type(exc).__name__}: {exc})"
        ) from exc


def failed_upload(upload: PhotoInput, error: str) -> UnitOutcome:
    """The outcome of an upload that could not be split into pages, or read past its limit."""
    unit = WorkUnit(upload.name, len(upload.data), 0, 0, 0, "pdf")
    return UnitOutcome(unit, error=error, status="error")


def pages_allowed(upload: PhotoInput, limits: BatchLimits, left: int) -> int:
    """The upload's page count, or a BatchInputError naming the file and the limit it is
    over (`left`: pages this batch may still read)."""
    count = page_count(upload)
    if count > limits.pages_per_file:
        raise BatchInputError(
            f"{upload.name} has {count} pages; the app reads at most {limits.pages_per_file} "
            "pages of a file (split it, or use `sudokucam batch`)"
        )
    if count > left:
        raise BatchInputError(
            f"{upload.name} was not read: the app reads at most {limits.pages_per_batch} "
            "pages at once (solve the rest in another batch)"
        )
    return count


def _split_error(upload: PhotoInput, error: Exception) -> str:
    """The one line an upload that broke while being split into pages gets."""
    if isinstance(error, BatchInputError):
        return str(error)
    log.warning("%s could not be split into pages", upload.name, exc_info=error)
    return f"{upload.name} could not be read as a whole ({type(error).__name__}: {error})"


def run_batch(
    uploads: Sequence[PhotoInput],
    options: WorkOptions,
    progress: Callable[[float, str], None] | None = None,
    turn: Turn = nullcontext,
    limits: BatchLimits | None = None,
) -> BatchResult:
    """Read every page of every upload, each page within `turn()` (the server's line);
    progress(share done, label) is called after each page or failed file."""
    limits = limits or BatchLimits()
    outcomes: list[UnitOutcome] = []
    left = limits.pages_per_batch
    tell = progress or (lambda _share, _label: None)
    for number, upload in enumerate(uploads):
        try:
            count = pages_allowed(upload, limits, left)
        except Exception as exc:  # one bad file is one row; the other uploads go on
            outcomes.append(failed_upload(upload, _split_error(upload, exc)))
            tell((number + 1) / len(uploads), upload.name)
            continue
        left -= count
        for page in range(1, count + 1):
            try:
                unit, data = page_unit(upload, page, count)
            except Exception as exc:  # a page that cannot be split out: the file's row
                outcomes.append(failed_upload(upload, _split_error(upload, exc)))
                break
            with turn():  # its errors (no turn came, the session left) end the batch
                outcomes.append(process_unit(unit, data, options))
            tell((number + page / count) / len(uploads), unit.label)
        tell((number + 1) / len(uploads), upload.name)
    return pack(outcomes)


def pack(outcomes: Sequence[UnitOutcome]) -> BatchResult:
    """The rows of all outcomes and a ZIP of solved images plus results.csv.

    Images are named as `sudokucam batch` names them (demo_p1_g1.png, uploads with the
    same stem told apart by -2, -3, ...).
    """
    rows: list[Record] = []
    stems = source_stems(outcome.unit.file_key for outcome in outcomes)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for outcome in outcomes:
            if not outcome.grids:
                rows.append(page_row(outcome))
                continue
            for number, grid in enumerate(outcome.grids, start=1):
                name = image_name(outcome.unit, number, grid.suffix, stems[outcome.unit.file_key])
                archive.writestr(f"solved/{name}", grid.image)
                rows.append({**grid.record, "image": f"solved/{name}"})
        archive.writestr("results.csv", csv_bytes(rows))
    return BatchResult(tuple(rows), buffer.getvalue())
