"""A new 6×6 game on *Play* in a real browser (Debian's Chromium, Playwright).

The server and helpers are those of tests/test_browser.py. The Size chosen, *New puzzle*
must bring a 6×6 board (36 cells named by their labels, a pad of 1-6, 2 × 3 boxes drawn)
that takes a move and marks a clash in red. Which cells are tapped is read from the board
itself (the game is a new one each run). Screenshots at phone and desktop sizes are kept
under the test's tmp_path (``SUDOKUCAM_SHOTS`` names a folder to copy them to).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sudokucam.tests.browser_harness import DESKTOP, PHONE, launch, open_tab, wait_until_still
from sudokucam.tests.test_browser import (
    BOARD_FRAME,
    MIN_CELL_PX,
    WAIT_MS,
    board,
    cell,
    playwright,
    tap,
    wait_label,
)
from sudokucam.tests.test_browser_small import shown_digits
from sudokucam.tests.test_browser_variants import shots

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["playwright"]  # a fixture shared with test_browser.py (app_url is in conftest.py)

SIZE = 6


def new_sized_game(page: Any, size: int) -> Any:
    """Start a new classic game of ``size`` on the Play tab; its board's frame."""
    page.get_by_test_id("stSelectbox").filter(has_text="Size").click()
    page.get_by_role("option", name=f"{size}×{size}", exact=True).click()
    page.get_by_role("button", name="New puzzle").click()
    page.get_by_text("Another game").wait_for(timeout=WAIT_MS)
    frame = board(page, "Your board")
    frame.get_by_role("button", name="Notes").wait_for(timeout=WAIT_MS)
    return frame


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_new_6x6_game_is_played_on_a_6x6_board(
    app_url: str, playwright: Any, tmp_path: Path, viewport: dict[str, int]
) -> None:
    browser = launch(playwright)
    try:
        page = open_tab(browser, app_url, "Play", viewport=viewport)
        frame = new_sized_game(page, SIZE)
        givens = shown_digits(frame)
        assert len(givens) == SIZE * SIZE and set(givens) <= set("0123456"), givens
        pad = frame.get_by_role("group", name="Number pad").get_by_role("button")
        assert [t for t in pad.all_inner_texts() if t.isdigit()] == ["1", "2", "3", "4", "5", "6"]
        box = wait_until_still(cell(frame, 3, 3))
        assert box["width"] >= MIN_CELL_PX and box["height"] >= MIN_CELL_PX, box
        assert wait_until_still(page.locator(BOARD_FRAME).first)["y"] < viewport["height"]
        shots(page, tmp_path, "six_play", viewport)
        # an empty cell whose row holds a given: that given written in it clashes
        empty, value = next(
            (c, int(givens[m]))
            for c in range(SIZE * SIZE)
            if givens[c] == "0"
            for m in range(c - c % SIZE, c - c % SIZE + SIZE)
            if givens[m] != "0"
        )
        row, col = empty // SIZE + 1, empty % SIZE + 1
        tap(frame, row, col, value)
        wait_label(frame, row, col, "breaks the rules")
        shots(page, tmp_path, "six_clash", viewport)
    finally:
        browser.close()
