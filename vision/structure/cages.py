"""Killer Sudoku from a photo: the cages drawn in a straightened grid and their sums.

``find_cages`` decides whether the grid has cages at all (dashed or dotted outlines set
inside the cells: ``cage_lines.py``; or cages told by their tint alone: ``cage_tints.py``),
groups the cells into cages and reads each cage's sum in its top-left corner
(``cage_sums.py``); ``settle_cages`` (given the digits read in the cells, if any) lets the
rules check the reading: the sums add up to 405, each is reachable by its cage's size
(``cage_combinations``), and the puzzle has exactly one solution. When the most probable
sums break a rule, the runner-up readings of the least sure sums are tried, cheapest first
(as ``vision/repair.py`` does for digits), and the first set of sums with exactly one
solution is kept; failing that, the unsure sums are left open to all their readings and
the search itself looks for the one solution (``open_sums``).

``without_sums`` masks the sums (and the cage lines) out of the grid, so that the cell
reader never takes a sum for a given or for notes.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Protocol, runtime_checkable

import cv2
import numpy as np

from ...solver.engine import candidate_bit, tuple_getter
from ...solver.errors import SearchTimeoutError
from ...solver.variant import Cage, cage_combinations
from ...solver.variant_search import (
    CageTable,
    VariantTables,
    find_variant_solutions,
    variant_tables,
)
from ..read.notes import Predict
from .cage_config import DEFAULT_CAGE_CONFIG, CageConfig
from .cage_lines import (
    CageLines,
    border_evidence,
    doubtful_cut,
    find_cage_lines,
    group_cells,
    group_labels,
    has_cages,
)
from .cage_sums import (
    PROB_FLOOR,
    SumReading,
    blob_digits,
    corner_ink,
    corner_sum,
    cut_corners,
    digit_height,
    fine_grid,
    held_to,
    hung_sum_blobs,
    merged,
    or_unread,
    reachable_sums,
    readings,
    without_pen_ink,
)
from .cage_tints import tinted_cages

TOTAL = 405  # 1 + ... + 9 in each of nine rows
INK_SHARE = 0.3  # a cell's ink: darker than its paper by this share of its darkest's depth
Change = tuple[int, int]  # (cage, index of its reading)


class _InputSize(Protocol):
    """A model's settings with its cell side."""

    @property
    def input_size(self) -> int:
        """The side of the model's cell images."""
        ...


@runtime_checkable
class DigitModel(Protocol):
    """What the cage reader needs of the digit model (``DigitClassifier`` has it): its
    ``predict`` and its cell side (``config.input_size``)."""

    @property
    def config(self) -> _InputSize:
        """The model's settings."""
        ...

    def predict(self, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(N, C) class probabilities and (N, E) embeddings of N cell images."""
        ...


@dataclass(frozen=True)
class CageReading:
    """The cages read in a grid.

    cages: every cage with its sum, in the order of their first cell.
    sum_sure: per cage, whether its sum was read surely and kept.
    repaired: the cages whose sum the rules changed from the most probable reading.
    solution: the one answer the cages (and the givens) allow, or None when no reading of
        the sums tried has exactly one.
    inset: the cage lines' distance inside the grid lines, share of a cell.
    """

    cages: tuple[Cage, ...]
    sum_sure: tuple[bool, ...]
    repaired: tuple[int, ...]
    solution: tuple[int, ...] | None
    inset: float

    @property
    def consistent(self) -> bool:
        """Whether the sums add up to 405 and the puzzle has exactly one solution."""
        return self.solution is not None


@dataclass(frozen=True)
class CageLayout:
    """The cages seen in a grid before the rules judge their sums.

    groups: the cells of each cage, sorted, in the order of their first cell.
    sums: each cage's sum readings, most probable first.
    inset: the cage lines' distance inside the grid lines, share of a cell.
    extents: how far each sum's ink reaches right and down in its corner box (shares of
        ``CageConfig.sum_box``; 0, 0 where none was seen).
    later: makes the cages grouped another way, with their sums (``split``), when first
        asked for; None when there are none such.
    marks: the top-left cell of every cage of every grouping tried (this one and those of
        its ``split`` chain), each with how far its sum's ink reaches (as ``extents``):
        what ``without_sums`` paints out; empty where the layout was made by hand (the
        chain's ``extents`` are painted then).
    """

    groups: tuple[tuple[int, ...], ...]
    sums: tuple[SumReading, ...]
    inset: float
    extents: tuple[tuple[float, float], ...] = ()
    later: Callable[[], CageLayout | None] | None = field(default=None, compare=False, repr=False)
    marks: tuple[tuple[int, tuple[float, float]], ...] = field(default=(), repr=False)

    @property
    def split(self) -> CageLayout | None:
        """The cages grouped another way, with their sums, tried when these cages give no
        single solution (its own ``split`` after it): the doubtful borders cut too
        (``doubtful_cut``: a cage line too faint or too far off its place to pass the
        split), the sums' places (``sum_borders``), the lines of the grid warped again
        from the photo. Read when first asked for (their sums' corners too); None when
        there are none such."""
        return None if self.later is None else self.later()


def find_cages(
    warped: np.ndarray,
    predict: Predict,
    input_size: int,
    config: CageConfig = DEFAULT_CAGE_CONFIG,
    photo: tuple[np.ndarray, np.ndarray] | None = None,
    pen: frozenset[int] = frozenset(),
) -> CageLayout | None:
    """The cages of a straightened grid (uint8 gray square) and their sums' readings, or
    None when it shows no cage outlines. ``predict`` is the digit model
    (``DigitClassifier.predict``), ``input_size`` its cell side. ``photo``: the image the
    grid was found in and its (10, 10, 2) lattice there, where at hand: the grid is then
    warped again from it at the sums' scale (``fine_grid``), its cage lines looked for
    too, and the sums read in it as well as in ``warped`` (``merged``). The cages are
    those of the straightened grid's lines where they show cages, else of the finer
    grid's (its finer detail shows lines that the straightened grid blurs into the grid
    lines); the other groupings seen (``other_groups``) follow as the layout's ``split``
    chain, each with its own sums. Every corner is looked at for a sum's blobs (where
    they show, the sums place the cages: ``sum_borders``), but the model reads only the
    first grouping's sums here; another grouping's are read when it is first tried.
    ``pen``: the cells read as holding a pen entry, whose coloured ink is painted out of
    the finer grid before its sums are read (``without_pen_ink``). The cells' tints in the
    colour photo may show the cages too (``tinted``: an outline-less Killer), tried after
    the lines' groupings; where no lines show cages, the tints' are kept where
    ``min_summed`` of them show a sum."""
    _check_warped(warped)
    fine = None if photo is None else fine_grid(photo[0], photo[1], config)
    lined = [lines for lines in all_lines(warped, fine, config) if has_cages(lines, config)]
    seen = lined + ([] if photo is None else tinted(photo, config))
    if not seen:
        return None
    first = group_cells(seen[0].across, seen[0].down)
    sums = fine if fine is None or photo is None else without_pen_ink(fine, photo, pen, config)
    corners = SumCorners.of((warped, sums), [g[0] for g in first], (predict, input_size), config)
    if not lined and not summed(first, corners.with_sum, config.min_summed):
        return None
    groupings = other_groups(seen, config, corners.with_sum, pen)
    marks = {g[0]: corners.extents[g[0]] for groups in groupings for g in groups}
    return chained(Chain(tuple(groupings), corners, seen[0].inset, tuple(sorted(marks.items()))), 0)


def all_lines(warped: np.ndarray, fine: np.ndarray | None, config: CageConfig) -> list[CageLines]:
    """The cage lines of the straightened grid, then of the grid warped again from the photo
    (``fine``, where at hand)."""
    return [find_cage_lines(grid, config) for grid in (warped, fine) if grid is not None]


def tinted(photo: tuple[np.ndarray, np.ndarray], config: CageConfig) -> list[CageLines]:
    """The cages that the cells' tints in the colour photo show (``tinted_cages``: an
    outline-less Killer) as one set of cage lines; none where they show no cages."""
    lines = tinted_cages(photo[0], photo[1], config.tint, config.open_share)
    return [] if lines is None else [lines]


Groups = tuple[tuple[int, ...], ...]  # the cells of each cage, sorted, in order


def summed(groups: Groups, with_sum: frozenset[int], share: float) -> bool:
    """Whether at least ``share`` of the ``groups`` show a sum in their first cell's corner
    (tinted cages: a classic grid's coloured boxes or regions hold none)."""
    return sum(g[0] in with_sum for g in groups) >= share * len(groups)


@dataclass(frozen=True)
class SumLook:
    """One look at the grid's sum corners (the straightened grid, or the grid warped again
    from the photo): the sum's blobs in every cell's corner (``sum_blobs``, held to the
    digit height of the first cages' corners: ``same_height``), and the digits of those
    read so far (filled in as cells are asked for)."""

    blobs: tuple[list[np.ndarray], ...]
    corners: tuple[np.ndarray, ...]
    height: float | None
    hung: tuple[bool, ...] = (False,) * 81
    digits: dict[int, np.ndarray] = field(default_factory=dict)

    def sum_at(self, cell: int, config: CageConfig) -> list[np.ndarray]:
        """The sum's blobs in the corner of ``cell``, the first cell of a cage: where none
        were found, those blur joined to the cage line below (``hung_sum_blobs``)."""
        if self.blobs[cell] or self.height is None:
            return self.blobs[cell]
        hung = hung_sum_blobs(self.corners[cell], self.height, config)
        return held_to([hung], self.height, config)[0]


@dataclass(frozen=True)
class SumCorners:
    """What the cells' corners show: the sum's blobs in each look at the grid
    (``SumLook``), found in every corner at once, and their digits' (D, 10)
    log-probabilities (D = 0 when none), read by the model only when a grouping's sums
    are first asked for (``sums``); how far each corner's ink reaches in the straightened
    grid (``extents``)."""

    looks: tuple[SumLook, ...]
    extents: tuple[tuple[float, float], ...]
    models: tuple[Predict, int]
    config: CageConfig

    @classmethod
    def of(
        cls,
        grids: tuple[np.ndarray, np.ndarray | None],
        firsts: Sequence[int],
        models: tuple[Predict, int],
        config: CageConfig,
    ) -> SumCorners:
        """The corners of the straightened grid and, where at hand, of the grid warped
        again from the photo, the digit height in each set by the corners ``firsts`` (the
        top-left cells of the first cages)."""
        looks: list[SumLook] = []
        extents: tuple[tuple[float, float], ...] = ()
        for grid in (g for g in grids if g is not None):
            corners = cut_corners(corner_ink(grid, config), range(81), config)
            found = [corner_sum(c, config) for c in corners]
            blobs = [b for b, _, _ in found]
            extents = extents or tuple(e for _, e, _ in found)
            height = digit_height([blobs[c] for c in firsts])
            held = tuple(held_to(blobs, height, config))
            looks.append(SumLook(held, tuple(corners), height, tuple(h for _, _, h in found)))
        return cls(tuple(looks), extents, models, config)

    @property
    def with_sum(self) -> frozenset[int]:
        """The cells whose corner shows a sum in either look."""
        return frozenset(c for c in range(81) if any(look.blobs[c] for look in self.looks))

    def read(self, cells: Sequence[int]) -> list[list[np.ndarray]]:
        """Each look's digit log-probabilities in the corners of ``cells`` (the blobs of
        those not read yet through the model in one call)."""
        wanted = dict.fromkeys(cells)
        new = [(look, c) for look in self.looks for c in wanted if c not in look.digits]
        predict, size = self.models
        blobs = [look.sum_at(c, self.config) for look, c in new]
        logs = blob_digits(blobs, predict, size, self.config)
        for (look, c), digits in zip(new, logs, strict=True):
            look.digits[c] = digits
        return [[look.digits[c] for c in cells] for look in self.looks]

    def sums(self, groups: Groups) -> tuple[SumReading, ...]:
        """Each cage's sum readings in the corner of its first cell, the looks' readings
        averaged (``merged``); none where the best is no better than none (``or_unread``)."""
        keep = self.config.alternatives
        firsts = [g[0] for g in groups]
        read = [
            [readings(d, len(g), keep, look.hung[g[0]]) for d, g in zip(found, groups, strict=True)]
            for look, found in zip(self.looks, self.read(firsts), strict=True)
        ]
        out = tuple(read[0])
        for again in read[1:]:
            out = tuple(merged(a, b, keep) for a, b in zip(out, again, strict=True))
        below = self.config.unread_below
        return tuple(or_unread(s, len(g), below) for s, g in zip(out, groups, strict=True))


def other_groups(
    seen: Sequence[CageLines],
    config: CageConfig,
    with_sum: frozenset[int],
    pen: frozenset[int] = frozenset(),
) -> list[Groups]:
    """The groupings of cells to try, in turn, each different: the first grid's cages
    (where both show cages, the straightened grid's outline more of the tuning photos
    right), those with its doubtful borders cut too (``doubtful_cut``), those its sums
    regroup (``sum_borders``), then the same of the other grid's lines (the photo's
    finer detail follows a bent page cell by cell where the straightened grid's lines
    lie a part of a cell off); last the first grid's cages each with one border changed
    as a sum asks (``sum_fixes``: a pen stroke along a cell's side taken for a cage
    line, or a cage line missed, where the sums placed all cages at once misplace
    others)."""
    out: list[Groups] = []
    fixes = sum_fixes(seen[0], with_sum, pen)[: config.max_fixes]
    tries = [
        borders
        for lines in seen
        for borders in (
            (lines.across, lines.down),
            doubtful_cut(lines, config.doubt_share),
            sum_borders(lines, with_sum),
        )
    ]
    for across, down in (*tries, *fixes):
        groups = group_cells(across, down)
        if groups not in out:
            out.append(groups)
    return out


def sum_fixes(
    lines: CageLines, with_sum: frozenset[int], pen: frozenset[int]
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The cage borders (``across``, ``down``) with one change each that a sum asks for:
    a cage whose first cell's corner shows no sum joined to each cage beside it that
    starts before it, in turn, across one border (those of ``pen`` cells first, where a
    pen digit's stroke along its cell's side looks like a cage line; the faintest
    first), then a cage holding another cell whose corner shows a sum cut above and
    left of that cell (``pen`` cells last: their digit may reach the corner)."""
    groups = group_cells(lines.across, lines.down)
    label = group_labels(groups)
    evidence = border_evidence(lines.evidence)
    found, cuts = [], []
    for group in groups:
        if group[0] not in with_sum:
            found += [
                (cell not in pen, float(evidence[which][br, bc]), which, br, bc)
                for cell in group
                for other, which, br, bc in _neighbours(cell)
                if groups[label[other]][0] < group[0]
            ]
        for cell in (c for c in group[1:] if c in with_sum):
            r, c = divmod(cell, 9)
            across, down = lines.across.copy(), lines.down.copy()
            across[r, max(c - 1, 0)] |= c > 0
            down[max(r - 1, 0), c] |= r > 0
            cuts.append((cell in pen, cell, across, down))
    joins = [_opened(lines, w, br, bc) for _, _, w, br, bc in sorted(found)]
    return joins + [(a, d) for _, _, a, d in sorted(cuts, key=lambda cut: cut[:2])]


def _opened(lines: CageLines, which: int, row: int, col: int) -> tuple[np.ndarray, np.ndarray]:
    """The cage borders with one border opened (0: across a row, 1: down a column)."""
    across, down = lines.across.copy(), lines.down.copy()
    (across, down)[which][row, col] = False
    return across, down


def sum_borders(lines: CageLines, with_sum: frozenset[int]) -> tuple[np.ndarray, np.ndarray]:
    """The cage borders (``across``, ``down``) as the sums place them: every cell whose
    corner shows a sum is a cage's top-left cell (the borders above and left of it are
    cage borders: a box line's border missed), and every cage whose top-left cell shows
    none is joined, across its faintest border, to a cage beside it that starts earlier
    (a cage wrongly split in two leaves one part with no sum)."""
    across, down = lines.across.copy(), lines.down.copy()
    for cell in with_sum:
        r, c = divmod(cell, 9)
        if c:
            across[r, c - 1] = True
        if r:
            down[r - 1, c] = True
    evidence = border_evidence(lines.evidence)
    groups = group_cells(across, down)
    label = group_labels(groups)
    for group in groups:
        if group[0] not in with_sum:
            _join_faintest(group, groups, label, (across, down), evidence)
    return across, down


def _join_faintest(
    group: tuple[int, ...],
    groups: Groups,
    label: np.ndarray,
    borders: tuple[np.ndarray, np.ndarray],
    evidence: tuple[np.ndarray, np.ndarray],
) -> None:
    """Open the faintest cage border between ``group`` and a group that starts before it
    (``borders`` changed in place; nothing when it has no such neighbour)."""
    found = [
        (float(evidence[which][br, bc]), which, br, bc)
        for cell in group
        for other, which, br, bc in _neighbours(cell)
        if groups[label[other]][0] < group[0]
    ]
    if found:
        _, which, br, bc = min(found)
        borders[which][br, bc] = False


def _neighbours(cell: int) -> list[tuple[int, int, int, int]]:
    """The cells beside ``cell``, each with the border between them: (the other cell,
    0 for a border across a row or 1 for one down a column, its row and column in
    ``across`` or ``down``)."""
    r, c = divmod(cell, 9)
    out = []
    if c:
        out.append((cell - 1, 0, r, c - 1))
    if c < 8:
        out.append((cell + 1, 0, r, c))
    if r:
        out.append((cell - 9, 1, r - 1, c))
    if r < 8:
        out.append((cell + 9, 1, r, c))
    return out


@dataclass(frozen=True)
class Chain:
    """What the layouts of a grid's groupings are made of: the groupings (``other_groups``),
    the corners' sums, the cage lines' inset, and the corners ``without_sums`` paints
    (``CageLayout.marks``)."""

    groupings: tuple[Groups, ...]
    corners: SumCorners
    inset: float
    marks: tuple[tuple[int, tuple[float, float]], ...]


def chained(chain: Chain, k: int) -> CageLayout:
    """The layout of the ``k``-th grouping, its sums read; the next grouping's layout (its
    sums' corners read) made only when its ``split`` is first asked for."""
    groups = chain.groupings[k]

    @cache
    def later() -> CageLayout:
        return chained(chain, k + 1)

    corners = chain.corners
    reach = tuple(corners.extents[g[0]] for g in groups)
    more = later if k + 1 < len(chain.groupings) else None
    return CageLayout(groups, corners.sums(groups), chain.inset, reach, more, chain.marks)


def settle_cages(
    layout: CageLayout,
    givens: Sequence[int] | None = None,
    config: CageConfig = DEFAULT_CAGE_CONFIG,
    disputed: Sequence[frozenset[int]] | None = None,
) -> CageReading:
    """The cages with the sums the rules pick (``choose_sums``); ``givens``: the 81 digits
    read in the cells (0 empty), if any, for the uniqueness proof; ``disputed``: per cell
    the answers that would call the person's entry there surely wrong, if any: a
    solution that sums other than those read make, calling more than
    ``max_wrong_entries`` entries wrong, is taken for a misreading (``Known.fits``).
    When no sums tried
    give the givens exactly one solution, the cages alone are tried (a misread given
    breaks a puzzle that its cages decide; the caller checks the givens against it). All
    of it within ``time_limit_s``. When the cages give no single solution, the other
    groupings of ``layout.split`` are tried in turn (each but the last given
    ``split_time_share`` of the time left); the first reading stays when none does."""
    end = time.monotonic() + config.time_limit_s
    empty = (0,) * 81
    known = Known(
        tuple(givens) if givens is not None else empty,
        tuple(disputed) if disputed is not None else (frozenset(),) * 81,
        config.max_wrong_entries,
    )
    first = settle_layout(layout, known, config, _share(layout, end, config))
    seen = layout.split
    while not first.consistent and seen is not None:
        reading = settle_layout(seen, known, config, _share(seen, end, config))
        if reading.consistent:
            return reading
        seen = seen.split
    return first


@dataclass(frozen=True)
class Known:
    """What the cells tell the sums' choice: the 81 ``givens`` (0 empty) the solution
    must hold, and per cell the answers that would call the person's entry there surely
    wrong (``disputed``; none where no entry was read surely), of which a solution found
    with sums changed or opened may hold at most ``max_wrong``."""

    givens: tuple[int, ...]
    disputed: tuple[frozenset[int], ...]
    max_wrong: int

    def fits(self, solution: Sequence[int]) -> bool:
        """Whether ``solution`` calls at most ``max_wrong`` entries surely wrong: a person
        slips now and then, while misread sums that still allow one solution make up a
        wrong one that many right entries disagree with."""
        return self.wrong(solution) <= self.max_wrong

    def wrong(self, solution: Sequence[int]) -> int:
        """How many of the person's entries ``solution`` calls surely wrong."""
        pairs = zip(self.disputed, solution, strict=True)
        return sum(1 for answers, v in pairs if v in answers)


def _share(layout: CageLayout, end: float, config: CageConfig) -> float:
    """The deadline for settling ``layout``: ``end`` when no other grouping follows it, else
    ``split_time_share`` of the time left."""
    if layout.later is None:
        return end
    return time.monotonic() + config.split_time_share * (end - time.monotonic())


def settle_layout(
    layout: CageLayout, known: Known, config: CageConfig, deadline: float
) -> CageReading:
    """``settle_cages`` for the cages of ``layout`` alone, before ``deadline`` (a
    ``time.monotonic`` time)."""
    empty = (0,) * 81
    totals, changed, solution = choose_sums(layout.sums, layout.groups, known, config, deadline)
    if solution is None and known.givens != empty:  # a misread given may be what breaks it
        alone = replace(known, givens=empty)
        totals, changed, solution = choose_sums(layout.sums, layout.groups, alone, config, deadline)
    cages = tuple(Cage(t, g) for t, g in zip(totals, layout.groups, strict=True))
    sure = tuple(
        k not in changed and s.probability >= config.sure_probability
        for k, s in enumerate(layout.sums)
    )
    return CageReading(cages, sure, changed, solution, layout.inset)


def read_cages(
    warped: np.ndarray,
    predict: Predict,
    input_size: int,
    givens: Sequence[int] | None = None,
    config: CageConfig = DEFAULT_CAGE_CONFIG,
) -> CageReading | None:
    """The Killer cages of a straightened grid with their sums, or None when it has none:
    ``find_cages`` then ``settle_cages``."""
    layout = find_cages(warped, predict, input_size, config)
    return None if layout is None else settle_cages(layout, givens, config)


def choose_sums(
    sums: Sequence[SumReading],
    groups: Sequence[Sequence[int]],
    known: Known,
    config: CageConfig,
    deadline: float,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...] | None]:
    """The sums kept, the cages changed, and the one solution (None when none was found
    before ``deadline``, a ``time.monotonic`` time).

    The sets of sums adding up to 405 are tried cheapest first (``sum_candidates``); the
    first with exactly one solution wins (with sums changed, one that ``known.fits``),
    else the most probable reading stays.
    """
    best = tuple(s.best for s in sums)
    tried = sum_candidates(sums, config)[: config.max_solver_calls]
    for changes in tried:
        totals = _applied(best, sums, changes)
        left = min(config.seconds_per_solve, deadline - time.monotonic())
        if left <= 0:
            return best, (), None
        found = solutions(totals, groups, known.givens, left)
        if len(found) == 1 and (not changes or known.fits(found[0])):
            return totals, tuple(k for k, _ in changes), tuple(found[0])
    return open_sums(sums, groups, known, config, deadline)


def open_sums(
    sums: Sequence[SumReading],
    groups: Sequence[Sequence[int]],
    known: Known,
    config: CageConfig,
    deadline: float,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...] | None]:
    """The sums, changed cages and solution when the least sure sums are left open: those
    cages may hold any of their readings, and the search itself finds the one solution
    (its sums are then the readings). The least sure ``open_counts`` cages are opened in
    turn until one solution is found (past several, opening more cannot help); a sum
    read surely (``sure_probability``) is never opened (a misread sum left out of its
    cage's readings could else be made up by several sure ones changed, to one wrong
    solution). None when none is found in ``seconds_per_open`` each, before
    ``deadline``, or when the one found gives up more than ``max_open_cost`` of the
    readings' log-probability (``given_up``: several sums changed far from what was read
    can make up one wrong solution); an opened cage holds only the readings that give up
    at most that much (``affordable``). Failing that, ``cheap_sums``."""
    unsure = [k for k in range(len(sums)) if sums[k].probability < config.sure_probability]
    order = sorted(unsure, key=lambda k: sums[k].probability)
    for count in config.open_counts:
        opened = set(order[:count])
        allowed = [
            affordable(s, config.max_open_cost) if k in opened else s.totals[:1]
            for k, s in enumerate(sums)
        ]
        stop, choice = open_search(allowed, sums, groups, known, (config, deadline))
        if choice is not None:
            return choice
        if stop:
            break
    return cheap_sums(sums, groups, known, config, deadline)


Choice = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...] | None]


def open_search(
    allowed: Sequence[Sequence[int]],
    sums: Sequence[SumReading],
    groups: Sequence[Sequence[int]],
    known: Known,
    limits: tuple[CageConfig, float],
) -> tuple[bool, Choice | None]:
    """One search with each cage holding one of its ``allowed`` sums: whether to stop
    opening more (no time left before the deadline, ``open_solutions`` or more solutions,
    or not exactly one whose sums give up at most ``max_open_cost``, so unlikely a
    reading is no evidence and opening more keeps it, and that ``known.fits``), and the
    sums, cages changed and solution where one was found within ``seconds_per_open``.
    Where the open cages allow several solutions (all of them found), the one that fits
    is the answer when no other solution found has its sums: every solution of the
    Killer its sums make is among those found, so its sums have that one alone."""
    config, deadline = limits
    left = min(config.seconds_per_open, deadline - time.monotonic())
    if left <= 0:
        return True, None
    limit = config.open_solutions
    found = open_solutions(allowed, groups, known.givens, left, limit)
    if not found:
        return False, None
    if len(found) >= limit:
        return True, None
    totals = [tuple(sum(f[c] for c in g) for g in groups) for f in found]
    kept = [
        k
        for k, (f, t) in enumerate(zip(found, totals, strict=True))
        if given_up(sums, t) <= config.max_open_cost and known.fits(f)
    ]
    if len(kept) != 1 or totals.count(totals[kept[0]]) > 1:
        return True, None
    one, sums_of_one = found[kept[0]], totals[kept[0]]
    return False, (sums_of_one, _changed(sums, sums_of_one), tuple(one))


def _changed(sums: Sequence[SumReading], totals: Sequence[int]) -> tuple[int, ...]:
    """The cages whose sum in ``totals`` is not their most probable reading."""
    return tuple(k for k, (s, t) in enumerate(zip(sums, totals, strict=True)) if t != s.best)


def cheap_sums(
    sums: Sequence[SumReading],
    groups: Sequence[Sequence[int]],
    known: Known,
    config: CageConfig,
    deadline: float,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...] | None]:
    """``open_sums`` the other way round, where too many sums are unsure for the least
    sure few to hold every misread one (a blurred page): every unsure sum is left open,
    but only to its readings that give up at most each of ``open_costs`` of
    log-probability (``affordable``), the cheapest first, until one solution is found
    (kept only within ``max_open_cost`` in all, as there); several found, or none in
    ``seconds_per_open`` each before ``deadline``, leave the sums as read."""
    unsure = {k for k in range(len(sums)) if sums[k].probability < config.sure_probability}
    for cost in config.open_costs:
        allowed = [affordable(s, cost) if k in unsure else s.totals[:1] for k, s in enumerate(sums)]
        stop, choice = open_search(allowed, sums, groups, known, (config, deadline))
        if choice is not None:
            return choice
        if stop:
            break
    return ranked_sums(sums, groups, known, config, deadline)


def ranked_sums(
    sums: Sequence[SumReading],
    groups: Sequence[Sequence[int]],
    known: Known,
    config: CageConfig,
    deadline: float,
) -> Choice:
    """The last resort, where no few readings give one solution (pen over a sum's corner
    leaves no reading of it or a wrong one): every unsure sum open to any sum its cage
    can reach, and every solution the search finds, fewer than ``rank_solutions``. Each
    whose own sums give its Killer no other solution is scored by the readings it gives
    up (``given_up``) and ``entry_cost`` for each of the person's entries it calls surely
    wrong; the best is kept where it calls no more than a slip wrong
    (``known.fits``), gives up at most ``max_rank_cost`` and scores ``rank_margin``
    better than every other. Else the sums as read, and no solution."""
    as_read: Choice = (tuple(s.best for s in sums), (), None)
    unsure = {k for k in range(len(sums)) if sums[k].probability < config.sure_probability}
    left = min(config.seconds_per_open, deadline - time.monotonic())
    if not unsure or left <= 0:
        return as_read
    pairs = enumerate(zip(sums, groups, strict=True))
    allowed = [reachable_sums(len(g)) if k in unsure else s.totals[:1] for k, (s, g) in pairs]
    found = open_solutions(allowed, groups, known.givens, left, config.rank_solutions)
    if not found or len(found) >= config.rank_solutions:
        return as_read
    scored = _scored(found, sums, groups, known, (config, deadline))
    ranked = sorted(scored or [])
    if not ranked or not known.fits(ranked[0][1]) or ranked[0][0] > config.max_rank_cost:
        return as_read
    if len(ranked) > 1 and ranked[1][0] - ranked[0][0] < config.rank_margin:
        return as_read
    one = ranked[0][1]
    totals = tuple(sum(one[c] for c in g) for g in groups)
    return totals, _changed(sums, totals), one


def _scored(
    found: Sequence[Sequence[int]],
    sums: Sequence[SumReading],
    groups: Sequence[Sequence[int]],
    known: Known,
    limits: tuple[CageConfig, float],
) -> list[tuple[float, tuple[int, ...]]] | None:
    """Each solution found whose sums give its Killer no other, with its score: the
    readings' log-probability its sums give up and ``entry_cost`` per entry it calls
    surely wrong. None when a proof does not end before the deadline (a rival left
    unscored could beat the best)."""
    config, deadline = limits
    out = []
    for one in found:
        totals = [sum(one[c] for c in g) for g in groups]
        left = min(config.seconds_per_solve, deadline - time.monotonic())
        proof = solutions(totals, groups, known.givens, left) if left > 0 else []
        if not proof:  # not even ``one`` itself: the proof ran out of time
            return None
        if len(proof) != 1:
            continue
        score = given_up(sums, totals) + config.entry_cost * known.wrong(one)
        out.append((score, tuple(one)))
    return out


def affordable(reading: SumReading, cost: float) -> tuple[int, ...]:
    """The readings of a sum that give up at most ``cost`` of log-probability against its
    most probable one: an opened cage's others could only be part of a solution whose sums
    ``given_up`` refuses, and leaving them open slows the search (a blurred page opens
    many cages)."""
    best = reading.log_probs[0] if reading.log_probs else 0.0
    pairs = zip(reading.totals, reading.log_probs, strict=True)
    return tuple(total for total, p in pairs if best - p <= cost)


def given_up(sums: Sequence[SumReading], totals: Sequence[int]) -> float:
    """The log-probability the sums ``totals`` give up against the most probable reading
    of each (a sum not among its readings counts as ``PROB_FLOOR``)."""
    cost = 0.0
    for reading, total in zip(sums, totals, strict=True):
        if reading.totals and total != reading.best:
            chosen = dict(zip(reading.totals, reading.log_probs, strict=True))
            cost += reading.log_probs[0] - chosen.get(total, math.log(PROB_FLOOR))
    return cost


def sum_candidates(sums: Sequence[SumReading], config: CageConfig) -> list[tuple[Change, ...]]:
    """Up to ``max_candidates`` sets of changes after which the sums add up to 405,
    cheapest (least log-probability given up) first: none, one, two in different cages,
    and three among the ``triple_cages`` least sure cages."""
    missing = TOTAL - sum(s.best for s in sums)
    moves = [
        Move(s.totals[j] - s.best, s.log_probs[0] - s.log_probs[j], ((k, j),))
        for k, s in enumerate(sums)
        for j in range(1, len(s.totals))
    ]
    found = [Move(0, 0.0, ())] if missing == 0 else []
    found += [m for m in moves if m.diff == missing]
    found += _completed(moves, moves, missing)
    unsure = set(sorted(range(len(sums)), key=lambda k: sums[k].probability)[: config.triple_cages])
    few = [m for m in moves if m.first in unsure]
    found += _completed([a.plus(b) for a in few for b in few if b.first > a.last], few, missing)
    found.sort(key=lambda m: m.cost)
    return [m.changes for m in found[: config.max_candidates]]


def _completed(starts: Sequence[Move], moves: Sequence[Move], missing: int) -> list[Move]:
    """Each start with one more move, in a later cage, making up ``missing`` together."""
    by_diff: dict[int, list[Move]] = {}
    for m in moves:
        by_diff.setdefault(m.diff, []).append(m)
    return [
        a.plus(b) for a in starts for b in by_diff.get(missing - a.diff, []) if b.first > a.last
    ]


@dataclass(frozen=True)
class Move:
    """Changes to some cages' sums: what they add to the total, and the log-probability
    they give up."""

    diff: int
    cost: float
    changes: tuple[Change, ...]

    @property
    def first(self) -> int:
        """The first cage changed."""
        return self.changes[0][0]

    @property
    def last(self) -> int:
        """The last cage changed."""
        return self.changes[-1][0]

    def plus(self, other: Move) -> Move:
        """Both moves together."""
        return Move(self.diff + other.diff, self.cost + other.cost, self.changes + other.changes)


def _applied(
    best: tuple[int, ...], sums: Sequence[SumReading], changes: tuple[Change, ...]
) -> tuple[int, ...]:
    """The best sums with some cages' readings changed."""
    totals = list(best)
    for k, j in changes:
        totals[k] = sums[k].totals[j]
    return tuple(totals)


def solutions(
    totals: Sequence[int],
    groups: Sequence[Sequence[int]],
    givens: tuple[int, ...],
    seconds: float,
) -> list[list[int]]:
    """Up to two solutions of the Killer these sums make ([] when it has none, when a sum is
    impossible, or when the proof takes more than ``seconds``)."""
    if any(t <= 0 for t in totals):
        return []
    cages = tuple(Cage(t, tuple(g)) for t, g in zip(totals, groups, strict=True))
    try:
        vt = variant_tables(9, (), False, cages)
        return find_variant_solutions(givens, vt, 2, time.monotonic() + seconds)
    except (SearchTimeoutError, ValueError):
        return []


def open_solutions(
    allowed: Sequence[Sequence[int]],
    groups: Sequence[Sequence[int]],
    givens: tuple[int, ...],
    seconds: float,
    limit: int = 2,
) -> list[list[int]]:
    """Up to ``limit`` solutions when each cage's cells hold different digits adding up to
    one of its ``allowed`` sums ([] when none, or past ``seconds``). The search's own
    tables, with each cage's value sets those of all its sums (and no 45-rule sums, which
    need sure ones)."""
    if any(not a for a in allowed):
        return []
    cages = tuple(Cage(a[0], tuple(g)) for a, g in zip(allowed, groups, strict=True))
    try:
        vt = variant_tables(9, (), False, cages)
        tables = tuple(open_cage(a, tuple(g), vt) for a, g in zip(allowed, groups, strict=True))
        return find_variant_solutions(
            givens, replace(vt, cages=tables, sums=()), limit, time.monotonic() + seconds
        )
    except (SearchTimeoutError, ValueError):
        return []


def open_cage(totals: Sequence[int], cells: tuple[int, ...], vt: VariantTables) -> CageTable:
    """A cage of the search whose cells may add up to any of ``totals``."""
    masks = {
        sum(candidate_bit(v, vt.t) for v in combo)
        for total in totals
        for combo in cage_combinations(total, len(cells), 9)
    }
    return CageTable(cells, tuple_getter(cells), tuple(sorted(masks)))


def without_sums(
    warped: np.ndarray,
    layout: CageLayout,
    config: CageConfig = DEFAULT_CAGE_CONFIG,
    pen: frozenset[int] = frozenset(),
) -> np.ndarray:
    """A copy of the grid with each cage's sum (as far as its ink reaches, and
    ``mask_margin`` more) and the cage lines painted over with the paper's shade, for the
    cell reader (a sum is no given, a cage line no note); a given's top beside it stays."""
    _check_warped(warped)
    out = warped.copy()
    _paint_sums(out, warped, layout, config, pen)
    sides = cage_sides(layout.groups)
    sides[sorted(pen)] = False
    _paint_lines(out, warped, layout.inset, config, sides)
    return out


def cage_sides(groups: Groups) -> np.ndarray:
    """(81, 4) which sides of each cell (TOP, BOTTOM, LEFT, RIGHT) lie on its cage's
    outline: the grid's edge, or a neighbour in another cage."""
    grid = np.pad(group_labels(groups).reshape(9, 9), 1, constant_values=-1)
    inner = grid[1:-1, 1:-1]
    sides = [grid[:-2, 1:-1], grid[2:, 1:-1], grid[1:-1, :-2], grid[1:-1, 2:]]
    return np.stack([s != inner for s in sides], axis=-1).reshape(81, 4)


def _paint_sums(
    out: np.ndarray,
    warped: np.ndarray,
    layout: CageLayout,
    config: CageConfig,
    pen: frozenset[int] = frozenset(),
) -> None:
    """Paint each sum (as far as its ink reaches, and ``mask_margin`` more) with its
    cell's paper: in the top-left corner of every cage of every grouping (``marks``; where
    the layout was made by hand, of those its ``split`` chain groups). In the ``pen``
    cells only the ink lying wholly inside that box is painted (``_paint_inside``): a pen
    digit reaching into it keeps its strokes (a 7's bar cut there read as a 1)."""
    cell = warped.shape[0] / 9
    x0, y0, x1, y1 = config.sum_box
    for first, (right, bottom) in _sum_marks(layout):
        if not right:
            continue
        r, c = divmod(first, 9)
        far_x = x0 + right * (x1 - x0) + config.mask_margin
        far_y = y0 + bottom * (y1 - y0) + config.mask_margin
        rows = slice(math.floor((r + y0) * cell), math.ceil((r + far_y) * cell))
        cols = slice(math.floor((c + x0) * cell), math.ceil((c + far_x) * cell))
        if first in pen:
            _paint_inside(out, warped, (rows, cols), (r, c))
        else:
            out[rows, cols] = _paper(warped, r, c)


def _paint_inside(
    out: np.ndarray, warped: np.ndarray, box: tuple[slice, slice], cell: tuple[int, int]
) -> None:
    """Paint with the cell's paper the ink blobs of the cell that lie wholly inside
    ``box`` (rows, columns of the grid), each grown by a pixel (its blurred edge)."""
    side = warped.shape[0] / 9
    r, c = cell
    top, left = round(r * side), round(c * side)
    block = warped[top : top + round(side), left : left + round(side)]
    paper = _paper(warped, r, c)
    darkest = int(block.min())
    ink = (block < paper - INK_SHARE * (paper - darkest)).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    rows = range(box[0].start - top, box[0].stop - top)
    cols = range(box[1].start - left, box[1].stop - left)
    inside = np.zeros_like(ink)
    for i in range(1, count):
        x, y, w, h = (int(v) for v in stats[i, :4])
        if x in cols and y in rows and x + w - 1 in cols and y + h - 1 in rows:
            inside[labels == i] = 1
    grown = cv2.dilate(inside, np.ones((3, 3), np.uint8)) > 0
    view = out[top : top + block.shape[0], left : left + block.shape[1]]
    view[grown] = np.maximum(view[grown], paper)


def _sum_marks(layout: CageLayout) -> list[tuple[int, tuple[float, float]]]:
    """The cells whose corner may show a sum, each with how far its ink reaches."""
    if layout.marks:
        return list(layout.marks)
    out: list[tuple[int, tuple[float, float]]] = []
    seen: CageLayout | None = layout
    while seen is not None:
        extents = seen.extents or ((1.0, 1.0),) * len(seen.groups)
        out += [(g[0], e) for g, e in zip(seen.groups, extents, strict=True)]
        seen = seen.split
    return out


def _paper(warped: np.ndarray, r: int, c: int) -> int:
    """The paper's shade in cell (r, c): its brightest tenth."""
    cell = warped.shape[0] / 9
    inner = warped[round(r * cell) : round((r + 1) * cell), round(c * cell) : round((c + 1) * cell)]
    return int(np.percentile(inner, 90))


def _paint_lines(
    out: np.ndarray, warped: np.ndarray, inset: float, config: CageConfig, sides: np.ndarray
) -> None:
    """Paint the band where cage lines run inside the cells (``line_band`` either side of
    the inset) with the cell's paper, along the ``sides`` (81, 4) that hold one: a side
    inside a cage holds none, and a large pen digit reaching into the band there keeps
    its top (a 9 whose loop was cut read as a 1)."""
    cell = warped.shape[0] / 9
    lo, hi = max(inset - config.line_band, config.line_search), inset + config.line_band
    n = round(cell)
    a, b = math.floor(lo * cell), math.ceil(hi * cell)
    for k in range(81):
        r, c = divmod(k, 9)
        paper = _paper(warped, r, c)
        block = out[round(r * cell) : round(r * cell) + n, round(c * cell) : round(c * cell) + n]
        top, bottom, left, right = sides[k]
        for on, band in ((top, slice(a, b)), (bottom, slice(n - b, n - a))):
            if on:
                block[band, a : n - a] = np.maximum(block[band, a : n - a], paper)
        for on, band in ((left, slice(a, b)), (right, slice(n - b, n - a))):
            if on:
                block[a : n - a, band] = np.maximum(block[a : n - a, band], paper)


def _check_warped(warped: np.ndarray) -> None:
    """Raise if ``warped`` is not a square 2-D uint8 image of at least 9 pixels a cell."""
    if not isinstance(warped, np.ndarray):
        raise TypeError(f"warped must be a numpy array, got {type(warped).__name__}")
    if warped.ndim != 2 or warped.shape[0] != warped.shape[1] or warped.dtype != np.uint8:
        raise ValueError(f"warped must be a square 2-D uint8 image, got {warped.shape}")
    if warped.shape[0] < 81:
        raise ValueError(f"warped must be at least 81 pixels wide, got {warped.shape[0]}")
