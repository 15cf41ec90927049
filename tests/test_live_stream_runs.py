"""The live page's WebRTC stream lives across the app's reruns, and only as long as the
browser shows it.

streamlit-webrtc stops a stream whose component a finished run left out (the browser
mounts it afresh), judging from the session's count of finished runs. Streamlit raises
that count on its event loop when it sends a run's end, so on a busy server a run can
read it one behind and the next run takes the stream for one left out: it was stopped
while the camera played (the live browser test's "Press Start above" 150 s after Start).
Here the count is set by hand, run by run, as the busy server reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from sudokucam.tests.app_harness import open_app
from sudokucam.ui.app import layout
from sudokucam.ui.app.pages.live import STREAM_KEY

pytest.importorskip("streamlit.testing.v1")
webrtc_component = pytest.importorskip("streamlit_webrtc.component")


@dataclass
class SessionInfo:
    """The one field of Streamlit's session info that streamlit-webrtc reads."""

    script_run_count: int = 0


@pytest.fixture
def session() -> Iterator[SessionInfo]:
    """Streamlit's session info as streamlit-webrtc sees it, its count set by the test."""
    info = SessionInfo()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(webrtc_component, "get_this_session_info", lambda: info)
        yield info


@pytest.fixture
def resets() -> Iterator[list[str]]:
    """The stream contexts streamlit-webrtc resets (stopping their stream), in order."""
    seen: list[str] = []
    reset: Callable[[Any], None] = webrtc_component._reset_context

    def recording(context: Any) -> None:
        seen.append(type(context).__name__)
        reset(context)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(webrtc_component, "_reset_context", recording)
        yield seen


def run_with_counts(at: Any, session: SessionInfo, counts: list[int], tab: str) -> None:
    """Run the app once per count, with ``tab`` open, the session's count read as given."""
    for count in counts:
        session.script_run_count = count
        at.session_state[layout.MODE_KEY] = tab
        at.run()
        assert not at.exception, at.exception


def test_a_run_count_read_one_behind_keeps_the_stream(
    session: SessionInfo, resets: list[str]
) -> None:
    """Runs of the live page whose count lags behind (1, 1, 3: the second run started
    before the first one's end was sent) leave the stream as it is."""
    at = open_app(layout.LIVE)
    assert STREAM_KEY in at.session_state  # the stream's context exists from the first run
    run_with_counts(at, session, [1, 1, 3, 4], layout.LIVE)
    assert resets == []


def test_coming_back_to_the_live_tab_starts_the_stream_afresh(
    session: SessionInfo, resets: list[str]
) -> None:
    """A run that ends on another tab takes the stream's component off the page: back on
    the live tab the stream starts afresh, even where the count read lags behind."""
    at = open_app(layout.LIVE)
    run_with_counts(at, session, [1], layout.LIVE)
    run_with_counts(at, session, [2], layout.PHOTO)
    assert resets == []
    run_with_counts(at, session, [2], layout.LIVE)  # one behind: the run on PHOTO not counted
    assert resets == ["WebRtcStreamerContext"]
    run_with_counts(at, session, [4, 5], layout.LIVE)
    assert resets == ["WebRtcStreamerContext"]


def test_streamlit_webrtc_still_keeps_the_count_the_page_sets() -> None:
    """The page tells streamlit-webrtc whether the stream stayed on the page through the
    context's render count (``live.RENDER_COUNT``): a new streamlit-webrtc without it
    must be looked at again, not silently let the stream stop."""
    from sudokucam.ui.app.pages.live import RENDER_COUNT

    context = webrtc_component.WebRtcStreamerContext(
        worker=None, state=webrtc_component.WebRtcStreamerState(playing=False, signalling=False)
    )
    assert hasattr(context, RENDER_COUNT)
