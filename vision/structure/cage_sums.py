"""Killer cage sums: the small digits in each cage's top-left corner, read and checked.

The top-left cell of a cage is cut again from the straightened grid at a finer scale
(as ``vision/read/notes.py`` does for candidate notes); the ink blobs in its corner box
that stand as tall as the tallest, beside it, are the sum's digits (``sum_blobs``), each
scaled to an entry's size and read by the digit model. The model knows no zero: a blob
with one large hole in its middle is one (``zero_chance``; maybe one where only its
darker ink shows the hole). Each sum's readings come with
their probabilities (``sum_readings``), only those a cage of its size can reach.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache

import cv2
import numpy as np

from ...solver.variant import cage_combinations
from ..grid.warp import check_image, remap_lattice, to_gray, warp_lattice
from ..read.cells import CellConfig, ink_image
from ..read.notes import (
    NotesConfig,
    Predict,
    centred,
    line_like,
    trimmed,
)
from ..types import NUM_CLASSES
from .cage_config import CageConfig

PROB_FLOOR = 1e-6  # keeps every digit's log-probability finite
MAX_SUM = 45  # nine different digits 1-9
ZERO_SURE = 0.95  # how likely a blob holding a zero's hole is a zero
ZERO_UNLIKELY = 0.01  # how likely one without is
LOST_ONE = 0.05  # how likely a sum read as one digit has a 1 beside it, unseen
STRAY_BLOB = 0.05  # how likely a sum's second digit, cut from ink below, is no digit
RAGGED_EDGE = 0.5  # a grid line's ragged edge: half a line's ink
FINE_CELL_PX = 36  # a sum's corner is cut at ``CageConfig.detail`` times this a cell
PAPER_PERCENTILE = 90  # a cell's paper: this percentile of its pixels (ink is the few dark)
MIN_DARKNESS = 5.0  # L* units: paper's own noise is no ink's darkness


@dataclass(frozen=True)
class SumReading:
    """The readings of one cage's sum, most probable first, with their log-probabilities
    (every one reachable by the cage's size); empty when no reading is."""

    totals: tuple[int, ...]
    log_probs: tuple[float, ...]

    @property
    def best(self) -> int:
        """The most probable sum (0 when nothing could be read)."""
        return self.totals[0] if self.totals else 0

    @property
    def probability(self) -> float:
        """The most probable sum's probability (0 when nothing could be read)."""
        return math.exp(self.log_probs[0]) if self.log_probs else 0.0


def fine_cell_px(config: CageConfig) -> int:
    """The pixels a cell that sums are read at (``detail`` times ``FINE_CELL_PX``)."""
    return config.detail * FINE_CELL_PX


def fine_grid(image: np.ndarray, lattice: np.ndarray, config: CageConfig) -> np.ndarray:
    """The grid warped again from the photo it was found in (gray or colour ``image``;
    ``lattice``: its (10, 10, 2) line crossings there) at ``fine_cell_px`` a cell, cell by
    cell: the sums, a few pixels tall in the straightened grid, keep the photo's detail."""
    lattice = np.asarray(lattice, dtype=np.float64)
    if lattice.shape != (10, 10, 2):
        raise ValueError(f"lattice must have shape (10, 10, 2), got {lattice.shape}")
    return warp_lattice(to_gray(check_image(image)), lattice, fine_cell_px(config))


def without_pen_ink(
    fine: np.ndarray,
    photo: tuple[np.ndarray, np.ndarray],
    pen: frozenset[int],
    config: CageConfig,
) -> np.ndarray:
    """The grid warped again from the photo (``fine``, gray) with the coloured ink of the
    ``pen`` cells (those read as holding a pen entry) painted over with each cell's paper:
    a blue pen digit written against a sum joins it into one blob that no sum is read in.
    Ink is coloured where its Lab chroma on the cell's white-balanced paper, per unit of
    its darkness, reaches ``pen_tint`` (``ink_tint``); black print and a black pen stay.
    ``photo``: the colour image and its (10, 10, 2) lattice; a gray one changes nothing."""
    image, lattice = photo
    if not pen or image.ndim != 3 or config.pen_tint <= 0:
        return fine
    p = fine_cell_px(config)
    tinted = ink_tint(image, lattice, p) >= config.pen_tint
    cells = np.zeros(81, bool)
    cells[sorted(pen)] = True
    tinted &= np.kron(cells.reshape(9, 9), np.ones((p, p), bool))
    tiles = fine.reshape(9, p, 9, p)
    paper = np.percentile(tiles, PAPER_PERCENTILE, axis=(1, 3)).astype(np.uint8)
    return np.where(tinted, np.kron(paper, np.ones((p, p), np.uint8)), fine)


def ink_tint(image: np.ndarray, lattice: np.ndarray, cell_px: int) -> np.ndarray:
    """(9 cell_px, 9 cell_px) each pixel's Lab chroma per unit of darkness (L* below
    white, at least ``MIN_DARKNESS``) in the colour ``image`` warped cell by cell along
    ``lattice``, each cell white-balanced on its own paper (so a lamp's cast leaves black
    print neutral)."""
    grid = remap_lattice(image, np.asarray(lattice, dtype=np.float64), cell_px)
    tiles = grid.astype(np.float32).reshape(9, cell_px, 9, cell_px, 3) / 255.0
    paper = np.percentile(tiles, PAPER_PERCENTILE, axis=(1, 3), keepdims=True)
    balanced = np.clip(tiles / np.maximum(paper, 1e-3), 0.0, 1.0)
    lab = cv2.cvtColor(balanced.reshape(9 * cell_px, 9 * cell_px, 3), cv2.COLOR_BGR2Lab)
    darkness = np.maximum(100.0 - lab[..., 0], MIN_DARKNESS)
    return np.asarray(np.hypot(lab[..., 1], lab[..., 2]) / darkness)


def sum_corners(warped: np.ndarray, cells: Sequence[int], config: CageConfig) -> list[np.ndarray]:
    """The corner boxes (``sum_box``) of the given cells as fine ink images (the grid
    ``warped`` resampled to ``fine_cell_px`` a cell, unless it is that size already)."""
    return cut_corners(corner_ink(warped, config), cells, config)


def corner_ink(warped: np.ndarray, config: CageConfig) -> np.ndarray:
    """The ink image of a whole grid at ``fine_cell_px`` a cell, the corners cut from it."""
    return ink_image(warped, CellConfig(cell_px=fine_cell_px(config), inset_px=0))


def cut_corners(ink: np.ndarray, cells: Sequence[int], config: CageConfig) -> list[np.ndarray]:
    """The corner boxes (``sum_box``) of the given cells, cut from a grid's ``corner_ink``."""
    p = fine_cell_px(config)
    x0, y0, x1, y1 = (round(v * p) for v in config.sum_box)
    out = []
    for cell in cells:
        r, c = divmod(cell, 9)
        out.append(ink[r * p + y0 : r * p + y1, c * p + x0 : c * p + x1])
    return out


def _notes_config(config: CageConfig) -> NotesConfig:
    """The notes reader's settings as the sum reader uses them (grid lines along the box's
    top and left)."""
    return NotesConfig(edge_share=0.14)


Box = tuple[int, int, int, int, int]  # a blob's label, x, y, width, height


def sum_boxes(
    corner: np.ndarray, config: CageConfig, hanging: bool = True
) -> tuple[np.ndarray, list[Box]]:
    """The labelled blobs of a corner box and the sum's among them, left to right: the
    blob nearest the corner that is shaped like a digit (``_digit_shaped``) and those at
    least ``digit_height`` as tall beside it (two at most, from the left); with
    ``hanging``, a blob beside it reaching the box's bottom too, cut at its height."""
    labels, with_hanging, alone = both_sum_boxes(corner, config)
    return labels, with_hanging if hanging else alone


def both_sum_boxes(
    corner: np.ndarray, config: CageConfig
) -> tuple[np.ndarray, list[Box], list[Box]]:
    """``sum_boxes`` with and without the ``hanging`` blobs, from one labelling (the
    labels those with them are cut in); with ``mend_strokes``, a digit's pieces that blur
    broke apart joined first (``joined_bases``, ``joined_halves``)."""
    labels, boxes = corner_blobs(corner, config)
    if config.mend_strokes:
        boxes = joined_bases(labels, boxes, config)
    digits = [b for b in boxes if _digit_shaped(b, corner.shape, config)]
    if config.mend_strokes:
        digits = joined_halves(labels, digits, config)
    if not digits:
        return labels, [], []
    first = min(digits, key=lambda b: b[2] + b[1] / 2)  # the nearest the top-left corner
    alone = _kept(digits, first, config)
    low = [b for b in boxes if _hangs_beside(b, first, corner.shape, config)]
    cut = [c for b in low if (c := _cut_below(labels, b, first[2] + first[4]))]
    return labels, _kept(digits + cut, first, config) if cut else alone, alone


def joined_halves(labels: np.ndarray, digits: list[Box], config: CageConfig) -> list[Box]:
    """The digit blobs with a 0 whose thin top and bottom blur broke (a serif face's
    hairlines, or motion blur across them) joined again: two blobs side by side, no
    further apart than ``half_gap`` of their height and sharing their rows, that together
    are such a 0 (``broken_zero``). ``labels`` is
    relabelled so that the joined blob is one label."""
    out = sorted(digits, key=lambda b: b[1])
    k = 0
    while k + 1 < len(out):
        a, b = out[k], out[k + 1]
        both = _union(a, b)
        close = b[1] - (a[1] + a[3]) <= config.half_gap * both[4] and _overlap(a, b) > 0.5
        region = labels[both[2] : both[2] + both[4], both[1] : both[1] + both[3]]
        mask = (region == a[0]) | (region == b[0])
        if close and broken_zero(mask, config):
            region[region == b[0]] = a[0]
            out[k : k + 2] = [both]
        k += 1
    return out


def joined_bases(labels: np.ndarray, boxes: list[Box], config: CageConfig) -> list[Box]:
    """The blobs with a 2's base that its thin diagonal, blurred away, cut off (a serif
    face) joined again to the digit above: a flat blob (at most ``base_flat`` as tall as
    wide) right under another, no further below it than ``half_gap`` of its height, under
    most of its width. ``labels`` is relabelled so that the joined blob is one label."""
    out = list(boxes)
    for base in sorted(boxes, key=lambda b: b[2], reverse=True):
        if base not in out or base[4] > config.base_flat * base[3]:
            continue
        above = [b for b in out if b is not base and _sits_on(base, b, config)]
        if above:
            top = above[0]
            labels[labels == base[0]] = top[0]
            out = [b for b in out if b not in (base, top)] + [_union(top, base)]
    return out


def _sits_on(base: Box, top: Box, config: CageConfig) -> bool:
    """Whether a flat blob lies right under a taller one, under most of its width."""
    gap = base[2] - (top[2] + top[4])
    shared = min(base[1] + base[3], top[1] + top[3]) - max(base[1], top[1])
    return (
        top[4] > base[4]
        and -1 <= gap <= config.half_gap * top[4] + 1
        and shared >= 0.6 * min(base[3], top[3])
    )


def _union(a: Box, b: Box) -> Box:
    """The box holding both boxes, with the first's label."""
    x, y = min(a[1], b[1]), min(a[2], b[2])
    right, bottom = max(a[1] + a[3], b[1] + b[3]), max(a[2] + a[4], b[2] + b[4])
    return a[0], x, y, right - x, bottom - y


def broken_zero(mask: np.ndarray, config: CageConfig) -> bool:
    """Whether a stroke mask is a 0 whose thin top and bottom broke: with its gaps along
    the rows up to ``half_close`` of its height closed (a closing by 2, 3, ... pixels
    across), it holds a zero's hole (``zero_hole_seen``)."""
    most = max(2, round(config.half_close * mask.shape[0]))
    pad = np.pad(mask.astype(np.uint8), ((0, 0), (most, most)))
    for k in range(2, most + 1):
        shut = cv2.morphologyEx(pad, cv2.MORPH_CLOSE, np.ones((1, k), np.uint8))
        if zero_hole_seen(shut[:, most:-most] > 0, config):
            return True
    return False


def corner_blobs(
    corner: np.ndarray, config: CageConfig, lines: bool = False
) -> tuple[np.ndarray, list[Box]]:
    """The labelled ink blobs of a corner box, the grid lines along its sides cleared
    (``without_grid_lines``), specks left out, and grid line pieces (``line_like``, and
    ``corner_line``) unless ``lines``."""
    notes = _notes_config(config)
    threshold = max(notes.min_ink, notes.ink_share * float(corner.max(initial=0.0)))
    mask = without_grid_lines((corner > threshold).astype(np.uint8), notes)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    n = max(corner.shape)
    boxes: list[Box] = [
        (i, int(stats[i, 0]), int(stats[i, 1]), int(stats[i, 2]), int(stats[i, 3]))
        for i in range(1, count)
        if stats[i, 4] >= notes.min_blob_share * n * n
        and (lines or not line_like(tuple(int(v) for v in stats[i, :4]), n, notes))  # type: ignore[arg-type]
    ]
    if not lines:
        boxes = [b for b in boxes if not corner_line(b, config)]
    return labels, boxes


def corner_line(box: Box, config: CageConfig) -> bool:
    """Whether a blob is the piece of a slanted grid line that the box's corner cuts off (a
    grid line found a little off its place, leaning across the box's top-left corner): it
    touches both the box's top and left edges and is under ``corner_line_aspect`` as wide as
    tall. A sum, printed inside the cage line's inset, keeps clear of that corner."""
    _, x, y, w, h = box
    return x == 0 and y == 0 and w < config.corner_line_aspect * h


def hung_sum_blobs(corner: np.ndarray, height: float, config: CageConfig) -> list[np.ndarray]:
    """The sum's digits in a corner box where ``sum_blobs`` finds none because blur joined
    them to the cage line's dashes below (the blob reaches the box's bottom edge): each
    blob starting where the sums' tops lie (within ``hung_top`` of the box's top) and
    reaching the bottom edge, cut at the grid's digit ``height`` below its top (a thin
    digit joined to the line looks like a grid line's piece: one at least ``hung_width``
    as wide as tall once cut is kept), and the digit-shaped blobs beside it, as
    ``sum_blobs`` gives them."""
    labels, boxes = corner_blobs(corner, config, lines=True)
    bottom, top = corner.shape[0] - 1, config.hung_top * corner.shape[0]
    hung = [b for b in boxes if b[2] <= top and b[2] + b[4] >= bottom]
    cut = [c for b in hung if (c := _cut_below(labels, b, b[2] + round(height)))]
    cut = [c for c in cut if c[3] >= config.hung_width * c[4]]
    n = max(corner.shape)
    boxes = [b for b in boxes if not line_like(b[1:], n, _notes_config(config))]
    digits = [b for b in (*boxes, *cut) if _digit_shaped(b, corner.shape, config)]
    if not cut or not digits:
        return []
    first = min(digits, key=lambda b: b[2] + b[1] / 2)
    return _blob_images(corner, labels, _kept(digits, first, config), config)


def _kept(digits: list[Box], first: Box, config: CageConfig) -> list[Box]:
    """The sum's digits among the digit-shaped blobs: those ``digit_height`` as tall as
    the ``first`` beside it, two at most from the left."""
    tall = config.digit_height * first[4]
    keep = [b for b in digits if b[4] >= tall and _overlap(b, first) > 0.5]
    return sorted(keep, key=lambda b: b[1])[:2]


def _hangs_beside(box: Box, first: Box, shape: tuple[int, ...], config: CageConfig) -> bool:
    """Whether a blob reaching the box's bottom edge starts level with the sum's first
    digit, right of it (a second digit that a given's ink below touches) or wholly left of
    it (a first digit that blur joined to the cage line's dashes below)."""
    _, x, y, w, h = box
    return (
        y + h >= shape[0] - 1
        and (x > first[1] or x + w <= first[1])
        and abs(y - first[2]) <= (1 - config.digit_height) * first[4]
    )


def _cut_below(labels: np.ndarray, box: Box, bottom: int) -> Box | None:
    """The blob's part above row ``bottom`` (its ink below cleared from ``labels``), as a
    box; None when nothing is left."""
    i, x, y, w, h = box
    region = labels[y : y + h, x : x + w]
    region[max(0, bottom - y) :][region[max(0, bottom - y) :] == i] = 0
    ys, xs = np.nonzero(region == i)
    if not len(ys):
        return None
    return i, x + int(xs.min()), y + int(ys.min()), int(np.ptp(xs)) + 1, int(np.ptp(ys)) + 1


def without_grid_lines(mask: np.ndarray, config: NotesConfig) -> np.ndarray:
    """The corner box's stroke mask with the grid lines along its sides cleared: from each
    side, the rows (top, bottom) or columns (left, right) inked in one unbroken run
    (``longest_runs``) across ``line_share`` of the box that run on from the side's first
    half-band (``edge_share``) in, and the line's ragged edge after them (``edge_run``).
    A row further in is no grid line even when inked across: a 7's bar beside a cage
    line's dashes at its height stays; nor is a row across the tops of a sum's digits
    printed against the grid line (a 2's top, a 7's bar and a dash, each apart)."""
    band = max(1, round(config.edge_share * mask.shape[0]))
    out = mask.copy()
    rows = longest_runs(mask) / (config.line_share * mask.shape[1])
    cols = longest_runs(mask.T) / (config.line_share * mask.shape[0])
    out[edge_run(rows, band), :] = 0
    out[edge_run(rows[::-1], band)[::-1], :] = 0
    out[:, edge_run(cols, band)] = 0
    out[:, edge_run(cols[::-1], band)[::-1]] = 0
    return out


def longest_runs(mask: np.ndarray) -> np.ndarray:
    """Each row's longest unbroken run of ink in a stroke mask (a one-pixel gap bridged:
    a grid line's noise), in pixels."""
    ink = mask.astype(bool)
    ink[:, 1:-1] |= ink[:, :-2] & ink[:, 2:]
    edges = np.diff(np.pad(ink.astype(np.int8), ((0, 0), (1, 1))), axis=1)
    rows, starts = np.nonzero(edges == 1)
    _, ends = np.nonzero(edges == -1)  # each run's end, in the same order as its start
    best = np.zeros(mask.shape[0], np.int64)
    np.maximum.at(best, rows, ends - starts)
    return best


def edge_run(inked: np.ndarray, band: int) -> np.ndarray:
    """Which of a side's rows (from the side inward; ``inked``: each row's ink as a share
    of a grid line's) belong to its grid line: the unbroken run of rows inked as a line
    (1 or more) starting within ``band`` // 2 of the side and ending within ``band``, and
    the next row if it holds half a line's ink (the line's ragged, antialiased edge)."""
    out = np.zeros(len(inked), bool)
    lines = np.flatnonzero(inked[:band] >= 1)
    if not len(lines) or lines[0] > band // 2:
        return out
    end = int(lines[0])
    while end < band and inked[end] >= 1:
        end += 1
    if end < band and inked[end] >= RAGGED_EDGE:
        end += 1
    out[lines[0] : end] = True
    return out


def sum_blobs(corner: np.ndarray, config: CageConfig) -> list[np.ndarray]:
    """The sum's digits in a corner box (``sum_boxes``), left to right, as ink images cut
    to their boxes, two digits printed joined cut apart (``notes.split_pair``)."""
    return corner_sum(corner, config)[0]


def corner_sum(
    corner: np.ndarray, config: CageConfig
) -> tuple[list[np.ndarray], tuple[float, float], bool]:
    """``sum_blobs`` and ``sum_extent`` of a corner box, from one labelling, and whether
    a blob reaching the box's bottom was cut and taken for a digit (``sum_boxes`` with
    ``hanging``)."""
    labels, keep, alone = both_sum_boxes(corner, config)
    blobs = _blob_images(corner, labels, keep, config)
    return blobs, _extent(alone, corner.shape), keep != alone


def _blob_images(
    corner: np.ndarray, labels: np.ndarray, keep: Sequence[Box], config: CageConfig
) -> list[np.ndarray]:
    """The ink of the blobs ``keep`` cut to their boxes, two digits printed joined cut
    apart (``sum_digits``), two at most."""
    cut = [
        np.where(labels[y : y + h, x : x + w] == i, corner[y : y + h, x : x + w], 0.0)
        for i, x, y, w, h in keep
    ]
    return [part for blob in cut for part in sum_digits(blob, config)][:2]


def sum_digits(blob: np.ndarray, config: CageConfig) -> list[np.ndarray]:
    """A sum's blob as its digits (``split_sum``); where the cut leaves one part under
    ``digit_height`` of the blob's height, a cage line's dashes joined to the last digit
    widened the blob: that part is left out and the rest cut again."""
    notes = _notes_config(config)
    parts = split_sum(blob, notes)
    tall = [part for part in parts if part.shape[0] >= config.digit_height * blob.shape[0]]
    if len(parts) == 2 and len(tall) == 1:
        return split_sum(tall[0], notes)
    return parts


def split_sum(blob: np.ndarray, config: NotesConfig) -> list[np.ndarray]:
    """A sum's blob as its digits: two digits run together are cut apart (as
    ``notes.split_pair`` does) at the faintest column that crosses no loop (``loop_free``)
    where one does: the faintest column of a blurred "20" is the 0's hole, not the join."""
    h, w = blob.shape
    if not config.pair_aspect * h < w <= config.joined_most * h or w < 4:
        return [blob]
    lo, hi = round(w * 0.3), max(round(w * 0.7), round(w * 0.3) + 1)
    ink = blob[:, lo:hi].sum(axis=0)
    free = loop_free(blob[:, lo:hi] > 0)
    cut = lo + int(np.argmin(np.where(free, ink, np.inf) if free.any() else ink))
    parts = [trimmed(blob[:, :cut]), trimmed(blob[:, cut:])]
    return [part for part in parts if part.size]


def loop_free(columns: np.ndarray) -> np.ndarray:
    """Which columns of a stroke mask hold one run of ink (a column with paper between two
    runs crosses a loop: a 0's, 6's, 8's or 9's hole, or a 2's curve)."""
    starts = columns[1:] & ~columns[:-1]
    runs = starts.sum(axis=0) + columns[0]
    return np.asarray(runs == 1)


def sum_extent(corner: np.ndarray, config: CageConfig) -> tuple[float, float]:
    """How far right and down the sum's ink reaches in its corner box, shares of the box
    (0, 0 when no sum was seen). A digit that a blob from below touches is left out
    (``sum_boxes`` without ``hanging``): that blob may be a given printed high, whose top
    a mask over the digit would cut off."""
    return _extent(sum_boxes(corner, config, hanging=False)[1], corner.shape)


def _extent(keep: Sequence[Box], shape: tuple[int, ...]) -> tuple[float, float]:
    """How far right and down the boxes ``keep`` reach in a corner box of ``shape``."""
    if not keep:
        return 0.0, 0.0
    right = max(x + w for _, x, _, w, _ in keep) / shape[1]
    bottom = max(y + h for _, _, y, _, h in keep) / shape[0]
    return right, bottom


def _digit_shaped(box: Box, shape: tuple[int, ...], config: CageConfig) -> bool:
    """Whether a blob (i, x, y, w, h) may be a sum's digit: tall enough, not a thin dash,
    clear of the box's bottom edge (a given's ink reaching in from below)."""
    _, _, y, w, h = box
    return (
        h >= config.min_digit_share * shape[0]
        and w >= config.min_digit_aspect * h
        and y + h < shape[0] - 1
    )


def _overlap(a: Box, b: Box) -> float:
    """How much of the shorter of two boxes (i, x, y, w, h) shares the other's rows."""
    top, bottom = max(a[2], b[2]), min(a[2] + a[4], b[2] + b[4])
    return max(0, bottom - top) / max(1, min(a[4], b[4]))


def zero_like(blob: np.ndarray, config: CageConfig) -> bool:
    """Whether an ink blob is a zero: its largest hole ``zero_hole`` of its height, in its
    middle (a 6's, 8's or 9's holes are half as tall, or off the middle)."""
    hole = tallest_hole(blob > 0)
    if hole is None:
        return False
    _, y, _, h = hole
    middle = (y + h / 2) / blob.shape[0]
    return h >= config.zero_hole * blob.shape[0] and 0.42 <= middle <= 0.58


def tallest_hole(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    """The bounding box (x, y, w, h) of the tallest hole in a stroke mask, if any."""
    contours, hierarchy = cv2.findContours(
        mask.astype(np.uint8), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE
    )
    if hierarchy is None:
        return None
    holes = [cv2.boundingRect(c) for c, h in zip(contours, hierarchy[0], strict=True) if h[3] >= 0]
    if not holes:
        return None
    x, y, w, h = max(holes, key=lambda box: box[3])
    return x, y, w, h


def digit_log_probs(probs: np.ndarray, zeros: Sequence[bool]) -> np.ndarray:
    """(N, 10) log-probabilities of 0-9 for N blobs from the model's (N, C) probabilities:
    print and handwriting of a digit together, a zero from the blob's shape."""
    chances = [ZERO_SURE if zero else ZERO_UNLIKELY for zero in zeros]
    return chanced_log_probs(probs, chances)


def chanced_log_probs(probs: np.ndarray, zero_chances: Sequence[float]) -> np.ndarray:
    """``digit_log_probs`` with each blob's chance of being a zero given (``zero_chance``)."""
    digits = probs[:, 1:10] + probs[:, 10:NUM_CLASSES]
    digits = digits / np.maximum(digits.sum(axis=1, keepdims=True), PROB_FLOOR)
    zero = np.asarray(zero_chances, np.float64).reshape(-1, 1)
    out = np.concatenate([zero, (1.0 - zero) * digits], axis=1)
    return np.asarray(np.log(np.maximum(out, PROB_FLOOR)))


def zero_chance(blob: np.ndarray, config: CageConfig) -> float:
    """How likely a sum's digit is a zero, from its shape: ``ZERO_SURE`` when its ink
    (all of it above the paper) holds a zero's hole (``zero_hole_seen``), ``blurred_zero``
    when only its darker ink does (at ``blurred_levels`` of its darkest: blur fills a small
    0's hole with grey, and the model, which knows no zero, reads it as a 6 or an 8) or
    its ink does once small gaps are closed (``broken_zero``), else
    ``ZERO_UNLIKELY``."""
    top = float(blob.max(initial=0.0))
    if zero_hole_seen(blob > 0, config):
        return ZERO_SURE
    if any(zero_hole_seen(blob > level * top, config) for level in config.blurred_levels):
        return config.blurred_zero
    if config.mend_strokes and broken_zero(blob > 0, config):
        return config.blurred_zero
    return ZERO_UNLIKELY


def zero_hole_seen(mask: np.ndarray, config: CageConfig) -> bool:
    """Whether a stroke mask holds a zero's hole: its tallest hole ``zero_hole`` of its
    height, centred in it both ways (within ``zero_centre``) and reaching from above
    ``zero_reach`` of its height to below as much from its bottom (a 4's closed triangle
    stops at its bar, a hole made by a neighbour's stroke beside a 1 lies to its side),
    its middle column inked to within ``zero_arc`` of the top and bottom (``arcs_close``)."""
    hole = tallest_hole(mask)
    if hole is None:
        return False
    x, y, w, h = hole
    height, width = mask.shape
    centred = all(
        abs(mid - 0.5) <= config.zero_centre for mid in ((y + h / 2) / height, (x + w / 2) / width)
    )
    reach = config.zero_reach * height
    tall = h >= config.zero_hole * height and y <= reach and y + h >= height - reach
    return tall and centred and arcs_close(mask, x + w // 2, config.zero_arc)


def arcs_close(mask: np.ndarray, column: int, share: float) -> bool:
    """Whether the ink of a stroke mask's ``column`` (or one beside it) reaches within
    ``share`` of its height of both its top and its bottom: a zero's arcs close its hole
    there; a 4's triangle is closed by its slanted stroke and its bar, with paper above
    and below them."""
    rows = np.flatnonzero(mask[:, max(0, column - 1) : column + 2].any(axis=1))
    if not len(rows):
        return False
    margin = share * mask.shape[0]
    return bool(rows[0] <= margin and rows[-1] >= mask.shape[0] - 1 - margin)


@cache
def reachable(total: int, count: int) -> bool:
    """Whether ``count`` different digits 1-9 can add up to ``total``."""
    return bool(cage_combinations(total, count, 9))


def readings(log_probs: np.ndarray, count: int, keep: int, hung: bool = False) -> SumReading:
    """The ``keep`` most probable sums a cage of ``count`` cells can reach, from its
    digits' (D, 10) log-probabilities (D = 1 or 2; no digit: every sum alike). One digit
    may also be one of two whose other, a 1, went unseen (``LOST_ONE``); of two whose
    second was cut from ink reaching up from below (``hung``: ``corner_sum``), the first
    may be the sum alone, that ink a pen entry's stroke (``STRAY_BLOB``), where the cage
    can reach a sum of two digits at all (else the cage may be one cut apart)."""
    if len(log_probs) == 0:
        return unread(count, keep)
    if len(log_probs) == 1:
        lost = math.log(LOST_ONE)  # a thin 1 before the digit, not seen
        scored = [(float(log_probs[0, d]), d) for d in range(1, 10)]
        scored += [(float(log_probs[0, d]) + lost, 10 + d) for d in range(10)]
        scored += [(float(log_probs[0, d]) + lost, 10 * d + 1) for d in range(2, 5)]
    else:
        scored = [
            (float(log_probs[0, a] + log_probs[1, b]), 10 * a + b)
            for a in range(1, 5)
            for b in range(10)
            if 10 * a + b <= MAX_SUM
        ]
        if hung and any(reachable(t, count) for _, t in scored):
            stray = math.log(STRAY_BLOB)
            scored += [(float(log_probs[0, d]) + stray, d) for d in range(1, 10)]
    scored = sorted((s for s in scored if reachable(s[1], count)), reverse=True)[:keep]
    if not scored:
        return unread(count, keep)
    return SumReading(tuple(t for _, t in scored), tuple(lp for lp, _ in scored))


def or_unread(reading: SumReading, count: int, below: float) -> SumReading:
    """``reading``, or no reading (``unread``) where its most probable sum is less probable
    than ``below`` (``CageConfig.unread_below``): ink that no sum explains (a pen digit
    written over the sum) says nothing of it, and its readings could leave the true sum
    out, where the rule of 405 finds it among all a cage of ``count`` cells can reach."""
    if reading.totals and reading.probability < below:
        return unread(count, 0)
    return reading


def read_blobs(
    blobs: Sequence[np.ndarray], predict: Predict, input_size: int, config: CageConfig
) -> np.ndarray:
    """(N, C) the model's probabilities of N blobs, each read at every height of
    ``blob_heights`` (one ``predict`` call) and averaged."""
    images = [
        centred(b, input_size, replace(_notes_config(config), blob_height=h))
        for h in config.blob_heights
        for b in blobs
    ]
    probs, _ = predict(np.stack(images))
    return np.asarray(probs.reshape(len(config.blob_heights), len(blobs), -1).mean(axis=0))


def same_height(
    blobs: list[list[np.ndarray]], config: CageConfig, sample: Sequence[int] | None = None
) -> list[list[np.ndarray]]:
    """The sums' digits held to the grid's one digit height (the median blob's of the
    corners ``sample``, or all: ``digit_height``): a blob ``tall_share`` taller is cut to
    that height from its top (a cage line's dash hangs below), one shorter than
    ``digit_height`` of it is left out (a dot, a fragment)."""
    picked = range(len(blobs)) if sample is None else sample
    return held_to(blobs, digit_height([blobs[k] for k in picked]), config)


def digit_height(blobs: Sequence[Sequence[np.ndarray]]) -> float | None:
    """The median height of the blobs of some corners (None when they hold none)."""
    heights = [b.shape[0] for cage in blobs for b in cage]
    return float(np.median(heights)) if heights else None


def held_to(
    blobs: Sequence[Sequence[np.ndarray]], height: float | None, config: CageConfig
) -> list[list[np.ndarray]]:
    """Each corner's blobs held to the digit ``height`` (as ``same_height``; None: as
    they are)."""
    if height is None:
        return [list(cage) for cage in blobs]
    out = []
    for cage in blobs:
        cut = [
            trimmed(b[: round(height)]) if b.shape[0] > config.tall_share * height else b
            for b in cage
        ]
        out.append([b for b in cut if b.size and b.shape[0] >= config.digit_height * height])
    return out


@cache
def reachable_sums(count: int) -> tuple[int, ...]:
    """Every sum ``count`` different digits 1-9 can add up to, smallest first."""
    return tuple(t for t in range(1, MAX_SUM + 1) if reachable(t, count))


def unread(count: int, keep: int) -> SumReading:
    """A sum not read: every sum a cage of ``count`` cells can reach, all alike improbable
    (``keep`` is not used: the rule of 405 picks one)."""
    del keep
    totals = reachable_sums(count)
    return SumReading(totals, (math.log(1 / MAX_SUM),) * len(totals))


def read_digits(
    warped: np.ndarray,
    cells: Sequence[int],
    predict: Predict,
    input_size: int,
    config: CageConfig,
    sample: Sequence[int] | None = None,
) -> tuple[list[np.ndarray], tuple[tuple[float, float], ...]]:
    """The (D, 10) log-probabilities of the sum's digits in the corner of each cell (D = 0,
    1 or 2) and how far its ink reaches (``sum_extent``); every blob of every corner goes
    through ``predict`` in one call. ``sample``: the indices of the corners sure to hold
    sums, whose digits set the grid's digit height (``same_height``; all by default)."""
    corners = sum_corners(warped, cells, config)
    extents = tuple(sum_extent(c, config) for c in corners)
    return corner_digits(corners, predict, input_size, config, sample), extents


def merged(a: SumReading, b: SumReading, keep: int) -> SumReading:
    """One sum's readings from two looks at it (the grid as straightened and as warped
    again from the photo), their probabilities averaged (a reading one look lacks counts
    as improbable there), the ``keep`` most probable first (all where a look read none:
    ``unread``)."""
    pa, pb = (
        dict(zip(a.totals, a.log_probs, strict=True)),
        dict(zip(b.totals, b.log_probs, strict=True)),
    )
    floor = math.log(PROB_FLOOR)
    scored = sorted(
        (
            (math.log((math.exp(pa.get(t, floor)) + math.exp(pb.get(t, floor))) / 2), t)
            for t in set(pa) | set(pb)
        ),
        reverse=True,
    )[: max(keep, len(a.totals), len(b.totals))]
    return SumReading(tuple(t for _, t in scored), tuple(lp for lp, _ in scored))


def corner_digits(
    corners: Sequence[np.ndarray],
    predict: Predict,
    input_size: int,
    config: CageConfig,
    sample: Sequence[int] | None = None,
) -> list[np.ndarray]:
    """The (D, 10) digit log-probabilities of the sum in each corner box (D = 0, 1 or 2;
    ``sample`` as for ``read_digits``)."""
    blobs = same_height([sum_blobs(c, config) for c in corners], config, sample)
    return blob_digits(blobs, predict, input_size, config)


def blob_digits(
    blobs: Sequence[Sequence[np.ndarray]], predict: Predict, input_size: int, config: CageConfig
) -> list[np.ndarray]:
    """The (D, 10) digit log-probabilities of each corner's D blobs (every blob through
    ``predict`` in one call; a zero from its shape, ``zero_chance``)."""
    flat = [b for cage in blobs for b in cage]
    if not flat:
        return [np.zeros((0, 10)) for _ in blobs]
    probs = read_blobs(flat, predict, input_size, config)
    logs = chanced_log_probs(probs, [zero_chance(b, config) for b in flat])
    out, start = [], 0
    for cage in blobs:
        out.append(logs[start : start + len(cage)])
        start += len(cage)
    return out
