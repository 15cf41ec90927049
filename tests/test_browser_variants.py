"""Killer, Sudoku X and jigsaw games in a real browser (Debian's Chromium, Playwright).

The server and helpers are those of tests/test_browser.py. The board draws a Killer's
cages on an SVG layer (a dashed line per cage side, one sum per cage), an X's diagonals
as shaded cells and a jigsaw's regions as thick lines; the assertions read those
elements and the cells' accessible labels. Screenshots are kept under each test's
tmp_path (`SUDOKUCAM_SHOTS` names a folder to copy them to, to look at them).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from sudokucam.tests.browser_harness import (
    DESKTOP,
    PHONE,
    after_rerun,
    launch,
    open_tab,
    wait_until_still,
)
from sudokucam.tests.test_browser import (
    BOARD_FRAME,
    WAIT_MS,
    board,
    cell,
    in_first_screen,
    playwright,
    snap,
    tap,
    wait_label,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["playwright"]  # a fixture shared with test_browser.py (app_url is in conftest.py)

KILLER_TOTAL = 405  # every 9×9 Killer's cages add up to 1+…+9 nine times


def keep(path: Path) -> None:
    """Copy a screenshot to $SUDOKUCAM_SHOTS when it is set."""
    folder = os.environ.get("SUDOKUCAM_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(folder) / path.name)


def new_game(page: Any, kind: str) -> Any:
    """Start a new game of the kind on the Play tab; its board's frame."""
    page.get_by_test_id("stSelectbox").filter(has_text="Kind of puzzle").click()
    page.get_by_role("option", name=kind, exact=True).click()
    page.get_by_role("button", name="New puzzle").click()
    page.get_by_text("Another game").wait_for(timeout=WAIT_MS)
    frame = board(page, "Your board")
    frame.get_by_role("button", name="Notes").wait_for(timeout=WAIT_MS)
    return frame


def shots(page: Any, tmp_path: Path, name: str, viewport: dict[str, int]) -> None:
    """The first screen and the whole page, kept."""
    first = tmp_path / f"{name}_{viewport['width']}_first.png"
    page.screenshot(path=first)
    whole = tmp_path / f"{name}_{viewport['width']}.png"
    snap(page, whole)
    keep(first)
    keep(whole)


def test_killer_on_a_phone_shows_its_cages_and_plays_a_cell(
    app_url: str, playwright: Any, tmp_path: Path
) -> None:
    browser = launch(playwright)
    try:
        page = open_tab(browser, app_url, "Play", viewport=PHONE)
        frame = new_game(page, "Killer")
        sums = [int(t) for t in frame.locator("svg.cages text").all_text_contents()]
        assert len(sums) >= 20 and sum(sums) == KILLER_TOTAL, sums
        assert frame.locator("svg.cages line").count() >= 2 * len(sums)
        box = wait_until_still(page.locator(BOARD_FRAME).first)
        assert in_first_screen(box, PHONE), box  # board, pad and tools on one screen
        caged = frame.get_by_role("gridcell", name="in a cage of").count()
        assert caged == 81  # every cell in a cage, and its label says so
        tap(frame, 5, 5, 7)
        wait_label(frame, 5, 5, "column 5: 7")
        cell(frame, 1, 1).click(timeout=WAIT_MS)  # r1c1 always holds its cage's sum
        frame.get_by_role("button", name="Notes").click()
        for digit in (1, 5, 9):  # notes under the sum, each taken in before the next
            after_rerun(page, frame.get_by_role("button", name=f"Note {digit}").click)
        wait_label(frame, 1, 1, "notes 1 5 9")
        shots(page, tmp_path, "killer", PHONE)
    finally:
        browser.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("kind", ["Sudoku X", "Jigsaw", "Killer"])
def test_variant_boards_drawn(
    app_url: str, playwright: Any, tmp_path: Path, kind: str, viewport: dict[str, int]
) -> None:
    browser = launch(playwright)
    try:
        page = open_tab(browser, app_url, "Play", viewport=viewport)
        frame = new_game(page, kind)
        shaded = frame.locator(".cell.diag").count()
        assert shaded == (17 if kind == "Sudoku X" else 0)  # two diagonals share r5c5
        if kind == "Jigsaw":  # region lines that are no box lines: the layout is bent
            odd = frame.locator(".cell.box-right").evaluate_all(
                "els => els.filter(e => Number(e.dataset.cell) % 3 !== 2).length"
            )
            assert odd > 0
        cell(frame, 1, 1).click(timeout=WAIT_MS)  # peers highlighted, as in play
        shots(page, tmp_path, kind.replace(" ", "_").lower(), viewport)
    finally:
        browser.close()
