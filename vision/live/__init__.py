"""Live video: find the grid, read it across frames, solve it, then track it and draw the answer.

``LiveProcessor`` is fed frames one by one (``process``) and returns a ``FrameResult`` for
each: the frame's state (searching, reading, tracking, lost), the grid's corners and the
frame with the answer drawn in. It holds no UI code; the CLI (``sudokucam live``) and the
app feed it.
"""

from .config import DEFAULT_LIVE_CONFIG, LiveConfig, TrackConfig
from .frames import FrameResult, FrameState
from .processor import LiveProcessor

__all__ = [
    "DEFAULT_LIVE_CONFIG",
    "FrameResult",
    "FrameState",
    "LiveConfig",
    "LiveProcessor",
    "TrackConfig",
]
