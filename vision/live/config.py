"""The tunables of live video: tracking, reading across frames, when to re-check."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class TrackConfig:
    """How the grid is followed from frame to frame (pyramidal Lucas-Kanade + RANSAC).

    max_side: frames are tracked shrunk so their longer side is at most this many pixels.
    max_features: the most corner features seeded inside the grid (its 100 line crossings
    are tracked too). feature_quality, feature_spacing_cells: ``goodFeaturesToTrack``'s
    quality level and minimum distance (in cell widths). window_px, pyramid_levels: the
    Lucas-Kanade window and pyramid depth. max_back_error_px: a point whose backward
    track misses its start by more is dropped. ransac_px: RANSAC's reprojection threshold.
    min_points, min_inlier_share: fewer points or inliers than this and the track is lost.
    reseed_share: features are seeded afresh when fewer than this share of them are left.
    max_outside_share: the grid is lost when more than this share of it is out of frame.
    """

    max_side: int = 720
    max_features: int = 160
    feature_quality: float = 0.01
    feature_spacing_cells: float = 0.2
    window_px: int = 21
    pyramid_levels: int = 3
    max_back_error_px: float = 1.0
    ransac_px: float = 2.0
    min_points: int = 24
    min_inlier_share: float = 0.5
    reseed_share: float = 0.6
    max_outside_share: float = 0.5


@dataclass(frozen=True)
class LiveConfig:
    """When a grid is read, shown and read again.

    read_frames: the fewest frames whose classifier log-probabilities are summed before
    the reading is solved, and how many more are summed before each new try;
    max_read_frames: after this many frames without a unique answer the grid is searched
    for afresh (it may have been found in the wrong place). max_vote_speed_cells_s: a frame
    whose grid moved faster than this (cell widths per second) since the last frame
    processed is too blurred to vote; measured over the time between the two frames, so a
    slow machine that processes only every third frame still reads a steadily moving page.
    max_vote_gap_s: a longer time between two frames processed counts as this long (the
    page's speed over a long gap says little about the blur of the last frame).
    untimed_fps: frames given without a time are taken as this far apart (30 fps: 0.3 cell
    widths a frame).
    recheck_every: while tracking, every this many frames the cells are read again (a
    new puzzle, new pen entries). new_puzzle_cells: a re-read whose givens differ from the
    shown puzzle's in at least this many cells is a new puzzle, read afresh.
    min_margin_cells: a detection is only used when every grid crossing lies this far (in
    cell widths) inside the frame (a grid cut by the frame's edge is easily misplaced).
    mark_entries: ring pen entries as a checked photo does (``GridResult.check_marks``):
    red when wrong, amber when to ask about, green when right.
    overlay_cell_px: the answer is drawn once at this cell size and warped onto each frame.
    other_sizes: a frame with no 9×9 is looked at for a small grid (4×4, 6×6, 8×8) or a
        16×16 as the reader's settings say (``PipelineConfig.small``, ``sixteen``); off, for
        9×9s only, a searching frame costs one grid search.
    other_sizes_every: only every this many frames without a 9×9 wholly in view are
        looked at for another size (a look costs about as much again as the 9×9 search:
        ``samples/video/pan.mp4``, 34 frames of which 12 search, ran at 11.5 frames per CPU
        second at 1, 14.2 at 3, and 19.1 with ``other_sizes`` off).
    negative_when_unsure: search a light frame's negative too where no sure grid was found
        in it (as a photo's is). Off: only a dark frame's negative is searched, so a
        searching frame costs one grid search, not two (on, the rendered 640×480 clip of
        ``benchmarks/live_bench.py`` ran at 18 frames per CPU second instead of 27).
    """

    track: TrackConfig = field(default_factory=TrackConfig)
    read_frames: int = 3
    max_read_frames: int = 12
    max_vote_speed_cells_s: float = 9.0
    max_vote_gap_s: float = 0.5
    untimed_fps: float = 30.0
    recheck_every: int = 10
    new_puzzle_cells: int = 6
    min_margin_cells: float = 0.3
    mark_entries: bool = True
    overlay_cell_px: int = 48
    other_sizes: bool = True
    other_sizes_every: int = 3
    negative_when_unsure: bool = False

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if self.read_frames < 1 or self.max_read_frames < self.read_frames:
            raise ValueError("read_frames must be at least 1 and at most max_read_frames")
        if self.other_sizes_every < 1:
            raise ValueError(f"other_sizes_every must be at least 1, got {self.other_sizes_every}")
        if self.recheck_every < 1:
            raise ValueError(f"recheck_every must be at least 1, got {self.recheck_every}")


DEFAULT_LIVE_CONFIG = LiveConfig()
