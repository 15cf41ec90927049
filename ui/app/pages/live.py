"""Live camera: the answer drawn onto the camera's moving picture, as the person moves.

The browser sends the camera's video to this server over WebRTC (``streamlit-webrtc``);
each frame goes through a ``LiveProcessor`` and comes back with the answer drawn in. No
STUN or TURN server is configured, on either side: the browser and the server only offer
their own (host) addresses, so the video never leaves the local network and no request
goes to a public server (streamlit-webrtc and aiortc would otherwise ask Google's STUN).
"""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
import streamlit as st

from ..state.drawn import drawn_last_run, drew

if TYPE_CHECKING:
    from ....vision.live import FrameResult, LiveProcessor

TITLE = "Live camera"
PROCESSOR_KEY = "live_processor"
READER_KEY = "live_reader"
READ_WAIT_S = 5.0  # the most a frame waits for its reading (streamlit-webrtc allows 10 s)
STREAM_KEY = "live_stream"
# streamlit-webrtc's note, on the stream's context, of the session's count of finished runs
# when the stream was last drawn: it stops a stream whose count moved on by more than one
RENDER_COUNT = "_last_rendered_run_count"
LEFT_OUT = -2  # a render count that makes streamlit-webrtc take the stream as left out
HOST_ONLY: dict[str, Any] = {"iceServers": []}  # no STUN/TURN: host candidates only
CONSTRAINTS: dict[str, Any] = {
    "video": {"width": {"ideal": 640}, "height": {"ideal": 480}},
    "audio": False,
}


def session_processor() -> LiveProcessor:
    """This session's frame processor (one per browser tab, kept between reruns)."""
    from ....vision.live import LiveProcessor

    if PROCESSOR_KEY not in st.session_state:
        st.session_state[PROCESSOR_KEY] = LiveProcessor()
    processor: LiveProcessor = st.session_state[PROCESSOR_KEY]
    return processor


class FrameReader:
    """Reads a stream's frames with a ``LiveProcessor`` in a thread of its own, one frame
    at a time, and holds the stream no longer than ``wait_s`` a frame: streamlit-webrtc
    stops reading a stream for good once one frame takes over 10 s (a server far too busy),
    so a frame read for longer is let through as it came while its reading goes on."""

    def __init__(self, processor: LiveProcessor, wait_s: float = READ_WAIT_S) -> None:
        """Read with ``processor``, waiting at most ``wait_s`` seconds for a frame."""
        self.processor = processor
        self.wait_s = wait_s
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-reader")
        self._reading: Future[FrameResult] | None = None

    @property
    def busy(self) -> bool:
        """Whether a frame is being read now."""
        return self._reading is not None and not self._reading.done()

    def read(self, image: np.ndarray, at: float | None) -> np.ndarray:
        """The frame (BGR) with the answer drawn once read; as it came while an earlier
        frame is still being read, when its own reading passes ``wait_s``, or when it is
        bad (the next frame is tried afresh)."""
        if self.busy:
            return image
        self._reading = self._thread.submit(self.processor.process, image, at)
        try:
            return self._reading.result(timeout=self.wait_s).image
        except (FutureTimeout, ValueError, TypeError, ArithmeticError, cv2.error):
            return image


def session_reader() -> FrameReader:
    """This session's frame reader, around its processor (kept between reruns)."""
    if READER_KEY not in st.session_state:
        st.session_state[READER_KEY] = FrameReader(session_processor())
    reader: FrameReader = st.session_state[READER_KEY]
    return reader


def frame_callback(reader: FrameReader) -> Any:
    """The per-frame function streamlit-webrtc calls: the frame back with the answer drawn."""
    import av

    def callback(frame: av.VideoFrame) -> av.VideoFrame:
        drawn = reader.read(frame.to_ndarray(format="bgr24"), frame.time)
        return av.VideoFrame.from_ndarray(drawn, format="bgr24")

    return callback


STATUS_EVERY_S = 1.0  # how often the line under the video is brought up to date
SAYS = {
    "searching": "Looking for a Sudoku grid…",
    "reading": "Grid found: reading it (hold still)…",
    "tracking": "Answer shown",
    "lost": "The grid was lost: looking again…",
}


PRESS_START = "Press Start above to turn the camera on."
WAITING = "Waiting for the camera's first frame."


FRESH_S = 3.0  # a frame processed this recently means the video runs, whatever the page knew
STALLED_S = 15.0  # a playing stream with no frame read this long, none being read, stopped
STALLED = "The video is no longer being read: press Stop, then Start."


def status_line(processor: LiveProcessor, playing: bool, now: float, reading: bool = False) -> str:
    """The line under the video: what the processor sees now, with its frame counts.

    playing: whether the page's last full run saw the video running. The stream can start
    without a full run following, so a frame processed within ``FRESH_S`` seconds of
    ``now`` (``time.monotonic()``) counts as running too. reading: whether a frame is being
    read now; with none, and none read for ``STALLED_S`` seconds, a playing stream stopped
    being read (streamlit-webrtc gave up on it) and the line says what to do.
    """
    since = None if processor.processed_at is None else now - processor.processed_at
    if not (playing or (since is not None and since < FRESH_S)):
        return PRESS_START
    last = processor.last
    if last is None:
        return WAITING
    if not reading and since is not None and since >= STALLED_S:
        return STALLED
    words = SAYS[last.state.value]
    if last.state.value == "tracking" and last.grid is not None:
        printed = sum(1 for d in last.grid.givens if d != "0")
        words += f" ({printed} printed digits read)"
    return f"{words} · {last.index + 1} frames, {processor.counts['drawn']} with the answer"


@st.fragment(run_every=STATUS_EVERY_S)
def live_status(playing: bool) -> None:
    """The status line, brought up to date every ``STATUS_EVERY_S`` seconds."""
    reader = session_reader()
    st.caption(status_line(reader.processor, playing, time.monotonic(), reader.busy))


def is_playing(stream: Any) -> bool:
    """Whether the stream's video runs (its Start pressed, not yet stopped)."""
    return bool(getattr(getattr(stream, "state", None), "playing", False))


def tell_stream_if_left_out(key: str) -> None:
    """Tell streamlit-webrtc whether the stream ``key`` stayed on the page since the last
    full run: left out (another tab was shown), the browser mounts its component afresh
    and the stream must start afresh; kept, it must go on.

    streamlit-webrtc judges this from Streamlit's count of finished runs, which Streamlit
    raises when it sends a run's end to the browser, on its event loop: on a busy server a
    run can start, and read the count, before the last run's end was sent, and the run
    after it then sees the count two ahead and stops the stream while the camera plays.
    The app's own marks (``state.drawn``) are set in order by the script's thread; the
    count streamlit-webrtc last noted is set from them, before it compares.
    """
    context = st.session_state.get(key)
    if context is not None and hasattr(context, RENDER_COUNT):
        setattr(context, RENDER_COUNT, None if drawn_last_run(key) else LEFT_OUT)


def render() -> None:
    """The 'Live camera' page."""
    from streamlit_webrtc import WebRtcMode, webrtc_streamer

    st.subheader(TITLE)
    st.caption(
        "Press Start and point the camera at a Sudoku: the answer appears on the video "
        "once the grid has been read, and follows the page as you move. The video goes "
        "only between this browser and the sudokucam server on your own network."
    )
    tell_stream_if_left_out(STREAM_KEY)
    stream = webrtc_streamer(
        key=STREAM_KEY,
        mode=WebRtcMode.SENDRECV,
        rtc_configuration=HOST_ONLY,
        server_rtc_configuration=HOST_ONLY,
        frontend_rtc_configuration=HOST_ONLY,
        media_stream_constraints=CONSTRAINTS,
        video_frame_callback=frame_callback(session_reader()),
        async_processing=True,
    )
    drew(STREAM_KEY)
    live_status(is_playing(stream))
    st.caption(
        "No camera, or permission refused? The browser says so above; allow the camera "
        "for this page in the browser's settings and press Start again."
    )
