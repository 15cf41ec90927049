"""Copies of one printed glyph: the cells of a puzzle read as the same digit, compared.

A printer sets every given of a puzzle in one typeface, so two printed cells holding the
same digit are copies of one glyph: their ink images match almost exactly (normalised
cross-correlation, best over a few pixels of shift). A person's hand never writes the
same digit twice so alike (the figures: ``benchmarks/README.md``, kind_eval --copies).

So the cells read as one digit are joined into groups of copies, and every group is one
decision: its cells share the mean of their log-odds (one glyph seen several times gives
the classifier the same evidence several times, not more evidence), plus what finding
copies says for print. A cell with no copy is then compared with the cells of its digit
that lean printed: unlike all of them it leans handwritten (a cursive pen 2 beside the
puzzle's printed 2s, a pen entry written in black), nearly a copy it leans printed.
Photos of curved, shaded or steep pages match less well, so the evidence is mild
(``CopyConfig.like_points``), and on a page with writing, where a neat hand can come as
near, nearly a copy says nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class CopyConfig:
    """When two cells are copies of one glyph, and what copies say about print or pen.

    copy_from: the normalised cross-correlation (best over shifts of up to ``shift_px``)
        from which two cells read as the same digit are copies.
    spread: how much less well a cell (or group) may match a group's copies than they
        match each other and still join it.
    pair_log_odds: added to the mean log-odds of a group of two copies (printed is this
        much likelier); ``group_log_odds`` for three or more.
    plain_digits, plain_share: digits whose pen glyphs are plain enough to match each
        other more often (a 1 is one stroke): their copy evidence is scaled by the share.
    like_points: how a cell with no copy but the puzzle's printed glyph of its digit (a
        group of copies, or a single cell, leaning printed) leans, by its best match with
        it: log-odds at each (match, log-odds) point, linear between them, constant past
        the ends (unlike the print it leans pen; nearly a copy, printed).
    sure_log_odds: a group holding cells surely printed and surely pen (beyond ±this)
        is no copy group: its cells keep their own log-odds.
    min_written: with this many cells surely pen the page holds writing, and being nearly
        a copy of the print (``like_points`` above 0) says nothing.
    unlike_below, unlike_cap: a cell the classifier calls surely printed, in no group of
        copies, whose best match with the puzzle's printed glyph (a group of copies) is
        below ``unlike_below`` is weighed like an unsure one, its log-odds capped at
        ``unlike_cap`` (a hand's cursive 2 the classifier takes for print); 0 turns it off.
    weight: scales every evidence of this step; 0 turns it off.
    """

    copy_from: float = 0.9
    spread: float = 0.03
    shift_px: int = 3
    pair_log_odds: float = 2.5
    group_log_odds: float = 4.5
    plain_digits: tuple[int, ...] = (1,)
    plain_share: float = 0.6
    like_points: tuple[tuple[float, float], ...] = ((0.65, -2.5), (0.85, 0.0), (0.9, 2.0))
    sure_log_odds: float = 5.0
    min_written: int = 3
    unlike_below: float = 0.7
    unlike_cap: float = 2.0
    weight: float = 1.0


DEFAULT_COPY_CONFIG = CopyConfig()


def similarity(a: np.ndarray, b: np.ndarray, shift_px: int) -> float:
    """Normalised cross-correlation of two ink images, best over shifts up to ``shift_px``."""
    padded = cv2.copyMakeBorder(
        b.astype(np.float32), shift_px, shift_px, shift_px, shift_px, cv2.BORDER_CONSTANT
    )
    return float(cv2.matchTemplate(padded, a.astype(np.float32), cv2.TM_CCOEFF_NORMED).max())


def similarities(cells: np.ndarray, members: np.ndarray, shift_px: int) -> np.ndarray:
    """(M, M) symmetric similarity of the cells ``members`` (``similarity`` of each pair,
    the earlier cell as the template; 1 on the diagonal)."""
    inks = [np.ascontiguousarray(cells[c], dtype=np.float32) for c in members]
    padded = [cv2.copyMakeBorder(ink, *(shift_px,) * 4, cv2.BORDER_CONSTANT) for ink in inks]
    out = np.eye(len(members))
    for i, j in zip(*np.triu_indices(len(members), k=1), strict=True):
        best = cv2.matchTemplate(padded[j], inks[i], cv2.TM_CCOEFF_NORMED).max()
        out[i, j] = out[j, i] = best
    return out


def copy_groups(sim: np.ndarray, copy_from: float, spread: float) -> list[np.ndarray]:
    """The groups (indices into ``sim``) of copies, each of two cells or more.

    Pairs are joined most alike first. Two groups join when their cells match at
    ``copy_from`` on average and within ``spread`` of how well each group's own cells
    match each other: a neat pen digit that matches the printed copies a little less
    well than they match each other stays out.
    """
    groups = [[i] for i in range(len(sim))]
    order = np.argsort(-sim, axis=None)
    for i, j in zip(*np.unravel_index(order, sim.shape), strict=True):
        if i >= j or sim[i, j] < copy_from:
            continue
        a = next(g for g in groups if i in g)
        b = next(g for g in groups if j in g)
        if a is not b and joins(sim, a, b, copy_from, spread):
            groups.remove(b)
            a.extend(b)
    return [np.asarray(sorted(g)) for g in groups if len(g) > 1]


def joins(sim: np.ndarray, a: list[int], b: list[int], copy_from: float, spread: float) -> bool:
    """Whether the groups ``a`` and ``b`` are copies of one glyph (``copy_groups``)."""
    across = float(sim[np.ix_(a, b)].mean())
    return across >= copy_from and across >= max(alike(sim, a), alike(sim, b)) - spread


def alike(sim: np.ndarray, group: list[int]) -> float:
    """How well the cells of ``group`` match each other on average (0 for one cell)."""
    if len(group) < 2:
        return 0.0
    inner = sim[np.ix_(group, group)]
    return float((inner.sum() - len(group)) / (len(group) * (len(group) - 1)))


@dataclass(frozen=True)
class Writing:
    """What a page shows of its writer.

    written: at least ``min_written`` cells are surely pen. copies: two cells surely pen
    are copies of each other (this hand writes some digit that alike), so finding copies
    says nothing for print on this page.
    """

    written: bool
    copies: bool


def copy_evidence(
    log_odds: np.ndarray,
    filled: np.ndarray,
    digits: np.ndarray,
    cells: np.ndarray,
    config: CopyConfig = DEFAULT_COPY_CONFIG,
) -> np.ndarray:
    """(N,) log-odds to add: copies share one decision, cells unlike the print lean pen.

    Only cells still unsure (log-odds within ±``sure_log_odds``) change: the sure ones
    lend their evidence to their copies and stay as they are, for the later steps to
    learn the puzzle's print and pen from.
    """
    added = np.zeros_like(log_odds, dtype=np.float64)
    if config.weight == 0:
        return added
    sure_pen = filled & (log_odds < -config.sure_log_odds)
    unsure = filled & (np.abs(log_odds) <= config.sure_log_odds)
    by_digit = [np.flatnonzero(filled & (digits == d)) for d in np.unique(digits[filled])]
    # a digit whose cells are all sure keeps their kinds whatever its copies say: its
    # similarities are worked out only where they show whether the hand writes copies
    open_digits = [m for m in by_digit if len(m) > 1 and unsure[m].any()]
    if not open_digits:  # nothing to change: the hand's copies need not be looked for
        return added
    writing = Writing(
        bool(sure_pen.sum() >= config.min_written), hand_copies(by_digit, sure_pen, cells, config)
    )
    for members in open_digits:
        sim = similarities(cells, members, config.shift_px)
        digit = int(digits[members[0]])
        target = digit_evidence(log_odds[members], sim, digit, config, writing)
        free = unsure[members] | unlike_glyph(log_odds[members], sim, config)
        change = np.where(free, target - log_odds[members], 0.0)
        added[members] = config.weight * change  # sure cells keep theirs, for later steps
    return added


def hand_copies(
    by_digit: list[np.ndarray], sure_pen: np.ndarray, cells: np.ndarray, config: CopyConfig
) -> bool:
    """Whether two cells surely pen, read as one digit, are copies of each other."""
    for members in by_digit:
        pen = members[sure_pen[members]]
        if len(pen) > 1:
            sim = similarities(cells, pen, config.shift_px)
            if copy_groups(sim, config.copy_from, config.spread):
                return True
    return False


def digit_evidence(
    log_odds: np.ndarray, sim: np.ndarray, digit: int, config: CopyConfig, writing: Writing
) -> np.ndarray:
    """(M,) log-odds of M cells read as ``digit`` after their copies, from their own
    log-odds and their (M, M) similarities.

    A typeface has one glyph of each digit: the group of copies that leans printed most
    is the puzzle's printed glyph; every other cell, and every other group (a hand that
    writes its 7 alike: a second glyph, never more printed for it) is weighed by how well
    it matches that glyph. Copies holding a
    cell surely pen, or on a page whose hand writes copies, gain nothing for being
    copies. On a page with writing, a cell nearly a copy of the print gains nothing
    either: a neat hand can come that near.
    """
    odds = log_odds.astype(np.float64)
    target = odds.copy()
    share = config.plain_share if digit in config.plain_digits else 1.0
    sure = config.sure_log_odds
    groups = [
        g
        for g in copy_groups(sim, config.copy_from, config.spread)
        if not (odds[g].max() > sure and odds[g].min() < -sure)
    ]
    for group in groups:
        found = config.pair_log_odds if len(group) == 2 else config.group_log_odds
        if writing.copies or odds[group].min() < -sure:
            found = 0.0
        target[group] = odds[group].mean() + share * found
    glyph = printed_glyph(groups, target)
    ceiling = 0.0 if writing.written else np.inf
    for part in [g for g in groups if g is not glyph] + singles(len(odds), groups):
        match = print_match(sim, part, reference(target, glyph, sure))
        if match is not None:
            # a second group of copies is a second glyph: never more printed for its match
            top = 0.0 if len(part) > 1 else ceiling
            base = odds[part].mean() if len(part) > 1 else target[part[0]]
            if len(part) == 1 and glyph is not None and match < config.unlike_below:
                base = min(base, config.unlike_cap)  # a sure call, but not the print's glyph
            target[part] = base + share * min(top, like_print(match, config.like_points))
    return target


def unlike_glyph(log_odds: np.ndarray, sim: np.ndarray, config: CopyConfig) -> np.ndarray:
    """(M,) bool: cells surely printed by the classifier, in no group of copies, matching
    the puzzle's printed glyph (a group of copies leaning printed) below
    ``unlike_below``: the classifier's call is set against the page's own print."""
    free = np.zeros(len(log_odds), dtype=bool)
    if config.unlike_below <= 0:
        return free
    groups = copy_groups(sim, config.copy_from, config.spread)
    glyph = printed_glyph(groups, log_odds.astype(np.float64))
    if glyph is None:
        return free
    grouped = glyph_mask(len(log_odds), np.concatenate(groups))
    best = sim[:, glyph].max(axis=1)
    return (log_odds > config.sure_log_odds) & ~grouped & (best < config.unlike_below)


def printed_glyph(groups: list[np.ndarray], target: np.ndarray) -> np.ndarray | None:
    """The group of copies leaning printed most (None when no group leans printed)."""
    leaning = [g for g in groups if target[g[0]] > 0]
    return max(leaning, key=lambda g: float(target[g[0]])) if leaning else None


def glyph_mask(n: int, glyph: np.ndarray) -> np.ndarray:
    """(n,) bool, True at the cells of ``glyph``."""
    mask = np.zeros(n, dtype=bool)
    mask[glyph] = True
    return mask


def singles(n: int, groups: list[np.ndarray]) -> list[np.ndarray]:
    """Each cell in no group, as a group of one."""
    grouped = glyph_mask(n, np.concatenate(groups)) if groups else np.zeros(n, dtype=bool)
    return [np.array([i]) for i in np.flatnonzero(~grouped)]


def reference(target: np.ndarray, glyph: np.ndarray | None, sure: float) -> np.ndarray:
    """(M,) bool, the cells that show the printed glyph: the glyph's group and every cell
    surely printed; without either, every cell leaning printed."""
    shown = target > sure
    if glyph is not None:
        shown |= glyph_mask(len(target), glyph)
    return shown if shown.any() else target > 0


def print_match(sim: np.ndarray, part: np.ndarray, printed: np.ndarray) -> float | None:
    """How well a cell or group of copies ``part`` matches the cells ``printed`` outside
    it: each member's best match, averaged (None: there are none)."""
    others = printed.copy()
    others[part] = False
    if not others.any():
        return None
    return float(sim[np.ix_(part, np.flatnonzero(others))].max(axis=1).mean())


def like_print(best: float, points: tuple[tuple[float, float], ...]) -> float:
    """The log-odds a best match of ``best`` with the puzzle's printed glyph gives."""
    xs, ys = zip(*points, strict=True)
    return float(np.interp(best, xs, ys))
