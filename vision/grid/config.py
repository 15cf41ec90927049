"""Tunable numbers of the grid finder, in one frozen dataclass named for what they mean."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GridConfig:
    """Settings for finding, scoring and straightening a 9×9 grid.

    The warped grid is a square of ``warp_size`` pixels (9 cells of ``cell_size``): the
    outer corners of the grid map to (0, 0) and (warp_size, warp_size), so cell (r, c)
    covers rows r*cell_size .. (r+1)*cell_size and the grid lines lie on multiples of
    cell_size.
    """

    # output
    cell_size: int = 40  # px per cell of GridDetection.warped (warp_size = 9 * cell_size)
    # candidate search (on the photo shrunk to search_max_side)
    search_max_side: int = 640
    min_grid_area_fraction: float = 0.01  # smallest grid, as a share of the photo's area
    contours_per_view: int = 8  # largest contours kept per thresholded view
    refine_candidates: int = 4  # best-scoring quads refined, per grid wanted
    box_candidates: int = 3  # best quads also tried as a 3×3 box of a larger grid
    # grid-likeness score (candidate warped at score_cell_size px per cell)
    score_cell_size: int = 16
    ink_kernel_cells: float = 0.4  # black-hat kernel: ink is darker than this neighbourhood
    ink_contrast_fraction: float = 0.06  # ink: darker by this share of the strongest contrast
    min_ink_contrast: float = 4.0  # ... and by at least this many gray levels
    line_kernel_cells: float = 0.85  # runs shorter than this (digits) are not lines
    peak_tolerance_cells: float = 0.18  # how far a line may sit from its expected place
    full_line_coverage: float = 0.7  # share of a segment covered that counts as a full line
    clutter_weight: float = 2.0  # penalty for line runs between the expected lines
    black_cell_darkness: float = 0.6  # cell darker than its neighbours by this share of contrast
    min_black_cell_contrast: float = 40.0  # gray levels needed to call any cell black
    black_cells_allowed: int = 1  # a highlighted cell or a blot is no crossword
    black_cells_to_reject: float = 3.0  # this many more black cells bring the score to 0
    min_score: float = 0.5  # below this a candidate is not a Sudoku grid
    min_extra_score: float = 0.75  # a second, third... grid on a page must score this much
    sure_score: float = 0.8  # at or above this no more candidates are tried
    # refinement (candidate warped at refine_cell_size px per cell)
    refine_cell_size: int = 24
    reframe_margin_cells: float = 1.5  # margin searched for the 10 evenly spaced lines
    refine_search_cells: float = 0.35  # how far each line is searched from its place
    refine_rounds: int = 2
    refine_score_slack: float = 0.1  # a measured lattice may score this much lower
    bent_residual_cells: float = 0.08  # lattice off the homography by more: warp per cell
    bent_share_cells: float = 0.03  # a tenth of the traced points off by more: page is bent
    # line tracing at full resolution (trace.py), on the grid straightened cell by cell
    trace_cell_size: int = 32  # px per cell of the straightened image the lines are traced in
    trace_rounds: int = 3
    trace_search_cells: float = 0.45  # how far a line is searched from its place, first round
    trace_min_strength: float = 0.3  # weaker windows (of the line's median darkness) are unseen
    trace_sigma_cells: float = 1.0  # reach along a line of the local fit at each crossing
    trace_outlier_cells: float = 0.06  # windows off the first fit by more are dropped
    border_trend_cells: float = 0.12  # border off the trend of the next two lines: put back
    # several grids
    max_overlap_fraction: float = 0.2  # grids overlapping more than this are one grid
    size_preference: float = 0.1  # exponent of relative area in the ranking of grids

    @property
    def warp_size(self) -> int:
        """Side in pixels of the straightened grid image."""
        return 9 * self.cell_size

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if self.cell_size < 8:
            raise ValueError(f"cell_size must be at least 8, got {self.cell_size}")
        if self.score_cell_size < 8 or self.refine_cell_size < 8:
            raise ValueError("score_cell_size and refine_cell_size must be at least 8")
        if self.search_max_side < 160:
            raise ValueError(f"search_max_side must be at least 160, got {self.search_max_side}")


DEFAULT_CONFIG = GridConfig()
