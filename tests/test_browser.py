"""End to end in a real browser: `sudokucam ui` driven by Playwright in Debian's Chromium.

The server runs on 127.0.0.1 for the whole module and is always stopped at the end.
Chromium is the system one (/usr/bin/chromium, never a downloaded build); its fake
camera plays a Y4M video made from a sample photo. Screenshots are kept under each
test's tmp_path; the assertions are on page text and the board's accessible labels
("row 3, column 5: 7, printed"), not pixels. The board is a component in its own
iframe: taps go to its cells and number pad inside that frame.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sudokucam.tests.browser_harness import (
    DESKTOP,
    ONE_UPLOADER,
    PHONE,
    TAB_WAIT_MS,
    after_rerun,
    launch,
    open_tab,
    wait_until_still,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REPO = Path(__file__).resolve().parent.parent
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
WAIT_MS = 90_000
UPLOAD_TRIES, UPLOAD_SHOWN_MS = 3, 15_000  # an upload the app has taken shows its file name
EXPAND_TRIES, EXPAND_SHOWN_MS = 3, 15_000  # an expander opened shows its contents
CLICK_TRIES, CLICK_SHOWN_MS = 3, 30_000  # a button's click shows its outcome
BOARD_FRAME = "iframe[title='sudokucam.ui.app.widgets.board.board']"
MIN_CELL_PX = 36  # a cell a thumb can hit on a 360-pixel phone

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def playwright() -> Iterator[Any]:
    """One Playwright driver for the module."""
    with sync_api.sync_playwright() as driver:
        yield driver


@pytest.fixture
def browser(playwright: Any) -> Iterator[Any]:
    """A Chromium of the module's driver for one test, closed after it."""
    opened = launch(playwright)
    yield opened
    opened.close()


def upload(page: Any, photo: Path) -> None:
    """Choose ``photo`` in the page's file input, again when a rerun of the page (the tab
    just chosen) dropped it before the app took it (its name then never shows)."""
    for _ in range(UPLOAD_TRIES):
        page.wait_for_function(ONE_UPLOADER, timeout=TAB_WAIT_MS)  # the last tab's gone
        page.locator("input[type=file]").set_input_files(str(photo))
        try:
            page.get_by_text(photo.name).first.wait_for(timeout=UPLOAD_SHOWN_MS)
            return
        except sync_api.TimeoutError:
            continue
    raise AssertionError(f"the app never took {photo.name} from its file input")


def open_expander(page: Any, label: str, contents: Any) -> None:
    """Open the expander titled ``label`` until ``contents`` (a locator inside it) shows:
    again when a rerun of the page drew the expander anew, closed, as the click landed."""
    details = page.get_by_test_id("stExpander").filter(has_text=label).locator("details").first
    for _ in range(EXPAND_TRIES):
        if details.get_attribute("open") is None:
            details.locator("summary").click()
        try:
            contents.wait_for(timeout=EXPAND_SHOWN_MS)
            return
        except sync_api.TimeoutError:
            continue
    raise AssertionError(f"the expander {label!r} never showed its contents")


def click_until_shown(button: Any, shown: Any) -> None:
    """Click ``button`` until ``shown`` (a locator) shows: again when the click came while
    a rerun of the page (the text just typed taken in) was still going and was lost."""
    for _ in range(CLICK_TRIES - 1):
        button.click(timeout=WAIT_MS)
        try:
            shown.wait_for(timeout=CLICK_SHOWN_MS)
            return
        except sync_api.TimeoutError:
            continue
    button.click(timeout=WAIT_MS)
    shown.wait_for(timeout=WAIT_MS)


def demo_photo(samples_dir: Path) -> Path:
    """The committed demo photo."""
    photo = samples_dir / "printed" / "demo.jpg"
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
    wait_until_still(page.get_by_test_id("stMainBlockContainer"))
    page.screenshot(path=path)
    page.set_viewport_size(size)


def board(page: Any, label: str) -> Any:
    """The frame of the board whose grid has this accessible name (waits for it)."""
    frames = page.frame_locator(BOARD_FRAME)
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        for k in range(page.locator(BOARD_FRAME).count()):
            frame = frames.nth(k)
            if frame.get_by_role("grid", name=label).count():
                return frame
        page.wait_for_timeout(300)
    raise TimeoutError(f"no board named {label!r} on the page")


def cell(frame: Any, row: int, col: int) -> Any:
    """One cell of a board (1-based row and column), found by its accessible label."""
    return frame.get_by_role("gridcell", name=f"row {row}, column {col}:")


def tap(frame: Any, row: int, col: int, digit: int) -> None:
    """Tap a cell, then a digit of the number pad (0: Erase)."""
    cell(frame, row, col).click(timeout=WAIT_MS)
    name = "Erase" if digit == 0 else str(digit)
    frame.get_by_role("button", name=name, exact=True).click(timeout=WAIT_MS)


def board_digits(frame: Any) -> str:
    """The 81 digits a board shows, from its cells' labels ('0' for empty)."""
    labels = frame.get_by_role("gridcell").evaluate_all("els => els.map(e => e.ariaLabel)")
    assert len(labels) == 81, labels
    return "".join(lbl.split(": ")[1].split(",")[0].replace("empty", "0") for lbl in labels)


def wait_label(frame: Any, row: int, col: int, words: str) -> None:
    """Wait until a cell's label holds these words (the page has answered an edit)."""
    cell(frame, row, col).and_(frame.locator(f"[aria-label*='{words}']")).wait_for(timeout=WAIT_MS)


KEY_TRIES = 3  # a key pressed before the click has focused the board is lost: again
KEY_WAIT_MS = 20_000  # how long one try waits for the cell to show the digit


def type_digit(frame: Any, page: Any, row: int, col: int, digit: int) -> None:
    """Click a cell and type ``digit`` on the keyboard until the cell shows it (on a loaded
    machine the first key can come before the click has focused the board)."""
    words = f"[aria-label*=': {digit}, printed']"
    for _ in range(KEY_TRIES - 1):
        cell(frame, row, col).click(timeout=WAIT_MS)
        page.keyboard.press(str(digit))
        try:
            cell(frame, row, col).and_(frame.locator(words)).wait_for(timeout=KEY_WAIT_MS)
            return
        except sync_api.TimeoutError:
            continue
    cell(frame, row, col).click(timeout=WAIT_MS)
    page.keyboard.press(str(digit))
    wait_label(frame, row, col, f": {digit}, printed")


def assert_thumb_sized(frame: Any) -> None:
    """Every cell is at least MIN_CELL_PX wide and tall."""
    box = cell(frame, 5, 5).bounding_box()
    assert box["width"] >= MIN_CELL_PX and box["height"] >= MIN_CELL_PX, box


def test_typed_puzzle_in_browser(app_url: str, browser: Any, tmp_path: Path) -> None:
    page = open_tab(browser, app_url, "Type a puzzle")
    page.get_by_label("Puzzle as text").fill(PUZZLE)
    page.keyboard.press("Control+Enter")
    solved = page.get_by_text("Solved: the puzzle has exactly one solution.")
    click_until_shown(page.get_by_role("button", name="Solve"), solved)
    answer = page.get_by_test_id("stCode").get_by_text(SOLUTION)
    open_expander(page, "The answer as text", answer)
    assert board_digits(board(page, "Solution")) == SOLUTION
    snap(page, tmp_path / "typed.png")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_typing_a_puzzle_with_the_number_pad(
    app_url: str, browser: Any, tmp_path: Path, viewport: dict[str, int]
) -> None:
    page = open_tab(browser, app_url, "Type a puzzle", viewport=viewport)
    frame = board(page, "Puzzle to solve")
    assert_thumb_sized(frame)
    filled = [(c // 9 + 1, c % 9 + 1, int(ch)) for c, ch in enumerate(PUZZLE) if ch != "."]
    for row, col, digit in filled[:-1]:
        tap(frame, row, col, digit)
    row, col, digit = filled[-1]  # the last one by keyboard: a click, then the digit
    type_digit(frame, page, row, col, digit)
    page.get_by_role("button", name="Solve").click()
    page.get_by_text("Solved: the puzzle has exactly one solution.").wait_for(timeout=WAIT_MS)
    assert board_digits(board(page, "Solution")) == SOLUTION
    assert board_digits(frame) == PUZZLE.replace(".", "0")
    snap(page, tmp_path / f"typed_pad_{viewport['width']}.png")


def solved_demo(
    browser: Any, app_url: str, samples_dir: Path, viewport: dict[str, int]
) -> tuple[Any, Path]:
    """A tab of the photo page with the committed demo photo uploaded and solved, and the
    photo's path."""
    photo = demo_photo(samples_dir)
    page = open_tab(browser, app_url, "Solve a photo", viewport=viewport)
    upload(page, photo)
    page.get_by_text("Solved: the answer drawn in blue").wait_for(timeout=WAIT_MS)
    return page, photo


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_upload_solve_correct_and_download(
    app_url: str, browser: Any, samples_dir: Path, tmp_path: Path, viewport: dict[str, int]
) -> None:
    page, photo = solved_demo(browser, app_url, samples_dir, viewport)
    page.get_by_text("Solved from the").wait_for(timeout=WAIT_MS)
    answer = page.get_by_test_id("stImage").first.bounding_box()
    frame = board(page, "Digits read from the photo")
    grid = page.locator(BOARD_FRAME).first.bounding_box()
    assert answer["y"] < grid["y"] or answer["x"] < grid["x"]  # the answer comes first
    if viewport is PHONE:
        assert answer["width"] >= viewport["width"] * 0.8  # full width on a phone
        assert_thumb_sized(frame)
    snap(page, tmp_path / f"photo_solved_{viewport['width']}.png")

    truth = json.loads(photo.with_suffix(".json").read_text())
    first = truth["givens"][0][0]
    wrong = 9 if first != 9 else 8
    tap(frame, 1, 1, wrong)  # a misreading in r1c1 ...
    page.get_by_text("What to try").wait_for(timeout=WAIT_MS)
    download = page.get_by_role("button", name="Download the solved photo")
    download.wait_for(state="detached", timeout=WAIT_MS)  # nothing to save while broken
    body = page.inner_text("body")
    assert "break the rules" in body or "no solution" in body
    wait_label(frame, 1, 1, "breaks the rules")  # the clash is highlighted on the board
    snap(page, tmp_path / f"photo_broken_{viewport['width']}.png")
    tap(frame, 1, 1, first)  # ... corrected
    page.get_by_text("Solved from the").wait_for(timeout=WAIT_MS)
    page.get_by_text("What to try").wait_for(state="detached", timeout=WAIT_MS)
    snap(page, tmp_path / f"photo_corrected_{viewport['width']}.png")

    with page.expect_download(timeout=WAIT_MS) as saving:
        download.click()
    saved = tmp_path / "solved.png"
    saving.value.save_as(saved)
    assert saved.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


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
        page.wait_for_function(  # the fake camera has delivered a few frames
            "() => { const v = document.querySelector('video');"
            " return v && v.readyState >= 2 && v.currentTime >= 1; }",
            timeout=WAIT_MS,
        )
        page.get_by_role("button", name="Take Photo").click(timeout=WAIT_MS)
        page.get_by_text("Solved: the answer drawn in blue").wait_for(timeout=WAIT_MS)
        snap(page, tmp_path / "camera.png")
        assert "Solved from the" in page.inner_text("body")
    finally:
        browser.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_check_progress_marked_photo_first_and_a_question_answered(
    app_url: str, browser: Any, samples_dir: Path, tmp_path: Path, viewport: dict[str, int]
) -> None:
    photo = samples_dir / "progress" / "half_blue.jpg"
    page = open_tab(browser, app_url, "Check my progress", viewport=viewport)
    upload(page, photo)
    page.get_by_text("Red rings: wrong entries").wait_for(timeout=WAIT_MS)
    frame = board(page, "Your grid, checked")
    marked = page.get_by_test_id("stImage").first.bounding_box()
    assert marked["y"] < page.locator(BOARD_FRAME).first.bounding_box()["y"]
    if viewport is PHONE:
        assert marked["width"] >= viewport["width"] * 0.8
    questions = page.get_by_text("is this a")
    if not questions.count():
        pytest.skip("the reading is sure of every entry of this sample now")
    snap(page, tmp_path / f"check_question_{viewport['width']}.png")
    asked = questions.count()
    text = questions.first.inner_text()  # "r1c1: is this a 1 or a 4?"
    name, digit = text.split(":")[0], text.rstrip("?").split()[-1]
    row, col = int(name[1]), int(name[3])
    digest = hashlib.sha1(photo.read_bytes(), usedforsecurity=False).hexdigest()[:12]
    cell_index = (row - 1) * 9 + col - 1
    page.locator(f".st-key-progress_ask_{digest}_{cell_index}_{digit} button").click()
    page.wait_for_function(
        f"() => document.body.innerText.split('is this a').length - 1 < {asked + 1}",
        timeout=WAIT_MS,
    )
    wait_label(frame, row, col, f"column {col}: {digit}")
    snap(page, tmp_path / f"check_answered_{viewport['width']}.png")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_play_a_game_with_notes_undo_and_a_hint(
    app_url: str, browser: Any, tmp_path: Path, viewport: dict[str, int]
) -> None:
    page = open_tab(browser, app_url, "Play", viewport=viewport)
    page.get_by_role("button", name="New puzzle").click()
    page.get_by_role("button", name="Check").wait_for(timeout=WAIT_MS)
    frame = board(page, "Your board")
    assert_thumb_sized(frame)
    empty = frame.get_by_role("gridcell", name="empty").first
    row, col = (
        int(w.split()[-1]) for w in empty.get_attribute("aria-label").split(":")[0].split(",")
    )
    empty.click()
    frame.get_by_role("button", name="Notes").click()
    for digit in (2, 7):  # each note taken in by the app before the next move
        after_rerun(page, frame.get_by_role("button", name=f"Note {digit}").click)
    wait_label(frame, row, col, "notes 2 7")
    frame.get_by_role("button", name="Notes").click()  # back to digits
    five = frame.get_by_role("button", name="5", exact=True)
    after_rerun(page, five.click)  # the app takes in the move
    wait_label(frame, row, col, f"column {col}: 5")
    snap(page, tmp_path / f"play_moves_{viewport['width']}.png")
    page.get_by_role("button", name="Undo").click()
    wait_label(frame, row, col, "notes 2 7")  # the digit taken back, the notes kept
    page.get_by_role("button", name="Check").click()
    page.get_by_text("No mistakes so far.").wait_for(timeout=WAIT_MS)
    page.get_by_role("button", name="Hint: where can I go next?").click()
    page.get_by_text("Look at r").first.wait_for(timeout=WAIT_MS)
    frame.locator("[aria-label*=', hint']").first.wait_for(timeout=WAIT_MS)
    page.get_by_role("button", name="Show the digit and why").click()
    page.get_by_text(" = ").first.wait_for(timeout=WAIT_MS)
    snap(page, tmp_path / f"play_hint_{viewport['width']}.png")


# ----------------------------------------------------------------------------- a phone's screens


def in_first_screen(box: dict[str, float], viewport: dict[str, int]) -> bool:
    """True when a box lies wholly in the window as it opens (nothing scrolled)."""
    return box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"] + 1


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_play_board_and_pad_fit_one_screen_then_solved_on_top(
    app_url: str, browser: Any, tmp_path: Path, viewport: dict[str, int]
) -> None:
    from sudokucam.solver import parse_grid, solve_grid

    page = open_tab(browser, app_url, "Play", viewport=viewport)
    page.get_by_role("button", name="New puzzle").click()
    page.get_by_text("Another game").wait_for(timeout=WAIT_MS)
    frame = board(page, "Your board")
    frame.get_by_role("button", name="Notes").wait_for(timeout=WAIT_MS)
    frame_box = wait_until_still(page.locator(BOARD_FRAME).first)  # its height taken
    panel = page.get_by_test_id("stExpander").filter(has_text="Another game")
    assert panel.locator("details").first.get_attribute("open") is None  # folded
    assert in_first_screen(frame_box, viewport), frame_box  # board, pad and tools
    page.screenshot(path=tmp_path / f"play_first_screen_{viewport['width']}.png")

    givens = board_digits(frame)
    empty = [i for i, d in enumerate(givens) if d == "0"]
    first, twin = next(  # an empty cell whose row holds a given (a row may hold none)
        (c, givens[r]) for c in empty for r in range(c // 9 * 9, c // 9 * 9 + 9) if givens[r] != "0"
    )
    tap(frame, first // 9 + 1, first % 9 + 1, int(twin))  # a clash: shown at once
    wait_label(frame, first // 9 + 1, first % 9 + 1, "breaks the rules")

    solution = solve_grid(parse_grid(givens.replace("0", "."), 9)).solution
    assert solution is not None
    for c in empty:
        cell(frame, c // 9 + 1, c % 9 + 1).click(timeout=WAIT_MS)
        page.keyboard.press(str(solution.values[c]))
    page.get_by_text("Solved in").first.wait_for(timeout=WAIT_MS)
    frame.get_by_role("button", name="Notes").wait_for(state="hidden", timeout=WAIT_MS)
    grid = wait_until_still(page.locator(BOARD_FRAME).first)  # shrunk to the board
    said = page.get_by_text("Solved in").first.bounding_box()
    assert said["y"] < grid["y"]  # the message on top
    assert grid["height"] < grid["width"] + 60, grid  # no gap where the pad was
    assert not page.get_by_role("button", name="Hint: where can I go next?").count()
    page.screenshot(path=tmp_path / f"play_solved_{viewport['width']}.png")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_read_photo_shows_its_answer_first(
    app_url: str, browser: Any, samples_dir: Path, tmp_path: Path, viewport: dict[str, int]
) -> None:
    page, _ = solved_demo(browser, app_url, samples_dir, viewport)
    chooser = page.get_by_test_id("stExpander").filter(has_text="Photo: demo.jpg")
    chooser.wait_for(timeout=WAIT_MS)
    answer = wait_until_still(page.get_by_test_id("stImage").first)
    assert answer["y"] < viewport["height"] / 2, answer  # the answer starts the screen
    assert answer["y"] < chooser.bounding_box()["y"]  # the source folded below it
    assert chooser.locator("details").first.get_attribute("open") is None
    page.screenshot(path=tmp_path / f"photo_first_screen_{viewport['width']}.png")
