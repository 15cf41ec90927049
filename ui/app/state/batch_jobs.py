"""Many uploads at once, through the batch processor's per-page function.

Each uploaded image is one page, and each page of a PDF or a multi-page TIFF another;
every page goes through ``vision.batch.work.process_unit``, the same function `sudokucam
batch` runs (so a huge PDF page is rendered under the pixel limit there too), and the
solved images and a results table are packed into one ZIP.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Iterator, Sequence
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


@dataclass(frozen=True)
class BatchResult:
    """What a batch of uploads gave: one row per grid or failed page, and the ZIP."""

    rows: tuple[Record, ...]
    zip_data: bytes

    @property
    def solved(self) -> int:
        """How many grids were solved."""
        return sum(1 for r in self.rows if r.get("status") in ("solved", "complete"))


def pages_of(upload: PhotoInput) -> Iterator[tuple[WorkUnit, bytes]]:
    """The work units of one upload with the bytes each needs (a one-page PDF per page;
    the whole file for each page of a TIFF)."""
    if Path(upload.name).suffix.lower() != ".pdf":
        tiff = Path(upload.name).suffix.lower() in TIFF_SUFFIXES
        count = tiff_pages(upload.data) if tiff or upload.data.startswith(TIFF_MAGICS) else 1
        for page in range(1, count + 1):
            yield WorkUnit(upload.name, len(upload.data), 0, page, count, "image"), upload.data
        return
    count = count_pdf_pages(upload.data, upload.name)
    for page, data in enumerate(extract_pdf_pages(upload.data, range(1, count + 1), upload.name)):
        yield WorkUnit(upload.name, len(upload.data), 0, page + 1, count, "pdf"), data


def failed_upload(upload: PhotoInput, error: str) -> UnitOutcome:
    """The outcome of an upload that could not even be split into pages."""
    unit = WorkUnit(upload.name, len(upload.data), 0, 0, 0, "pdf")
    return UnitOutcome(unit, error=error, status="error")


def run_batch(
    uploads: Sequence[PhotoInput],
    options: WorkOptions,
    progress: Callable[[int, str], None] | None = None,
) -> BatchResult:
    """Read every page of every upload; progress(done, label) is called after each."""
    outcomes: list[UnitOutcome] = []
    for upload in uploads:
        try:
            pages = list(pages_of(upload))
        except BatchInputError as exc:
            outcomes.append(failed_upload(upload, str(exc)))
            continue
        for unit, data in pages:
            outcomes.append(process_unit(unit, data, options))
            if progress is not None:
                progress(len(outcomes), unit.label)
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
