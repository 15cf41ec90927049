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

    cell_size: int = 40
    search_max_side: int = 640
    min_grid_area_fraction: float = 0.01
    max_candidates: int = 24
    score_cell_size: int = 16
    line_kernel_cells: float = 0.6
    ink_kernel_cells: float = 0.4
    ink_contrast_fraction: float = 0.06
    min_ink_contrast: float = 4.0
    peak_tolerance_cells: float = 0.18
    min_score: float = 0.5
    sure_score: float = 0.8
    box_candidates: int = 3
    black_cell_darkness: float = 0.6
    min_black_cell_contrast: float = 40.0
    refine_cell_size: int = 24
    refine_search_cells: float = 0.35
    refine_rounds: int = 2
    bent_residual_cells: float = 0.08
    max_overlap_fraction: float = 0.2
    size_preference: float = 0.1

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
