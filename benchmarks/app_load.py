"""The app under load: page loads while one session searches, and memory under big uploads.

Usage: .venv/bin/python benchmarks/app_load.py [--loads 5] [--uploads 6]
       [--megapixels 49,23.9] [--busy-cap 150] [--only busy|memory] [--json]

Starts `sudokucam ui` on a free 127.0.0.1 port and drives it with Playwright in Debian's
Chromium (/usr/bin/chromium, as tests/test_browser.py does); nothing leaves the machine.

busy: first the idle figures (health answer, and a full page render in a fresh browser
context: from `goto` until the first tab's heading shows). Then one session types Peter
Norvig's "impossible" puzzle on the Type page and presses Solve; while it searches, a
second browser (its own Playwright, in a thread) loads the page again and again
(--loads times), the health endpoint timed between loads, while the first waits for its
answer: how long the busy session waited is timed too.

memory: for each of --megapixels, a blank PNG that size is made here (a few hundred KB:
it compresses well and decodes huge); --uploads browser contexts open "Solve a photo" and
upload it at once. The resident memory (RSS) of the server's process tree (the launcher,
Streamlit and any worker) is sampled every 50 ms until every page has its answer; the
peak is reported beside the idle server's. Each size runs on a fresh server.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
IMPOSSIBLE = ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4........."
FIRST_TAB = "Solve a photo"
TYPE_TAB = "Type a puzzle"
WAIT_MS = 300_000  # a page or an answer slower than this counts as a failure
ANSWER = ["cannot be solved", "gave up", "did not finish", "busy"]  # Type page outcomes
SAMPLE_S = 0.05  # RSS sampling period


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def health_seconds(url: str, timeout: float = 300) -> float:
    """Seconds the server's health endpoint takes to answer."""
    start = time.perf_counter()
    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=timeout) as reply:
        reply.read()
    return time.perf_counter() - start


@contextmanager
def served() -> Iterator[tuple[str, int]]:
    """`sudokucam ui` on a free port: its URL and the launcher's pid; stopped when done."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "sudokucam", "ui", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                health_seconds(url, timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("the app server did not come up") from None
                time.sleep(0.3)
        yield url, server.pid
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def tree_rss_mb(root: int) -> float:
    """Resident memory of a process and all its descendants, in MB (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


class PeakSampler:
    """Samples a process tree's RSS in a thread; `peak` is the largest seen."""

    def __init__(self, root: int) -> None:
        self.root, self.peak, self._stop = root, 0.0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, tree_rss_mb(self.root))
            time.sleep(SAMPLE_S)

    def __enter__(self) -> PeakSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def page_load_seconds(browser: Any, url: str) -> float:
    """A full page render in a fresh context: goto until the first tab's heading shows."""
    context = browser.new_context()
    try:
        page = context.new_page()
        start = time.perf_counter()
        page.goto(url, timeout=WAIT_MS)
        page.get_by_role("heading", name=FIRST_TAB).wait_for(timeout=WAIT_MS)
        return time.perf_counter() - start
    finally:
        context.close()


def open_tab(browser: Any, url: str, tab: str) -> Any:
    """A page in its own context with one tab open."""
    page = browser.new_context().new_page()
    page.goto(url, timeout=WAIT_MS)
    page.get_by_role("tab", name=tab).click(timeout=WAIT_MS)
    page.get_by_role("heading", name=tab).wait_for(timeout=WAIT_MS)
    return page


def loads(browser: Any, url: str, count: int) -> dict[str, list[float]]:
    """Health and page-load times, alternating, count of each."""
    out: dict[str, list[float]] = {"health_s": [], "page_s": []}
    for _ in range(count):
        out["health_s"].append(health_seconds(url))
        out["page_s"].append(page_load_seconds(browser, url))
    return out


def launch(driver: Any) -> Any:
    """Debian's Chromium, headless, with no traffic of its own."""
    return driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)


def loads_in_thread(url: str, count: int, start: threading.Event, out: dict[str, Any]) -> None:
    """Once `start` is set, `loads` from a second browser of this thread's own Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = launch(driver)
        start.wait()
        out.update(loads(browser, url, count))
        browser.close()


def busy_run(browser: Any, url: str, count: int, cap_s: float) -> dict[str, Any]:
    """Idle loads, then loads from another browser while one session searches."""
    page_load_seconds(browser, url)  # warm: the first script run imports the app
    idle = loads(browser, url, count)
    busy = open_tab(browser, url, TYPE_TAB)
    busy.get_by_label("Puzzle as text").fill(IMPOSSIBLE)
    busy.keyboard.press("Control+Enter")
    busy.wait_for_timeout(1500)  # the text reaches the server, the grid editor redraws
    during: dict[str, Any] = {}
    go = threading.Event()
    other = threading.Thread(target=loads_in_thread, args=(url, count, go, during))
    other.start()
    busy.get_by_role("button", name="Solve").click()
    pressed = time.perf_counter()
    busy.wait_for_timeout(300)  # the click reaches the server and the search starts
    go.set()
    answer = busy.locator("[data-testid=stAlert]").filter(has_text=ANSWER[0])
    for word in ANSWER[1:]:
        answer = answer.or_(busy.locator("[data-testid=stAlert]").filter(has_text=word))
    answer.first.wait_for(timeout=cap_s * 1000)
    waited = time.perf_counter() - pressed
    text = answer.first.inner_text().strip().splitlines()[0]
    other.join()
    return {"idle": idle, "busy": during, "busy_answer_s": waited, "busy_answer": text}


def blank_png(path: Path, megapixels: float) -> Path:
    """A white PNG of about `megapixels` megapixels (square)."""
    from PIL import Image

    side = int((megapixels * 1e6) ** 0.5)
    buffer = io.BytesIO()
    Image.new("RGB", (side, side), "white").save(buffer, format="PNG", optimize=False)
    path.write_bytes(buffer.getvalue())
    return path


def memory_run(browser: Any, url: str, root: int, png: Path, uploads: int) -> dict[str, Any]:
    """Peak RSS of the server tree while `uploads` sessions read the big PNG at once."""
    pages = [open_tab(browser, url, FIRST_TAB) for _ in range(uploads)]
    time.sleep(1.0)
    idle = tree_rss_mb(root)
    start = time.perf_counter()
    with PeakSampler(root) as sampler:
        for page in pages:
            page.locator("input[type=file]").set_input_files(str(png))
        answers = []
        for page in pages:
            alert = page.locator("[data-testid=stAlert]").filter(has_text=png.name)
            alert = alert.or_(page.get_by_text("No Sudoku grid was found"))
            alert.first.wait_for(timeout=WAIT_MS)
            answers.append(alert.first.inner_text().strip().splitlines()[0])
        took = time.perf_counter() - start
    return {
        "uploads": uploads,
        "png_kb": round(png.stat().st_size / 1024),
        "idle_rss_mb": round(idle),
        "peak_rss_mb": round(sampler.peak),
        "all_answered_s": round(took, 1),
        "answers": sorted(set(answers)),
    }


def summary(times: list[float]) -> str:
    """Median and max of some seconds."""
    return f"median {statistics.median(times):.2f} s, max {max(times):.2f} s"


def report(result: dict[str, Any]) -> None:
    """The figures as a few lines of text."""
    if "busy" in result:
        b = result["busy"]
        for when in ("idle", "busy"):
            health, page = summary(b[when]["health_s"]), summary(b[when]["page_s"])
            print(f"{when}:  health {health}; page {page}")
        print(f"busy session answered after {b['busy_answer_s']:.1f} s: {b['busy_answer']}")
    for m in result.get("memory", []):
        print(
            f"memory: {m['uploads']} uploads of a {m['megapixels']} MP blank PNG "
            f"({m['png_kb']} KB): server tree {m['idle_rss_mb']} MB idle, peak "
            f"{m['peak_rss_mb']} MB; all answered in {m['all_answered_s']} s; {m['answers']}"
        )


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command-line options."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--loads", type=int, default=5, help="page loads idle and while busy")
    ap.add_argument("--uploads", type=int, default=6, help="concurrent big uploads")
    ap.add_argument("--megapixels", default="49,23.9", help="sizes of the blank PNGs")
    ap.add_argument("--busy-cap", type=float, default=150.0, help="longest wait for the answer")
    ap.add_argument("--only", choices=["busy", "memory"], help="run one part only")
    ap.add_argument("--json", action="store_true", help="print JSON instead of text")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the parts asked for, each on a fresh server, and print the figures."""
    args = parse_args(argv)
    if not CHROMIUM.is_file():
        print(f"needs Debian's chromium at {CHROMIUM}", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    result: dict[str, Any] = {}
    with sync_playwright() as driver:
        browser = launch(driver)
        if args.only in (None, "busy"):
            with served() as (url, _):
                result["busy"] = busy_run(browser, url, args.loads, args.busy_cap)
        if args.only in (None, "memory"):
            result["memory"] = []
            for megapixels in (float(m) for m in args.megapixels.split(",")):
                with tempfile.TemporaryDirectory() as tmp, served() as (url, root):
                    png = blank_png(Path(tmp) / "blank.png", megapixels)
                    run = memory_run(browser, url, root, png, args.uploads)
                    result["memory"].append({"megapixels": megapixels, **run})
        browser.close()
    print(json.dumps(result, indent=2)) if args.json else report(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
