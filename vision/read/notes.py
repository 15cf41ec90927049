"""Candidate notes: the digits noted in the cells taken for notes.

A notes cell holds one or more small digits a person noted as candidates; it is never an
entry. The digit model itself says which cells hold notes (its ``notes`` class,
``classifier.NOTES_CLASS``); ``note_digits`` then reads the noted digits one by one: the
cell is cut again from the straightened grid at a finer scale (``NotesConfig.detail``),
each blob of ink in it is cut out, scaled to the size of an entry and read by the same
digit model. A joined model (digits_v4) reads them with both its nets: a noted digit
counts only where the base's likeliest digit is the joined model's
(``NotesConfig.base_agrees``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from ..types import NUM_CLASSES

PROB_FLOOR = 1e-6  # keeps the renormalisation of a blob's digit probabilities finite
# (N, 32, 32) cell images -> (N, C) probabilities and (N, E) embeddings; for
# ``note_digits``: (N, C) probabilities and the base model's own (N, C)
Predict = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class NotesConfig:
    """How the digits of a notes cell are cut out and read.

    detail: notes cells are cut from the straightened grid at this many times the
        classifier's cell size (a noted digit spans a few pixels of its 32).
    ink_share: a pixel is a note's stroke when its ink is at least this share of the
        cell's strongest ink (pencil notes are faint), and at least ``min_ink``.
    min_blob_share: blobs covering less of the cell's area are specks, not digits.
    blob_height: the height, as a share of the classifier's input, a noted digit is
        scaled to (an entry's size) before it is read.
    min_digit_probability: a blob is read as a digit only when the classifier gives
        its best digit at least this (printed + handwritten).
    sure_probability: a cell's notes are read completely (a digit missing from them was
        not noted) only when every blob's best digit has at least this, and the blobs hold
        ``explained_share`` of the cell's ink away from its edge (``edge_share`` of a side).
    line_share: a row or column within ``edge_share`` of a side inked across this share of
        the cell is what is left of a grid line (cleared), and so is a blob this long along
        a side and at most twice ``edge_share`` across. Notes written against the cell's
        edge (most real ones: two digits side by side along its top) are kept.
    pair_aspect: a blob wider than this share of its height is two digits written joined
        (a noted digit alone is narrower), cut in two where its ink is faintest; up to
        ``joined_most`` times its height (a dash or a stroke through notes is flatter, and
        is not cut).
    piece_share: a part cut from a blob lower than this share of the tallest part is a
        stroke's end left over by the cut (of a 2 or a 5 joined to its neighbour), not a
        digit: left out when the blob was cut in three or more; a blob cut in two and
        under ``single_most`` times as wide as high is one wide digit, read whole.
    sliver_share: a blob touching a side of the cell and at most this share of the cell
        thin across it is a sliver of the grid line cut off by the cell's edge (a noted 1
        against the edge is thicker).
    min_fill: a blob whose ink fills less of its box than this is no digit but a thin
        trail across the cell (the edge of a shadow, paper grain under faint light).
    base_agrees: a blob is read as a digit only when the base model's likeliest digit is
        the same (a joined model's reader, trained on full-size digits, reads a noted 2
        a few pixels high, a blob, as a sure 9 where the base reads an unsure 8).

    How these were chosen, and what they read: ``benchmarks/README.md`` (notes_eval).
    """

    detail: int = 3
    ink_share: float = 0.25
    min_ink: float = 0.06
    min_blob_share: float = 0.003
    blob_height: float = 0.6
    min_digit_probability: float = 0.5
    sure_probability: float = 0.9
    explained_share: float = 0.9
    edge_share: float = 0.08
    line_share: float = 0.6
    pair_aspect: float = 1.05
    joined_most: float = 3.5
    piece_share: float = 0.6
    single_most: float = 1.3
    sliver_share: float = 0.025
    min_fill: float = 0.18
    base_agrees: bool = True


DEFAULT_NOTES_CONFIG = NotesConfig()


def note_blobs(
    cell: np.ndarray, size: int, config: NotesConfig = DEFAULT_NOTES_CONFIG
) -> tuple[list[np.ndarray], bool]:
    """The ink blobs of one notes cell that may be digits, left to right, top to bottom.

    Each comes back as a ``size`` × ``size`` ink image (the classifier's input) with the
    blob scaled to an entry's height and centred; what is left of the grid lines is left
    out, and a blob wider than ``pair_aspect`` of its height (two digits written joined)
    is cut in two (``digits_of``). The flag says whether the blobs hold (nearly) all the
    cell's ink away from its edge (``explained_share``): if not, some noted digit went
    unseen.
    """
    n = cell.shape[0]
    threshold = max(config.min_ink, config.ink_share * float(cell.max()))
    mask = without_lines((cell > threshold).astype(np.uint8), config)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    order = sorted(range(1, count), key=lambda i: (stats[i, 1] // (n // 3), stats[i, 0]))
    boxes = [(i, tuple(int(v) for v in stats[i, :4])) for i in order]
    boxes = [(i, box) for i, box in boxes if digit_like(box, int(stats[i, 4]), n, config)]
    blobs: list[np.ndarray] = []
    kept = np.zeros(cell.shape, dtype=bool)
    for i, (x, y, w, h) in boxes:
        ink = np.where(labels == i, cell, 0.0)[y : y + h, x : x + w]
        blobs.extend(centred(part, size, config) for part in digits_of(ink, config))
        kept[y : y + h, x : x + w] = True
    return blobs, explained(cell, kept, config)


def digit_like(box: tuple[int, ...], area: int, n: int, config: NotesConfig) -> bool:
    """Whether a blob (x, y, w, h) of ``area`` ink pixels in an n-pixel cell may be a
    digit: not a speck (``min_blob_share``), not a thin trail (``min_fill``), not a grid
    line's piece (``line_like``)."""
    x, y, w, h = box
    if area < config.min_blob_share * n * n or area < config.min_fill * w * h:
        return False
    return not line_like((x, y, w, h), n, config)


def digits_of(blob: np.ndarray, config: NotesConfig) -> list[np.ndarray]:
    """The digits in one blob, cut where two are written joined side by side
    (``split_pair``). A part lower than ``piece_share`` of the tallest is a stroke's end
    the cut left: cut from a blob under ``single_most`` times as wide as high (one wide
    digit, a 2 or a 7), the blob is read whole; cut into three or more parts (two digits
    and the end of one), it is left out."""
    parts = split_pair(blob, config)
    if len(parts) < 2:
        return parts
    tallest = max(part.shape[0] for part in parts)
    kept = [part for part in parts if part.shape[0] >= config.piece_share * tallest]
    if len(kept) == len(parts):
        return parts
    if len(parts) == 2:
        h, w = blob.shape
        return [blob] if w < config.single_most * h else parts
    return kept


def split_pair(blob: np.ndarray, config: NotesConfig) -> list[np.ndarray]:
    """A blob as the digits in it: cut in two at its faintest column near the middle when
    it is wider than ``pair_aspect`` of its height but not past ``joined_most`` (each part
    cut again where still wide), each part trimmed to its ink."""
    h, w = blob.shape
    if not config.pair_aspect * h < w <= config.joined_most * h or w < 4:
        return [blob]
    middle = slice(round(w * 0.3), max(round(w * 0.7), round(w * 0.3) + 1))
    cut = middle.start + int(np.argmin(blob[:, middle].sum(axis=0)))
    parts = [trimmed(blob[:, :cut]), trimmed(blob[:, cut:])]
    return [piece for part in parts if part.size for piece in split_pair(part, config)]


def trimmed(ink: np.ndarray) -> np.ndarray:
    """``ink`` cut to the box of its nonzero pixels (empty when it has none)."""
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    if not rows.size:
        return ink[:0, :0]
    return ink[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]


def without_lines(mask: np.ndarray, config: NotesConfig) -> np.ndarray:
    """The stroke mask with what is left of the grid lines cleared: in the band of
    ``edge_share`` along each side, every row (top, bottom) or column (left, right) inked
    across ``line_share`` of the cell."""
    n = mask.shape[0]
    band = max(1, round(config.edge_share * n))
    rows = mask.mean(axis=1) >= config.line_share
    cols = mask.mean(axis=0) >= config.line_share
    rows[band:-band], cols[band:-band] = False, False
    out = mask.copy()
    out[rows, :], out[:, cols] = 0, 0
    return out


def line_like(box: tuple[int, int, int, int], n: int, config: NotesConfig) -> bool:
    """Whether a blob (x, y, w, h) in an n-pixel cell is a grid line's piece, not a digit:
    within ``edge_share`` of a side, long along it and thin across it, or a sliver
    (``sliver_share``) against a side."""
    x, y, w, h = box
    band = max(1, round(config.edge_share * n))
    sliver = config.sliver_share * n
    if (w <= sliver and (x == 0 or x + w == n)) or (h <= sliver and (y == 0 or y + h == n)):
        return True
    if h >= config.line_share * n and w <= 2 * band:
        return x < band or x + w > n - band
    if w >= config.line_share * n and h <= 2 * band:
        return y < band or y + h > n - band
    return False


def explained(cell: np.ndarray, kept: np.ndarray, config: NotesConfig) -> bool:
    """Whether the boxes ``kept`` hold ``explained_share`` of the ink inside the cell's edge."""
    edge = max(1, round(config.edge_share * cell.shape[0]))
    inner = (slice(edge, -edge), slice(edge, -edge))
    ink = np.where(cell[inner] > config.min_ink, cell[inner], 0.0)
    total = float(ink.sum())
    return total == 0.0 or float(ink[kept[inner]].sum()) >= config.explained_share * total


def centred(blob: np.ndarray, n: int, config: NotesConfig) -> np.ndarray:
    """``blob`` scaled to ``blob_height`` of an n × n image (width at most n - 2), centred."""
    h, w = blob.shape
    height = max(2, round(config.blob_height * n))
    width = max(1, min(n - 2, round(w * height / h)))
    scaled = cv2.resize(blob.astype(np.float32), (width, height), interpolation=cv2.INTER_AREA)
    out = np.zeros((n, n), dtype=np.float32)
    y0, x0 = (n - height) // 2, (n - width) // 2
    out[y0 : y0 + height, x0 : x0 + width] = scaled
    return out


def blob_digits(probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(N, 19) blobs' probabilities as an empty, printed or written cell (renormalised) and
    (N, 9) each digit's (printed + written)."""
    digits_only = probs[:, :NUM_CLASSES]
    probs = digits_only / np.maximum(digits_only.sum(axis=1, keepdims=True), PROB_FLOOR)
    return probs, probs[:, 1:10] + probs[:, 10:19]


@dataclass(frozen=True)
class NotedDigits:
    """The digits read in one notes cell, ascending, and whether every blob was read surely."""

    digits: str
    sure: bool


def note_digits(
    cells: np.ndarray,
    predict: Predict,
    size: int,
    config: NotesConfig = DEFAULT_NOTES_CONFIG,
) -> tuple[NotedDigits, ...]:
    """The digits noted in each of N notes cells ("" where none is legible).

    ``cells`` are the notes cells' ink images (any size); ``size`` is the classifier's
    input side. Every blob of every cell goes through ``predict`` in one call: it gives
    the model's probabilities and the base model's own (``DigitClassifier.predict_notes``;
    the same twice for a model of one pair of nets). A cell is read surely when it has a
    blob and every blob's digit has ``sure_probability``.
    """
    cut = [note_blobs(c, size, config) for c in cells]
    blobs = [cell_blobs for cell_blobs, _ in cut]
    flat = [b for cell_blobs in blobs for b in cell_blobs]
    if not flat:
        return (NotedDigits("", False),) * len(cells)
    probs, base = predict(np.stack(flat))
    probs, digit_probs = blob_digits(probs)
    legible = (digit_probs.max(axis=1) >= config.min_digit_probability) & (probs[:, 0] < 0.5)
    if config.base_agrees:
        legible &= np.argmax(blob_digits(base)[1], axis=1) == np.argmax(digit_probs, axis=1)
    read = np.where(legible, np.argmax(digit_probs, axis=1) + 1, 0)
    sure = legible & (digit_probs.max(axis=1) >= config.sure_probability)
    out, start = [], 0
    for cell_blobs, whole in cut:
        end = start + len(cell_blobs)
        found = "".join(str(d) for d in sorted({int(d) for d in read[start:end] if d}))
        out.append(NotedDigits(found, whole and end > start and bool(sure[start:end].all())))
        start = end
    return tuple(out)
