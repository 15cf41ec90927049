"""A 16×16 photo half solved in pen on *Check my progress* in a real browser (Debian's
Chromium, Playwright).

The photo is rendered in the test (``render_sixteen_photo``, as tests/test_sixteen_progress.py
does). The page must show the marked photo and a 16×16 board of 256 cells holding the
numbers 10-16 as read, with every wrong or asked-about entry marked; screenshots at phone
and desktop sizes are kept (``SUDOKUCAM_SHOTS`` names a folder to copy them to).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import pytest

from sudokucam.samples import render
from sudokucam.tests.browser_harness import DESKTOP, PHONE, open_tab
from sudokucam.tests.test_browser import WAIT_MS, board, browser, playwright, upload
from sudokucam.tests.test_browser_variants import shots

pytestmark = [pytest.mark.browser, pytest.mark.slow]
BOXES = "els => els.map(e => e.getBoundingClientRect().toJSON())"
__all__ = ["browser", "playwright"]  # fixtures shared with test_browser.py


@pytest.fixture(scope="module")
def photo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bold 16×16 of numbers, 40 % of its empty cells written in pen, two wrong."""
    made = render.render_sixteen_photo(1601, "bold", pen_fill=0.4, pen_mistakes=2,
                                       size=(1600, 1200))  # fmt: skip
    path = tmp_path_factory.mktemp("sixteen") / "sixteen_pen.jpg"
    assert cv2.imwrite(str(path), made.photo.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_16x16_pen_photo_is_checked_on_a_16x16_board(
    app_url: str, browser: Any, photo: Path, tmp_path: Path, viewport: dict[str, int]
) -> None:
    page = open_tab(browser, app_url, "Check my progress", viewport=viewport)
    upload(page, photo)
    frame = board(page, "Your grid, checked")
    labels = frame.get_by_role("gridcell").evaluate_all("els => els.map(e => e.ariaLabel)")
    assert len(labels) == 256
    values = {lbl.split(": ")[1].split(",")[0] for lbl in labels}
    assert {"10", "16"} <= values and not values & set("ABCDEFG"), sorted(values)
    body = page.inner_text("body")
    assert "checks grids up to 9×9" not in body
    assert "Entries right" in body
    marked = page.get_by_test_id("stImage").first.bounding_box()
    assert marked["y"] < viewport["height"], marked  # the marked photo on the first screen
    shots(page, tmp_path, "sixteen_checked", viewport)
    page.get_by_text("is this a").first.wait_for(timeout=WAIT_MS)  # the two mistakes asked
    answers = page.locator("[class*='st-key-progress_answers_']")
    assert answers.count() >= 1
    for k in range(answers.count()):  # a question's buttons on one line, none wrapped
        tops = [b["y"] for b in answers.nth(k).locator("button").evaluate_all(BOXES)]
        assert len(tops) == 2 and abs(tops[0] - tops[1]) < 2, tops
