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
    pdf_dpi: resolution PDF pages are rendered at in the many-photos page.
    grid_margin_fraction: margin around the grid in the solved close-up, as a fraction of
        the grid's size.
    """

    unsure_below: float = 0.80
    outline_px_per_1000: float = 3.0
    max_upload_mb: int = 25
    camera_resolution: CameraResolution = "1080p"
    pdf_dpi: float = 200.0
    grid_margin_fraction: float = 0.05

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if not 0 < self.unsure_below <= 1:
            raise ValueError(f"unsure_below must be in (0, 1], got {self.unsure_below}")
        if self.max_upload_mb < 1:
            raise ValueError(f"max_upload_mb must be at least 1, got {self.max_upload_mb}")


APP_CONFIG = AppConfig()
