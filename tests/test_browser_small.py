"""A 6×6 photo on *Solve a photo* in a real browser (Debian's Chromium, Playwright).

The server and helpers are those of tests/test_browser.py. The committed sample
``samples/small/six_book.jpg`` is uploaded; the board must come as a 6×6 (36 cells named
by their labels, a pad of 1-6), read exactly, and take a correction. Screenshots at
phone and desktop sizes are kept under the test's tmp_path (``SUDOKUCAM_SHOTS`` names a
folder to copy them to, to look at them).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sudokucam.tests.browser_harness import DESKTOP, PHONE, launch, open_tab, wait_until_still
from sudokucam.tests.test_browser import (
    MIN_CELL_PX,
    WAIT_MS,
    board,
    cell,
    playwright,
    tap,
    upload,
    wait_label,
)
from sudokucam.tests.test_browser_variants import shots

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["playwright"]  # a fixture shared with test_browser.py (app_url is in conftest.py)

SIX = Path(__file__).resolve().parent.parent / "samples" / "small" / "six_book.jpg"


def shown_digits(frame: Any) -> str:
    """The digits a board shows, from its cells' labels ('0' for empty)."""
    labels = frame.get_by_role("gridcell").evaluate_all("els => els.map(e => e.ariaLabel)")
    return "".join(lbl.split(": ")[1].split(",")[0].replace("empty", "0") for lbl in labels)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_6x6_photo_shows_a_6x6_board_and_takes_a_correction(
    app_url: str, playwright: Any, tmp_path: Path, viewport: dict[str, int]
) -> None:
    truth = json.loads(SIX.with_suffix(".json").read_text(encoding="utf-8"))
    givens = truth["puzzle"]["givens"].replace(".", "0")
    browser = launch(playwright)
    try:
        page = open_tab(browser, app_url, "Solve a photo", viewport=viewport)
        upload(page, SIX)
        page.get_by_text("Solved: the answer drawn in blue").wait_for(timeout=WAIT_MS)
        frame = board(page, "Digits read from the photo")
        assert shown_digits(frame) == givens  # 36 cells, read exactly
        pad = frame.get_by_role("group", name="Number pad").get_by_role("button")
        assert pad.all_inner_texts() == ["1", "2", "3", "4", "5", "6"]
        box = wait_until_still(cell(frame, 3, 3))
        assert box["width"] >= MIN_CELL_PX and box["height"] >= MIN_CELL_PX, box
        answer = page.get_by_test_id("stImage").first.bounding_box()
        assert answer["y"] < viewport["height"], answer  # the drawn answer on the first screen
        shots(page, tmp_path, "six_solved", viewport)

        first = next(c for c, d in enumerate(givens) if d != "0")
        row = first // 6
        twin = next(c for c in range(row * 6, row * 6 + 6) if givens[c] == "0")
        tap(frame, row + 1, twin % 6 + 1, int(givens[first]))  # the same number twice in a row
        wait_label(frame, row + 1, twin % 6 + 1, "breaks the rules")
        assert "break the rules" in page.inner_text("body")
        shots(page, tmp_path, "six_broken", viewport)
        tap(frame, row + 1, twin % 6 + 1, 0)  # taken back
        page.get_by_text("Solved from the").wait_for(timeout=WAIT_MS)
    finally:
        browser.close()


TWELVE = SIX.with_name("twelve_newspaper.jpg")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_12x12_photo_shows_a_12x12_board_with_numbers_past_9(
    app_url: str, playwright: Any, tmp_path: Path, viewport: dict[str, int]
) -> None:
    """The committed 12×12 (3×4 boxes): 144 cells read exactly, 10-12 shown as numbers
    (never A-C), a pad of 1-12, the drawn answer on the first screen."""
    truth = json.loads(TWELVE.with_suffix(".json").read_text(encoding="utf-8"))
    givens = [int(ch, 16) for ch in truth["puzzle"]["givens"].replace(".", "0")]
    browser = launch(playwright)
    try:
        page = open_tab(browser, app_url, "Solve a photo", viewport=viewport)
        upload(page, TWELVE)
        page.get_by_text("Solved: the answer drawn in blue").wait_for(timeout=WAIT_MS)
        frame = board(page, "Digits read from the photo")
        labels = frame.get_by_role("gridcell").evaluate_all("els => els.map(e => e.ariaLabel)")
        shown = [lbl.split(": ")[1].split(",")[0].replace("empty", "0") for lbl in labels]
        assert shown == [str(v) for v in givens]  # 144 cells, read exactly, 10-12 as numbers
        pad = frame.get_by_role("group", name="Number pad").get_by_role("button")
        assert pad.all_inner_texts()[:12] == [str(v) for v in range(1, 13)]
        answer = page.get_by_test_id("stImage").first.bounding_box()
        assert answer["y"] < viewport["height"], answer  # the drawn answer on the first screen
        shots(page, tmp_path, "twelve_solved", viewport)
    finally:
        browser.close()
