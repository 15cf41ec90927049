"""The structure stage's settings: when a border is drawn thick, when diagonals are marked."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..grid.config import SearchConfig
from .cage_config import CageConfig


@dataclass(frozen=True)
class BorderConfig:
    """How the line between two neighbouring cells is weighed (fractions of a cell side).

    Each border's ink is measured across a strip ``strip`` wide on either side of it, over
    the middle of its length (``end_margin`` left out at each end, where lines cross),
    against the paper at the strip's ends (``ground`` wide), as a share of that paper's
    brightness (a shadow dims a line and its paper alike). The borders split into thin
    and thick at the widest gap in their ink; the thick ones must hold at least
    ``min_thick_ratio`` times the thin ones' ink, else no border is thick.

    Where that split gives no regions (pen strokes darken thin lines, shadow pales thick
    ones), the regions are looked for at the next widest gaps, ``cuts`` of them in all,
    then at the first ``mended_cuts`` splits with up to ``max_flips`` borders taken the
    other way, among the ``flip_pool`` nearest the split of those that could mend its
    pieces (a thick one between two pieces too small, a thin one inside a piece too large),
    each weighed at least ``flip_margin`` of the way in from the thin and thick borders'
    medians (a border plainly thin or thick is never taken the other way).
    """

    strip: float = 0.14
    ground: float = 0.06
    end_margin: float = 0.2
    min_thick_ratio: float = 1.6
    cuts: int = 12
    mended_cuts: int = 3
    flip_pool: int = 8
    max_flips: int = 2
    flip_margin: float = 0.25

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if not 0 < self.ground < self.strip < 0.5:
            raise ValueError(f"need 0 < ground < strip < 0.5, got {self.ground}, {self.strip}")
        if not 0 <= self.end_margin < 0.5:
            raise ValueError(f"end_margin must be in [0, 0.5), got {self.end_margin}")
        if self.min_thick_ratio <= 1:
            raise ValueError(f"min_thick_ratio must exceed 1, got {self.min_thick_ratio}")
        if not 0 <= self.flip_margin < 0.5:
            raise ValueError(f"flip_margin must be in [0, 0.5), got {self.flip_margin}")
        if min(self.cuts, self.flip_pool) < 1 or min(self.mended_cuts, self.max_flips) < 0:
            raise ValueError(
                "cuts and flip_pool must be at least 1, mended_cuts and max_flips at least 0"
            )


@dataclass(frozen=True)
class DiagonalConfig:
    """When both main diagonals count as marked: drawn as lines, or their cells shaded.

    Lines: the diagonal is sampled in each of its cells near the cell's corners (between
    ``near_corner`` and ``far_corner`` of the way to the centre, where digits seldom
    reach) and compared with parallel lines ``offset`` of a cell beside it; a diagonal is
    drawn when its median cell is ``min_line_ink`` grey levels darker and at least
    ``min_cells`` of its cells are half that. Shading: each diagonal cell's paper (the
    ``ground_percentile`` of its inner pixels, ``inset`` in from its sides) against the
    cells of its row in its box that lie on no diagonal; shaded when the median diagonal
    cell is ``min_shade`` grey levels darker and ``min_shaded_cells`` of the 17 half that.
    Drawn lines are taken out for the diagonal cells to be read again (``lines.py``): each
    line is looked for up to ``line_search`` of a cell either side of the ideal diagonal
    (at ``line_shifts`` shifts), cells more than ``fit_tolerance`` of a cell off the
    straight fit through them left out of it; a band ``erase_width`` of a cell wide along
    it is painted in the paper's tone wherever lighter than halfway between the line's
    tone and the ink's (the ``ink_percentile`` darkest pixels of the grid).
    """

    near_corner: float = 0.1
    far_corner: float = 0.28
    offset: float = 0.1
    min_line_ink: float = 14.0
    min_cells: int = 7
    inset: float = 0.12
    ground_percentile: float = 70.0
    min_shade: float = 12.0
    min_shaded_cells: int = 14
    erase_width: float = 0.08
    line_search: float = 0.1
    line_shifts: int = 17
    fit_tolerance: float = 0.025
    ink_percentile: float = 1.0


@dataclass(frozen=True)
class LookalikeConfig:
    """How sure a look-alike must be before it is named.

    The outline is straightened to ``side`` pixels; its cells a side are the strongest
    period of its lines between ``min_cells`` and ``max_cells`` (a half or a third of it
    where that holds ``harmonic_share`` of its strength: the fundamental). A cell is black below
    ``black_level`` of the paper's brightness; ``min_black`` of the cells black makes a
    crossword, or a Kakuro when ``kakuro_edge`` of its top row and left column are black.
    A Samurai has ``samurai_cells`` (± 1) a side and its four notches hold under
    ``blank_ink`` ink, against ``min_ink`` elsewhere. A KenKen has no black cell, thick
    borders, and at least ``kenken_cages`` pieces per cell a side inside them, at most
    ``kenken_singles`` of them a single cell (where nearly every border reads thick, the
    thick ink is the grid's own lines: a Killer's dotted outlines and pen). A 12×12
    Sudoku has a line at every ``twelve``-th of the outline both ways (inked within
    ``line_band`` of the side over ``line_cover`` of its length), not at every
    ``sixteen``-th (a 16×16's).
    """

    side: int = 630
    min_cells: int = 4
    max_cells: int = 26
    harmonic_share: float = 0.3
    black_level: float = 0.45
    min_black: float = 0.08
    kakuro_edge: float = 0.85
    samurai_cells: int = 21
    blank_ink: float = 0.01
    min_ink: float = 0.04
    kenken_cages: float = 2.0
    kenken_singles: float = 0.5
    twelve: int = 12
    sixteen: int = 16
    line_band: float = 0.012
    line_cover: float = 0.8
    search: SearchConfig = field(default_factory=SearchConfig)


DEFAULT_LOOKALIKE_CONFIG = LookalikeConfig()


@dataclass(frozen=True)
class StructureConfig:
    """What the grid's drawing is read for: region borders and marked diagonals.

    regions: read irregular (jigsaw) regions from thick borders; diagonals: look for
    marked diagonals (Sudoku X). Either off, the grid is taken as classic in that respect.
    cell_pixels: the straightened grid is looked at with this many pixels a cell (shrunk
    where finer). lookalikes: when a photo gives no grid it can solve, how surely a
    Samurai, Kakuro, KenKen or crossword must show before it is named (``lookalike.py``).
    killer: look for Killer cages (dashed or dotted outlines inside the cells, a sum in
    each cage's corner: ``cages.py``, read by ``Reader`` with its digit model); cages: how
    (``CageConfig``).
    """

    regions: bool = True
    diagonals: bool = True
    killer: bool = True
    cell_pixels: int = 20
    borders: BorderConfig = field(default_factory=BorderConfig)
    diagonal: DiagonalConfig = field(default_factory=DiagonalConfig)
    lookalikes: LookalikeConfig = field(default_factory=LookalikeConfig)
    cages: CageConfig = field(default_factory=CageConfig)

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if self.cell_pixels < 8:
            raise ValueError(f"cell_pixels must be at least 8, got {self.cell_pixels}")


DEFAULT_STRUCTURE_CONFIG = StructureConfig()
