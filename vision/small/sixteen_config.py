"""Tunable numbers of the 16×16 step (``vision/small/sixteen.py``): a magazine's 16×16
Sudoku (4×4 boxes) with the numbers 1-16, or the symbols 0-9 and A-F, or the letters A-P
(``vision/small/symbols.py``); and of a 12×12 (3×4 boxes) with the numbers 1-12, read the
same way (``DEFAULT_TWELVE_CONFIG``)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..read.ink_colour import DEFAULT_INK_COLOUR_CONFIG, InkColourConfig
from ..structure.cage_config import CageConfig
from .config import SmallGridConfig

NUMBER_SIZES = (12, 16)  # the grids whose numbers 10 and up are read as two glyphs


def sixteen_lines() -> SmallGridConfig:
    """The small-grid finder's settings for a 16×16: its 17 lines each way looked for in a
    quad warped to 640 pixels a side (at 360, a thin cell line of 256 small cells is a
    pixel or two and half lost), the grid straightened at 48 pixels a cell, its lines runs
    of ink longer than 0.85 of a ninth of the grid (``run_cells``, as it was tuned); any
    repair taken (``unlikely_repair`` 0: a 16×16 left unsolved goes on to ``opened``,
    whose numbers, far down a misread 10's list, are as unlikely)."""
    return SmallGridConfig(
        sizes=(16,), side_px=640, cell_px=48, time_limit_s=10.0, run_cells=9, unlikely_repair=0.0
    )


def twelve_lines() -> SmallGridConfig:
    """The small-grid finder's settings for a 12×12: a 16×16's (``sixteen_lines``) with
    its 13 lines each way looked for instead."""
    return replace(sixteen_lines(), sizes=(12,))


def number_glyphs() -> CageConfig:
    """The Killer sum reader's settings for a 16×16 cell's number (``cage_sums``): the
    whole cell is the box the glyphs stand in, a narrow sans-serif 1 still a digit."""
    return CageConfig(
        sum_box=(0.0, 0.0, 1.0, 1.0),
        min_digit_share=0.15,
        min_digit_aspect=0.1,
        corner_line_aspect=0.0,
        mend_strokes=False,
    )


@dataclass(frozen=True)
class SymbolConfig:
    """How a 16×16 printed with symbols (0-9 and A-F, or A-P) is read (``symbols.py``).

    two_glyph_share: a page is read as the numbers 1-16 where at least this share of its
    filled cells hold two glyphs (10-16); else as symbols. retry_share: a page read as
    numbers and not solved is read again as symbols where under this share of its filled
    cells hold two glyphs (a bold face's wide M, N, H cut in two: some 0.3; a page of
    numbers some 0.45), and that reading kept where it is solved.
    ink_share: a glyph's ink is at least this share of its cell's darkest; speck_share:
    an ink blob smaller than this share of the cell's largest is left out. side, blur:
    a glyph is compared scaled to side × side pixels, blurred by ``blur`` pixels, with
    ``margin`` (a share of its longer side) of paper around it.
    aspect_weight: how much a difference in log width / height costs beside the shape
    (1 - correlation). join_from: two groups of glyphs join (one symbol) only where their
    glyphs match this well on average, never two glyphs of one row, column or box.
    model_weight: how much the digit model's votes count in naming a group (its -log
    probability of a digit); letter_cost: the votes' cost of naming a group a letter.
    sure_scale: a glyph's probability of each group, softmax of its match / this.
    turn_margin: the page is read in every quarter turn, and turned to the one whose
    naming costs least where it costs at least this much less than the page as it lies.
    print_join: a page half solved in pen: glyphs first grouped joining only at this
    likeness (a printed symbol's copies, some 0.97 alike; two of a hand's glyphs at times
    0.95: joined at 0.95, a symbol printed with odd copies is lost, as measured), the 16
    largest such groups printed, and each other glyph at least
    ``print_like`` as like one of their glyphs (a hand's glyph is at most some 0.88 like a
    printed one); the rest, where at least ``min_written`` (fewer: a symbol outside the
    set, refused), are written entries. place_weight, place_slack: two glyphs are
    copies of one print only where they stand alike in their cells (print is set at one
    height, centred; a hand writes bigger or smaller, off-centre): their likeness here
    less ``place_weight`` for each share of the cell by which their heights or centres
    differ past ``place_slack`` (a printed symbol's copies within some 0.03 of one
    another in the rendered photos, at most 0.06; a hand's as near only now and then).
    print_slack: a group of near copies is print only where its glyphs' tops and centres
    across stand within this share of the cell of the page's (print is set on one cap
    line, centred: the rendered photos' printed glyphs within 0.05 of the page's median;
    two of a hand's glyphs alike enough to group are seldom both so placed).
    print_extra: past the 16 largest such groups, a group of at least this many glyphs
    is print too (a symbol whose copies fell into two groups: a thin 1's shape varies).
    doubt_scale: a written glyph's log-odds of print over pen are its best likeness to a
    printed glyph less ``print_like``, over this (a printed I or 1, a thin bar whose
    shape varies, at times 0.89 like its copies: log-odds some -0.5, a given where the
    printed alone have no one answer, ``sixteen.pen_split``; a hand's some 0.8: -5).
    written_scale: a written glyph's probability of each symbol, softmax of its naming
    cost / -this; written_sure: never surer than this (under the check's 0.99: an entry
    read as another symbol is asked about, never called wrong).
    """

    two_glyph_share: float = 0.2
    retry_share: float = 0.4
    ink_share: float = 0.35
    speck_share: float = 0.08
    side: int = 20
    blur: float = 1.0
    margin: float = 0.1
    aspect_weight: float = 0.5
    join_from: float = 0.5
    model_weight: float = 0.1
    letter_cost: float = 2.3
    sure_scale: float = 0.03
    turn_margin: float = 1.0
    print_join: float = 0.9
    print_like: float = 0.9
    min_written: int = 5
    place_weight: float = 5.0
    place_slack: float = 0.03
    print_slack: float = 0.05
    print_extra: int = 3
    doubt_scale: float = 0.02
    written_scale: float = 0.05
    written_sure: float = 0.95

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if not 0 < self.two_glyph_share < 1 or not 0 < self.ink_share < 1:
            raise ValueError("two_glyph_share and ink_share must be in (0, 1)")
        if not 0 < self.print_like <= self.print_join < 1 or not 0 < self.written_sure < 1:
            raise ValueError("need 0 < print_like <= print_join < 1, written_sure in (0, 1)")
        if self.min_written < 1 or self.written_scale <= 0 or self.print_extra < 2:
            raise ValueError("min_written, print_extra at least 1 and 2, written_scale > 0")
        if self.doubt_scale <= 0:
            raise ValueError(f"doubt_scale must be above 0, got {self.doubt_scale}")
        if self.place_weight < 0 or self.place_slack < 0 or self.print_slack <= 0:
            raise ValueError("place_weight, place_slack at least 0, print_slack above 0")
        if self.side < 8 or self.blur < 0 or self.sure_scale <= 0:
            raise ValueError("side must be at least 8, blur at least 0, sure_scale above 0")


@dataclass(frozen=True)
class PenNumberConfig:
    """How a two-digit number written in pen is read where the glyph finder saw one glyph
    (``sixteen.pen_numbers``): its 1 written taller than the digit after it (which the
    finder, holding a number's glyphs to one height, left out), or run into it (one blob).

    pen_share: only a cell whose glyph reads as handwriting at least this surely is
    looked at again (print is set in one size, its digits apart). second_height: a glyph
    right of a 1, beside it and at least this share of its height, is the number's second
    digit. joined_aspect: a blob at least this wide for its height is cut in two where a
    1 may join the next digit (``cage_sums.split_sum``'s cut). one_sure: the 1 must read
    as a 1 at least this surely; part_sure: a joined blob's right part must read this
    surely, as the whole blob does (a 16's blob reads as a 6) or as a 0 (a 10), never
    as a 1 (a 1 with a flag and a foot cut through its stem reads as two 1s: a joined 11
    stays as read); its 1 must be ``tall_parts`` of the blob's height (a 4's slanted
    stroke is short). walled_rows: a pen cell of two glyphs whose second has no zero's
    hole (a narrow 0 written in two arcs, the left one run into the 1: read as 11 or 12)
    and the two bowed out, the first to the left and the second to the right, by
    ``arc_bulge`` of their heights at their middles (a 1 with a 0's left arc, and its
    right arc; an 11's or 13's first glyph, a 1, is straight) is cut after its 1, and
    what is right of the cut read as a 0 where two strokes apart cross this share of its
    middle rows
    (``sixteen.broken_zero``). share: the
    other reading's share of the cell's probabilities where it holds (under the check's
    0.99: such a number is asked about, never called wrong). enabled: False reads each
    cell's glyphs as found.
    """

    pen_share: float = 0.5
    second_height: float = 0.4
    joined_aspect: float = 0.3
    one_sure: float = 0.8
    part_sure: float = 0.9
    tall_parts: float = 0.8
    walled_rows: float = 0.9
    arc_bulge: float = 0.08
    share: float = 0.9
    enabled: bool = True

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        shares = (
            self.pen_share,
            self.second_height,
            self.one_sure,
            self.part_sure,
            self.tall_parts,
            self.walled_rows,
            self.share,
        )
        if not all(0 < v < 1 for v in shares) or self.joined_aspect <= 0:
            raise ValueError("the shares must be in (0, 1), joined_aspect above 0")
        if not 0 < self.arc_bulge < 1:
            raise ValueError(f"arc_bulge must be in (0, 1), got {self.arc_bulge}")


@dataclass(frozen=True)
class SixteenConfig:
    """How a 16×16 Sudoku (or, ``size`` 12, a 12×12) is found and its numbers read.

    lines: the small-grid finder's settings (``SmallGridConfig`` with sizes (size,)); its
    ``time_limit_s`` is the solver's. glyphs: how the one or two glyphs of a number are
    cut from a cell and read (the Killer sum reader's ``CageConfig``: ``sum_box`` the
    whole cell). detail: a cell is cut at this many times the classifier's input size.
    inset: the share of a cell cut off each side (the grid lines). min_ink: a cell whose
    darkest ink is under this (the grid's ink scaled to 1) is empty: paper, noise, a tint
    (the glyph finder's threshold is a share of the cell's own darkest); on a page of
    numbers one whose darkest ink is at least ``faint_ink`` but under ``min_ink`` holds a
    pale pen number (a thin blue pen on a tinted box): read where its glyph is strokes
    (its ink above half its darkest fills at least ``faint_fill`` of its box), and
    handwriting at least ``faint_pen`` likely (print is as dark as the grid;
    ``faint_ink`` = ``min_ink`` turns this off). What is left of
    the grid lines is cleared first: within ``line_band`` of a side, each row or column
    inked (``line_ink``) across ``line_share`` of the cell (a two-digit number's 1 spans
    some 0.65). pad: paper then added around the cell, this share of its side each way,
    before its glyphs are looked for (the glyph finder clears line-like ink along a box's
    edges, as a notes cell's: a 1 near the cell's left side would go). lost_one: how likely a
    number seen as one glyph is a two-digit one whose 1 went unseen. enabled: False looks
    for no such grid. size: cells a side (16, or 12: the numbers 1-12, never symbols). past_edge: a
    photo whose 9×9 grids all run past its edge (a corner this share of its shorter side outside:
    yesterday's answer cut off by the frame beside a 16×16) is looked at for a grid of another size
    even when one of them was solved (``pipeline.cut_off``). symbols: how a page printed with 0-9
    and A-F, or A-P, is told from the numbers and read (``SymbolConfig``). pen_odds: a page of
    numbers half solved in pen: a cell is read as handwriting where its log-odds of print over pen
    are at most one of these; the printed numbers alone are solved with the cells at most the first
    taken for pen, then the second, ... (strictest first: a pen number read less surely stays a
    given where the rest already has one answer), the first giving one answer kept
    (``sixteen.pen_split``). pen_numbers: how a two-digit pen number seen as one glyph is read again
    (``PenNumberConfig``). ink_colour: a page of numbers' pen told from its print by colour as well
    (``read/ink_colour.py``, as on a 9×9: a blue or red pen; a black one changes nothing).
    answer_prior: once solved, the pen numbers are read again with the answer as prior, as a
    9×9's pen digits are (``read/pen.py``, the pipeline's ``read.pen``): a number's one or two
    glyphs are read less surely than a digit filling a cell (a small grid's, which is not).
    """

    size: int = 16
    lines: SmallGridConfig = field(default_factory=sixteen_lines)
    glyphs: CageConfig = field(default_factory=number_glyphs)
    detail: int = 2
    inset: float = 0.06
    min_ink: float = 0.5
    faint_ink: float = 0.4
    faint_pen: float = 0.99
    faint_fill: float = 0.1
    line_band: float = 0.15
    line_share: float = 0.8
    line_ink: float = 0.15
    pad: float = 0.25
    lost_one: float = 0.02
    zero_symmetry: float = 0.7
    open_least: int = 8
    completions: int = 5000
    decode_side: int = 2400
    past_edge: float = 0.01
    symbols: SymbolConfig = field(default_factory=SymbolConfig)
    pen_odds: tuple[float, ...] = (-2.0, -1.0, 0.0, 1.0)
    pen_numbers: PenNumberConfig = field(default_factory=PenNumberConfig)
    ink_colour: InkColourConfig = DEFAULT_INK_COLOUR_CONFIG
    answer_prior: bool = True
    enabled: bool = True

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if self.size not in NUMBER_SIZES:
            raise ValueError(f"size must be one of {NUMBER_SIZES}, got {self.size}")
        if self.lines.sizes not in ((), (self.size,)):
            raise ValueError(
                f"lines.sizes must be ({self.size},) (or (): never), got {self.lines.sizes}"
            )
        if self.detail < 1 or not 0 <= self.inset < 0.25 or not 0 <= self.lost_one < 1:
            raise ValueError("detail must be at least 1, inset in [0, 0.25), lost_one in [0, 1)")
        if list(self.pen_odds) != sorted(self.pen_odds):
            raise ValueError(f"pen_odds must be strictest (lowest) first, got {self.pen_odds}")
        if not 0 < self.faint_ink <= self.min_ink or not 0 <= self.faint_pen < 1:
            raise ValueError("need 0 < faint_ink ≤ min_ink and faint_pen in [0, 1)")
        if not 0 <= self.faint_fill <= 1:
            raise ValueError(f"faint_fill must be in [0, 1], got {self.faint_fill}")
        if not 0.2 <= self.pad <= 1:
            raise ValueError(f"pad must be in [0.2, 1], got {self.pad}")


DEFAULT_SIXTEEN_CONFIG = SixteenConfig()
# a 12×12: numbers fill its cells edge to edge, none of a cell cut off (inset 0: on the
# tuning pages, seeds 500-539 and 600-639, 78 of 80 read exactly with 0 or 0.03, 73 with
# 0.06; half in pen, seeds 700-723, pen taken for print 2 of 769 with 0, 30 with 0.03)
DEFAULT_TWELVE_CONFIG = SixteenConfig(size=12, lines=twelve_lines(), inset=0.0)
DEFAULT_SYMBOL_CONFIG = SymbolConfig()
