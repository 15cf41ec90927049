"""Tunable numbers of the small-grid step (``vision/small/``): 4×4, 6×6 and 8×8 Sudokus."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..read.orientation import OrientationConfig


def every_turn() -> OrientationConfig:
    """A small grid's turns are all read, however sure the upright reading, and the one
    reading best is taken by a smaller margin than a 9×9's: its few digits can read
    nearly as surely the wrong way up (a 4×4 of 6 givens turned sideways reads 1-2 nats
    worse), and a few dozen cells more cost one model call."""
    return OrientationConfig(check_below_log_prob=math.inf, turn_margin_log_prob=0.5)


@dataclass(frozen=True)
class SmallGridConfig:
    """How a candidate quad is told for a small Sudoku by its drawn lines, and read.

    A candidate (the grid finder's rough quads, ``vision/grid/candidates.py``) is warped
    to ``side_px`` pixels a side with ``margin_share`` of that around it. Its line
    profile (the share of each row, or column, of the quad covered by long runs of ink)
    is fitted with n + 1 evenly spaced lines for each n of ``sizes``: line spacings of
    the side / n ± ``spacing_slack``, the first line within ``offset_slack`` of the
    side from the quad's edge, each line looked for within ``peak_px`` of its place.

    A grid of n cells a side is taken when, in both directions, every one of its lines
    is covered at least ``min_line``, the middles between lines (mid-cells) at most
    ``max_between``; its box lines (2 rows × 3 columns for 6×6) are at least
    ``box_thickness`` times as thick as its other inner lines on average; and no line
    continues one spacing past the border on either side (covered more than
    ``max_outside``, as a grid line is: a part of a larger grid; a paragraph of text
    above a grid covers about half). A quad holding 9 + 1 evenly spaced lines
    each way (spaced a ninth of its side ± ``nine_spacing_slack``), all but
    ``nine_lines_missing`` drawn, is a 9×9 grid and never a small one.

    sideways: a grid whose boxes lie the other way (3 rows × 2 columns on a 6×6, a page
    photographed sideways) is taken too, and turned upright. orientation: when the turns
    that keep the boxes are read too and how much better one must read to be taken
    (``read.oriented``; every time by default: ``every_turn``).

    sizes: () looks for none. candidates: the biggest candidate quads looked at.
    cell_px: a cell of the straightened grid (``GridDetection.warped``). time_limit_s:
    the solver's limit. pen_entries: the digits the reading takes for handwriting
    (``decide_kinds``: classifier, copies, ink shape, placement) by at least ``pen_margin``
    (log-odds of print over pen at most -pen_margin), where at least ``min_pen_cells`` are, are the
    person's entries, left out of the givens and checked against the answer, where the
    printed digits alone have one answer; otherwise (or when False) every digit read counts
    as printed. (Rendered pages: a printed digit taken for pen leant at most -1.6 but for
    one at -3.5, alone on its page; real pen entries -1.4 to -14, most below -4.)
    pen_doubtful: where the printed digits alone have no single answer, each of this many
    of the written cells least surely pen is tried as printed, one at a time (a printed 4
    on a children's 4×4 leant -2.3, and its five printed digits alone left two answers).
    pen_leaning: failing those, every digit read as handwriting however slightly (log-odds
    below 0) is left out with the sure ones (a children's 4×4's pen 2 leant -1.4, and
    counted as printed it left no answer; the digit repaired to make one was wrong).

    unlikely_repair: a photo whose one 9×9 grid was solved only by repairing a digit to one
    the digit model gave less than this probability is looked at for a small grid too, and
    a small grid solved with fewer repairs replaces it (an 8×8 turned upside down or
    sideways, the page's heading beside it: the 9×9 finder takes the 8×8's lines and one
    more, and its 64 digits pass for a 9×9 puzzle after two repairs, taken at 0-4 %).
    A small grid's own repair never takes a digit the model gave less than this either
    (``read.repaired``): where only such a repair gives one answer, the grid is left
    unsolved, that repair named (a 4×4's printed 3 "repaired" to a 2 read at 0 % solved
    it wrong). 0: any repair is taken, and a 9×9 is never doubted.

    run_cells: a line is a run of ink longer than ``LineConfig.line_kernel_cells`` of a cell
    of a grid this many cells a side; None: of each size's own cell (a 4×4's pen digits,
    half its cell high, are longer than 0.85 of a ninth of the grid and passed for lines
    midway between its lines; the 16×16's finder keeps the ninth it was tuned with).

    notes_decode_side: the cells the digit model takes for candidate notes are cut again
    from the photo decoded with its longer side at least this many pixels (where it is
    that big; ``fine.py``): a noted digit spans a fifth of a cell, too few pixels of a
    ``cell_px`` cell.
    """

    sizes: tuple[int, ...] = (6, 8, 4)
    side_px: int = 360
    margin_share: float = 0.25
    candidates: int = 6
    spacing_slack: float = 0.1
    spacing_steps: int = 21
    offset_slack: float = 0.1
    peak_px: int = 3
    min_line: float = 0.4
    max_between: float = 0.25
    max_outside: float = 0.8
    box_thickness: float = 0.9
    nine_lines_missing: int = 1
    nine_spacing_slack: float = 0.05
    cell_px: int = 40
    time_limit_s: float = 5.0
    pen_entries: bool = True
    pen_margin: float = 2.0
    min_pen_cells: int = 2
    sideways: bool = True
    orientation: OrientationConfig = field(default_factory=every_turn)
    unlikely_repair: float = 0.05
    pen_doubtful: int = 2
    pen_leaning: bool = True
    notes_decode_side: int = 1600
    run_cells: int | None = None

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if any(n not in (4, 6, 8, 12, 16) for n in self.sizes):
            raise ValueError(
                f"sizes must be some of 4, 6, 8, 12, 16 (none: never); got {self.sizes!r}"
            )
        if self.side_px < 72 or self.cell_px < 8:
            raise ValueError(f"side_px and cell_px are too small: {self.side_px}, {self.cell_px}")
        if not 0 < self.min_line <= 1 or not 0 <= self.max_between < self.min_line:
            raise ValueError("min_line must be in (0, 1] and max_between below it")
        if self.run_cells is not None and self.run_cells < 1:
            raise ValueError(
                f"run_cells must be at least 1 (None: each size's own), got {self.run_cells}"
            )


DEFAULT_SMALL_GRID_CONFIG = SmallGridConfig()
