"""Find and read a 16×16 Sudoku (4×4 boxes) printed with the numbers 1-16, or a 12×12
(3×4 boxes) with the numbers 1-12 (``SixteenConfig.size``; only a 16×16 may print symbols).

The grid is found as the small grids are (``find.find_small_grid``: n + 1 evenly spaced
lines each way, box lines thick, never a 9×9's 10, nothing midway, nothing past the
border), with n = 16 (or 12) and its quads warped finer (``SixteenConfig.lines``). A
cell holds one glyph (1-9) or two (10-16, a 1 then 0-6; 10-12 on a 12×12): each cell is cut from the
straightened grid at ``detail`` times the classifier's input, and its glyphs found and read as the
Killer sum reader finds and reads a sum's digits (``structure/cage_sums.py``: ``sum_blobs``,
``same_height``, ``read_blobs`` in one model call for the whole grid, ``digit_log_probs`` with a
zero told by the hole in its middle). Each cell's numbers get probabilities (``number_probs``: no
glyph is an empty cell; numbers above the grid's size cannot be read), the reading is solved and
repaired as a small grid's (``read.solve_reading``), failing that with its least sure numbers left
open (``solve_sixteen``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from ...solver.errors import SearchTimeoutError
from ...solver.geometry import cell_name
from ...solver.outcome import SOLVED_OUTCOMES, Outcome, ProblemKind
from ...solver.solve import SolveResult
from ...solver.variant_search import find_variant_solutions, variant_tables
from ..grid.config import DEFAULT_GRID_CONFIG, GridConfig
from ..load import ScaledImage
from ..read.cells import CellConfig, split_cells
from ..read.classifier import DigitClassifier
from ..read.ink_colour import InkColourConfig, cell_ink_colours, colour_evidence, ink_tints
from ..read.notes import NotesConfig, trimmed, without_lines
from ..read.orientation import (
    DEFAULT_ORIENTATION_CONFIG,
    OrientationConfig,
    turn_detection,
    turned_positions,
)
from ..repair import Problem, Repair, RepairOutcome
from ..structure.cage_sums import (
    digit_log_probs,
    read_blobs,
    same_height,
    split_sum,
    sum_blobs,
    zero_like,
)
from ..types import NUM_CLASSES, CellReading, CellScores, Kind, digits_of
from .find import SmallGrid, find_small_grid
from .fine import straightened
from .read import (
    Scorer,
    givens_of,
    oriented,
    outcome_of,
    problems_of,
    repaired,
    solve_reading,
    solve_small,
    value_probabilities,
)
from .sixteen_config import DEFAULT_SIXTEEN_CONFIG, PenNumberConfig, SixteenConfig
from .symbols import SYMBOL_SETS, Glyphs, glyph_crop, glyph_feature, placed_crop, read_symbols

SIXTEEN = DEFAULT_SIXTEEN_CONFIG.size
MAX_NAMED = 4  # cells named in a refusal, the rest counted
TENS = 10  # a two-glyph number is 10 + its second glyph
PROB_FLOOR = 1e-9  # keeps every number's log-probability finite


def find_sixteen_grid(
    image: np.ndarray,
    grid: GridConfig = DEFAULT_GRID_CONFIG,
    config: SixteenConfig = DEFAULT_SIXTEEN_CONFIG,
) -> SmallGrid | None:
    """The biggest 16×16 Sudoku (``config.size``: or 12×12) in a photo (BGR or gray), or
    None when there is none."""
    if not config.enabled or not config.lines.sizes:
        return None
    return find_small_grid(image, grid, config.lines)


def straightened_from(grid: SmallGrid, page: ScaledImage, finer: ScaledImage) -> SmallGrid:
    """The grid found in ``page``, its straightened image cut again from ``finer`` (the
    same photo decoded finer: a 16×16's cells are small where the search's decode is)."""
    warped = straightened(grid.detection, grid.detection.warped.shape[0], page, finer)
    return replace(grid, detection=replace(grid.detection, warped=warped))


def number_cells(warped: np.ndarray, input_size: int, config: SixteenConfig) -> np.ndarray:
    """The n² cells of a straightened n×n grid (n: ``config.size``) as (n², P, P) float32
    ink images (1 = darkest), cut at ``detail`` times the classifier's input with
    ``inset`` of each side (the grid lines) left out."""
    cell_px = config.detail * input_size
    cut = CellConfig(cell_px=cell_px, inset_px=round(config.inset * cell_px))
    return split_cells(warped, cut, config.size)


def cell_glyphs(cells: np.ndarray, config: SixteenConfig) -> list[list[np.ndarray]]:
    """Each cell's glyphs, left to right (none, one or two), held to the grid's one glyph
    height (a speck or a line's remains left out); a cell of no ink as dark as ``min_ink``
    has none. The grid lines' remains are cleared, the cell padded with paper
    (``SixteenConfig``) before the glyph finder looks."""
    return cleared_glyphs(cleared_cells(cells, config), config)


def cleared_glyphs(
    padded: np.ndarray, config: SixteenConfig, least: float | None = None
) -> list[list[np.ndarray]]:
    """``cell_glyphs`` of cells already cleared and padded (``cleared_cells``); a cell is
    looked at where its darkest ink reaches ``least`` (default ``min_ink``)."""
    floor = config.min_ink if least is None else least
    return same_height([cell_blobs(c, config, floor) for c in padded], config.glyphs)


def cell_blobs(cell: np.ndarray, config: SixteenConfig, least: float) -> list[np.ndarray]:
    """The glyph blobs of one cleared cell (``sum_blobs``): none where its darkest ink is
    under ``least``; in a pale cell (under ``min_ink``) only strokes, blobs whose ink above
    half their darkest fills at least ``faint_fill`` of their box (a shadow's edge or a
    line's faint remains scatter thinly over a wide box)."""
    darkest = float(cell.max())
    if darkest < least:
        return []
    blobs = sum_blobs(cell, config.glyphs)
    if darkest >= config.min_ink:
        return blobs
    return [b for b in blobs if float((b > 0.5 * b.max()).mean()) >= config.faint_fill]


def cleared_cells(cells: np.ndarray, config: SixteenConfig) -> np.ndarray:
    """The cells (N, P, P) with what is left of the grid lines cleared and ``pad`` of
    paper added around each (N, P + 2 pad, P + 2 pad)."""
    lines = NotesConfig(edge_share=config.line_band, line_share=config.line_share)
    kept = np.stack([without_lines((c > config.line_ink).astype(np.uint8), lines) for c in cells])
    pad = round(config.pad * cells.shape[1])
    return np.pad(np.where(kept > 0, cells, 0.0), ((0, 0), (pad, pad), (pad, pad)))


def number_probs(log_probs: np.ndarray, lost_one: float, size: int = SIXTEEN) -> np.ndarray:
    """(size + 1,) the probability of each value (0 empty, 1-16 on a 16×16) of a cell from
    its glyphs' (D, 10) log-probabilities of 0-9: none is empty; one is 1-9 (or,
    ``lost_one``, 10-16 whose 1 went unseen); two are a 1 and 0-6. Numbers past ``size``
    are never read."""
    values = size + 1
    out = np.zeros(values, dtype=np.float64)
    if len(log_probs) == 0:
        out[0] = 1.0
        return out
    probs = np.exp(np.asarray(log_probs, dtype=np.float64))
    last = probs[-1]
    if len(log_probs) == 1:
        out[1:TENS] = (1.0 - lost_one) * last[1:TENS]
        out[TENS:] = lost_one * last[: values - TENS]
    else:
        out[TENS:] = probs[-2][1] * last[: values - TENS]
    total = float(out.sum())
    return out / total if total > 0 else np.full(values, 1.0 / values)


def is_zero(glyph: np.ndarray, config: SixteenConfig) -> bool:
    """Whether a glyph is a zero: a tall hole in its middle (``cage_sums.zero_like``) as
    wide a quarter of the way down as a quarter of the way up, within ``zero_symmetry``
    (a 4's closed triangle, at times as tall as a thin 0's hole, narrows to its top)."""
    if not zero_like(glyph, config.glyphs):
        return False
    mask = (glyph > 0).astype(np.uint8)
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    holes = [c for c, h in zip(contours, hierarchy[0], strict=True) if h[3] >= 0]
    hole = max(holes, key=lambda c: cv2.boundingRect(c)[3])
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, [hole], 0, 1, thickness=cv2.FILLED)
    _, top, _, height = cv2.boundingRect(hole)
    upper, lower = (int(filled[top + round(f * (height - 1))].sum()) for f in (0.25, 0.75))
    return min(upper, lower) >= config.zero_symmetry * max(upper, lower, 1)


def read_numbers(
    glyphs: Sequence[Sequence[np.ndarray]],
    classifier: DigitClassifier,
    config: SixteenConfig,
    cleared: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(cells, size + 1) value probabilities of each cell's glyphs, and (cells,) the probability
    that its ink is handwriting (``pen_share``); every glyph of the grid is read by the
    digit model in one call. With the cells ``cleared`` (``cleared_cells``), a pen
    number seen as one glyph is looked at again as a two-digit one (``pen_numbers``), and
    a cell whose darkest ink is under ``min_ink`` (a pale pen) is handwriting at least
    ``faint_pen`` likely. A cell's handwriting is its glyphs' but its zeros' (the model has
    no class of 0: what it says of a 0's kind says nothing; a printed 10 read as pen by its
    0)."""
    flat = [g for cell in glyphs for g in cell]
    logs, pens, zeros = np.zeros((0, TENS)), np.zeros(0), np.zeros(0, bool)
    if flat:
        probs = read_blobs(flat, classifier.predict, classifier.config.input_size, config.glyphs)
        zeros = np.array([is_zero(g, config) for g in flat])
        logs = digit_log_probs(probs, zeros.tolist())
        pens = pen_share(probs)
    out, pen, start = [], [], 0
    for cell in glyphs:
        end = start + len(cell)
        out.append(number_probs(logs[start:end], config.lost_one, config.size))
        pen.append(cell_pen(pens[start:end], zeros[start:end]))
        start = end
    probs, pen_probs = np.stack(out), np.array(pen)
    if cleared is None:
        return probs, pen_probs
    if config.pen_numbers.enabled:
        probs = pen_numbers(probs, pen_probs, glyphs, cleared, classifier, config)
    pale = cleared.reshape(len(cleared), -1).max(axis=1) < config.min_ink
    held = np.array([bool(cell) for cell in glyphs]) & pale
    return probs, np.where(held, np.maximum(pen_probs, config.faint_pen), pen_probs)


def cell_pen(pens: np.ndarray, zeros: np.ndarray) -> float:
    """A cell's probability of handwriting from its glyphs' (``pens``): their mean, its
    ``zeros`` left out where another glyph is there (0 for a cell of none)."""
    if not len(pens):
        return 0.0
    kept = pens[~zeros] if (~zeros).any() else pens
    return float(kept.mean())


@dataclass(frozen=True)
class OtherReading:
    """A pen cell's one glyph read again as a two-digit number: its two ``parts`` (a 1
    and the digit after it) and whether they were cut from one blob (``joined``), else
    the 1 found with a shorter glyph beside it; ``broken``: a 0 written in two arcs,
    the left one run into the 1, read as the cell's ink cut after the 1 (``broken_zero``)."""

    cell: int
    parts: tuple[np.ndarray, np.ndarray]
    joined: bool
    broken: bool = False


def other_reading(
    cell: int, glyph: np.ndarray, cleared: np.ndarray, config: SixteenConfig
) -> OtherReading | None:
    """The cell's glyph with the shorter glyph right of it that the finder left out
    (``second_height`` of its height), else the glyph cut in two (``split_sum`` where it
    is ``joined_aspect`` as wide as tall); None when neither is there."""
    pens = config.pen_numbers
    loose = sum_blobs(cleared, replace(config.glyphs, digit_height=pens.second_height))
    if len(loose) == 2 and loose[0].shape == glyph.shape:
        return OtherReading(cell, (loose[0], loose[1]), joined=False)
    parts = split_sum(glyph, NotesConfig(pair_aspect=pens.joined_aspect))
    if len(parts) == 2:
        return OtherReading(cell, (parts[0], parts[1]), joined=True)
    return None


def looked_again(
    cell: int, glyphs: Sequence[np.ndarray], cleared: np.ndarray, config: SixteenConfig
) -> OtherReading | None:
    """A pen cell's other reading: of one glyph, as a two-digit number (``other_reading``);
    of two, the second with no zero's hole, the two bowed out as a 0's two arcs are
    (``arcs``), as a 1 and a 0 written in two arcs (``broken_zero``); else None."""
    if len(glyphs) == 1:
        return other_reading(cell, glyphs[0], cleared, config)
    if len(glyphs) == 2 and not is_zero(glyphs[1], config) and arcs(glyphs, config):
        return broken_zero(cell, glyphs[0], cleared, config)
    return None


def broken_zero(
    cell: int, first: np.ndarray, cleared: np.ndarray, config: SixteenConfig
) -> OtherReading | None:
    """A pen 10 whose narrow 0 came out as two arcs, the left one run into the 1 (the
    finder's glyphs "1(" and ")", read as 11 or 12): the cell's ink cut where its first
    glyph is cut in two (``split_sum``), its right part the 0 where ``walled`` (both
    arcs across its middle rows); None where not so."""
    pens = config.pen_numbers
    parts = split_sum(first, NotesConfig(pair_aspect=pens.joined_aspect))
    ink = glyph_crop(cleared)
    if len(parts) != 2 or ink.size == 0:
        return None
    rest = trimmed(ink[:, parts[0].shape[1] :])
    if rest.size == 0 or not walled(rest, pens.walled_rows):
        return None
    return OtherReading(cell, (parts[0], rest), joined=True, broken=True)


def arcs(glyphs: Sequence[np.ndarray], config: SixteenConfig) -> bool:
    """Whether a cell's two glyphs bow out as a 1 run into a 0's left arc and its right
    arc do: the first to the left and the second to the right at their middles, each by
    ``arc_bulge`` of its height (``bulge``; an 11's or 13's first glyph, a 1, does not)."""
    arc = config.pen_numbers.arc_bulge
    return bulge(glyphs[0]) <= -arc and bulge(glyphs[1]) >= arc


def bulge(glyph: np.ndarray) -> float:
    """How far a glyph's ink bows out to the right at its middle (rows 0.4-0.6 of its
    height) beyond its top and bottom (the first and last fifth), a share of its height:
    a 0's right arc some 0.1-0.15, a 1 about 0, a 1 run into a 0's left arc -0.15."""
    mask = glyph > 0
    height = mask.shape[0]
    columns = np.arange(mask.shape[1])
    inked = mask.any(axis=1)
    centre = np.where(inked, (mask * columns).sum(axis=1) / np.maximum(mask.sum(axis=1), 1), np.nan)
    bands = ((0.0, 0.2), (0.4, 0.6), (0.8, 1.0))
    top, middle, bottom = (
        centre[round(a * height) : max(round(b * height), round(a * height) + 1)] for a, b in bands
    )
    if not all(np.isfinite(band).any() for band in (top, middle, bottom)):
        return 0.0
    edge = (np.nanmean(top) + np.nanmean(bottom)) / 2
    return float(np.nanmean(middle) - edge) / height


def walled(glyph: np.ndarray, share: float) -> bool:
    """Whether a glyph's middle half (a quarter to three quarters of its height) has two
    strokes apart, left and right, in at least ``share`` of its rows (a 0's sides; a 1
    has one stroke, a 2's, 4's, 6's, 8's and 9's middle rows one in many)."""
    height = glyph.shape[0]
    rows = (glyph[round(0.25 * height) : round(0.75 * height) + 1] > 0).astype(np.int8)
    if rows.size == 0:
        return False
    starts = np.count_nonzero(np.diff(rows, axis=1) == 1, axis=1) + rows[:, 0]
    return float((starts == 2).mean()) >= share


def pen_numbers(
    probs: np.ndarray,
    pen: np.ndarray,
    glyphs: Sequence[Sequence[np.ndarray]],
    cleared: np.ndarray,
    classifier: DigitClassifier,
    config: SixteenConfig,
) -> np.ndarray:
    """``probs`` with each pen cell read again as a two-digit number where that holds
    (``looked_again``, ``holds``): the two-digit reading takes ``share`` of the cell's
    probabilities. The other readings' parts are read in one model call."""
    pens = config.pen_numbers
    others = [
        other
        for c, cell in enumerate(glyphs)
        if pen[c] >= pens.pen_share
        if (other := looked_again(c, cell, cleared[c], config)) is not None
    ]
    if not others:
        return probs
    flat = [part for other in others for part in other.parts]
    read = read_blobs(flat, classifier.predict, classifier.config.input_size, config.glyphs)
    zeros = [is_zero(p, config) or (o.broken and k == 1) for o in others
             for k, p in enumerate(o.parts)]  # fmt: skip
    logs = digit_log_probs(read, zeros)
    out = probs.copy()
    for k, other in enumerate(others):
        parts = logs[2 * k : 2 * k + 2]
        if holds(other, parts, probs[other.cell], pens):
            two = number_probs(parts, config.lost_one, config.size)
            out[other.cell] = pens.share * two + (1.0 - pens.share) * probs[other.cell]
    return out


def holds(other: OtherReading, parts: np.ndarray, whole: np.ndarray, pens: PenNumberConfig) -> bool:
    """Whether a cell's other reading (its parts' (2, 10) log-probabilities of 0-9)
    holds: its first part surely a 1; a joined blob's left part ``tall_parts`` of the
    blob's height (a 1 spans the number: a 4's slanted stroke does not) and its right
    part read surely, as a 0 or as the digit the whole blob reads as, never a 1 (a 1
    with a flag and a foot, cut through its stem, reads as two 1s)."""
    chances = np.exp(parts)
    if chances[0, 1] < pens.one_sure:
        return False
    if not other.joined:
        return True
    right = int(chances[1].argmax())
    seen = int(whole[1:TENS].argmax()) + 1
    if chances[1, right] < pens.part_sure or right == 1 or right not in (0, seen):
        return False
    return other.parts[0].shape[0] >= pens.tall_parts * max(p.shape[0] for p in other.parts)


def pen_share(probs: np.ndarray) -> np.ndarray:
    """(N,) each glyph's probability of handwriting from the model's (N, 19) classes (0
    empty, 1-9 printed, 10-18 handwritten): its handwritten digits' share of its digits."""
    printed = probs[:, 1:TENS].sum(axis=1)
    written = probs[:, TENS:NUM_CLASSES].sum(axis=1)
    return np.asarray(written / np.maximum(printed + written, PROB_FLOOR))


def sixteen_scorer(classifier: DigitClassifier, config: SixteenConfig) -> Scorer:
    """Scores the n² cells of straightened n×n grids (n: ``config.size``;
    ``CellScores.probs``: one column a value, n + 1; ``pen_probability``: each cell's
    chance of handwriting), every glyph of every grid in one model call."""

    def score(warped: Sequence[np.ndarray]) -> list[CellScores]:
        """Each grid's value probabilities."""
        size = classifier.config.input_size
        cleared = [cleared_cells(number_cells(w, size, config), config) for w in warped]
        found = [cleared_glyphs(c, config, config.faint_ink) for c in cleared]  # one height a grid
        glyphs = [g for cells in found for g in cells]
        probs, pen = read_numbers(glyphs, classifier, config, np.concatenate(cleared))
        parts = zip(np.split(probs, len(warped)), np.split(pen, len(warped)), strict=True)
        return [CellScores(p.astype(np.float32), pen_probability=w) for p, w in parts]

    return score


@dataclass(frozen=True)
class SixteenReading:
    """A 16×16 (or 12×12) read: the grid (turned upright), its cells' values
    (``CellReading``: 0 empty, 1-16, each printed), how the page prints the values
    (``symbols``: "" for the numbers, else ``symbols[v - 1]``) and the cells holding a
    symbol outside the page's set (``foreign``: the page is refused)."""

    grid: SmallGrid
    reading: CellReading
    symbols: str = ""
    foreign: tuple[int, ...] = ()


def read_sixteen(
    classifier: DigitClassifier,
    grid: SmallGrid,
    config: SixteenConfig = DEFAULT_SIXTEEN_CONFIG,
    orientation: OrientationConfig = DEFAULT_ORIENTATION_CONFIG,
    as_symbols: bool | None = None,
    image: np.ndarray | None = None,
) -> SixteenReading:
    """A 16×16 read: as symbols (0-9 and A-F, or A-P: ``symbols.py``) where few of its
    filled cells hold two glyphs (``is_symbol_page``), else as the numbers 1-16
    (``read_sixteen_cells``, with the ink-colour step where ``image``, the colour picture
    the grid was found in, is given); ``as_symbols`` True or False reads it so whatever.
    A 12×12 (``config.size`` 12) is read as the numbers 1-12 only."""
    check_size(grid, config)
    cells = number_cells(grid.detection.warped, classifier.config.input_size, config)
    share = config.symbols.two_glyph_share
    if config.size != len(SYMBOL_SETS[0]):
        as_symbols = False
    if not (is_symbol_page(cells, config, share) if as_symbols is None else as_symbols):
        return SixteenReading(*read_sixteen_cells(classifier, grid, config, orientation, image))
    return read_symbol_page(classifier, grid, cells, config)


def check_size(grid: SmallGrid, config: SixteenConfig) -> None:
    """Raise ValueError where the grid is not of the size ``config`` reads."""
    if grid.size != config.size:
        n = config.size
        raise ValueError(f"grid must be a {n}×{n} grid, got {grid.size}×{grid.size}")


def is_symbol_page(cells: np.ndarray, config: SixteenConfig, share: float) -> bool:
    """Whether a 16×16 may print symbols, not the numbers 1-16: it has filled cells, and
    under ``share`` of them hold two glyphs, as it lies or turned a quarter (a page of
    numbers has 10-16 in some seven of every sixteen, upright or not; a wide M may be cut
    in two, and a letter lying on its side is wide: a page of letters turned sideways)."""
    views = (cells, np.ascontiguousarray(np.rot90(cells, axes=(1, 2))))
    return any(few_two_glyph(view, config, share) for view in views)


def few_two_glyph(cells: np.ndarray, config: SixteenConfig, share: float) -> bool:
    """Whether the cells have filled ones, and under ``share`` of those hold two glyphs."""
    filled = [len(g) for g in cell_glyphs(cells, config) if g]
    two = sum(n == 2 for n in filled)
    return bool(filled) and two < share * len(filled)


def symbol_crops(cells: np.ndarray, config: SixteenConfig) -> tuple[list[int], list[np.ndarray]]:
    """The filled cells (ink at least ``min_ink``, a glyph found) and each one's ink, the
    grid lines' remains cleared first (``cleared_cells``)."""
    cleared = cleared_cells(cells, config)
    filled = [c for c, cell in enumerate(cleared) if cell.max() >= config.min_ink]
    kept = [c for c in filled if glyph_crop(cleared[c], config.symbols).size]
    return kept, [cleared[c] for c in kept]


def symbol_glyphs(
    cells: list[int],
    inks: list[np.ndarray],
    classifier: DigitClassifier,
    config: SixteenConfig,
    turns: Sequence[int] = (0,),
) -> list[Glyphs]:
    """The glyphs of the filled ``cells`` (``inks``: ``symbol_crops``) as they stand in
    the grid turned each of ``turns`` (counter-clockwise quarter turns, ``np.rot90``): the
    cells where each lies then, its shape and aspect (``symbols.glyph_feature``), the
    digit model's log-probabilities of 0-9 (one call for every turn, a zero told by its
    hole: ``is_zero``) and where it stands in its cell (``symbols.placed_crop``)."""
    if not inks:
        empty = np.zeros((0, config.symbols.side**2))
        none = Glyphs(np.zeros(0, np.int64), empty, np.zeros(0), np.zeros((0, TENS)),
                      np.zeros((0, 3)))  # fmt: skip
        return [none] * len(turns)
    placed = [placed_crop(np.ascontiguousarray(np.rot90(g, k)), config.symbols)
              for k in turns for g in inks]  # fmt: skip
    blobs = [crop for crop, _ in placed]
    probs = read_blobs(blobs, classifier.predict, classifier.config.input_size, config.glyphs)
    logs = digit_log_probs(probs, [is_zero(g, config) for g in blobs])
    out, n = [], len(inks)
    for i, k in enumerate(turns):
        shapes = [glyph_feature(g, config.symbols) for g in blobs[i * n : (i + 1) * n]]
        out.append(
            Glyphs(
                turned_positions(np.array(cells, np.int64), k, config.size),
                np.stack([f for f, _ in shapes]),
                np.log(np.array([a for _, a in shapes])),
                logs[i * n : (i + 1) * n],
                np.stack([place for _, place in placed[i * n : (i + 1) * n]]),
            )
        )
    return out


def read_symbol_page(
    classifier: DigitClassifier, grid: SmallGrid, cells: np.ndarray, config: SixteenConfig
) -> SixteenReading:
    """A 16×16 printed with symbols read in each quarter turn (``symbol_glyphs``) and the
    grid turned upright: to the turn whose glyphs name the symbols at least cost
    (``SymbolReading.cost``: their likeness to the reference glyphs and the digit model's
    votes) where it costs ``turn_margin`` less than the grid as it lies (a page
    photographed sideways or upside down). The cells read as written
    (``SymbolReading.written``) are handwritten, each as surely as its ``print_odds``
    say (a glyph nearly as like print as print is stays a given where the printed alone
    have no one answer: ``pen_split``), the rest printed."""
    filled, inks = symbol_crops(cells, config)
    turns = (0, 1, 2, 3)
    glyphs = symbol_glyphs(filled, inks, classifier, config, turns)
    found = [read_symbols(g, config=config.symbols) for g in glyphs]
    best = min(range(1, len(turns)), key=lambda i: found[i].cost)
    if not found[best].symbols or found[best].cost > found[0].cost - config.symbols.turn_margin:
        best = 0
    turned = SmallGrid(grid.size, turn_detection(grid.detection, turns[best]), grid.both_ways)
    read = found[best]
    pen = np.zeros(grid.size * grid.size)
    pen[list(read.written)] = 1.0 / (1.0 + np.exp(np.array(read.print_odds)))
    reading = printed_reading(read.probs, pen, max(config.pen_odds, default=0.0))
    return SixteenReading(turned, reading, read.symbols, read.foreign)


def read_sixteen_cells(
    classifier: DigitClassifier,
    grid: SmallGrid,
    config: SixteenConfig = DEFAULT_SIXTEEN_CONFIG,
    orientation: OrientationConfig = DEFAULT_ORIENTATION_CONFIG,
    image: np.ndarray | None = None,
) -> tuple[SmallGrid, CellReading]:
    """The grid turned upright (``read.oriented``: a 16×16 photographed sideways or upside
    down) and every cell's number (0 empty, 1-16; 1-12 on a 12×12), each printed or
    handwritten: ``probs`` has one column a value (17; 13), not the model's 19 classes.
    ``image``: the colour (BGR) picture the grid was found in, for the ink-colour step
    (``colour_odds``)."""
    check_size(grid, config)
    grid, scores = oriented(grid, sixteen_scorer(classifier, config), orientation)
    loosest = max(config.pen_odds, default=-np.inf)
    plain = printed_reading(scores.probs, scores.pen_probability, loosest)
    if image is None or plain.kind_log_odds is None:
        return grid, plain
    extra = colour_odds(plain, image, grid.detection.lattice, config.ink_colour)
    return grid, printed_reading(scores.probs, scores.pen_probability, loosest, extra)


def colour_odds(
    reading: CellReading, image: np.ndarray, lattice: np.ndarray, config: InkColourConfig
) -> np.ndarray:
    """(n²,) log-odds of print over pen to add to a 16×16's (or 12×12's) from its cells' ink colour
    (``ink_colour.colour_evidence``, as a 9×9's and a small grid's: a blue or red pen
    told from black print); zeros for a grey picture."""
    if image.ndim != 3 or image.shape[2] != 3 or reading.kind_log_odds is None:
        return np.zeros(len(reading.digits))
    tints = ink_tints(cell_ink_colours(image, lattice, config), config)
    filled = np.asarray(reading.digits) > 0
    return colour_evidence(np.asarray(reading.kind_log_odds), filled, tints, config)


def printed_reading(
    probs: np.ndarray,
    pen: np.ndarray | None = None,
    pen_odds: float = 0.0,
    extra_odds: np.ndarray | None = None,
) -> CellReading:
    """A 16×16's (or 12×12's) reading from its (n², n + 1) value probabilities: each cell its
    likeliest value, printed, or handwritten where ``pen`` (each cell's probability of handwriting;
    None: all print) gives log-odds of print over pen, ``extra_odds`` added (the ink colour's), of
    at most ``pen_odds``, those log-odds kept (``CellReading.kind_log_odds``; no notes, nothing
    crossed out or unreadable)."""
    digits = probs.argmax(axis=1).astype(np.int64)
    written = np.zeros(len(digits)) if pen is None else np.asarray(pen, np.float64)
    clipped = np.clip(written, PROB_FLOOR, 1.0 - PROB_FLOOR)
    added = np.zeros(len(digits)) if extra_odds is None else np.asarray(extra_odds)
    odds = np.where(digits > 0, np.log((1.0 - clipped) / clipped) + added, 0.0)
    kind = np.where(odds <= pen_odds, int(Kind.HANDWRITTEN), int(Kind.PRINTED))
    kinds = np.where(digits > 0, kind, int(Kind.EMPTY)).astype(np.int64)
    count = len(digits)
    reading = CellReading(probs.astype(np.float32), digits, kinds, odds)
    return replace(
        reading,
        notes=("",) * count,
        notes_sure=(True,) * count,
        crossed_out=(False,) * count,
        unreadable=(False,) * count,
    )


def solve_sixteen(
    reading: CellReading, config: SixteenConfig = DEFAULT_SIXTEEN_CONFIG, glyphs: str = ""
) -> RepairOutcome:
    """A 16×16 (or 12×12) reading solved: its printed numbers alone (``pen_split``), or
    repaired where they break the rules (``printed_repaired``); else every number as a
    given, repaired as a small grid's (``read.solve_reading``: one or two cells read as
    their next likeliest number); failing that, its ``open_least`` least sure numbers left
    open and the completion of the rest likeliest as read taken (``opened``: a misread 10
    is often read as another two-digit number, the true one far down its list).
    ``glyphs``: how the page prints the values ("" the numbers), as the messages name
    them."""
    split = pen_split(reading, config, glyphs)
    if split is not None:
        return outcome_of(split, (), ())
    mended = printed_repaired(reading, config, glyphs)
    if mended is not None:
        return mended
    first = solve_reading(reading, config.size, replace(config.lines, pen_entries=False), glyphs)
    if first.status in SOLVED_OUTCOMES:
        return first
    found = opened(reading, config, glyphs)
    if found is None:
        return first
    solved, repairs = found
    return outcome_of(solved, repairs, first.problems)


def pen_split(reading: CellReading, config: SixteenConfig, glyphs: str = "") -> SolveResult | None:
    """The printed numbers alone solved, the cells read as handwriting by log-odds of print
    over pen at most each of ``pen_odds`` in turn taken for the person's entries (at least
    ``lines.min_pen_cells`` of them; ``lines.pen_entries`` off: none): from the first with
    one answer, the loosest after it that keeps one answer (the same answer, fewer
    givens: pen numbers read less surely are entries too); None where none has (a page of
    print only, or no such split)."""
    if not config.lines.pen_entries or reading.kind_log_odds is None:
        return None
    tried: set[tuple[int, ...]] = set()
    best: SolveResult | None = None
    for most in config.pen_odds:
        written = written_at(reading, most)
        if len(written) < config.lines.min_pen_cells or written in tried:
            continue
        tried.add(written)
        printed = print_alone(reading, written)
        alone = solve_small(printed, config.size, config.lines.time_limit_s, glyphs)
        if alone is not None and alone.status in SOLVED_OUTCOMES:
            best = alone
        elif best is not None:
            break
    return best


def written_at(reading: CellReading, most: float) -> tuple[int, ...]:
    """The cells read as handwriting by log-odds of print over pen at most ``most``."""
    pen = np.asarray(reading.kinds) == Kind.HANDWRITTEN
    return tuple(np.flatnonzero(pen & (np.asarray(reading.kind_log_odds) <= most)).tolist())


def print_alone(reading: CellReading, written: tuple[int, ...]) -> tuple[int, ...]:
    """The reading's values with the ``written`` cells left empty: the printed numbers."""
    return tuple(0 if c in written else v for c, v in enumerate(givens_of(reading)))


def printed_repaired(
    reading: CellReading, config: SixteenConfig, glyphs: str = ""
) -> RepairOutcome | None:
    """The printed numbers alone, where they break the rules or have no answer, repaired
    (``read.repaired``: one or two read as their next likeliest number; a bold printed 10
    read as 11 at 97 %, twice, beside a printed 11), first among the cells that break the
    rules, then among the least sure; the cells read as handwriting by log-odds at most the
    first of ``pen_odds`` the person's entries (at least ``lines.min_pen_cells``). Before
    the whole page is taken as givens and repaired: a person's wrong entry there would be
    a given that breaks the rules. None where the printed numbers have one answer or
    several (changing one could single out a wrong one), or no such repair gives one."""
    strictest = min(config.pen_odds, default=None)
    if not config.lines.pen_entries or reading.kind_log_odds is None or strictest is None:
        return None
    written = written_at(reading, strictest)
    if len(written) < config.lines.min_pen_cells:
        return None
    printed = print_alone(reading, written)
    first = solve_small(printed, config.size, config.lines.time_limit_s, glyphs)
    if first is None or first.status not in (Outcome.INVALID, Outcome.NO_SOLUTION):
        return None  # several answers: changing a number could single out a wrong one
    problems = problems_of(first, config.size)
    breaking = sorted({c for problem in problems for c in problem.cells})
    for among in ([breaking] if breaking else []) + [None]:
        found, _ = repaired(reading, printed, config.size, config.lines, glyphs, among)
        if found is not None:
            solved, repairs = found
            return outcome_of(solved, repairs, problems)
    return None


def opened(
    reading: CellReading, config: SixteenConfig, glyphs: str = ""
) -> tuple[SolveResult, tuple[Repair, ...]] | None:
    """The reading with its least sure number left open, then its two least sure, ... up
    to ``open_least``, until the completion of the rest likeliest as read (``completed``)
    makes a puzzle of one answer: that solved, and the cells whose number it changed (as
    repairs); None where none does."""
    values = givens_of(reading)
    logs = np.log(np.maximum(value_probabilities(reading), PROB_FLOOR))
    filled = [c for c, v in enumerate(values) if v]
    unsure = sorted(filled, key=lambda c: float(logs[c, values[c]]))
    deadline = time.monotonic() + config.lines.time_limit_s
    for count in range(1, min(config.open_least, len(unsure)) + 1):
        if time.monotonic() > deadline:
            break
        fixed = completed(values, unsure[:count], logs, config.completions, deadline, config.size)
        limit = config.lines.time_limit_s
        result = None if fixed is None else solve_small(fixed, config.size, limit, glyphs)
        if fixed is not None and result is not None and result.status in SOLVED_OUTCOMES:
            probability = np.exp(logs)
            repairs = tuple(
                Repair(c, values[c], fixed[c], float(probability[c, values[c]]),
                       float(probability[c, fixed[c]]), size=config.size, symbols=glyphs)
                for c in unsure[:count]
                if fixed[c] != values[c]
            )  # fmt: skip
            return result, repairs
    return None


def completed(
    values: tuple[int, ...],
    least: list[int],
    logs: np.ndarray,
    limit: int,
    deadline: float,
    size: int = SIXTEEN,
) -> tuple[int, ...] | None:
    """The values with the cells ``least`` as the likeliest (by ``logs``, each cell's
    log-probability of each number) of the rest's completions (``limit`` at most, found
    by ``deadline``); None where the rest has none or the search runs past ``deadline``
    (a refusal, never a traceback)."""
    kept = [0 if c in least else v for c, v in enumerate(values)]
    tables = variant_tables(size, (), False, ())
    try:
        found = find_variant_solutions(kept, tables, limit, deadline)
    except SearchTimeoutError:
        return None
    if not found:
        return None
    best = max(found, key=lambda s: sum(float(logs[c, s[c]]) for c in least))
    return tuple(best[c] if c in least else v for c, v in enumerate(values))


def refused(reading: CellReading, foreign: tuple[int, ...], glyphs: str) -> RepairOutcome:
    """A symbol page holding glyphs of none of its 16 symbols (``read_sixteen``'s
    ``foreign`` cells): not solved (INVALID), the cells named; the givens are the rest."""
    names = ", ".join(cell_name(c, SIXTEEN) for c in foreign[:MAX_NAMED])
    more = f" and {len(foreign) - MAX_NAMED} more" if len(foreign) > MAX_NAMED else ""
    verb = "holds" if len(foreign) == 1 else "hold"
    text = (
        f"{names}{more} {verb} a symbol outside the grid's 16 ({set_words(glyphs)}): "
        "a 16×16 prints 16 different symbols"
    )
    problem = Problem(ProblemKind.FOREIGN_SYMBOL, foreign, text)
    return RepairOutcome(givens_text(reading), (), None, Outcome.INVALID, (problem,), 0)


def set_words(glyphs: str) -> str:
    """A symbol set in a person's words: '0-9 and A-F', 'A-P' (else its characters)."""
    if glyphs == "0123456789ABCDEF":
        return "0-9 and A-F"
    if glyphs == "ABCDEFGHIJKLMNOP":
        return "A-P"
    return glyphs or f"1-{SIXTEEN}"


def givens_text(reading: CellReading) -> str:
    """The reading's values as ``Digits`` (0 empty)."""
    return digits_of(int(v) for v in reading.digits)
