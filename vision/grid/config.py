"""Tunable numbers of the grid finder, grouped by the step of the stage that uses them.

``GridConfig`` holds the size of the straightened grid and one frozen section per step:

- ``search`` (:class:`SearchConfig`): rough candidate quads from thresholded views
  (candidates.py) and clusters of cell-like holes (cell_clusters.py), and how much finer
  a page is searched again for small grids (find.py).
- ``lines`` (:class:`LineConfig`): what counts as ink, and as a line run rather than a
  digit (lattice.py, trace.py).
- ``score`` (:class:`ScoreConfig`): how grid-like the inside of a quad is (lattice.py).
- ``refine`` (:class:`RefineConfig`): moving the best quads onto their 10 + 10 lines and
  measuring the 100 crossings (lattice.py, find.py).
- ``trace`` (:class:`TraceConfig`): following the lines at full resolution, the border's
  thickness, and telling a bent page from a flat one (trace.py).
- ``select`` (:class:`SelectConfig`): which refined grids are reported (find.py).

Lengths named ``*_cells`` are in grid cells of the image the step works on.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

MIN_CELL_PX = 8  # smallest cell (px) any step may warp a grid to
MIN_SEARCH_SIDE = 160  # smallest photo side (px) the candidate search may shrink to


@dataclass(frozen=True)
class SearchConfig:
    """Candidate quads, found on the photo shrunk so its longer side is ``max_side`` px."""

    max_side: int = 640
    min_grid_area_fraction: float = 0.01  # smallest grid, as a share of the photo's area
    blur_size: int = 5  # Gaussian blur (px) before the adaptive thresholds
    # adaptive thresholds: (photo side / block size, gray levels below the block's mean)
    threshold_views: tuple[tuple[int, int], ...] = ((40, 4), (15, 8))
    line_run_parts: int = 40  # line runs are at least 1/this of the photo's longer side...
    min_line_run: int = 5  # ... and at least this many px
    contours_per_view: int = 8  # largest contours kept per thresholded view
    contours_per_extra_grid: int = 2  # more contours per view for each extra grid wanted
    # polygon approximations tried in turn, tolerance as a share of the hull's perimeter
    approx_fractions: tuple[float, ...] = (0.02, 0.04, 0.07)
    min_side_ratio: float = 0.3  # shortest side of a quad over its longest
    max_corner_cosine: float = 0.75  # every corner between about 41° and 139°
    same_quad_fraction: float = 0.01  # corners all this close (share of photo side): one quad
    # several grids wanted: also quads around clusters of cell-like holes (cell_clusters.py)
    cell_min_square: float = 0.5  # a hole's upright box: shorter side over longer, at least
    cell_min_fill: float = 0.6  # share of its upright box a hole fills, at least
    cell_join_fraction: float = 0.3  # holes grown by this share of their side join a cluster
    min_cluster_holes: int = 4  # fewer holes side by side make no cluster
    # A page shrunk for the search and wanted for several grids is searched again at up to
    # this many times the resolution, each view keeping its size in pixels, so grids this
    # many times smaller than the first search sees are seen (``zoomed``).
    finer_zoom: float = 3.0

    def zoomed(self, zoom: float) -> SearchConfig:
        """These settings for a search image ``zoom`` times larger, every view the same in pixels.

        Threshold blocks, line runs, the smallest grid and the same-quad tolerance are set
        as shares of the image's side or area: each share is divided by ``zoom`` (areas by
        its square), so a part of the larger image as big as the usual search image is
        looked at as that search looks at a whole photo.
        """
        if zoom < 1.0:
            raise ValueError(f"zoom must be at least 1, got {zoom}")
        views = tuple((round(parts * zoom), offset) for parts, offset in self.threshold_views)
        return replace(
            self,
            max_side=round(self.max_side * zoom),
            threshold_views=views,
            line_run_parts=round(self.line_run_parts * zoom),
            min_grid_area_fraction=self.min_grid_area_fraction / zoom**2,
            same_quad_fraction=self.same_quad_fraction / zoom,
        )


@dataclass(frozen=True)
class LineConfig:
    """Ink (darker than its neighbourhood, by a black-hat filter) and long runs of it."""

    ink_kernel_cells: float = 0.4  # black-hat kernel: ink is darker than this neighbourhood
    # the strongest contrast is this quantile of the black-hat image (scoring and
    # refinement; tracing takes its maximum)
    strongest_share: float = 0.99
    ink_contrast_fraction: float = 0.06  # ink: darker by this share of the strongest contrast
    min_ink_contrast: float = 4.0  # ... and by at least this many gray levels
    line_kernel_cells: float = 0.85  # runs shorter than this (digits) are not lines


@dataclass(frozen=True)
class ScoreConfig:
    """Grid-likeness 0..1 of a candidate warped at ``cell_size`` px per cell.

    Each direction scores ``presence_weight`` × the share of line segments present plus
    ``weakest_line_weight`` × how well its weakest lines are seen, minus clutter between
    the lines; crossword-like black cells then pull the score down.
    """

    cell_size: int = 16
    peak_tolerance_cells: float = 0.18  # how far a line may sit from its expected place
    full_line_coverage: float = 0.7  # share of a segment covered that counts as a full line
    presence_weight: float = 0.7  # weight of the mean presence of all line segments
    weakest_line_weight: float = 0.3  # weight of the weakest line (after the cut ones)
    cut_lines_allowed: int = 1  # this many weakest lines per direction may be cut or faint
    interior_start_cells: float = 0.3  # clutter is measured between these two places...
    interior_end_cells: float = 0.7  # ... of each row of cells
    clutter_weight: float = 2.0  # penalty for line runs between the expected lines
    black_cell_inset_cells: float = 0.2  # a cell's brightness leaves out this rim
    black_cell_neighbourhood: int = 5  # cells compared with the median of n × n around them
    ink_black_share: float = 0.01  # the darkest this share of pixels gives the ink's gray
    black_cell_darkness: float = 0.6  # cell darker than its neighbours by this share of contrast
    min_black_cell_contrast: float = 40.0  # gray levels needed to call any cell black
    black_cells_allowed: int = 1  # a highlighted cell or a blot is no crossword
    black_cells_to_reject: float = 3.0  # this many more black cells bring the score to 0


@dataclass(frozen=True)
class RefineConfig:
    """Snapping the best quads onto their lines, warped at ``cell_size`` px per cell."""

    candidates_per_grid: int = 4  # best-scoring quads refined, per grid wanted
    box_candidates: int = 3  # best quads also tried as a 3×3 box of a larger grid
    finer_min_score: float = 0.1  # the finer search (SearchConfig.finer_zoom) refines only
    # quads scoring at least this before refinement (why: benchmarks/README.md, composite)
    cell_size: int = 24
    # reframing: 10 evenly spaced lines searched in a margin around the quad
    reframe_margin_cells: float = 1.5
    min_spacing_cells: float = 0.8  # line spacings tried, from this...
    max_spacing_cells: float = 1.25  # ... to this
    spacing_steps: int = 19  # ... in this many even steps
    prior_weight: float = 0.02  # cost per cell the lines move from the candidate's...
    spacing_prior: float = 4.0  # ... plus this times the relative change of spacing
    # measuring: each line's place per cell-wide segment, then a smooth curve through them
    search_cells: float = 0.35  # how far each line is searched from its place, first round
    rounds: int = 2
    search_shrink: float = 0.6  # the search narrows by this factor each round
    score_slack: float = 0.1  # a measured lattice may score this much lower
    seen_strength: float = 0.3  # a segment whose line is stronger than this sees it
    cubic_min_segments: int = 7  # a line seen in this many segments gets a cubic curve...
    quadratic_min_segments: int = 5  # ... in this many a quadratic one, else a constant
    # fitting: a homography plus a smooth bend through the well-seen crossings
    well_seen_confidence: float = 0.25  # crossings seen better than this fit the homography
    min_well_seen: int = 12  # with fewer well-seen crossings all 100 are used
    ransac_cells: float = 0.5  # RANSAC inlier distance
    ransac_iterations: int = 200
    bend_outlier_cells: float = 0.2  # crossings off the smooth surface by more are replaced


@dataclass(frozen=True)
class TraceConfig:
    """Line tracing at full resolution, on the grid straightened cell by cell (trace.py)."""

    cell_size: int = 32  # px per cell of the straightened image the lines are traced in
    rounds: int = 3
    search_cells: float = 0.45  # how far a line is searched from its place, first round
    search_shrink: float = 0.6  # the search narrows by this factor each round
    windows_per_cell: int = 2  # windows along each line, per cell
    far_peak_discount: float = 0.5  # a peak at the search's edge counts this much less
    centroid_reach_cells: float = 0.15  # centroid this far each side of the peak: 0.3-cell borders
    # which peak near a thin line is the grid line: a thin grid line and a dashed cage
    # line beside it are about as dark on average, but the grid line keeps its darkness
    # all along; each peak's darkness at its faintest within stretches this long...
    faintest_stretch_cells: float = 0.2  # (dashes and gaps of 0.04-0.1 cell: a gap in each)
    peak_share: float = 0.5  # ... among peaks at least this share of the highest's height...
    # ... picks the grid line when it is this many times the highest peak's (a dotted line
    # whose dots blur together stays darker than a thin grid line by up to 1.15 times)
    solid_ratio: float = 1.2
    # ... and when, at its faintest, it is this share of the highest's height (summed
    # across 3 rows): a solid line, not a stroke's piece beside a faint, broken grid line
    solid_height: float = 1.0
    solid_reach_cells: float = 0.25  # ... among peaks this near the highest (cage insets 0.05-0.22)
    min_strength: float = 0.3  # weaker windows (of the line's median darkness) are unseen
    sigma_cells: float = 1.0  # reach along a line of the local fit at each crossing
    outlier_cells: float = 0.06  # windows off the first fit by more are dropped...
    outlier_spread: float = 3.0  # ... unless within this many median deviations
    wide_sigma_factor: float = 3.0  # reach of the wider fit, leaned on where little is seen
    half_support: float = 0.5  # window weight near a crossing that trusts both fits equally
    border_trend_cells: float = 0.12  # border off the trend of the next two lines: put back
    # ... and only where it lies off the straight line through its own line's points (as
    # put back) this many crossings away, either side: a border point traced on the line
    # its neighbours follow stays, however the lines inside stray near it (a digit)
    border_own_near: int = 2
    border_own_far: int = 5
    # the homography fitted to the traced lattice
    ransac_cells: float = 0.1  # RANSAC inlier distance
    min_inliers: int = 12  # fewer inliers: the homography of all 100 points is kept
    bent_share_cells: float = 0.03  # a tenth of the traced points off by more: page is bent
    bent_percentile: float = 90.0  # ... "a tenth": the residual at this percentile
    # the border's thickness
    min_border_contrast: float = 8.0  # gray levels from line to paper needed to measure it
    max_border_cells: float = 0.4  # outer edge at most this far out of the line's centre


@dataclass(frozen=True)
class ShiftConfig:
    """Moving a chosen grid by whole cells onto the real lines (shift.py).

    A page, table or shadow edge taken for an outer line leaves a real line just outside
    the lattice; the lines up to ``max_cells`` beyond each side are measured on the grid
    warped at ``cell_size`` px per cell, one segment per row (column) of cells.
    """

    cell_size: int = 24
    max_cells: int = 3  # the lattice may move by up to this many cells each way
    search_cells: float = 0.2  # a line is looked for this near its expected place
    paper_near_cells: float = 0.2  # the paper each side of a line is its mean gray...
    paper_far_cells: float = 0.45  # ... between these distances from it (0.3-cell borders)
    seen_share: float = 0.4  # a line is seen in a segment darker than both sides by this
    # share of the median relative contrast of the lattice's own lines...
    min_contrast: float = 0.03  # ... and by at least this share of the paper's gray
    slant_cells: float = 0.1  # a line may stray this far from straight across the lattice
    # a band's gray across the lines is this percentile along it: a line is dark all along
    # a band, a row of text or a digit only in places
    along_percentile: float = 75.0
    new_line_share: float = 0.6  # a line the move adds must be seen in this share of segments
    new_band_share: float = 0.5  # a column (row) it adds must be crossed by this share of lines
    min_gain: float = 0.5  # lines seen plus bands crossed, summed: the move must gain this


@dataclass(frozen=True)
class SelectConfig:
    """Which refined grids are reported, and when the search stops early."""

    min_score: float = 0.5  # below this a candidate is not a Sudoku grid
    min_extra_score: float = 0.75  # a second, third... grid on a page must score this much
    # ... and its shorter side over its longer be at least this (photographed grids: 0.82+)
    min_extra_squareness: float = 0.7
    extra_outside_cells: float = 0.5  # ... and lie no further out of the image (cells)
    sure_score: float = 0.8  # at or above this no more candidates are tried
    same_grid_overlap: float = 0.5  # a quad overlapping a sure grid more is that grid again
    max_overlap_fraction: float = 0.2  # grids overlapping more than this are one grid
    size_preference: float = 0.1  # exponent of relative area in the ranking of grids
    finer_better_score: float = 0.1  # a finer grid must score this much more to replace
    # the first search's version of it
    # find_all_grids searches a shrunk page finer when a quad apart from the grids found
    # scores this before refinement (one did on every composite page of grid_eval.py)
    finer_seen_score: float = 0.2


@dataclass(frozen=True)
class GridConfig:
    """Settings for finding, scoring and straightening a 9×9 grid.

    The warped grid is a square of ``warp_size`` pixels (9 cells of ``cell_size``): the
    outer corners of the grid map to (0, 0) and (warp_size, warp_size), so cell (r, c)
    covers rows r*cell_size .. (r+1)*cell_size and the grid lines lie on multiples of
    cell_size.
    """

    cell_size: int = 40  # px per cell of GridDetection.warped (warp_size = 9 * cell_size)
    bent_residual_cells: float = 0.08  # lattice off the homography by more: warp per cell
    search: SearchConfig = SearchConfig()
    lines: LineConfig = LineConfig()
    score: ScoreConfig = ScoreConfig()
    refine: RefineConfig = RefineConfig()
    trace: TraceConfig = TraceConfig()
    shift: ShiftConfig = ShiftConfig()
    select: SelectConfig = SelectConfig()

    @property
    def warp_size(self) -> int:
        """Side in pixels of the straightened grid image."""
        return 9 * self.cell_size

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if self.cell_size < MIN_CELL_PX:
            raise ValueError(f"cell_size must be at least {MIN_CELL_PX}, got {self.cell_size}")
        if self.score.cell_size < MIN_CELL_PX or self.refine.cell_size < MIN_CELL_PX:
            raise ValueError(f"score and refine cell_size must be at least {MIN_CELL_PX}")
        if self.search.max_side < MIN_SEARCH_SIDE:
            raise ValueError(
                f"search max_side must be at least {MIN_SEARCH_SIDE}, got {self.search.max_side}"
            )


def with_setting(config: Any, name: str, value: object) -> Any:
    """``config`` with the field ``name`` (dotted into sections: ``"score.min_score"``) set."""
    head, _, rest = name.partition(".")
    known = {f.name for f in fields(config)}
    if head not in known:
        raise ValueError(f"{type(config).__name__} has no field {head!r}")
    current = getattr(config, head)
    if rest:
        if not is_dataclass(current):
            raise ValueError(f"{head!r} is a setting, not a section")
        return replace(config, **{head: with_setting(current, rest, value)})
    if is_dataclass(current):
        raise ValueError(f"{head!r} is a section: name one of its settings")
    return replace(config, **{head: value})


DEFAULT_GRID_CONFIG = GridConfig()
