"""Regenerate the app's screenshots in docs/screens/: each page at phone and desktop size.

Usage: .venv/bin/python docs/screens/make_screens.py [--out docs/screens] [--only NAME,...]

Starts `sudokucam ui` on a free 127.0.0.1 port, drives it with Playwright in Debian's
Chromium (/usr/bin/chromium), and writes NAME-phone.png (390×844) and NAME-desktop.png
(1280×900) for every screen below: what a person sees without scrolling. The PNGs are
reduced to a small palette so that the folder stays a few hundred KB.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sudokucam.tests.browser_harness import (
    DESKTOP,
    PHONE,
    chromium,
    missing_chromium,
    served_app,
)

REPO = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent
SIZES = {"phone": PHONE, "desktop": DESKTOP}
WAIT_MS = 120_000
SETTLE_MS = 1500  # after the last change, for images and the board to finish drawing
PALETTE_COLOURS = 96  # colours kept in each PNG
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


@dataclass(frozen=True)
class Screen:
    """One screenshot: its file name, the tab it shows, and what is done there first."""

    name: str
    tab: str
    prepare: Callable[[Any], None]


def nothing(page: Any) -> None:
    """Leave the page as it opens."""


def upload(path: Path) -> Callable[[Any], None]:
    """Upload a photo to the page's uploader and wait until a picture shows."""

    def run(page: Any) -> None:
        page.locator("input[type=file]").first.set_input_files(str(path))
        page.locator("[data-testid=stImage] img").first.wait_for(timeout=WAIT_MS)

    return run


def type_puzzle(page: Any) -> None:
    """Paste the classic puzzle as text and press Solve."""
    page.get_by_label("Puzzle as text").fill(PUZZLE)
    page.keyboard.press("Control+Enter")
    page.wait_for_timeout(SETTLE_MS)
    page.get_by_role("button", name="Solve").first.click()
    page.get_by_text("Solved").first.wait_for(timeout=WAIT_MS)


def many_photos(page: Any) -> None:
    """Solve three sample photos and a blank picture at once."""
    names = ["printed/demo.jpg", "printed/shadow.jpg", "printed/serif_rotated.jpg"]
    files = [str(REPO / "samples" / n) for n in names]
    page.locator("input[type=file][multiple]").set_input_files(files)
    page.get_by_role("button", name=f"Solve all {len(files)} files").click(timeout=WAIT_MS)
    page.get_by_text("grids solved").first.wait_for(timeout=WAIT_MS)


def new_game(page: Any) -> None:
    """Start a new Easy game."""
    page.get_by_role("button", name="New puzzle").click(timeout=WAIT_MS)
    page.wait_for_timeout(SETTLE_MS)


SCREENS = (
    Screen("start", "Solve a photo", nothing),
    Screen("photo", "Solve a photo", upload(REPO / "samples/printed/demo.jpg")),
    Screen("check", "Check my progress", upload(REPO / "samples/progress/notes_half.jpg")),
    Screen("typed", "Type a puzzle", type_puzzle),
    Screen("batch", "Many photos", many_photos),
    Screen("play", "Play", new_game),
    Screen("several", "Solve a photo", upload(REPO / "samples/pages/page0.jpg")),
    Screen("live", "Live camera", nothing),
)


def small_png(shot: bytes) -> bytes:
    """A screenshot reduced to a small palette, optimised."""
    from PIL import Image

    image = Image.open(io.BytesIO(shot)).convert("RGB")
    reduced = image.quantize(colors=PALETTE_COLOURS, method=Image.Quantize.MEDIANCUT)
    out = io.BytesIO()
    reduced.save(out, format="PNG", optimize=True)
    return out.getvalue()


def capture(browser: Any, url: str, screen: Screen, size: str) -> bytes:
    """One screen at one size, as PNG bytes (what shows without scrolling)."""
    context = browser.new_context(viewport=SIZES[size], color_scheme="light")
    try:
        page = context.new_page()
        page.goto(url, timeout=WAIT_MS)
        page.get_by_role("tab", name=screen.tab).click(timeout=WAIT_MS)
        page.get_by_role("heading", name=screen.tab).wait_for(timeout=WAIT_MS)
        try:
            screen.prepare(page)
        except Exception as exc:  # a page that changed: keep what it shows, and say so
            print(f"{screen.name}-{size}: could not prepare the page ({exc})", file=sys.stderr)
        page.wait_for_timeout(SETTLE_MS)
        return bytes(page.screenshot())
    finally:
        context.close()


def main(argv: list[str] | None = None) -> int:
    """Write every screen (or those named by --only) at both sizes."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT, help="folder for the PNGs")
    ap.add_argument("--only", default="", help="comma-separated screen names")
    args = ap.parse_args(argv)
    if missing := missing_chromium():
        print(missing, file=sys.stderr)
        return 2
    wanted = {n for n in args.only.split(",") if n}
    args.out.mkdir(parents=True, exist_ok=True)
    with served_app() as app, chromium() as browser:
        for screen in SCREENS:
            if wanted and screen.name not in wanted:
                continue
            for size in SIZES:
                path = args.out / f"{screen.name}-{size}.png"
                path.write_bytes(small_png(capture(browser, app.url, screen, size)))
                print(f"wrote {path} ({path.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
