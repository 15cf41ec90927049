"""Read again, at its own contrast, a cell whose faint ink is as dark as the page's writing.

A cell's ink is measured against the grid's darkest ink (the print), so pencil so faint
that it is nearly invisible comes out as a tenth of a printed digit's ink and is read as
empty, or as a digit too unsure to outweigh "empty" once the answer is known (the pen
step, ``pen.is_phantom``). Where the person's other entries on the page are just as faint,
such a cell is one of them: it is stretched to an entry's contrast and read again, and the
new reading replaces the old one only where it is a sure digit. It is taken as written: its
ink is the page's writing's, many times lighter than the print (stretched, faint pencil in
a plain hand reads half as print).

Erased pencil leaves ghosts that read as sure digits when stretched too; they are told
apart by the page's own writing: a ghost is much lighter than the entries around it. On
the 345 shared photos (sudoku_dataset pen-filled, Times progress, wild) no empty cell
passes both tests. Rendered pages of pencil at grey 0.86 (8 pages, 247 entries,
``tests/test_bad_pages.py``'s kind): 41 entries lost before, 9, now 5, none made up.

A faint digit read again too unsurely to take is not left silently empty: it is asked
about, as writing no digit could be read in (``FaintReread.unsure``). Where the writing is
so faint that no cell reads as a written digit at all, there is no page's writing to
compare with; then the page's writing is found by stretching the cells that show a hint
of it, and counting those that read surely (``faint_page_ink``): paper grain reads surely
in at most two cells of a page, a page of faint pencil in a score of them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..grid.shift import percentile_along
from .notes import Predict
from .recentre import DigitProbs

PRINTED = slice(1, 10)  # the printed digit classes (of the 19 digit probabilities, and the
WRITTEN = slice(10, 19)  # model's own output), then the handwritten ones


@dataclass(frozen=True)
class FaintConfig:
    """Which cells read as empty are read again at their own contrast.

    on: False reads no cell again.
    border_px: ignored at the cell's edge (the grid line) when the ink is measured.
    ink_percentile: a cell's ink is this percentile of its pixels (a stroke's darkness).
    written_from: a cell counts as one of the page's written entries when its likeliest
        class is a written digit holding at least this probability.
    min_share: a cell is read again when its ink is at least this share of the median ink
        of the page's written entries (erasure ghosts stay below half)...
    max_share: ...and at most this share (print is many times darker than faint pencil).
    min_ink: ...and at least this ink (paper grain stretched reads as anything).
    stretch_to: the cell's ink is scaled so that its measured ink becomes this.
    sure_from: the new reading counts when one written digit holds this probability;
        with ``as_written``, one digit, printed and written together: a cell as faint as
        the page's writing is written (stretched, faint pencil in a plain hand reads half
        as print), so its printed probability is moved to the written digit. Below the
        0.99 a check needs to call an entry wrong (``CheckConfig.min_probability``): a
        faint digit taken this way is never called wrong, only asked about.
    ask_from: a cell read again whose likeliest written digit holds at least this, but
        less than ``sure_from``, is faint writing no digit could be read in: the check
        asks about it (``CellScores.unreadable``) rather than leave it silently empty.
    page_from: on a page where no cell reads as a written digit, the likely empty cells
        are stretched and read; at least this many reading surely as written digits
        mean the page's writing is all faint (their median ink is its ink). Stretched
        paper grain reads surely in at most two cells of a page (171 readings of the
        shared photos without writing); a page of faint pencil, in a score of them.
    page_sure_from: ...reading surely: one written digit holding this probability.
    page_hint_from: ...of the cells in which the written digits together hold at least
        this (a hint of writing; the model is run on no other): on the shared photos'
        pages without writing, 1.5 of the 51 likely empty cells with ink on average (so
        the step costs nothing measurable there); on a page of pencil at grey 0.9, 22 of
        its 28 entries and none of its empty cells (at most 0.013).
    empty_from: only cells at least this likely empty are looked at (less likely ones are
        settled by the kind decision or read again centred); below one half, a faint digit
        read too unsurely to outlast the pen step's "empty" is read again too.
    other_below: ...and less likely than this to hold notes or a digit crossed out.
    """

    on: bool = True
    border_px: int = 3
    ink_percentile: float = 99.0
    written_from: float = 0.5
    min_share: float = 0.7
    max_share: float = 2.0
    min_ink: float = 0.05
    stretch_to: float = 0.8
    sure_from: float = 0.6
    ask_from: float = 0.3
    page_from: int = 6
    page_sure_from: float = 0.9
    page_hint_from: float = 0.05
    as_written: bool = True
    empty_from: float = 0.3
    other_below: float = 0.2

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if not 0.0 < self.sure_from <= 1.0:
            raise ValueError(f"sure_from must be in (0, 1], got {self.sure_from}")
        if not 0.0 <= self.ask_from <= self.sure_from:
            raise ValueError(f"ask_from must be in [0, sure_from], got {self.ask_from}")
        if not 0.0 < self.stretch_to <= 1.0:
            raise ValueError(f"stretch_to must be in (0, 1], got {self.stretch_to}")
        if self.page_from < 1:
            raise ValueError(f"page_from must be at least 1, got {self.page_from}")
        if self.border_px < 0:
            raise ValueError(f"border_px must not be negative, got {self.border_px}")


DEFAULT_FAINT_CONFIG = FaintConfig()


@dataclass(frozen=True)
class FaintReread:
    """Cells read again at their own contrast that now read surely as written digits.

    cells: their indices; probs: the model's raw output for them; images: their
    stretched ink images; unsure: the indices of the cells read again that hold a
    written digit, but too unsurely to take (to ask about).
    """

    cells: np.ndarray
    probs: np.ndarray
    images: np.ndarray
    unsure: np.ndarray


def cell_ink(cells: np.ndarray, config: FaintConfig = DEFAULT_FAINT_CONFIG) -> np.ndarray:
    """(N,) each cell's ink: a high percentile of its pixels inside the border."""
    b = config.border_px
    inner = cells[:, b : cells.shape[1] - b, b : cells.shape[2] - b].reshape(len(cells), -1)
    ink = percentile_along(inner[:, :, None], config.ink_percentile)[:, 0]  # np.percentile's
    return np.asarray(ink, dtype=np.float64)


def writing_ink(digit: np.ndarray, ink: np.ndarray, config: FaintConfig) -> float | None:
    """The median ink of the page's written entries (cells read as a written digit), or
    None where none is.

    digit: (N, 19) digit probabilities; ink: (N,) each cell's ink (``cell_ink``).
    """
    written = digit[:, WRITTEN].max(axis=1) >= config.written_from
    written &= digit.argmax(axis=1) >= WRITTEN.start
    return float(np.median(ink[written])) if written.any() else None


def likely_empty(digit: np.ndarray, other: np.ndarray, config: FaintConfig) -> np.ndarray:
    """(N,) bool: cells at least ``empty_from`` likely empty and unlikely to hold notes
    or a digit crossed out (``other``: (N,) their probability)."""
    return np.asarray((digit[:, 0] >= config.empty_from) & (other < config.other_below))


def faint_candidates(
    digit: np.ndarray,
    other: np.ndarray,
    ink: np.ndarray,
    config: FaintConfig,
    level: float | None = None,
) -> np.ndarray:
    """(N,) bool: cells likely empty whose ink is as dark as the page's written entries.

    digit: (N, 19) digit probabilities; other: (N,) probability of notes or a digit
    crossed out; ink: (N,) each cell's ink (``cell_ink``); level: the page's writing's
    ink (default: ``writing_ink``; no cell where there is none).
    """
    level = writing_ink(digit, ink, config) if level is None else level
    if level is None:
        return np.zeros(len(digit), dtype=bool)
    todo = likely_empty(digit, other, config)
    todo &= ink >= max(config.min_share * level, config.min_ink)
    return np.asarray(todo & (ink <= config.max_share * level))


def faint_page_ink(
    cells: np.ndarray,
    digit: np.ndarray,
    other: np.ndarray,
    predict: Predict,
    digit_probs: DigitProbs,
    config: FaintConfig = DEFAULT_FAINT_CONFIG,
) -> float | None:
    """The ink of a page's writing when all of it is so faint that no cell read as a
    written digit: the likely empty cells (``likely_empty``) holding at least
    ``min_ink`` in which the written digits hold ``page_hint_from`` are stretched and
    read again in one ``predict`` call; where at least ``page_from`` of them read as a
    written digit with ``page_sure_from``, the page holds faint writing, and their median
    ink is its ink. None otherwise (no writing: stretched paper grain reads surely in at
    most two cells of a page).

    digit: (N, 19) digit probabilities; other: (N,) probability of notes or a digit
    crossed out.
    """
    ink = cell_ink(cells, config)
    hint = digit[:, WRITTEN].sum(axis=1) >= config.page_hint_from
    which = np.flatnonzero(likely_empty(digit, other, config) & hint & (ink >= config.min_ink))
    if not config.on or len(which) < config.page_from:
        return None
    probs, _ = predict(stretched(cells[which], ink[which], config))
    if config.as_written:
        probs = taken_as_written(probs)
    sure = digit_probs(probs)[:, WRITTEN].max(axis=1) >= config.page_sure_from
    return float(np.median(ink[which][sure])) if sure.sum() >= config.page_from else None


def stretched(cells: np.ndarray, ink: np.ndarray, config: FaintConfig) -> np.ndarray:
    """The cells' ink images scaled so that each one's ink (``cell_ink``) becomes
    ``stretch_to``."""
    gain = (config.stretch_to / np.maximum(ink, config.min_ink))[:, None, None]
    return np.clip(cells * gain, 0.0, 1.0).astype(cells.dtype)


def reread_faint(
    cells: np.ndarray,
    todo: np.ndarray,
    predict: Predict,
    digit_probs: DigitProbs,
    config: FaintConfig = DEFAULT_FAINT_CONFIG,
) -> FaintReread:
    """The cells in ``todo`` (bool per cell) stretched to an entry's contrast and read
    again in one ``predict`` call: those that read surely as a written digit, and those
    that read as one too unsurely."""
    which = np.flatnonzero(todo) if config.on else np.zeros(0, dtype=np.int64)
    if not which.size:
        return FaintReread(which, np.zeros((0, 0), np.float32), cells[:0], which)
    images = stretched(cells[which], cell_ink(cells[which], config), config)
    probs, _ = predict(images)
    if config.as_written:
        probs = taken_as_written(probs)
    best = digit_probs(probs)[:, WRITTEN].max(axis=1)
    sure = best >= config.sure_from
    unsure = which[~sure & (best >= config.ask_from)]
    return FaintReread(which[sure], probs[sure], images[sure], unsure)


def taken_as_written(probs: np.ndarray) -> np.ndarray:
    """The model's (N, C) output with each printed digit's probability added to the same
    written digit's (and none left printed)."""
    out = probs.copy()
    out[:, WRITTEN] += out[:, PRINTED]
    out[:, PRINTED] = 0.0
    return out
