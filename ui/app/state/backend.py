"""The app's link to the pipeline and the solver: what one server shares between sessions.

One photo reader, one pool of search workers (`pool.py`: every search runs there, time
limited, so one long search never slows another person's page), and a few turns to read
photos (`turns.py`, `APP_CONFIG.photo_reads_at_once`: a photo decodes to up to
`APP_CONFIG.max_pixels` × 3 bytes and its reading needs several times that, so reads
wait in line instead of piling up in memory; a turn comes back however the session's
script ends, a closed tab included). Results are kept per session.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import streamlit as st

from ....solver import Grid, Outcome, SearchTimeoutError, SolveResult, solve_grid
from ....solver.geometry import shape_for_size
from ....vision.draw import CheckMarks, crop_box, draw_check_marks, draw_outline
from ....vision.load import ImageLoadError
from ....vision.pages import PageCount, is_pdf, is_tiff, open_page, page_count
from ....vision.results import PhotoResult
from ....vision.small.read import solve_small
from ....vision.types import digits_of
from ..widgets.photo_input import PhotoInput
from .pool import PoolConfig, SearchPool
from .settings import APP_CONFIG
from .turns import ReadTurns, TurnConfig

if TYPE_CHECKING:
    from ....vision.pipeline import Reader
    from ....vision.results import GridResult

OUTLINE_COLOR = (60, 180, 30)  # BGR green
T = TypeVar("T")


@st.cache_resource(show_spinner="Loading the digit reader…")
def shared_reader() -> Reader:
    """The photo reader with the shipped model, built once per server; it reads every grid,
    small ones (4×4, 6×6, 8×8) and 16×16s included: the board draws them all."""
    from ....vision.pipeline import EVERY_GRID_CONFIG, Reader

    return Reader(config=EVERY_GRID_CONFIG)


@st.cache_resource(show_spinner=False)
def search_pool() -> SearchPool:
    """The worker processes every session's searches run in, started once per server."""
    return SearchPool(PoolConfig(workers=APP_CONFIG.search_workers))


@st.cache_resource(show_spinner=False)
def read_turns() -> ReadTurns:
    """The turns to read a photo, shared by every session of the server."""
    return ReadTurns(TurnConfig(turns=APP_CONFIG.photo_reads_at_once), alive=session_connected)


def session_connected(session_id: str) -> bool:
    """True while the session's browser is connected (always, outside a server)."""
    from streamlit.runtime import Runtime

    if not Runtime.exists():
        return True
    return Runtime.instance().is_active_session(session_id)


def session_id() -> str:
    """This script run's session, or its thread when run outside Streamlit."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    return ctx.session_id if ctx is not None else f"thread-{threading.get_ident()}"


def run_search(job: Callable[..., T], *args: Any, limit_s: float | None = None) -> T:
    """job(*args) in the server's search pool; SearchTimeoutError past the limit.

    limit_s: seconds before the pool gives up on the job (default the app's search
    limit); give the job the same limit so that it stops by itself.
    """
    limit = APP_CONFIG.search_time_limit_s if limit_s is None else limit_s
    return search_pool().run(job, *args, limit_s=limit)


def solve_values(values: Sequence[int]) -> SolveResult:
    """Solve 81 values in the search pool within the app's time limit (TIMEOUT status after)."""
    limit = APP_CONFIG.search_time_limit_s
    try:
        return run_search(solve_grid, Grid.from_values(list(values)), limit)
    except SearchTimeoutError:
        return SolveResult(Grid.from_values(list(values)), Outcome.TIMEOUT, time_limit=limit)


def solve_sized(values: Sequence[int], size: int) -> SolveResult | None:
    """Solve a size×size classic grid's values in the search pool within the app's time
    limit (TIMEOUT status after; None: values no puzzle of that size can hold)."""
    if size == 9:
        return solve_values(values)
    limit = APP_CONFIG.search_time_limit_s
    try:
        return run_search(solve_small, tuple(values), size, limit)
    except SearchTimeoutError:
        grid = Grid(shape_for_size(size), tuple(values))
        return SolveResult(grid, Outcome.TIMEOUT, time_limit=limit)


@contextmanager
def read_turn() -> Iterator[None]:
    """Hold one of the server's turns to read a photo, waiting in line if none is free.

    While it waits, the page says how many photos are ahead; each update is also where
    Streamlit stops a closed tab's script (the turn or the place in line is given back).
    """
    notice = st.empty()

    def waiting(ahead: int) -> None:
        notice.info(f"Other photos are being read: {_ahead_text(ahead)}…", icon="⏳")

    with read_turns().turn(session_id(), waiting):
        notice.empty()
        yield


def _ahead_text(ahead: int) -> str:
    """'1 photo ahead of yours', '3 photos ahead of yours'."""
    return f"{ahead} photo{'s' if ahead != 1 else ''} ahead of yours"


def count_pages(photo: PhotoInput, prefix: str) -> PageCount:
    """How many pages an upload holds: a PDF's or a multi-page TIFF's, 1 for a photo.

    A PDF or TIFF is counted once per file, in one of the server's turns; one of more than
    `APP_CONFIG.max_pages_per_file` pages, without pages or damaged is refused with an
    ImageLoadError (kept, so that it is said again without counting again).
    """
    if not (is_pdf(photo.data) or is_tiff(photo.data)):
        return PageCount(1)
    key = f"{prefix}_pages"
    kept = st.session_state.get(key)
    if kept is None or kept[0] != photo.digest:
        with read_turn():
            try:
                pages = page_count(photo.data, photo.name, max_pages=APP_CONFIG.max_pages_per_file)
                kept = (photo.digest, pages)
            except ImageLoadError as exc:
                kept = (photo.digest, exc)
        st.session_state[key] = kept
    if isinstance(kept[1], ImageLoadError):
        raise kept[1]
    counted: PageCount = kept[1]
    return counted


def read_photo(photo: PhotoInput, prefix: str) -> PhotoResult:
    """Read and solve a photo (the chosen page of a PDF or TIFF), reusing the result while
    the same photo and page stay on the page.

    The photo is refused above `APP_CONFIG.max_pixels` (from its header, before decoding;
    a PDF page is rendered at `APP_CONFIG.pdf_dpi`, or lower to stay under it, which
    `page_note` says), and decoded and read only in one of the server's turns
    (`read_turn`).
    """
    key = f"{prefix}_result"
    kept = st.session_state.get(key)
    if kept is not None and kept[0] == photo.digest:
        return kept[1]
    st.session_state.pop(key, None)  # the last photo's image goes before this one decodes
    note = None
    with read_turn():
        try:
            opened = open_page(photo.data, photo.name, photo.page, dpi=APP_CONFIG.pdf_dpi,
                               max_pixels=APP_CONFIG.max_pixels)  # fmt: skip
            image, note = opened.photo.image, opened.note
        except ImageLoadError as exc:
            result = PhotoResult(photo.label, None, (), str(exc))
        else:
            with st.spinner("Reading the photo…"):
                result = shared_reader().read(image, name=photo.label)
    st.session_state[key] = (photo.digest, result, note)
    return result


def page_note(prefix: str) -> str | None:
    """How the last page read was not read as asked (a huge PDF page rendered at a lower
    resolution), or None."""
    kept = st.session_state.get(f"{prefix}_result")
    return None if kept is None or len(kept) < 3 else kept[2]


def unsure_cells(grid: GridResult) -> list[int]:
    """Cells read with too little confidence to trust without a look."""
    confidence = np.asarray(grid.confidence)
    return [int(c) for c in np.flatnonzero(confidence < APP_CONFIG.unsure_below)]


def outlined(image: np.ndarray, grid: GridResult) -> np.ndarray:
    """The photo with the grid found outlined and the unsure cells ringed."""
    side = max(image.shape[:2])
    thickness = max(2, round(side / 1000 * APP_CONFIG.outline_px_per_1000))
    out = draw_outline(image, grid.detection.corners, OUTLINE_COLOR, thickness)
    unsure = CheckMarks(unsure=tuple(unsure_cells(grid)))
    return draw_check_marks(out, grid.detection.lattice, unsure)


def resolve(
    grid: GridResult, givens: list[int], handwritten: list[int] | None = None
) -> GridResult:
    """The grid solved again with the digits the person corrected (pen entries optional;
    a grid of any size, its values 1-16 as numbers).

    The corrected givens are solved first in the search pool, within the app's time
    limit (SearchTimeoutError past it), so that the reader's own solve, here, is quick.
    """
    line = digits_of(givens)
    hand = None if handwritten is None else digits_of(handwritten)
    if line == grid.givens and hand in (None, grid.handwritten):
        return grid
    checked = solve_sized(givens, grid.structure.size)
    if checked is not None and checked.status is Outcome.TIMEOUT:
        raise SearchTimeoutError(checked.time_limit)
    return shared_reader().resolve(grid, line, hand)


def grid_region(image: np.ndarray, grid: GridResult) -> np.ndarray:
    """The part of the photo around the grid, so the digits show large on a phone."""
    x0, y0, x1, y1 = crop_box(grid.detection.corners, image.shape, APP_CONFIG.grid_margin_fraction)
    return image[y0:y1, x0:x1]
