"""The worker side of a batch: read every grid of one page and draw its solved crop.

``process_unit`` is a plain function of (unit, payload bytes, options) returning a
``UnitOutcome``, so the same code runs in a local process pool and on Dask workers. Each
worker process builds the photo reader (and with it the onnxruntime session) once: the
local pool does it in its initializer, a Dask worker on its first unit.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import socket
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import SudokucamError
from ...limits import (
    BATCH_MAX_GRIDS_LIMIT,
    DEFAULT_DPI,
    DEFAULT_MAX_PIXELS,
    MAX_DPI,
    MAX_GRIDS_PER_PHOTO,
    MIN_DPI,
)
from ...solver.outcome import Outcome
from ..draw import crop_box
from ..load import check_room
from ..pages import open_page
from ..pipeline import PipelineConfig, Reader
from ..results import GridResult, PhotoResult
from .inputs import WorkUnit
from .store import GridOutput, UnitOutcome, unit_fields

IMAGE_FORMATS = {"png": ".png", "jpg": ".jpg"}


@dataclass(frozen=True)
class WorkOptions:
    """How pages are read and solved images written.

    dpi: resolution PDF pages are rendered at. max_pixels: the most pixels of a page: a
    larger photo is refused (as by ``load_image``), a larger PDF page rendered at a lower
    resolution. max_grids: most grids looked for on a page (as many as `solve` reads on a photo
    by default).
    margin_fraction: margin around a grid's bounding box in the solved image, as a
    fraction of the grid's larger side. image_format: "png" or "jpg".
    jpeg_quality / png_compression: encoder settings of the solved images.
    """

    dpi: float = DEFAULT_DPI
    max_pixels: int = DEFAULT_MAX_PIXELS
    max_grids: int = MAX_GRIDS_PER_PHOTO
    margin_fraction: float = 0.06
    image_format: str = "png"
    jpeg_quality: int = 92
    png_compression: int = 3

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if not MIN_DPI <= self.dpi <= MAX_DPI:
            raise ValueError(f"dpi must be between {MIN_DPI:g} and {MAX_DPI:g}, got {self.dpi}")
        if self.max_pixels < 1:
            raise ValueError(f"max_pixels must be positive, got {self.max_pixels}")
        if not 1 <= self.max_grids <= BATCH_MAX_GRIDS_LIMIT:
            raise ValueError(
                f"max_grids must be between 1 and {BATCH_MAX_GRIDS_LIMIT}, got {self.max_grids}"
            )
        if not 0 <= self.margin_fraction <= 1:
            raise ValueError(f"margin_fraction must be in [0, 1], got {self.margin_fraction}")
        if self.image_format not in IMAGE_FORMATS:
            raise ValueError(f"image_format must be one of {sorted(IMAGE_FORMATS)}")


class _WorkerState:
    """The readers of this worker process by max_grids, each built once.

    All of them share the process's one classifier (one onnxruntime session).
    """

    readers: dict[int, Reader] = {}  # noqa: RUF012 - per-process cache, filled once
    setup_error: SudokucamError | None = None


def init_worker(options: WorkOptions) -> None:
    """Pool initializer: Ctrl-C left to the main process, and the reader built up front.

    A reader that cannot be built (model missing, ...) is kept for ``worker_ready`` to
    report: an initializer that raises would only leave a broken pool, reason unknown.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent()
    try:
        worker_reader(options.max_grids)
    except SudokucamError as error:
        _WorkerState.setup_error = error


def exit_with_parent() -> None:
    """End this worker process as soon as the batch process that started it is gone.

    A batch killed with SIGKILL cannot stop its pool; without this its workers would
    wait for work forever, holding memory and the batch's terminal.
    """
    import multiprocessing
    import threading
    from multiprocessing.connection import wait

    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        """Wait for the parent's sentinel, then leave at once."""
        wait([parent.sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def worker_ready(options: WorkOptions) -> str:
    """This worker's host and process id once its reader is built; else its setup error."""
    if _WorkerState.setup_error is not None:
        raise _WorkerState.setup_error
    worker_reader(options.max_grids)
    return f"{socket.gethostname()}:{os.getpid()}"


def worker_reader(max_grids: int) -> Reader:
    """This process's reader for pages of up to ``max_grids`` grids, built on first use.

    Workers run side by side, one page each, so OpenCV keeps to one thread per worker.
    """
    reader = _WorkerState.readers.get(max_grids)
    if reader is None:
        import cv2

        cv2.setNumThreads(1)
        reader = Reader(config=PipelineConfig(max_grids=max_grids))
        _ = reader.classifier  # load the model (one onnxruntime session) now
        _WorkerState.readers[max_grids] = reader
    return reader


def process_unit(unit: WorkUnit, payload: bytes, options: WorkOptions) -> UnitOutcome:
    """Read one page: every grid with its record and solved image, or why it failed."""
    clock = _Clock()
    note = None
    try:
        image, note = page_image(unit, payload, options)
        clock.lap("load")
        photo = worker_reader(options.max_grids).read(image)
        clock.lap("read")
        grids = tuple(
            grid_output(unit, number, grid, image, options)
            for number, grid in enumerate(photo.grids, start=1)
        )
        clock.lap("draw")
    except SudokucamError as error:
        return UnitOutcome(
            unit, error=str(error), status=Outcome.ERROR, timings=clock.totals(), note=note
        )
    except Exception as error:  # one page breaking the reader must not stop the batch
        message = f"internal error reading {unit.label}: {type(error).__name__}: {error}"
        return UnitOutcome(
            unit,
            error=message,
            status=Outcome.ERROR,
            timings=clock.totals(),
            error_traceback=traceback.format_exc(),
            note=note,
        )
    timings = {**pipeline_timings(photo), **clock.totals()}
    stamped = tuple(_stamped(grid, timings, note) for grid in grids)
    return UnitOutcome(
        unit, grids=stamped, error=photo.error, status=photo.status, timings=timings, note=note
    )


def page_image(
    unit: WorkUnit, payload: bytes, options: WorkOptions
) -> tuple[np.ndarray, str | None]:
    """The page as a BGR image, and a note when it was not read as asked.

    An image file is decoded (its ``unit.page``-th page for a multi-page TIFF) and refused
    above ``options.max_pixels``; a PDF page (the payload is a one-page PDF) is rendered at
    ``options.dpi``, or lower when that would pass ``options.max_pixels``, which the note
    then says. A page that cannot hold a Sudoku grid (a 1×100000 strip) is refused by name.
    """
    name = Path(unit.source).name
    if unit.kind == "pdf":
        page = open_page(payload, f"{name} page {unit.page}", 1, dpi=options.dpi,
                         max_pixels=options.max_pixels)  # fmt: skip
    else:
        page = open_page(payload, name, unit.page, max_pixels=options.max_pixels)
    check_room(page.photo.size, unit.label)
    return page.photo.image, page.note


def grid_output(
    unit: WorkUnit, number: int, grid: GridResult, image: np.ndarray, options: WorkOptions
) -> GridOutput:
    """A grid's record and its solved image: the grid's region, answer drawn in."""
    x0, y0, x1, y1 = crop_box(grid.detection.corners, image.shape, options.margin_fraction)
    region = np.ascontiguousarray(image[y0:y1, x0:x1])
    drawn = shifted(grid, np.array([x0, y0], dtype=np.float64)).draw(region)
    suffix = IMAGE_FORMATS[options.image_format]
    record: dict[str, Any] = {**unit_fields(unit), "grid": number, **grid.to_dict(with_trace=False)}
    record["crop"] = [x0, y0, x1, y1]
    return GridOutput(record, encode_image(drawn, suffix, options), suffix)


def shifted(grid: GridResult, offset: np.ndarray) -> GridResult:
    """The same grid result with its geometry moved by ``-offset`` (for drawing on a crop)."""
    detection = grid.detection
    moved = dataclasses.replace(
        detection, corners=detection.corners - offset, lattice=detection.lattice - offset
    )
    return dataclasses.replace(grid, detection=moved)


def encode_image(image: np.ndarray, suffix: str, options: WorkOptions) -> bytes:
    """The image encoded as PNG or JPEG bytes."""
    import cv2

    if suffix == ".jpg":
        params = [cv2.IMWRITE_JPEG_QUALITY, options.jpeg_quality]
    else:
        params = [cv2.IMWRITE_PNG_COMPRESSION, options.png_compression]
    ok, encoded = cv2.imencode(suffix, image, params)
    if not ok:
        raise SudokucamError(f"could not encode the solved image as {suffix}")
    return encoded.tobytes()


def pipeline_timings(photo: PhotoResult) -> dict[str, float]:
    """The reader's own step times (seconds) as milliseconds, loading left out."""
    return {
        step: round(1000 * seconds, 2) for step, seconds in photo.timings.items() if step != "load"
    }


def _stamped(grid: GridOutput, timings: dict[str, float], note: str | None) -> GridOutput:
    """The grid with the unit's step timings (and note on how it was read) in its record."""
    extra: dict[str, Any] = {"timings_ms": timings}
    if note is not None:
        extra["note"] = note
    return dataclasses.replace(grid, record={**grid.record, **extra})


class _Clock:
    """Milliseconds spent in each named step, and in total."""

    def __init__(self) -> None:
        self.start = self.last = time.perf_counter()
        self.steps: dict[str, float] = {}

    def lap(self, step: str) -> None:
        """Close the step that just ended."""
        now = time.perf_counter()
        self.steps[step] = round(1000 * (now - self.last), 2)
        self.last = now

    def totals(self) -> dict[str, float]:
        """The step times so far plus the total."""
        total = round(1000 * (time.perf_counter() - self.start), 2)
        return {**self.steps, "total": total}
