"""End to end in a real browser: `sudokucam ui` driven by Playwright in Debian's Chromium.

The server runs on 127.0.0.1 for the whole module and is always stopped at the end.
Chromium is the system one (/usr/bin/chromium, never a downloaded build); its fake
camera plays a Y4M video made from a sample photo. Screenshots are kept under each
test's tmp_path; the assertions are on page text, not pixels.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sudokucam.ui.app.widgets.grid_editor import CELL_WIDTH_PX

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = Path("/usr/bin/chromium")
REPO = Path(__file__).resolve().parent.parent
MODEL = REPO / "models" / "digits_v1" / "model.onnx"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
DESKTOP = {"width": 1280, "height": 1600}
PHONE = {"width": 390, "height": 844}
WAIT_MS = 90_000

sync_api = pytest.importorskip("playwright.sync_api")


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_up(url: str, server: subprocess.Popen[bytes], timeout: float = 60) -> None:
    """Poll the server's health endpoint until it answers."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the app server exited with code {server.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise TimeoutError(f"the app at {url} did not come up in {timeout} s")


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
    """`sudokucam ui` on a free port, stopped (with its Streamlit child) when done."""
    if not CHROMIUM.is_file():
        pytest.skip(f"needs Debian's chromium at {CHROMIUM}")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "sudokucam", "ui", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until_up(url, server)
        yield url
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


@pytest.fixture(scope="module")
def playwright() -> Iterator[Any]:
    """One Playwright driver for the module."""
    with sync_api.sync_playwright() as driver:
        yield driver


def launch(playwright: Any, *extra: str) -> Any:
    """Debian's Chromium, headless, with no traffic of its own."""
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, *extra], headless=True
    )


def open_tab(browser: Any, url: str, tab: str, viewport: dict[str, int] = DESKTOP) -> Any:
    """A new page on the app with one tab chosen."""
    page = browser.new_page(viewport=viewport)
    page.goto(url)
    page.get_by_role("tab", name=tab).click(timeout=WAIT_MS)
    page.get_by_role("heading", name=tab).wait_for(timeout=WAIT_MS)
    return page


def demo_photo(samples_dir: Path) -> Path:
    """The demo photo, or skip when it or the model is not there yet."""
    photo = samples_dir / "printed" / "demo.jpg"
    if not photo.is_file():
        pytest.skip(f"sample photo {photo} is not rendered yet")
    if not MODEL.is_file():
        pytest.skip(f"the digit model {MODEL} is not trained yet")
    return photo


def write_y4m(photo: Path, out: Path, size: str = "1440x1080") -> Path:
    """A short Y4M video of the photo for Chromium's fake camera (samples/make_y4m.py)."""
    maker = REPO / "samples" / "make_y4m.py"
    if not maker.is_file():
        pytest.skip(f"needs the Y4M writer {maker}")
    command = [sys.executable, str(maker), str(photo), str(out), "--size", size, "--frames", "4"]
    subprocess.run(command, check=True, capture_output=True, timeout=120)
    return out


def snap(page: Any, path: Path, height: int = 2000) -> None:
    """A screenshot of the whole app: the window made tall (Streamlit scrolls inside it)."""
    size = page.viewport_size
    page.set_viewport_size({"width": size["width"], "height": height})
    page.wait_for_timeout(700)
    page.screenshot(path=path)
    page.set_viewport_size(size)


def edit_cell(page: Any, editor: Any, row: int, col: int, text: str) -> None:
    """Type into one cell (1-based row and column) of a 9×9 data editor."""
    box = editor.bounding_box()
    header = box["height"] / 10  # the header row is as tall as a data row
    col_width = CELL_WIDTH_PX
    x = box["x"] + box["width"] - (9 - col + 0.5) * col_width
    y = box["y"] + header * (row + 0.5)
    page.mouse.click(x, y)
    page.wait_for_timeout(400)
    page.keyboard.type(text)
    page.wait_for_timeout(200)
    page.keyboard.press("Enter")


def test_typed_puzzle_in_browser(app_url: str, playwright: Any, tmp_path: Path) -> None:
    browser = launch(playwright)
    try:
        page = open_tab(browser, app_url, "Type a puzzle")
        page.get_by_label("Puzzle as text").fill(PUZZLE)
        page.keyboard.press("Control+Enter")
        page.get_by_role("button", name="Solve").click()
        page.get_by_text("Solved: the puzzle has exactly one solution.").wait_for(timeout=WAIT_MS)
        page.get_by_text("The answer as text").click()
        page.get_by_test_id("stCode").get_by_text(SOLUTION).wait_for(timeout=WAIT_MS)
        table = page.get_by_role("table", name="Solution").inner_text()
        assert "".join(ch for ch in table if ch.isdigit()) == SOLUTION
        snap(page, tmp_path / "typed.png")
    finally:
        browser.close()


def test_upload_solve_correct_and_download(
    app_url: str, playwright: Any, samples_dir: Path, tmp_path: Path
) -> None:
    photo = demo_photo(samples_dir)
    browser = launch(playwright)
    try:
        page = open_tab(browser, app_url, "Solve a photo")
        page.locator("input[type=file]").set_input_files(str(photo))
        page.get_by_text("Solved: the answer drawn in blue").wait_for(timeout=WAIT_MS)
        page.get_by_text("Solved from the").wait_for(timeout=WAIT_MS)
        snap(page, tmp_path / "photo_solved.png")

        editor = page.locator("[data-testid=stDataFrame]").first
        truth = json.loads(photo.with_suffix(".json").read_text())
        first = truth["givens"][0][0]
        wrong = 9 if first != 9 else 8
        edit_cell(page, editor, 1, 1, str(wrong))  # a misreading in r1c1 ...
        page.get_by_text("What to try").wait_for(timeout=WAIT_MS)
        download = page.get_by_role("button", name="Download the solved photo")
        download.wait_for(state="detached", timeout=WAIT_MS)  # nothing to save while broken
        body = page.inner_text("body")
        assert "break the rules" in body or "no solution" in body
        snap(page, tmp_path / "photo_broken.png")
        edit_cell(page, editor, 1, 1, str(first) if first else "")  # ... corrected
        page.get_by_text("Solved from the").wait_for(timeout=WAIT_MS)
        page.get_by_text("What to try").wait_for(state="detached", timeout=WAIT_MS)
        snap(page, tmp_path / "photo_corrected.png")

        with page.expect_download(timeout=WAIT_MS) as saving:
            download.click()
        saved = tmp_path / "solved.png"
        saving.value.save_as(saved)
        assert saved.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

        phone = open_tab(browser, app_url, "Solve a photo", viewport=PHONE)
        phone.locator("input[type=file]").set_input_files(str(photo))
        phone.get_by_text("Solved: the answer drawn in blue").wait_for(timeout=WAIT_MS)
        snap(phone, tmp_path / "photo_phone.png")
    finally:
        browser.close()


def test_webcam_shot_through_fake_camera(
    app_url: str, playwright: Any, samples_dir: Path, tmp_path: Path
) -> None:
    video = write_y4m(demo_photo(samples_dir), tmp_path / "camera.y4m")
    browser = launch(
        playwright,
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-video-capture={video}",
    )
    try:
        context = browser.new_context(viewport=DESKTOP, permissions=["camera"])
        page = context.new_page()
        page.goto(app_url)
        page.get_by_role("tab", name="Solve a photo").click(timeout=WAIT_MS)
        page.get_by_text("Camera", exact=True).click()
        page.wait_for_function(
            "() => { const v = document.querySelector('video'); return v && v.readyState >= 2; }",
            timeout=WAIT_MS,
        )
        page.wait_for_timeout(1000)  # let the fake camera deliver a few frames
        page.get_by_role("button", name="Take Photo").click(timeout=WAIT_MS)
        page.get_by_text("Solved: the answer drawn in blue").wait_for(timeout=WAIT_MS)
        snap(page, tmp_path / "camera.png")
        assert "Solved from the" in page.inner_text("body")
    finally:
        browser.close()


def test_play_in_browser_on_a_phone(app_url: str, playwright: Any, tmp_path: Path) -> None:
    browser = launch(playwright)
    try:
        page = open_tab(browser, app_url, "Play", viewport=PHONE)
        page.get_by_role("button", name="New puzzle").click()
        page.get_by_role("button", name="Check").wait_for(timeout=WAIT_MS)
        page.get_by_role("button", name="Check").click()
        page.get_by_text("No mistakes so far.").wait_for(timeout=WAIT_MS)
        page.get_by_role("button", name="Hint: where can I go next?").click()
        page.get_by_text("Look at r").first.wait_for(timeout=WAIT_MS)
        snap(page, tmp_path / "play_phone.png")
    finally:
        browser.close()
