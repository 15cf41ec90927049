"""The app's tunable numbers, in one place."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

CameraResolution = Literal["480p", "720p", "1080p"]


@dataclass(frozen=True)
class AppConfig:
    """How the app reads, shows and limits things.

    unsure_below: a cell read with less probability than this is highlighted for checking.
    outline_px_per_1000: thickness of the grid outline per 1000 pixels of the photo's
        longer side.
    max_upload_mb: the largest file accepted by an uploader.
    camera_resolution: what the webcam is asked for (a request; the browser picks the
        nearest it can do).
    pdf_dpi: resolution PDF pages are rendered at (the photo pages and the many-photos
        page).
    grid_margin_fraction: margin around the grid in the solved close-up, as a fraction of
        the grid's size.
    search_time_limit_s: seconds one search may take (solving a typed puzzle, a hint,
        opening a game, checking corrected digits); then the page says it gave up.
    generate_time_limit_s: seconds allowed to make a new puzzle on the Play page.
    search_workers: worker processes the searches run in, shared by every session, so
        that a long search never slows other people's pages (0: in the page's thread).
    max_pixels: the largest photo the photo pages decode (a photo's header is checked
        before any pixel is decoded; the command line allows 50 megapixels).
    photo_reads_at_once: photos read at the same time on this server; more wait their
        turn, so memory does not grow with the number of people reading photos (the
        many-photos page takes one turn per page, like the photo pages).
    max_pages_per_file: the most pages of one PDF or TIFF the app reads (its photo pages
        offer one page at a time, the many-photos page reads them all); a longer file is
        refused with its name and this limit.
    max_pages_per_batch: the most pages the many-photos page reads in one batch.
    """

    unsure_below: float = 0.80
    outline_px_per_1000: float = 3.0
    max_upload_mb: int = 25
    camera_resolution: CameraResolution = "1080p"
    pdf_dpi: float = 200.0
    grid_margin_fraction: float = 0.05
    search_time_limit_s: float = 5.0
    generate_time_limit_s: float = 20.0
    search_workers: int = 2
    max_pixels: int = 25_000_000  # admits 24-megapixel phone photos (5712×4284)
    photo_reads_at_once: int = 1
    max_pages_per_file: int = 100
    max_pages_per_batch: int = 200

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if not 0 < self.unsure_below <= 1:
            raise ValueError(f"unsure_below must be in (0, 1], got {self.unsure_below}")
        if self.max_upload_mb < 1:
            raise ValueError(f"max_upload_mb must be at least 1, got {self.max_upload_mb}")
        if min(self.search_time_limit_s, self.generate_time_limit_s) <= 0:
            raise ValueError("search_time_limit_s and generate_time_limit_s must be positive")
        if min(self.max_pages_per_file, self.max_pages_per_batch) < 1:
            raise ValueError("max_pages_per_file and max_pages_per_batch must be at least 1")
        if self.search_workers < 0 or self.photo_reads_at_once < 1 or self.max_pixels < 1:
            raise ValueError(
                "search_workers must be at least 0, photo_reads_at_once and max_pixels at least 1"
            )


APP_CONFIG = AppConfig()
