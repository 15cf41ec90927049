"""The one way tests and scripts run the app and a browser: `sudokucam ui` + Debian's Chromium.

Imported as ``sudokucam.tests.browser_harness`` by the browser tests,
``benchmarks/app_load.py`` and ``docs/screens/make_screens.py``::

    with served_app() as app, chromium() as browser:
        page = open_tab(browser, app.url, "Solve a photo")
        ...

The server is ``python -m sudokucam ui`` on a free port of 127.0.0.1, started in its own
process group so that it and its Streamlit child always stop together. Chromium is the
system one (``/usr/bin/chromium``, never a downloaded build), headless, with no traffic of
its own. Waits are on what the server or the page shows (the health endpoint, a tab's
heading), never a fixed sleep before looking.
"""

from __future__ import annotations

import os
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
UP_TIMEOUT_S = 120.0  # the most a starting server may take to answer its health check
POLL_S = 0.1  # between two health checks of a starting server
STOP_TIMEOUT_S = 20.0  # after SIGTERM, before the server's group is killed
TAB_WAIT_MS = 90_000  # a tab chosen shows its heading within this
STILL_MS = 300  # a box unchanged this long has finished moving (layout, a frame's height)
LOOK_MS = 50  # between two looks at a box that may still move
# Watches the app's script state; records a run of the script that has ended.
WATCH_RUNS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  window.__sudokucamRunEnded = false;
  new MutationObserver((records) => {
    if (records.some((r) => r.oldValue === 'running')) window.__sudokucamRunEnded = true;
  }).observe(app, {attributes: true, attributeOldValue: true,
                   attributeFilter: ['data-test-script-state']});
}"""
IDLE = """() => document.querySelector('[data-testid="stApp"]')
  .getAttribute('data-test-script-state') === 'notRunning'"""
RUN_ENDED = f"() => window.__sudokucamRunEnded && ({IDLE})()"
# A tab just chosen can still show the last tab's file input (stale) until its run ends
ONE_UPLOADER = "() => document.querySelectorAll('input[type=file]').length === 1"


@dataclass(frozen=True)
class App:
    """A running `sudokucam ui`: its address, its process, and how long it took to start."""

    url: str
    server: subprocess.Popen[bytes]
    started_s: float


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def health_seconds(url: str, timeout: float = 300, context: ssl.SSLContext | None = None) -> float:
    """Seconds the server's health endpoint takes to answer 200 (raises OSError if not)."""
    start = time.perf_counter()
    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=timeout, context=context) as r:
        if r.status != 200:
            raise OSError(f"health check answered {r.status}")
    return time.perf_counter() - start


def wait_until_up(
    url: str,
    server: subprocess.Popen[Any],
    timeout: float = UP_TIMEOUT_S,
    context: ssl.SSLContext | None = None,
) -> None:
    """Return once the server at ``url`` answers its health check; raise if it exits first
    or is not up within ``timeout`` seconds (over HTTPS: checked with ``context``)."""
    deadline = time.monotonic() + timeout
    while True:
        if server.poll() is not None:
            raise RuntimeError(f"the app server exited with code {server.returncode}")
        try:
            health_seconds(url, timeout=2, context=context)
            return
        except ssl.SSLCertVerificationError:
            raise  # a wrong certificate will not come right by waiting
        except OSError:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the app at {url} did not come up in {timeout} s") from None
            time.sleep(POLL_S)


def stop(server: subprocess.Popen[Any], timeout: float = STOP_TIMEOUT_S) -> None:
    """Stop a server started in its own process group: SIGTERM, then SIGKILL if it lingers."""
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


@contextmanager
def served_app(
    *args: str,
    env: Mapping[str, str] | None = None,
    preexec_fn: Callable[[], None] | None = None,
    prefix: Sequence[str] = (),
) -> Iterator[App]:
    """`sudokucam ui --port PORT *args` on a free port, up; stopped when done.

    ``prefix``: a command the server runs under (``strace -f ...`` to watch it).
    """
    port = free_port()
    started = time.perf_counter()
    server = subprocess.Popen(
        [*prefix, sys.executable, "-m", "sudokucam", "ui", "--port", str(port), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env=None if env is None else dict(env),
        preexec_fn=preexec_fn,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until_up(url, server)
        yield App(url, server, time.perf_counter() - started)
    finally:
        stop(server)


def launch(driver: Any, *extra: str) -> Any:
    """Debian's Chromium from a Playwright driver: headless, no traffic of its own."""
    return driver.chromium.launch(
        executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, *extra], headless=True
    )


@contextmanager
def chromium(*extra: str) -> Iterator[Any]:
    """A Playwright driver's Chromium (``launch``), closed when done."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = launch(driver, *extra)
        try:
            yield browser
        finally:
            browser.close()


def open_tab(
    browser: Any,
    url: str,
    tab: str,
    viewport: Mapping[str, int] = DESKTOP,
    wait_ms: int = TAB_WAIT_MS,
) -> Any:
    """A new page on the app with one tab chosen, once the tab shows its heading."""
    page = browser.new_page(viewport=dict(viewport))
    # on a busy machine the page's whole load can pass goto's 30 s: the tab is waited on
    page.goto(url, wait_until="commit")
    page.get_by_role("tab", name=tab).click(timeout=wait_ms)
    page.get_by_role("heading", name=tab).wait_for(timeout=wait_ms)
    return page


def after_rerun(page: Any, action: Callable[[], None], wait_ms: int = TAB_WAIT_MS) -> None:
    """Do ``action`` (an edit the app must take in) and return once a run of the app's
    script has started after it and ended: the server has taken the edit and redrawn.

    Runs still going when it is called (earlier edits) end first, so that their end is
    not taken for this edit's.
    """
    page.wait_for_function(IDLE, timeout=wait_ms)
    page.evaluate(WATCH_RUNS)
    action()
    page.wait_for_function(RUN_ENDED, timeout=wait_ms)


def wait_until_still(locator: Any, wait_ms: int = TAB_WAIT_MS) -> dict[str, float]:
    """The locator's bounding box once it has stayed the same for ``STILL_MS`` (the page
    has finished laying it out); raise TimeoutError if it keeps moving for ``wait_ms``."""
    deadline = time.monotonic() + wait_ms / 1000
    last, since = None, time.monotonic()
    while time.monotonic() < deadline:
        box = locator.bounding_box()
        now = time.monotonic()
        if box != last:
            last, since = box, now
        elif box is not None and now - since >= STILL_MS / 1000:
            return dict(box)
        locator.page.wait_for_timeout(LOOK_MS)
    raise TimeoutError(f"{locator} kept moving for {wait_ms} ms")


def missing_chromium() -> str | None:
    """Why the browser cannot run here (None when Debian's Chromium is installed)."""
    return None if CHROMIUM.is_file() else f"needs Debian's chromium at {CHROMIUM}"


__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "DESKTOP",
    "PHONE",
    "App",
    "after_rerun",
    "chromium",
    "free_port",
    "health_seconds",
    "launch",
    "missing_chromium",
    "open_tab",
    "served_app",
    "stop",
    "wait_until_still",
    "wait_until_up",
]
