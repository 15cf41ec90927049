"""Killer cage outlines: the dashed lines set inside the cells, and the cages they enclose.

Every side of every cell is profiled inward from its grid line (``side_strips``; the
grid line found near its place, the outermost strong peak on a thin one: ``aligned``;
where a border's two sides disagree, the one nearer the line's course along the grid
speaks for both: ``along_lines``). A
cage outline runs a little inside the grid lines, at the same inset all over the grid
(``line_inset``), so a side on a cage's edge shows a second, fainter line there that a
side inside a cage lacks (``evidence_at``: only along the part of the side where the
paper beyond the line is clear, as a digit across it hides it). The borders between cells
split into those with a line on both sides and those without (``find_cage_lines``: thin
borders at ``split_limit``, each direction by itself where it splits cleanly:
``direction_split``; box borders at ``box_limit``, as a thick line's edge raises them);
whether they split cleanly says whether the grid has cages at all (``has_cages``). Lines
so close to a blurred grid line that no dip shows before them are looked for where the
borders' ink at one offset splits in two groups far apart (``faint_lines``). The cells
joined across the borders without a line are the cages (``group_cells``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..read.cells import CellConfig, ink_image
from .borders import piece_roots
from .cage_config import CageConfig

TOP, BOTTOM, LEFT, RIGHT = range(4)  # the sides of a cell, in the order of side_strips
SPREAD_FLOOR = 1e-3  # keeps a split of identical values finite


@dataclass(frozen=True)
class CageLines:
    """The cage lines seen in a grid.

    evidence: (81, 4) each cell side's cage-line ink (TOP, BOTTOM, LEFT, RIGHT).
    inset: the cage lines' distance inside the grid lines, share of a cell.
    open_ink, line_ink: the mean ink of the thin borders without and with a cage line;
    open_share: the share of thin borders without one.
    separation: for faint lines that merge into the grid line's blur (``faint_lines``),
        the gap between the two groups of thin borders over their spread; 0 for lines
        told by the dip before them.
    across: (9, 8) the vertical borders between columns c and c+1 that are cage borders;
    down: (8, 9) the horizontal ones between rows r and r+1.
    """

    evidence: np.ndarray
    inset: float
    open_ink: float
    line_ink: float
    open_share: float
    across: np.ndarray
    down: np.ndarray
    separation: float = 0.0


def side_strips(ink: np.ndarray, config: CageConfig) -> tuple[np.ndarray, int]:
    """(81, 4, L, S) ink strips from ``search`` px outside each side's grid line inward
    (the offset L) along ``span`` of the side (S), and ``search`` (the index where the
    grid line should be)."""
    p = config.cell_px
    k, half = max(2, round(config.line_search * p)), p // 2
    a, b = round(config.span[0] * p), round(config.span[1] * p)
    padded = np.pad(ink, half)
    out = np.zeros((81, 4, k + half, b - a), np.float32)
    for cell in range(81):
        y, x = (v * p + half for v in divmod(cell, 9))
        out[cell, TOP] = padded[y - k : y + half, x + a : x + b]
        out[cell, BOTTOM] = padded[y + p - half : y + p + k, x + a : x + b][::-1]
        out[cell, LEFT] = padded[y + a : y + b, x - k : x + half].T
        out[cell, RIGHT] = padded[y + a : y + b, x + p - half : x + p + k].T[::-1]
    return out, k


def aligned(
    strips: np.ndarray, search: int, share: float = 1.0, reach: int = 0, max_shift: int = 0
) -> np.ndarray:
    """(81, 4, T, S) the strips moved so each starts at its own grid line: on a thin grid
    line the outermost peak of the side's mean profile within ``search`` of where it
    should be that holds ``share`` of the darkest point's ink there (a cage line inside
    the cell, as dark as a faint grid line, is never taken for it); on a thick one its
    darkest point. With ``reach``, a border's two sides found more than ``max_shift`` px
    apart start where ``along_lines`` puts them."""
    window = strips[:, :, : 2 * search + 1].mean(axis=-1)
    top = window.max(axis=-1, keepdims=True)
    peak = np.concatenate([window[..., :-1] >= window[..., 1:], np.ones_like(top, bool)], -1)
    need = np.where(thick_sides()[..., None], top, share * top)
    centre = np.argmax((window >= need) & peak, axis=2)
    if reach:
        centre = along_lines(centre, search, reach, max_shift)
    length = strips.shape[2] - 2 * search - 1
    idx = centre[:, :, None] + np.arange(length)[None, None, :]
    return np.take_along_axis(strips, idx[..., None], axis=2)


def along_lines(centre: np.ndarray, search: int, reach: int, max_shift: int) -> np.ndarray:
    """(81, 4) the grid line's index in each side's strip (``centre``, as ``aligned`` found
    it), where the two sides of a border put their line more than ``max_shift`` px apart,
    both moved to the place of the one nearer where the sides along the same grid line put
    it (their median over ``reach`` cells either way): a pen stroke or a dotted cage line
    just beyond a thin line can outdo the line on one side. Where both sides agree, the
    line lies there (a lattice a little off near the grid's edge)."""
    place = line_places(centre, search)
    median = np.empty(place.shape[:-1])
    for i in range(9):
        near = place[:, :, max(0, i - reach) : i + reach + 1]
        median[:, :, i] = np.nanmedian(near.reshape(2, 10, -1), axis=-1)
    before, after = place[..., 0], place[..., 1]
    nearer = np.where(np.abs(before - median) <= np.abs(after - median), before, after)
    apart = np.abs(before - after) > max_shift  # False on the outer lines (one side: NaN)
    moved = side_places(np.where(apart[..., None], nearer[..., None], place))
    outward = np.array([True, False, True, False])  # TOP, LEFT count from outside in
    index = np.where(outward, moved + search, search - 1 - moved)
    return np.clip(index, 0, 2 * search).astype(int)


def line_places(centre: np.ndarray, search: int) -> np.ndarray:
    """(2, 10, 9, 2) where each side found its grid line, px past where it should be
    (down or right): the lines between rows then those between columns, each line's
    cells along it, the side before the line (BOTTOM, RIGHT) then after it (TOP, LEFT);
    NaN where no cell lies (the grid's outer lines)."""
    c = centre.reshape(9, 9, 4).astype(np.float64)
    out = np.full((2, 10, 9, 2), np.nan)
    out[0, 1:, :, 0] = search - 1 - c[:, :, BOTTOM]
    out[0, :-1, :, 1] = c[:, :, TOP] - search
    out[1, 1:, :, 0] = (search - 1 - c[:, :, RIGHT]).T
    out[1, :-1, :, 1] = (c[:, :, LEFT] - search).T
    return out


def side_places(place: np.ndarray) -> np.ndarray:
    """(81, 4) each cell side's value of a ``line_places`` array."""
    out = np.empty((9, 9, 4))
    out[:, :, BOTTOM], out[:, :, TOP] = place[0, 1:, :, 0], place[0, :-1, :, 1]
    out[:, :, RIGHT], out[:, :, LEFT] = place[1, 1:, :, 0].T, place[1, :-1, :, 1].T
    return out.reshape(81, 4)


def thick_sides() -> np.ndarray:
    """(81, 4) which cell sides lie on a box line or the grid's border."""
    out = np.zeros((9, 9, 4), bool)
    out[[0, 3, 6], :, TOP], out[[2, 5, 8], :, BOTTOM] = True, True
    out[:, [0, 3, 6], LEFT], out[:, [2, 5, 8], RIGHT] = True, True
    return out.reshape(81, 4)


def evidence_at(strips: np.ndarray, t: int, gap: int, config: CageConfig) -> np.ndarray:
    """Ink of a line ``t`` px in from the grid line above the paper ``gap`` px beyond it
    (``strips``: aligned, offset then place along the side), along the part of the side
    where that paper is clear (``clear_ink``): a digit written across the line, or
    reaching the paper beyond it, hides whether a line is there. Where less than
    ``min_clear`` of the side is clear, along all of it."""
    paper_band = strips[..., t + gap : t + 2 * gap, :].mean(axis=-2)
    clear = paper_band <= config.clear_ink
    enough = clear.mean(axis=-1, keepdims=True) >= config.min_clear
    weight = np.where(enough, clear, True).astype(np.float32)
    weight /= weight.sum(axis=-1, keepdims=True)
    profile = np.einsum("...ts,...s->...t", strips, weight)
    return mean_evidence_at(profile, t, gap)


def mean_evidence_at(q: np.ndarray, t: int, gap: int) -> np.ndarray:
    """``evidence_at`` of mean profiles ``q`` (the last axis the offset)."""
    peak = q[..., t - 1 : t + 2].max(axis=-1)
    return np.asarray(peak - q[..., t + gap : t + 2 * gap].mean(axis=-1))


def line_inset(q: np.ndarray, config: CageConfig) -> tuple[int, int]:
    """The cage lines' offset in px and the paper gap in px: where all the sides' mean
    profile shows most line ink above both the dip before it and the paper beyond it."""
    p = config.cell_px
    gap = max(2, round(config.paper_gap * p))
    lo = max(2, round(config.inset[0] * p))
    hi = min(round(config.inset[1] * p), q.shape[-1] - 2 * gap)
    mean = q.reshape(-1, q.shape[-1]).mean(axis=0)
    paper = [float(mean[t + gap : t + 2 * gap].mean()) for t in range(lo, hi + 1)]
    scores = [float(mean[t - 1 : t + 2].max()) - max(float(mean[1:t].min()), paper[t - lo])
              for t in range(lo, hi + 1)]  # fmt: skip
    return lo + int(np.argmax(scores)), gap


def border_evidence(evidence: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(9, 8) and (8, 9): the mean evidence of each inner border's two sides."""
    e = evidence.reshape(9, 9, 4)
    across = (e[:, :-1, RIGHT] + e[:, 1:, LEFT]) / 2
    down = (e[:-1, :, BOTTOM] + e[1:, :, TOP]) / 2
    return across, down


def thin_borders() -> tuple[np.ndarray, np.ndarray]:
    """(9, 8) and (8, 9): which inner borders lie on thin grid lines (not box lines)."""
    across, down = np.ones((9, 8), bool), np.ones((8, 9), bool)
    across[:, [2, 5]], down[[2, 5], :] = False, False
    return across, down


def two_means(values: np.ndarray, least: int) -> tuple[float, float, float]:
    """The split of ``values`` into a low and a high group (each at least ``least``) with
    the least spread: the low mean, the high mean and the low group's share."""
    s = np.sort(np.asarray(values, dtype=np.float64))
    n = len(s)
    splits = np.arange(least, n - least + 1)
    if not len(splits):
        return 0.0, 0.0, 0.0
    sums, squares = np.concatenate(([0.0], np.cumsum(s))), np.concatenate(([0.0], np.cumsum(s * s)))
    low_sum, high_sum = sums[splits], sums[n] - sums[splits]
    spread = (squares[splits] - low_sum**2 / splits) + (
        squares[n] - squares[splits] - high_sum**2 / (n - splits)
    )  # each group's variance times its size, from running sums
    i = int(splits[int(np.argmin(spread))])
    return float(s[:i].mean()), float(s[i:].mean()), i / n


def find_cage_lines(warped: np.ndarray, config: CageConfig) -> CageLines:
    """The cage lines of a straightened grid (uint8 gray square), drawn or not.

    The borders on thin grid lines split into those with a cage line and those without
    (``two_means``); the split's midway ink decides every border (``box_limit`` for those
    on box lines). Where the lines seen by the dip before them show no cages, lines too
    close to the grid line to show a dip are looked for (``faint_lines``).
    """
    ink = ink_image(warped, CellConfig(cell_px=config.cell_px, inset_px=0))
    strips, search = side_strips(ink, config)
    lined = aligned(
        strips,
        search,
        config.align_share,
        config.line_reach,
        round(config.line_agree * config.cell_px),
    )
    q = lined.mean(axis=-1)
    t, gap = line_inset(q, config)
    lines = lines_from(evidence_at(lined, t, gap, config), t / config.cell_px, config)
    if has_cages(lines, config):
        return lines
    faint = faint_lines(q, config)
    return faint if faint is not None and has_cages(faint, config) else lines


def lines_from(
    evidence: np.ndarray, inset: float, config: CageConfig, separation: float = 0.0
) -> CageLines:
    """The cage borders that (81, 4) side evidence gives: the thin borders split in two
    groups (``two_means``) at ``split_limit``, each direction by itself where it splits
    cleanly (``direction_split``), the box borders at ``box_limit``. Where both directions
    split cleanly but one split of all thin borders would cut them otherwise (a photo at
    a slant that blurs one direction's lines to a part of the other's ink: the lines
    across fall in the open group), each direction is its own throughout: its box
    borders held to its own groups, and the open and line ink and the open share those
    of both directions' groups together (``pooled``)."""
    across, down = border_evidence(evidence)
    thin_a, thin_d = thin_borders()
    every = np.concatenate([across[thin_a], down[thin_d]])
    both = ((across, thin_a), (down, thin_d))
    whole = two_means(every, 4)
    splits = [direction_split(ev[thin], every, whole, config) for ev, thin in both]
    if split_unlike([ev[thin] for ev, thin in both], splits, every, whole):
        boxes = [
            box_limit(ev[~thin], s.low, s.high, config)
            for (ev, thin), s in zip(both, splits, strict=True)
        ]
        low, high, open_share = pooled(splits)
    else:
        box = np.concatenate([across[~thin_a], down[~thin_d]])
        boxes = [box_limit(box, whole[0], whole[1], config)] * 2
        low, high, open_share = whole
    cut_a, cut_d = (
        ev >= np.where(thin, s.limit, limit)
        for (ev, thin), s, limit in zip(both, splits, boxes, strict=True)
    )
    return CageLines(evidence, inset, low, high, open_share, cut_a, cut_d, separation)


Means = tuple[float, float, float]  # two_means: the low mean, the high mean, the low share


@dataclass(frozen=True)
class Split:
    """One direction's thin borders split in two: the cut between the groups, each
    group's mean ink, the low group's share, how many borders there are, and whether
    they split by themselves (else as all thin borders do)."""

    limit: float
    low: float
    high: float
    share: float
    count: int
    own: bool


def direction_split(
    values: np.ndarray, every: np.ndarray, whole: Means, config: CageConfig
) -> Split:
    """The split of one direction's thin borders (``split_limit``), where they split in
    two groups ``own_separation`` apart for their spread: a photo taken at a slant blurs
    the lines across and down unlike; else the split of all thin borders ``every`` (their
    ``two_means``: ``whole``)."""
    own = separation_of(values, 4)[0] >= config.own_separation
    basis, (low, high, share) = (values, two_means(values, 4)) if own else (every, whole)
    return Split(split_limit(basis, low, high, share), low, high, share, len(values), own)


def split_unlike(
    values: Sequence[np.ndarray], splits: Sequence[Split], every: np.ndarray, whole: Means
) -> bool:
    """Whether both directions' thin borders (``values``) split by themselves and one split
    of all of them (``every``, its ``two_means``: ``whole``) would cut them otherwise."""
    if not all(s.own for s in splits):
        return False
    own = np.concatenate([v >= s.limit for v, s in zip(values, splits, strict=True)])
    return bool(np.any(own != (every >= split_limit(every, *whole))))


def pooled(splits: Sequence[Split]) -> tuple[float, float, float]:
    """The open ink, line ink and open share of the directions' own splits together (each
    group weighted by its borders)."""
    opened = [s.share * s.count for s in splits]
    shut = [s.count - o for s, o in zip(splits, opened, strict=True)]
    low = sum(s.low * o for s, o in zip(splits, opened, strict=True))
    high = sum(s.high * n for s, n in zip(splits, shut, strict=True))
    return low / sum(opened), high / sum(shut), sum(opened) / sum(s.count for s in splits)


def faint_lines(q: np.ndarray, config: CageConfig) -> CageLines | None:
    """Cage lines so close to the grid line that its blur fills the dip before them: at
    each offset of the ``inset`` range, the thin borders' ink (no paper beyond subtracted)
    split in two groups; the offset where the groups lie furthest apart for their spread
    (``separation``) holds the lines, and each side's evidence is its ink there above the
    line-free group's. None where no offset splits them."""
    p = config.cell_px
    best: tuple[float, int, float] | None = None
    for t in range(max(2, round(config.inset[0] * p)), round(config.inset[1] * p) + 1):
        peak = q[..., t - 1 : t + 2].max(axis=-1)
        separation, low = _separation(peak)
        if best is None or separation > best[0]:
            best = (separation, t, low)
    if best is None:
        return None
    separation, t, low = best
    peak = q[..., t - 1 : t + 2].max(axis=-1)
    return lines_from(np.asarray(peak - low), t / p, config, separation)


def _separation(side_ink: np.ndarray) -> tuple[float, float]:
    """``separation_of`` the thin borders' ink (from each cell side's)."""
    across, down = border_evidence(side_ink)
    thin_a, thin_d = thin_borders()
    return separation_of(np.concatenate([across[thin_a], down[thin_d]]), 4)


def separation_of(values: np.ndarray, least: int) -> tuple[float, float]:
    """How far apart the two groups of ``values`` (``two_means``, each at least ``least``)
    lie for their spread, and the low group's mean."""
    values = np.sort(values)
    low, high, share = two_means(values, least)
    i = round(share * len(values))
    spread = math.sqrt((values[:i].var() * i + values[i:].var() * (len(values) - i)) / len(values))
    return (high - low) / max(spread, SPREAD_FLOOR), low


def split_limit(values: np.ndarray, low: float, high: float, share: float) -> float:
    """The ink between the two groups of thin borders (``two_means``) that lies as many of
    its spreads from each group's mean: nearer the tighter group (the borders inside cages
    show paper alike; cage lines vary with dashes, dots and shade)."""
    s = np.sort(values)
    i = round(share * len(s))
    spread_low = max(float(s[:i].std()), SPREAD_FLOOR)
    spread_high = max(float(s[i:].std()), SPREAD_FLOOR)
    return low + (high - low) * spread_low / (spread_low + spread_high)


def box_limit(box: np.ndarray, low: float, high: float, config: CageConfig) -> float:
    """The evidence a border on a box line needs (``box``: the box borders' evidence, of
    both directions or one): at least midway between the thin borders' groups, as a
    thick line's own edge can reach the cage lines' offset; where the box borders split
    clearly in two (by at least half the thin borders' gap, or with their lower group
    above that midway and the groups ``box_separation`` times their spread apart) their
    own midway, if higher."""
    box_low, box_high, _ = two_means(box, 2)
    middle = (low + high) / 2
    raised = box_low >= middle and separation_of(box, 2)[0] >= config.box_separation
    if box_high - box_low < (high - low) / 2 and not raised:
        return middle
    return max(middle, (box_low + box_high) / 2)


def has_cages(lines: CageLines, config: CageConfig) -> bool:
    """Whether the grid shows cage outlines: the thin borders split into some with a cage
    line well above the paper and some (inside cages) with none; for faint lines
    (``faint_lines``), split ``faint_separation`` apart for their spread, by at least
    ``faint_min_ink``."""
    lo, hi = config.open_share
    if not lo <= lines.open_share <= hi:
        return False
    if lines.separation:
        return (
            lines.separation >= config.faint_separation
            and lines.line_ink - lines.open_ink >= config.faint_min_ink
        )
    return (
        lines.open_ink <= config.max_open_ink
        and lines.line_ink - lines.open_ink >= config.min_line_ink
    )


def doubtful_cut(lines: CageLines, share: float) -> tuple[np.ndarray, np.ndarray]:
    """The cage borders (``across``, ``down``) with the thin borders left open whose
    evidence still reaches ``share`` of the way from the open borders' ink to the cage
    lines' cut too: a cage line drawn faint, or off its place where the grid was found a
    part of a cell off (a bent page), shows less ink at the inset than the split asks."""
    across, down = border_evidence(lines.evidence)
    thin_a, thin_d = thin_borders()
    floor = lines.open_ink + share * (lines.line_ink - lines.open_ink)
    return lines.across | (thin_a & (across >= floor)), lines.down | (thin_d & (down >= floor))


def group_labels(groups: tuple[tuple[int, ...], ...]) -> np.ndarray:
    """(81,) each cell's group index (``group_cells``' groups, as listed)."""
    label = np.zeros(81, int)
    for k, group in enumerate(groups):
        label[list(group)] = k
    return label


def group_cells(across: np.ndarray, down: np.ndarray) -> tuple[tuple[int, ...], ...]:
    """The cells joined across borders that are not cage borders, each group sorted,
    groups in the order of their first cell."""
    groups: dict[int, list[int]] = {}
    for cell, root in enumerate(piece_roots(across, down, 9)):
        groups.setdefault(root, []).append(cell)
    return tuple(sorted(tuple(g) for g in groups.values()))
