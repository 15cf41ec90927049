"""The Live camera page end to end: Chromium's fake camera plays the committed clip.

`sudokucam ui` runs on 127.0.0.1; Debian's Chromium (/usr/bin/chromium, never a downloaded
build) sends the clip to it over WebRTC with no STUN/TURN server, and the page must say
the answer is shown within a few seconds of pressing Start.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import pytest

from sudokucam.samples.make_y4m import y4m_header
from sudokucam.tests.browser_harness import chromium
from sudokucam.ui.app.pages.live import PRESS_START, WAITING

pytestmark = [pytest.mark.browser, pytest.mark.slow]
REPO = Path(__file__).resolve().parent.parent
CLIP = REPO / "samples" / "video" / "pan.mp4"
FAKE_CAMERA = ("--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream")
WAIT_MS = 90_000
ANSWER_WAIT_MS = 150_000  # from Start to "Answer shown" (slow on a busy 2-core machine)
HOLD = 2  # the clip pans at half speed: a busy server reads only some frames of the stream
START_TRIES = 3
STARTED_MS = 40_000  # from a press of START to the stream running
VIDEO_STATE = "vs => vs.map(v => `time ${v.currentTime.toFixed(1)} s, ready ${v.readyState}`)"
sync_api = pytest.importorskip("playwright.sync_api")


def clip_as_y4m(clip: Path, out: Path, hold: int = HOLD) -> Path:
    """The clip as a Y4M (I420) video for Chromium's fake camera, at the clip's rate, each
    frame shown ``hold`` times (the page moves that many times slower)."""
    capture = cv2.VideoCapture(str(clip))
    fps = round(capture.get(cv2.CAP_PROP_FPS))
    with open(out, "wb") as file:
        file.write(y4m_header(640, 480, fps))
        while True:
            ok, frame = capture.read()
            if not ok:
                return out
            planes = cv2.cvtColor(frame, cv2.COLOR_BGR2YUV_I420).tobytes()
            file.write((b"FRAME\n" + planes) * hold)


def start(frame: Any) -> None:
    """Press the stream's START until it turns into STOP (the video runs): on a busy
    machine a press can land before the component is wired up and do nothing."""
    for _ in range(START_TRIES):
        frame.get_by_role("button", name="START").click(timeout=WAIT_MS)
        try:
            frame.get_by_role("button", name="STOP").wait_for(timeout=STARTED_MS)
            return
        except sync_api.TimeoutError:
            continue
    pytest.fail(f"the stream did not start after {START_TRIES} presses of START")


def shown(page: Any, timeout_ms: int) -> bool:
    """Whether the page says "Answer shown" within ``timeout_ms``."""
    try:
        page.get_by_text("Answer shown").first.wait_for(timeout=timeout_ms)
        return True
    except sync_api.TimeoutError:
        return False


def stream_state(page: Any, frame: Any) -> str:
    """What the page shows of the stream, for a failure: its buttons (START again: the
    stream stopped), its videos, whether a frame reached the server's reader, the text."""
    buttons = frame.get_by_role("button").all_inner_texts()
    videos = frame.locator("video").evaluate_all(VIDEO_STATE)
    body = page.inner_text("body")
    read = not (PRESS_START in body or WAITING in body)
    return f"buttons {buttons}; videos {videos}; a frame read: {read}; the page says: {body}"


def wait_for_answer(page: Any, frame: Any) -> None:
    """Start the stream and wait for the answer, the stream playing all along (a stream
    stopped by the server shows START again)."""
    start(frame)
    if not shown(page, ANSWER_WAIT_MS):
        pytest.fail(f"no answer shown; {stream_state(page, frame)}")
    if not frame.get_by_role("button", name="STOP").is_visible():
        pytest.fail(f"the stream stopped by itself; {stream_state(page, frame)}")


def test_live_page_shows_the_answer_from_a_fake_camera(app_url: str, tmp_path: Path) -> None:
    """Start the live camera on the committed clip: the page says the answer is shown."""
    video = clip_as_y4m(CLIP, tmp_path / "clip.y4m")
    with chromium(*FAKE_CAMERA, f"--use-file-for-fake-video-capture={video}") as browser:
        context = browser.new_context(permissions=["camera"])
        page = context.new_page()
        # on a busy machine the page's whole load can pass goto's 30 s: wait on the tab
        page.goto(app_url, wait_until="commit")
        page.get_by_role("tab", name="Live camera").click(timeout=WAIT_MS)
        page.get_by_text(PRESS_START).first.wait_for(timeout=WAIT_MS)
        assert WAITING not in page.inner_text("body")  # nothing is awaited before Start
        frame = page.frame_locator("iframe[title*='streamlit_webrtc']")
        try:
            wait_for_answer(page, frame)
        finally:
            page.screenshot(path=str(tmp_path / "live.png"), full_page=True)
        assert "with the answer" in page.inner_text("body")
