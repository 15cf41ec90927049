"""Read a 16×16 Sudoku printed with symbols the digit model does not know: 0-9 and A-F,
or the letters A-P.

The digit model knows 1-9 only, so the givens are read by their shapes. A puzzle's
givens are printed in one typeface: every glyph of one symbol looks alike. The filled
cells' glyphs (``glyph_crop``: the cell's ink cut to its box) are scaled to one square
(``glyph_feature``) and grouped (``cluster``): the two most alike groups join first,
never two glyphs of one row, column or box (a Sudoku holds a symbol once in each), until
16 are left or no two groups match well enough. More than 16 groups is a page holding a
symbol outside its set: refused, the odd cells named (``SymbolReading.foreign``). The
groups are then named (``name_groups``) as one assignment (``assign.assignment``) over
every group and symbol of each set (0-9A-F, A-P) and reference face: the cost of naming
a group a symbol is how unlike the group's mean glyph is to the symbol's reference glyph
(``glyphs/glyphs.npz``, rendered at build time by ``glyphs/make_glyphs.py``) plus the
digit model's vote against it (a digit it reads, a letter it cannot); the set and face of
least total cost win. Each glyph's probability of each symbol is its match with each
group (``symbol_probs``), so that the reading is solved and repaired as a 16×16 of
numbers is (``sixteen.solve_sixteen``): a Sudoku is solved under any naming of its
symbols, and the solver proves the answer unique as for any grid.

A page half solved in pen: printed glyphs of one symbol are near copies, set at one
height and centred alike in their cells; a hand's are not (``split_written``: the 16
largest groups of near copies in shape and place, ``print_join`` and
``placed_likeness``, and the glyphs ``print_like`` as one of theirs are printed; the
rest, ``min_written`` of them at least, are written). The printed glyphs are grouped
and named as above; each written one is read alone against the reference glyphs'
shapes (``written_probs``, never surer than ``written_sure``: an entry read so is asked
about, never called wrong) and marked as written (``SymbolReading.written``), so that
the printed symbols alone are solved and the entries checked as on a page of numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from .assign import assignment
from .sixteen_config import DEFAULT_SYMBOL_CONFIG, SymbolConfig

SIDE = 16  # cells a side
BOX = 4  # cells a box side
REFERENCE_SYMBOLS = "0123456789ABCDEFGHIJKLMNOP"  # the symbols of the reference glyphs
SYMBOL_SETS = ("0123456789ABCDEF", "ABCDEFGHIJKLMNOP")  # what a 16×16 prints beside 1-16
DIGITS = "0123456789"
GLYPHS_FILE = Path(__file__).parent / "glyphs" / "glyphs.npz"
PROB_FLOOR = 1e-6
LEAST_ODDS = 30.0  # a written glyph's log-odds of print over pen, at least minus this


@dataclass(frozen=True)
class Glyphs:
    """The glyphs of a grid's filled cells: ``cells`` (N,) their cell numbers (row by
    row), ``features`` (N, D) their shapes (``glyph_feature``), ``aspects`` (N,) their log
    width / height, ``digit_logs`` (N, 10) the digit model's log-probabilities of 0-9,
    ``places`` (N, 3) where each stands in its cell (``placed_crop``: its height, its
    centre down and right of the cell's)."""

    cells: np.ndarray
    features: np.ndarray
    aspects: np.ndarray
    digit_logs: np.ndarray
    places: np.ndarray


@dataclass(frozen=True)
class References:
    """Reference glyphs: ``features`` (F, S, D) of S symbols (``symbols``) in F faces,
    ``aspects`` (F, S) their log width / height."""

    features: np.ndarray
    aspects: np.ndarray
    symbols: str


@dataclass(frozen=True)
class Naming:
    """The groups named: ``symbols`` the set the page prints, ``values`` (G,) each group's
    value (1-16: the symbol ``symbols[value - 1]``), ``cost`` the naming's total cost."""

    symbols: str
    values: tuple[int, ...]
    cost: float


@dataclass(frozen=True)
class SymbolReading:
    """A symbol page read: ``probs`` (256, 17) each cell's probability of empty (column 0)
    and of each value 1-16, ``symbols`` how the page prints the values, ``foreign`` the
    cells holding a glyph of none of the grid's 16 symbols (their probs say empty),
    ``cost`` the naming's total cost (``Naming.cost``: lower is a better match with the
    reference glyphs; the page read in each quarter turn, the least is upright),
    ``written`` the cells whose glyph is handwriting (``split_written``), ``print_odds``
    each one's log-odds of print over pen (``Split.odds``)."""

    probs: np.ndarray
    symbols: str
    foreign: tuple[int, ...]
    cost: float = 0.0
    written: tuple[int, ...] = ()
    print_odds: tuple[float, ...] = ()


@dataclass(frozen=True)
class Split:
    """A page's glyphs (index arrays) ``printed`` and ``written``, and ``odds`` (as
    ``written``) each written one's log-odds of print over pen: how nearly it is as like
    a printed glyph as print is (``doubt_scale``; all below 0)."""

    printed: np.ndarray
    written: np.ndarray
    odds: np.ndarray


@cache
def load_references(path: Path = GLYPHS_FILE) -> References:
    """The reference glyphs shipped with the package (``glyphs/make_glyphs.py``)."""
    with np.load(path) as data:
        return References(
            np.asarray(data["features"], np.float64),
            np.log(np.asarray(data["aspects"], np.float64)),
            str(data["symbols"]),
        )


def glyph_crop(cell: np.ndarray, config: SymbolConfig = DEFAULT_SYMBOL_CONFIG) -> np.ndarray:
    """A cell's ink (float, 1 = darkest) cut to the box of its glyph: the blobs at least
    ``ink_share`` of its darkest, specks under ``speck_share`` of the largest left out."""
    return placed_crop(cell, config)[0]


def placed_crop(
    cell: np.ndarray, config: SymbolConfig = DEFAULT_SYMBOL_CONFIG
) -> tuple[np.ndarray, np.ndarray]:
    """A cell's glyph cut to its box (``glyph_crop``) and where it stands in the cell
    (3,): the box's height, and its centre's offsets down and right of the cell's centre,
    as shares of the cell's height and width (zeros where the cell holds no glyph)."""
    if cell.ndim != 2:
        raise ValueError(f"cell must be a 2-D ink image, got shape {cell.shape}")
    mask = (cell >= config.ink_share * max(float(cell.max()), PROB_FLOOR)).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count <= 1:
        return np.zeros((0, 0), np.float32), np.zeros(3)
    areas = stats[1:, cv2.CC_STAT_AREA]
    kept = np.isin(labels, 1 + np.flatnonzero(areas >= config.speck_share * areas.max()))
    ys, xs = np.nonzero(kept)
    top, bottom, left, right = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    h, w = cell.shape
    place = np.array([(bottom - top) / h, (top + bottom) / (2 * h) - 0.5,
                      (left + right) / (2 * w) - 0.5])  # fmt: skip
    crop = np.where(kept, cell, 0.0)[top:bottom, left:right].astype(np.float32)
    return crop, place


def glyph_feature(
    ink: np.ndarray, config: SymbolConfig = DEFAULT_SYMBOL_CONFIG
) -> tuple[np.ndarray, float]:
    """A glyph's shape, (side², ) zero mean and unit length (its ink cut to its box,
    ``margin`` of paper around, scaled to ``side`` × ``side``, blurred), and its width /
    height."""
    crop = glyph_crop(ink, config)
    if crop.size == 0:
        raise ValueError("ink holds no glyph")
    h, w = crop.shape
    margin = round(config.margin * max(h, w))  # paper around: a bar (an I) has edges too
    framed = np.pad(crop, margin)
    square = cv2.resize(framed, (config.side, config.side), interpolation=cv2.INTER_AREA)
    if config.blur > 0:
        square = cv2.GaussianBlur(square, (0, 0), config.blur)
    flat = square.astype(np.float64).ravel()
    flat -= flat.mean()
    return flat / max(float(np.linalg.norm(flat)), PROB_FLOOR), w / h


def peers(cells: np.ndarray) -> np.ndarray:
    """(N, N) whether two cells share a row, column or box (themselves included)."""
    rows, cols = cells // SIDE, cells % SIDE
    boxes = (rows // BOX) * BOX + cols // BOX
    return (
        (rows[:, None] == rows[None, :])
        | (cols[:, None] == cols[None, :])
        | (boxes[:, None] == boxes[None, :])
    )


def likeness(glyphs: Glyphs, config: SymbolConfig) -> np.ndarray:
    """(N, N) how alike two glyphs are: correlation of shapes, less the aspect's cost."""
    shape = glyphs.features @ glyphs.features.T
    aspect = np.abs(glyphs.aspects[:, None] - glyphs.aspects[None, :])
    return np.asarray(shape - config.aspect_weight * aspect)


def placed_likeness(glyphs: Glyphs, config: SymbolConfig) -> np.ndarray:
    """(N, N) how alike two glyphs are as copies of one print: their ``likeness`` less
    ``place_weight`` for each share of the cell by which they stand apart (height, or
    centre down or right: the most of the three) past ``place_slack``."""
    apart = np.abs(glyphs.places[:, None, :] - glyphs.places[None, :, :]).max(axis=2)
    shift = np.maximum(apart - config.place_slack, 0.0)
    return np.asarray(likeness(glyphs, config) - config.place_weight * shift)


def cluster(
    glyphs: Glyphs, config: SymbolConfig, most: int = SIDE, sim: np.ndarray | None = None
) -> list[list[int]]:
    """The glyphs (indices) in groups of one symbol each, largest first: the two groups
    most alike on average (``sim``, default ``likeness``) join first, never two holding
    peers (``peers``), until ``most`` are left or no two match ``join_from`` on average."""
    sim = likeness(glyphs, config) if sim is None else sim
    total, count = sim.copy(), np.ones_like(sim)
    clash = peers(glyphs.cells)
    groups: list[list[int]] = [[i] for i in range(len(sim))]
    alive = np.ones(len(sim), bool)
    while alive.sum() > most:
        mean = np.where(clash | ~alive[:, None] | ~alive[None, :], -np.inf, total / count)
        i, j = np.unravel_index(int(np.argmax(mean)), mean.shape)
        if mean[i, j] < config.join_from:
            break
        total[i] += total[j]
        total[:, i] = total[i]
        count[i] += count[j]
        count[:, i] = count[i]
        clash[i] |= clash[j]
        clash[:, i] = clash[i]
        alive[j] = False
        groups[i] += groups[j]
    kept = [groups[k] for k in np.flatnonzero(alive)]
    return sorted(kept, key=len, reverse=True)


def group_means(glyphs: Glyphs, groups: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Each group's mean shape (unit length, (G, D)) and mean log aspect (G,)."""
    means = np.stack([glyphs.features[list(g)].mean(axis=0) for g in groups])
    means /= np.maximum(np.linalg.norm(means, axis=1, keepdims=True), PROB_FLOOR)
    return means, np.array([glyphs.aspects[list(g)].mean() for g in groups])


def vote_costs(glyphs: Glyphs, groups: Sequence[Sequence[int]], symbols: str) -> np.ndarray:
    """(G, 16) the digit model's cost of naming each group each symbol: -log of the
    group's mean probability of a digit; NaN for a letter (the model cannot say)."""
    probs = np.stack([np.exp(glyphs.digit_logs[list(g)]).mean(axis=0) for g in groups])
    out = np.full((len(groups), len(symbols)), np.nan)
    for k, s in enumerate(symbols):
        if s in DIGITS:
            out[:, k] = -np.log(np.maximum(probs[:, DIGITS.index(s)], PROB_FLOOR))
    return out


def naming_costs(
    glyphs: Glyphs,
    groups: Sequence[Sequence[int]],
    refs: References,
    symbols: str,
    config: SymbolConfig,
) -> np.ndarray:
    """(F, G, 16) the cost of naming each group each symbol of ``symbols`` by the
    reference glyphs of each face: shape (1 - correlation) and aspect unlike the
    reference, and the digit model's vote (``vote_costs``; ``letter_cost`` for a letter)."""
    means, aspects = group_means(glyphs, groups)
    index = [refs.symbols.index(s) for s in symbols]
    shape = 1.0 - np.einsum("gd,fsd->fgs", means, refs.features[:, index])
    aspect = np.abs(aspects[None, :, None] - refs.aspects[:, index][:, None, :])
    votes = np.nan_to_num(vote_costs(glyphs, groups, symbols), nan=config.letter_cost)
    return np.asarray(shape + config.aspect_weight * aspect + config.model_weight * votes[None])


def name_groups(
    glyphs: Glyphs, groups: Sequence[Sequence[int]], refs: References, config: SymbolConfig
) -> Naming:
    """The naming of least total cost over every symbol set and reference face, each
    group a different symbol (``assign.assignment``)."""
    best: Naming | None = None
    for symbols in SYMBOL_SETS:
        for cost in naming_costs(glyphs, groups, refs, symbols, config):
            chosen = assignment(cost)
            total = float(sum(cost[g, s] for g, s in enumerate(chosen)))
            if best is None or total < best.cost:
                best = Naming(symbols, tuple(s + 1 for s in chosen), total)
    if best is None:
        raise ValueError("no symbol set to name the groups with")
    return best


def symbol_probs(
    glyphs: Glyphs, groups: Sequence[Sequence[int]], naming: Naming, config: SymbolConfig
) -> np.ndarray:
    """(256, 17) each cell's probability of empty and of each value: a glyph's match with
    each group's mean (``sure_scale`` sharp), given to the group's value."""
    out = np.zeros((SIDE * SIDE, SIDE + 1), np.float64)
    out[:, 0] = 1.0
    if not groups:
        return out
    means, aspects = group_means(glyphs, groups)
    match = glyphs.features @ means.T - config.aspect_weight * np.abs(
        glyphs.aspects[:, None] - aspects[None, :]
    )
    scaled = np.exp((match - match.max(axis=1, keepdims=True)) / config.sure_scale)
    scaled /= scaled.sum(axis=1, keepdims=True)
    rows = np.zeros((len(glyphs.cells), SIDE + 1))
    rows[:, list(naming.values)] = scaled
    out[glyphs.cells] = np.maximum(rows, PROB_FLOOR * 1e-3)
    out[glyphs.cells, 0] = 0.0
    return out / out.sum(axis=1, keepdims=True)


def subset(glyphs: Glyphs, index: np.ndarray) -> Glyphs:
    """The glyphs at ``index`` (an index array)."""
    return Glyphs(glyphs.cells[index], glyphs.features[index], glyphs.aspects[index],
                  glyphs.digit_logs[index], glyphs.places[index])  # fmt: skip


def split_written(glyphs: Glyphs, config: SymbolConfig) -> Split:
    """The glyphs printed and written: the 16 largest groups of near copies (``cluster``
    joining only at ``print_join``, likeness and place: ``placed_likeness``) set as print
    is (``set_as_print``), and any more such of ``print_extra`` glyphs at least, are
    printed, and each other glyph as ``print_like`` as a glyph of one of them (not its
    peer); the rest are written where there are ``min_written`` of them, else none (a
    lone odd glyph is a symbol outside the set: ``read_symbols``)."""
    placed = placed_likeness(glyphs, config)
    groups = cluster(glyphs, replace(config, join_from=config.print_join), sim=placed)
    core = [g for g in groups if set_as_print(glyphs, g, config)]
    core = core[:SIDE] + [g for g in core[SIDE:] if len(g) >= config.print_extra]
    sim = np.where(peers(glyphs.cells), -np.inf, placed)
    inside = np.zeros(len(glyphs.cells), bool)
    inside[[i for g in core for i in g]] = True
    near = np.max([sim[:, g].max(axis=1) for g in core] or [np.full(len(inside), -np.inf)], axis=0)
    printed = inside | (near >= config.print_like)
    if int((~printed).sum()) < config.min_written:
        return Split(np.arange(len(glyphs.cells)), np.zeros(0, np.int64), np.zeros(0))
    odds = np.clip((near[~printed] - config.print_like) / config.doubt_scale, -LEAST_ODDS, 0.0)
    return Split(np.flatnonzero(printed), np.flatnonzero(~printed), odds)


def set_as_print(glyphs: Glyphs, group: Sequence[int], config: SymbolConfig) -> bool:
    """Whether a group of glyphs stands in its cells as the page's print does: its tops
    (every symbol's the cap line; a tail hangs below) and its centres across (set
    centred) within ``print_slack`` of the page's, the median of every glyph's (most of
    a page's glyphs are print)."""
    tops = glyphs.places[:, 1] - glyphs.places[:, 0] / 2
    lines = np.stack([tops, glyphs.places[:, 2]], axis=1)
    apart = np.abs(np.median(lines[list(group)], axis=0) - np.median(lines, axis=0))
    return bool((apart <= config.print_slack).all())


def written_probs(
    glyphs: Glyphs, refs: References, naming: Naming, config: SymbolConfig
) -> np.ndarray:
    """(N, 17) each written glyph's probability of each value: its naming cost alone
    (``naming_costs``, each glyph a group) by the reference glyphs' shapes alone (a
    hand's width and the digit model's vote aside: with them, fewer of the measured hex
    pages' written glyphs were read right) in the page's symbols, least over the faces,
    softmax of -cost / ``written_scale`` weighed ``written_sure`` against all alike (a
    hand unlike every reference: an entry read as another symbol is asked about, never
    called wrong)."""
    out = np.zeros((len(glyphs.cells), SIDE + 1))
    if not len(glyphs.cells) or not naming.symbols:
        return out
    alone = [[i] for i in range(len(glyphs.cells))]
    shapes = replace(config, aspect_weight=0.0, model_weight=0.0)
    cost = naming_costs(glyphs, alone, refs, naming.symbols, shapes).min(axis=0)
    scaled = np.exp(-(cost - cost.min(axis=1, keepdims=True)) / config.written_scale)
    sure = config.written_sure
    out[:, 1:] = sure * scaled / scaled.sum(axis=1, keepdims=True) + (1.0 - sure) / SIDE
    return out


def read_symbols(
    glyphs: Glyphs, refs: References | None = None, config: SymbolConfig = DEFAULT_SYMBOL_CONFIG
) -> SymbolReading:
    """A symbol page's glyphs split into printed and written (``split_written``), the
    printed read (``read_printed``), the written each read alone (``written_probs``)."""
    split = split_written(glyphs, config)
    refs = refs or load_references()
    found = read_printed(subset(glyphs, split.printed), refs, config)
    if not len(split.written) or not found.symbols:
        return found
    hand = subset(glyphs, split.written)
    naming = Naming(found.symbols, (), found.cost)
    probs = found.probs.copy()
    probs[hand.cells] = written_probs(hand, refs, naming, config)
    order = np.argsort(hand.cells)
    cells = tuple(int(c) for c in hand.cells[order])
    odds = tuple(float(o) for o in split.odds[order])
    return replace(found, probs=probs, written=cells, print_odds=odds)


def read_printed(glyphs: Glyphs, refs: References, config: SymbolConfig) -> SymbolReading:
    """A symbol page's printed glyphs grouped, named and read (module docstring); glyphs
    of the groups past 16 (a symbol outside the set) are ``foreign`` and read as empty."""
    groups = cluster(glyphs, config)
    kept, odd = groups[:SIDE], groups[SIDE:]
    foreign = tuple(sorted(int(glyphs.cells[i]) for g in odd for i in g))
    inside = np.flatnonzero(~np.isin(glyphs.cells, foreign))
    renumber = {int(old): new for new, old in enumerate(inside)}
    shown = subset(glyphs, inside)
    kept = [[renumber[i] for i in g] for g in kept]
    if not kept:
        return SymbolReading(symbol_probs(shown, kept, Naming("", (), 0.0), config), "", foreign)
    naming = name_groups(shown, kept, refs, config)
    probs = symbol_probs(shown, kept, naming, config)
    return SymbolReading(probs, naming.symbols, foreign, naming.cost)
