"""The app under load: page loads while one session searches, and memory under big uploads.

Usage: .venv/bin/python benchmarks/app_load.py [--loads 5] [--uploads 6] [--repeats 5]
       [--sessions 5] [--cores 2] [--megapixels 49,23.9] [--busy-cap 150]
       [--only load,photo,sessions,busy,memory,batch] [--json]

Starts `sudokucam ui` on a free 127.0.0.1 port (the server pinned to --cores CPUs) and
drives it with Playwright in Debian's Chromium (/usr/bin/chromium, as
tests/test_browser.py does); nothing leaves the machine.

load: seconds from starting the server until it answers its health check, the first page
load (the first script run imports the app), and --loads page loads after it; a page load
is from `goto` in a fresh browser context until the first tab's heading shows.

photo: a 12-megapixel phone-sized photo (the demo sample scaled to 4032×3024 with a little
sensor-like noise, saved as JPEG; each upload a slightly different file so nothing is
served from a cache) uploaded on "Solve a photo": seconds from handing the file to the
page until "Solved" shows. The first upload (which loads the digit model) is reported on
its own, then --repeats more, each in a fresh session.

sessions: the server's resident memory (its process tree) idle, with --sessions browser
sessions open, and after each of them has solved a 12-megapixel photo (one after
another; each session keeps its photo and answer), with the peak while they did.

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

batch: as memory, on the *Many photos* page: for each of --megapixels, a 16-bit
greyscale PNG that size (a 7000×7000 one is 381 KB), --uploads sessions each upload it
and press "Solve all" at once; the peak RSS until every page shows its table.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sudokucam.benchmarks.common import json_text, script_parser
from sudokucam.tests.browser_harness import (
    health_seconds,
    launch,
    missing_chromium,
    served_app,
)

IMPOSSIBLE = ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4........."
FIRST_TAB = "Solve a photo"
REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "samples" / "printed" / "demo.jpg"
PHONE_SIZE = (4032, 3024)  # a 12-megapixel phone photo, landscape
PHONE_NOISE = 3.0  # standard deviation of the added sensor-like noise, in grey levels
PHONE_JPEG_QUALITY = 90
SOLVED_TEXT = "Solved"
TYPE_TAB = "Type a puzzle"
BATCH_TAB = "Many photos"
WAIT_MS = 300_000  # a page or an answer slower than this counts as a failure
ANSWER = ["cannot be solved", "gave up", "did not finish", "busy"]  # Type page outcomes
SAMPLE_S = 0.05  # RSS sampling period


def pinned(cores: int | None) -> Callable[[], None] | None:
    """A pre-exec function pinning the server to the first `cores` CPUs (None: no pinning)."""
    if not cores:
        return None
    chosen = set(sorted(os.sched_getaffinity(0))[:cores])
    return lambda: os.sched_setaffinity(0, chosen)


@contextmanager
def served(cores: int | None = None) -> Iterator[tuple[str, int, float]]:
    """`sudokucam ui` on a free port: its URL, the launcher's pid and the seconds it took
    to answer its health check; stopped when done."""
    with served_app(preexec_fn=pinned(cores)) as app:
        yield app.url, app.server.pid, app.started_s


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


def load_run(browser: Any, url: str, up_s: float, count: int) -> dict[str, Any]:
    """Server start, the first page load, and `count` page loads after it."""
    first = page_load_seconds(browser, url)
    later = loads(browser, url, count)["page_s"]
    return {"server_up_s": up_s, "first_page_s": first, "page_s": later}


def phone_photo(path: Path, variant: int) -> Path:
    """The demo sample as a 12-megapixel phone photo with a little noise (seeded by variant)."""
    import cv2
    import numpy as np

    sample = cv2.imread(str(SAMPLE))
    if sample is None:
        raise FileNotFoundError(f"the sample photo {SAMPLE} is missing")
    big = cv2.resize(sample, PHONE_SIZE, interpolation=cv2.INTER_CUBIC)
    noise = np.random.default_rng(variant).normal(0.0, PHONE_NOISE, big.shape)
    noisy = np.clip(big + noise, 0, 255).astype(np.uint8)
    cv2.imwrite(str(path), noisy, [cv2.IMWRITE_JPEG_QUALITY, PHONE_JPEG_QUALITY])
    return path


def answer_seconds(page: Any, photo: Path) -> float:
    """Seconds from handing `photo` to the page's uploader until "Solved" shows."""
    start = time.perf_counter()
    page.locator("input[type=file]").first.set_input_files(str(photo))
    solved = page.locator("[data-testid=stAlert]").filter(has_text=SOLVED_TEXT)
    solved.first.wait_for(timeout=WAIT_MS)
    return time.perf_counter() - start


def photo_run(browser: Any, url: str, folder: Path, repeats: int) -> dict[str, Any]:
    """Upload-to-answer seconds for 12-megapixel photos, each in a fresh session."""
    times = []
    for variant in range(repeats + 1):
        page = open_tab(browser, url, FIRST_TAB)
        times.append(answer_seconds(page, phone_photo(folder / f"phone{variant}.jpg", variant)))
        page.context.close()
    photo = folder / "phone0.jpg"
    megapixels = PHONE_SIZE[0] * PHONE_SIZE[1] / 1e6
    return {"megapixels": round(megapixels, 1), "jpeg_kb": round(photo.stat().st_size / 1024),
            "first_answer_s": times[0], "answer_s": times[1:],
            "reader_s": reader_seconds(photo, repeats)}  # fmt: skip


def reader_seconds(photo: Path, repeats: int) -> list[float]:
    """The app's photo reader alone on the same photo, here in this process (after a warm-up):
    decoding and reading, without the page around it."""
    from sudokucam.vision.load import decode_image
    from sudokucam.vision.pipeline import EVERY_GRID_CONFIG, Reader

    reader, data = Reader(config=EVERY_GRID_CONFIG), photo.read_bytes()
    reader.read(decode_image(data, photo.name))
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        reader.read(decode_image(data, photo.name), name=photo.name)
        times.append(time.perf_counter() - start)
    return times


def sessions_run(browser: Any, url: str, root: int, folder: Path, count: int) -> dict[str, Any]:
    """Server memory idle, with `count` sessions open, and after each solved a photo."""
    time.sleep(1.0)
    idle = tree_rss_mb(root)
    pages = [open_tab(browser, url, FIRST_TAB) for _ in range(count)]
    time.sleep(1.0)
    opened = tree_rss_mb(root)
    with PeakSampler(root) as sampler:
        for number, page in enumerate(pages):
            answer_seconds(page, phone_photo(folder / f"session{number}.jpg", 100 + number))
        time.sleep(1.0)
        after = tree_rss_mb(root)
    return {"sessions": count, "idle_rss_mb": round(idle), "open_rss_mb": round(opened),
            "after_rss_mb": round(after), "peak_rss_mb": round(sampler.peak)}  # fmt: skip


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

    def answer(page: Any) -> str:
        alert = page.locator("[data-testid=stAlert]").filter(has_text=png.name)
        alert = alert.or_(page.get_by_text("No Sudoku grid was found"))
        alert.first.wait_for(timeout=WAIT_MS)
        return str(alert.first.inner_text().strip().splitlines()[0])

    def upload(page: Any) -> None:
        page.locator("input[type=file]").set_input_files(str(png))

    return peak_while(root, pages, upload, answer, png)


def peak_while(
    root: int,
    pages: list[Any],
    start: Callable[[Any], None],
    answer: Callable[[Any], str],
    png: Path,
) -> dict[str, Any]:
    """Peak RSS of the server tree from ``start`` on every page (all at once) until each
    page shows its ``answer``, with the tree's idle RSS before and how long it took."""
    time.sleep(1.0)
    idle = tree_rss_mb(root)
    began = time.perf_counter()
    with PeakSampler(root) as sampler:
        for page in pages:
            start(page)
        answers = [answer(page) for page in pages]
        took = time.perf_counter() - began
    return {
        "uploads": len(pages),
        "png_kb": round(png.stat().st_size / 1024),
        "idle_rss_mb": round(idle),
        "peak_rss_mb": round(sampler.peak),
        "all_answered_s": round(took, 1),
        "answers": sorted(set(answers)),
    }


def grey16_png(path: Path, megapixels: float) -> Path:
    """A 16-bit greyscale PNG of about `megapixels` megapixels (square, one grey)."""
    import numpy as np
    from PIL import Image

    side = int((megapixels * 1e6) ** 0.5)
    Image.fromarray(np.full((side, side), 40000, np.uint16)).save(path, format="PNG")
    return path


def batch_memory_run(browser: Any, url: str, root: int, png: Path, uploads: int) -> dict[str, Any]:
    """Peak RSS of the server tree while `uploads` sessions run Many photos on the PNG."""
    pages = [open_tab(browser, url, BATCH_TAB) for _ in range(uploads)]
    for page in pages:
        page.locator("input[type=file]").set_input_files(str(png))
    for page in pages:
        page.get_by_role("button", name="Solve all 1 files").wait_for(timeout=WAIT_MS)

    def answer(page: Any) -> str:
        done = page.get_by_text("grids solved.")
        done.first.wait_for(timeout=WAIT_MS)
        return str(done.first.inner_text().strip())

    def solve_all(page: Any) -> None:
        page.get_by_role("button", name="Solve all 1 files").click()

    return peak_while(root, pages, solve_all, answer, png)


def summary(times: list[float]) -> str:
    """Median and max of some seconds."""
    return f"median {statistics.median(times):.2f} s, max {max(times):.2f} s"


PARTS = ("load", "photo", "sessions", "busy", "memory", "batch")


def report(result: dict[str, Any]) -> None:
    """The figures as a few lines of text."""
    if "load" in result:
        lo = result["load"]
        print(f"load: server up in {lo['server_up_s']:.1f} s; first page "
              f"{lo['first_page_s']:.2f} s; then page {summary(lo['page_s'])}")  # fmt: skip
    if "photo" in result:
        ph = result["photo"]
        print(f"photo: {ph['megapixels']} MP JPEG ({ph['jpeg_kb']} KB), upload to answer: "
              f"first {ph['first_answer_s']:.2f} s (loads the model), "
              f"then {summary(ph['answer_s'])}; "
              f"the reader alone {summary(ph['reader_s'])}")  # fmt: skip
    if "sessions" in result:
        se = result["sessions"]
        print(f"sessions: server tree {se['idle_rss_mb']} MB idle, {se['open_rss_mb']} MB with "
              f"{se['sessions']} open, {se['after_rss_mb']} MB after each solved a 12 MP photo "
              f"(peak {se['peak_rss_mb']} MB)")  # fmt: skip
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
    for m in result.get("batch", []):
        print(
            f"batch: {m['uploads']} Many-photos sessions, a {m['megapixels']} MP 16-bit PNG "
            f"each ({m['png_kb']} KB): server tree {m['idle_rss_mb']} MB idle, peak "
            f"{m['peak_rss_mb']} MB; all answered in {m['all_answered_s']} s; {m['answers']}"
        )


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command-line options."""
    ap = script_parser(__doc__)
    ap.add_argument("--loads", type=int, default=5, help="page loads (load; idle and busy)")
    ap.add_argument("--repeats", type=int, default=5, help="12 MP uploads after the first")
    ap.add_argument("--sessions", type=int, default=5, help="sessions for the memory figure")
    ap.add_argument("--cores", type=int, default=2, help="CPUs the server may use (0: all)")
    ap.add_argument("--uploads", type=int, default=6, help="concurrent big uploads")
    ap.add_argument("--megapixels", default="49,23.9", help="sizes of the blank PNGs")
    ap.add_argument("--busy-cap", type=float, default=150.0, help="longest wait for the answer")
    ap.add_argument("--only", default=",".join(PARTS), help=f"parts to run, of {PARTS}")
    ap.add_argument("--json", action="store_true", help="print JSON instead of text")
    args = ap.parse_args(argv)
    args.parts = [p for p in args.only.split(",") if p]
    if unknown := set(args.parts) - set(PARTS):
        ap.error(f"unknown parts {sorted(unknown)}; choose from {PARTS}")
    return args


def run_parts(browser: Any, args: argparse.Namespace) -> dict[str, Any]:
    """Each part asked for, on a fresh server (load, photo and sessions share one)."""
    result: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if {"load", "photo", "sessions"} & set(args.parts):
            with served(args.cores) as (url, root, up_s):
                if "load" in args.parts:
                    result["load"] = load_run(browser, url, up_s, args.loads)
                if "photo" in args.parts:
                    result["photo"] = photo_run(browser, url, folder, args.repeats)
                if "sessions" in args.parts:
                    result["sessions"] = sessions_run(browser, url, root, folder, args.sessions)
        if "busy" in args.parts:
            with served(args.cores) as (url, _, _):
                result["busy"] = busy_run(browser, url, args.loads, args.busy_cap)
        if "memory" in args.parts:
            png = folder / "blank.png"
            result["memory"] = per_size(args, lambda mp: blank_png(png, mp), browser, memory_run)
        if "batch" in args.parts:
            png = folder / "grey16.png"
            result["batch"] = per_size(args, lambda mp: grey16_png(png, mp), browser,
                                       batch_memory_run)  # fmt: skip
    return result


MemoryRun = Callable[[Any, str, int, Path, int], dict[str, Any]]


def per_size(
    args: argparse.Namespace, make_png: Callable[[float], Path], browser: Any, run: MemoryRun
) -> list[dict[str, Any]]:
    """``run`` (a memory part) on a fresh server for each of ``--megapixels``, with a PNG
    of that size from ``make_png``."""
    rows = []
    for megapixels in (float(m) for m in args.megapixels.split(",")):
        with served(args.cores) as (url, root, _):
            figures = run(browser, url, root, make_png(megapixels), args.uploads)
            rows.append({"megapixels": megapixels, **figures})
    return rows


def main(argv: list[str] | None = None) -> int:
    """Run the parts asked for and print the figures."""
    args = parse_args(argv)
    if missing := missing_chromium():
        print(missing, file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = launch(driver)
        result = run_parts(browser, args)
        browser.close()
    print(json_text(result), end="") if args.json else report(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
