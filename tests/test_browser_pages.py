"""A scanned PDF of two pages on *Solve a photo*, in a real browser at phone and desktop
size: the page picker shows the count, page 1 is read first, page 2 is picked and solved.

`sudokucam ui` and Debian's Chromium through tests/browser_harness.py, like
tests/test_browser.py; screenshots are kept under each test's tmp_path.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from sudokucam.tests.browser_harness import (
    DESKTOP,
    PHONE,
    after_rerun,
    chromium,
    missing_chromium,
    open_tab,
    wait_until_still,
)
from sudokucam.tests.test_browser import upload

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WAIT_MS = 90_000

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, for the module."""
    if missing := missing_chromium():
        pytest.skip(missing)
    with chromium() as opened:
        yield opened


def two_page_pdf(samples_dir: Path, out: Path) -> Path:
    """A PDF whose page 1 is blank and page 2 the demo photo, as a scanner makes one."""
    photo = Image.open(samples_dir / "printed" / "demo.jpg").convert("RGB")
    blank = Image.new("RGB", photo.size, (235, 235, 235))
    blank.save(out, format="PDF", save_all=True, append_images=[photo], resolution=150)
    return out


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_pdf_page_is_picked_and_solved(
    app_url: str, browser: Any, samples_dir: Path, tmp_path: Path, viewport: dict[str, int]
) -> None:
    pdf = two_page_pdf(samples_dir, tmp_path / "scan.pdf")
    page = open_tab(browser, app_url, "Solve a photo", viewport=viewport)
    try:
        upload(page, pdf)
        picker = page.get_by_test_id("stSelectbox").filter(has_text="scan.pdf has 2 pages")
        picker.wait_for(timeout=WAIT_MS)
        page.get_by_text("No Sudoku grid was found").first.wait_for(timeout=WAIT_MS)
        chosen = picker.get_by_role("combobox")
        assert chosen.input_value() == "Page 1 of 2"
        box = wait_until_still(picker)
        assert box["y"] < viewport["height"], box  # the picker is on the first screen
        assert box["x"] + box["width"] <= viewport["width"], box
        page.screenshot(path=tmp_path / f"pdf_page1_{viewport['width']}.png")

        picker.get_by_role("button", name="Open").click()
        after_rerun(page, lambda: page.get_by_role("option", name="Page 2 of 2").click())
        page.get_by_text("Solved: the answer drawn in blue").wait_for(timeout=WAIT_MS)
        answer = wait_until_still(page.get_by_test_id("stImage").first)
        assert answer["y"] < viewport["height"] / 2 + box["height"], answer
        assert chosen.input_value() == "Page 2 of 2"
        page.screenshot(path=tmp_path / f"pdf_page2_{viewport['width']}.png")
    finally:
        page.close()
