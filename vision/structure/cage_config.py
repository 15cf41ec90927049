"""The Killer cage reader's settings: where cage lines are looked for, how sums are read."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class TintConfig:
    """When a grid's cages are told by their tint (``cage_tints.tinted_cages``).

    cell_px: the side of a cell warped from the photo to measure its tint.
    margin: the share of a cell's side left out at each edge (the grid lines).
    ink_drop: how far (L*) below the cell's paper a pixel counts as ink, left out.
    min_step: the least tint step (a*, b* distance) across a border between cages; 0 turns
        tinted cages off.
    min_ratio: how many times the largest step inside a cage the least between cages must
        be.
    step_floor: the least a step counts as (a*, b* units): JPEG's and the sensor's noise
        in a uniform tint.
    least: the fewest borders on either side of the split.
    window: where the split is looked for: the least step above it at least ``window[0]``
        of the steps' 75th percentile (a typical step between two cages), the largest
        below it at most ``window[1]`` of it.
    """

    cell_px: int = 24
    margin: float = 0.2
    ink_drop: float = 12.0
    min_step: float = 5.0
    min_ratio: float = 1.4
    step_floor: float = 1.0
    least: int = 8
    window: tuple[float, float] = (0.25, 0.6)

    def __post_init__(self) -> None:
        """Check the settings."""
        if self.cell_px < 8:
            raise ValueError(f"cell_px must be at least 8, got {self.cell_px}")
        if not 0.0 <= self.margin < 0.5:
            raise ValueError(f"margin must be in [0, 0.5), got {self.margin}")
        if self.min_step < 0 or self.min_ratio < 1 or self.step_floor <= 0:
            raise ValueError("min_step must be >= 0, min_ratio >= 1, step_floor > 0")
        if not 0.0 < self.window[0] <= self.window[1] < 1.0:
            raise ValueError(f"window must be 0 < low <= high < 1, got {self.window}")


@dataclass(frozen=True)
class CageConfig:
    """How cage outlines are found and sums read in a straightened grid (shares of a cell).

    Lines: each cell side's ink is profiled inward from its grid line (the outermost peak
    within ``line_search`` of where it should be holding ``align_share`` of the darkest ink
    there; where a border's two sides find it more than ``line_agree`` apart, both take the
    place of the one nearer the line's course: the median of the places found along it,
    ``line_reach`` cells either way) over the middle of the side's length (``span``, away
    from the sum in the top-left corner and from the lines crossing at the ends), the grid
    resampled to ``cell_px`` a cell. A cage line runs ``inset`` inside the grid lines, the
    same for the whole grid (the offset where the profiles of all sides show most ink above
    the dip before it and the paper ``paper_gap`` further in); a side's line evidence is its
    ink there above that paper, along the part of the side where that paper holds at most
    ``clear_ink`` (a digit across the line or beside it hides it; the whole side where less
    than ``min_clear`` of it is clear), a border's the mean of its two sides'. The borders
    on thin grid lines split in two groups (cut at the ink as many of each group's spreads
    from both; those between columns and those between rows each by themselves where they
    split ``own_separation`` times their spread apart: a photo at a slant blurs the lines
    across and down unlike; where both do and one split of all would cut them otherwise,
    each direction's box borders and open ink are its own too); box borders apart where a
    thick line's edge raises them all but they still split ``box_separation`` times their
    spread apart (else every one would be a cage border: never so in a Killer, whose cages
    cross box lines). The grid has cages when those without a line hold at most
    ``max_open_ink``, those with one ``min_line_ink`` more, and the share without one is
    within ``open_share`` (cells of one cage). Lines so close to the grid line that no dip
    shows before them are taken where the thin borders' ink at one offset splits in two
    groups ``faint_separation`` times their spread apart and ``faint_min_ink`` or more.

    Sums: the top-left cell of each cage is cut at ``detail`` times the classifier's cell
    size; its corner box (``sum_box``: x0, y0, x1, y1) holds the sum. The blob nearest the
    corner at least ``min_digit_share`` of the box tall, ``min_digit_aspect`` as wide as
    tall and clear of the box's far edges (not a slanted grid line's piece cut off in its
    top-left corner, under ``corner_line_aspect`` as wide as tall), and those as tall as
    ``digit_height`` of it beside it are the digits (two at most; with ``mend_strokes``,
    two blobs side by side at most ``half_gap`` of their height apart that hold a zero's
    hole once the gaps along their rows up to ``half_close`` of their height are closed
    are one 0 whose hairlines broke, and may be a zero, and a flat blob at most
    ``base_flat`` as tall as wide right under a digit is the base of a 2 whose thin
    diagonal broke); every sum of a grid is printed in one
    size, so a blob ``tall_share`` taller than the grid's median blob is cut
    to its height from its top, one under ``digit_height`` of it left out; a corner of a
    cage's first cell with no digit found, whose blob starts within ``hung_top`` of the
    box's top and reaches its bottom (a sum joined by blur to the cage line's dashes
    below), has it cut at that height (kept when then ``hung_width`` as wide as tall),
    each scaled to each of ``blob_heights`` of the classifier's input and read (the
    probabilities averaged). A blob is a zero when its
    one hole is ``zero_hole`` of its height and lies in its middle (for a sum: within
    ``zero_centre`` of it both ways, reaching from above ``zero_reach`` of its height to
    below as much from its bottom, its middle column inked to within ``zero_arc`` of the
    blob's top and bottom), and ``blurred_zero`` likely one when only its ink
    darker than one of ``blurred_levels`` of its darkest holds such a hole (a bold sum's
    small 0, blurred, shows its hole only in its darkest ink). A sum whose most probable
    reading is less probable than ``unread_below`` (one sum in 45, what a sum not read at
    all gives each) is not read: every sum its cage can reach alike. A sum is sure when
    its reading has ``sure_probability``; the ``alternatives`` most probable readings of each
    sum are tried (one or two changed at once, or three among the ``triple_cages`` least
    sure; ``max_candidates`` sets of sums
    checked, ``max_solver_calls`` solved, each proof given ``seconds_per_solve``) for sums
    that add up to 405, each reachable by its cage, with exactly one solution. Failing
    that, the least sure ``open_counts`` sums in turn are left open to all their readings
    (those giving up at most ``max_open_cost`` each) and the search given
    ``seconds_per_open`` to find the one solution, kept only when its sums give up at most
    ``max_open_cost`` of the readings' log-probability (where the open cages allow
    several, fewer than ``open_solutions``, the one solution within that cost that calls
    no more of the person's entries surely wrong than a slip, its sums holding no other
    of them, is kept: the entries tell the readings apart); failing that, every unsure sum is
    left open to its readings giving up at most each of ``open_costs`` in turn (a blurred
    page, where most sums are unsure); failing that, every unsure sum is left open to
    any sum its cage can reach (pen over a sum's corner leaves no reading of it, or a
    wrong one) and every solution found, fewer than ``rank_solutions``, whose own sums
    give its Killer no other, is scored by the readings it gives up and ``entry_cost``
    for each entry it calls surely wrong: the best is kept where it calls no more than
    a slip wrong, gives up at most ``max_rank_cost`` and scores ``rank_margin`` better
    than every other (``cages.ranked_sums``); all of it within ``time_limit_s``. Where no sums
    give one solution, the cages are tried again with the thin borders cut whose evidence
    reaches ``doubt_share`` of the way from the open borders' ink to the cage lines' (the
    first cages given ``split_time_share`` of the time); last, up to ``max_fixes`` of
    the first cages each with one border changed as a sum asks (``cages.sum_fixes``: a
    cage whose corner shows no sum joined to one beside it, a cage holding a second sum
    cut at it). A solution found with sums changed
    or opened that calls more than ``max_wrong_entries`` of the person's entries read
    surely wrong is taken for a misreading (``cages.Known``). In the cells read as holding
    a pen entry, ink whose chroma per unit of darkness reaches ``pen_tint`` is a coloured
    pen's, painted out before the sums are read in the photo (``without_pen_ink``; 0
    turns it off).

    The cages may be told by their tint alone too (a colour photo; ``tint``,
    ``cage_tints.py``), that grouping tried after the lines'; where the grid shows no cage
    lines, kept only where at least ``min_summed`` of them show a sum in their top-left
    corner (a classic grid with coloured boxes shows none).

    Masking for the cell reader paints each sum (its ink's box and ``mask_margin`` more;
    in a cell read as holding a pen entry, only the ink wholly inside that box) and the
    band ``line_band`` either side of the cage lines' inset (from ``line_search`` in,
    along the cages' outlines, in no pen cell) with each cell's paper.
    """

    cell_px: int = 64
    span: tuple[float, float] = (0.4, 0.85)
    line_search: float = 0.06
    inset: tuple[float, float] = (0.05, 0.22)
    paper_gap: float = 0.06
    min_line_ink: float = 0.1
    max_open_ink: float = 0.05
    open_share: tuple[float, float] = (0.12, 0.68)
    faint_separation: float = 5.0
    align_share: float = 0.7
    line_reach: int = 2
    line_agree: float = 0.05
    box_separation: float = 3.0
    faint_min_ink: float = 0.06
    detail: int = 3
    sum_box: tuple[float, float, float, float] = (0.03, 0.03, 0.62, 0.46)
    min_digit_share: float = 0.25
    min_digit_aspect: float = 0.2
    corner_line_aspect: float = 0.35
    mend_strokes: bool = True
    half_gap: float = 0.1
    half_close: float = 0.25
    base_flat: float = 0.6
    digit_height: float = 0.6
    tall_share: float = 1.2
    hung_top: float = 0.2
    hung_width: float = 0.35
    blob_heights: tuple[float, ...] = (0.5, 0.6, 0.7)
    zero_hole: float = 0.4
    zero_centre: float = 0.08
    zero_reach: float = 0.35
    zero_arc: float = 0.15
    blurred_levels: tuple[float, ...] = (0.4, 0.6, 0.7)
    blurred_zero: float = 0.3
    sure_probability: float = 0.9
    unread_below: float = 1 / 45
    alternatives: int = 12
    triple_cages: int = 10
    max_candidates: int = 20_000
    max_solver_calls: int = 30
    seconds_per_solve: float = 1.0
    seconds_per_open: float = 1.5
    time_limit_s: float = 3.0
    open_counts: tuple[int, ...] = (2, 4, 7, 10, 14)
    open_costs: tuple[float, ...] = (1.0, 2.0, 3.0)
    max_open_cost: float = 12.0
    open_solutions: int = 8
    rank_solutions: int = 32
    entry_cost: float = 4.0
    max_rank_cost: float = 30.0
    rank_margin: float = 4.6
    max_fixes: int = 8
    doubt_share: float = 0.15
    split_time_share: float = 0.6
    line_band: float = 0.05
    clear_ink: float = 0.2
    min_clear: float = 0.05
    own_separation: float = 4.0
    max_wrong_entries: int = 1
    pen_tint: float = 0.3
    mask_margin: float = 0.04
    tint: TintConfig = field(default_factory=TintConfig)
    min_summed: float = 0.8

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if self.cell_px < 24:
            raise ValueError(f"cell_px must be at least 24, got {self.cell_px}")
        if not 0 < self.inset[0] < self.inset[1] < 0.4:
            raise ValueError(f"inset must be 0 < low < high < 0.4, got {self.inset}")
        if not 0 <= self.span[0] < self.span[1] <= 1:
            raise ValueError(f"span must be 0 <= start < end <= 1, got {self.span}")
        if self.detail < 1:
            raise ValueError(f"detail must be at least 1, got {self.detail}")
        if self.line_reach < 0 or self.line_agree < 0:
            raise ValueError(
                f"line_reach and line_agree must be at least 0, got {self.line_reach}, "
                f"{self.line_agree}"
            )
        if self.max_fixes < 0:
            raise ValueError(f"max_fixes must be at least 0, got {self.max_fixes}")
        if self.rank_solutions < 2 or self.entry_cost < 0 or self.rank_margin < 0:
            raise ValueError(
                f"rank_solutions must be at least 2, entry_cost and rank_margin at least 0, "
                f"got {self.rank_solutions}, {self.entry_cost}, {self.rank_margin}"
            )
        if not 0.0 <= self.min_summed <= 1.0:
            raise ValueError(f"min_summed must be in [0, 1], got {self.min_summed}")


DEFAULT_CAGE_CONFIG = CageConfig()
