"""Small grids (4×4, 6×6, 8×8), 12×12s and 16×16s in the app: the board of every size, the
*Solve a photo* page, *Check my progress* and the Batch page on the committed samples
(``samples/small/six_book.jpg``, ``twelve_newspaper.jpg``, ``samples/sixteen/magazine.jpg``),
read exactly.

Driven through streamlit.testing.v1.AppTest as tests/test_app.py does (its helpers read
the board's arguments and send taps back as the board's frontend would).
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from sudokucam.samples.synth.small_drawing import render_small_photo
from sudokucam.solver.variant import Cage
from sudokucam.tests.app_harness import open_app, uploaded
from sudokucam.tests.test_app import (
    all_text,
    board_args,
    board_key,
    looks_of,
    send_board,
    tap,
    texts,
)
from sudokucam.ui.app import layout
from sudokucam.ui.app.pages.photo import answer_text, reading_json
from sudokucam.ui.app.widgets.board import BoardEdit, BoardLayout, BoardView
from sudokucam.vision.types import VALUE_CHARS, GridStructure, box_regions

pytest.importorskip("streamlit.testing.v1")

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
SIX = SAMPLES / "small" / "six_book.jpg"
SIXTEEN = SAMPLES / "sixteen" / "magazine.jpg"
TWELVE = SAMPLES / "small" / "twelve_newspaper.jpg"


def truth_of(photo: Path) -> dict[str, Any]:
    """A committed sample's ground truth."""
    truth: dict[str, Any] = json.loads(photo.with_suffix(".json").read_text(encoding="utf-8"))
    return truth


def givens_of(truth: dict[str, Any]) -> str:
    """The sample's givens as the app's board carries them ("0" empty, A-G for 10-16)."""
    return str(truth["puzzle"]["givens"]).replace(".", "0")


def photo_read(photo: Path) -> Any:
    """The *Solve a photo* page with ``photo`` uploaded and read."""
    return uploaded(layout.PHOTO, photo)


# ----------------------------------------------------------------------------- the board


@pytest.mark.parametrize("n", [4, 6, 8, 16])
def test_a_board_of_each_size_sends_its_size_boxes_and_cells(n: int) -> None:
    digits = "".join(VALUE_CHARS[(c % n) + 1] if c % 3 == 0 else "0" for c in range(n * n))
    view = BoardView(digits, layout=BoardLayout.of_structure(GridStructure(size=n)))
    args = view.args(0)
    assert args["size"] == n and args["digits"] == digits
    assert args["regions"] == list(box_regions(n))
    assert len(args["looks"]) == len(args["notes"]) == len(args["printed"]) == n * n


def test_a_board_refuses_what_it_cannot_draw() -> None:
    with pytest.raises(ValueError, match="this one is 10×10"):
        BoardLayout(size=10)
    with pytest.raises(ValueError, match="needs its regions"):
        BoardLayout(size=6)
    with pytest.raises(ValueError, match="regions must label 36 cells"):
        BoardLayout(regions=(0,) * 81, size=6)
    with pytest.raises(ValueError, match="cage cells must be 0-15"):
        BoardLayout(box_regions(4), cages=(Cage(3, (15, 16)),), size=4)
    six = BoardLayout.of_structure(GridStructure(size=6))
    with pytest.raises(ValueError, match="36 characters of 0123456"):
        BoardView("7" + "0" * 35, layout=six)  # 7 is past a 6×6's numbers
    with pytest.raises(ValueError, match="36 characters"):
        BoardView("0" * 81, layout=six)


def test_an_edit_of_a_16x16_board_reads_10_to_16() -> None:
    digits = "G" + "A" + "0" * 254
    raw = {"seq": 1, "cell": 0, "digits": digits, "printed": "1" * 256, "notes": [""] * 256}
    edit = BoardEdit.parse(raw)
    assert edit is not None and edit.values[:3] == [16, 10, 0]
    assert BoardEdit.parse({**raw, "digits": "H" + digits[1:]}) is None  # 17: no such number
    assert BoardEdit.parse({**raw, "digits": digits[:-1]}) is None  # 255 cells: no board
    six = {"seq": 2, "cell": 1, "digits": "6" * 36, "printed": "0" * 36, "notes": [""] * 36}
    assert BoardEdit.parse(six) is not None
    assert BoardEdit.parse({**six, "digits": "7" * 36}) is None


# ----------------------------------------------------------------------------- Solve a photo


@pytest.mark.parametrize("photo", [SIX, TWELVE, SIXTEEN], ids=["6x6", "12x12", "16x16"])
def test_a_small_or_16x16_photo_is_read_exactly_and_its_answer_drawn(photo: Path) -> None:
    truth = truth_of(photo)
    n = int(truth["grid_size"])
    at = photo_read(photo)
    assert any(s.startswith("Solved from the") for s in texts(at.success)), all_text(at)
    args = board_args(at, board_key(at, "photo_grid_"))
    assert args["size"] == n and args["digits"] == givens_of(truth)
    assert args["regions"] == list(box_regions(n))
    assert len(at.image) == 2  # the answer drawn on the photo, and the grid found
    assert at.image[0].proto.imgs[0].caption == "Solved: the answer drawn in blue"
    labels = [b.label for b in at.get("download_button")]
    assert labels == ["Download the solved photo", "Download the reading (JSON)"]
    rows = [[int(v) for v in line.split()] if n > 9 else [int(v) for v in line]
            for line in texts(at.code)[0].splitlines()]  # fmt: skip
    assert rows == truth["solution"]  # 10-16 written as numbers


@pytest.mark.parametrize("photo", [SIX, TWELVE, SIXTEEN], ids=["6x6", "12x12", "16x16"])
def test_the_json_download_says_the_size_and_symbols(photo: Path) -> None:
    truth = truth_of(photo)
    at = photo_read(photo)
    result = at.session_state["photo_result"][1]
    doc = json.loads(reading_json(result, 0, result.grids[0]))
    grid = doc["grids"][0]
    assert grid["size"] == truth["grid_size"]
    assert grid["symbols"] == truth["puzzle"]["symbols"]
    assert grid["givens"] == givens_of(truth) and grid["solution"] == truth["answer"]


def test_a_16x16_answer_as_text_writes_numbers_not_letters() -> None:
    at = photo_read(SIXTEEN)
    grid = at.session_state["photo_result"][1].grids[0]
    text = answer_text(grid)
    assert not set(text) & set("ABCDEFG")
    assert text.splitlines()[0].split() == [str(v) for v in truth_of(SIXTEEN)["solution"][0]]


def test_a_correction_on_a_6x6_board_is_solved_under_its_rules() -> None:
    truth = truth_of(SIX)
    at = photo_read(SIX)
    key = board_key(at, "photo_grid_")
    givens = board_args(at, key)["digits"]
    filled = next(c for c, d in enumerate(givens) if d != "0")
    row = range(filled // 6 * 6, filled // 6 * 6 + 6)
    twin = next(c for c in row if givens[c] == "0")
    tap(at, key, {twin: int(givens[filled])})  # the same number twice in one row
    assert "break the rules" in "\n".join(texts(at.error)), all_text(at)
    looks = looks_of(at, key)
    assert looks[twin] == looks[filled] == "conflict"
    assert not at.code  # no answer shown
    tap(at, key, {twin: 0})  # taken back: solved again
    assert texts(at.code)[0].replace("\n", "") == truth["answer"]


def test_a_number_past_9_corrected_on_a_16x16_board_counts() -> None:
    at = photo_read(SIXTEEN)
    key = board_key(at, "photo_grid_")
    givens = board_args(at, key)["digits"]
    cell = next(c for c, d in enumerate(givens) if d == "G")  # a printed 16
    row = range(cell // 16 * 16, cell // 16 * 16 + 16)
    empty = next(c for c in row if givens[c] == "0")
    put(at, key, empty, 16)  # a second 16 in the row, sent as the board sends it ("G")
    assert "break the rules" in "\n".join(texts(at.error)), all_text(at)
    assert looks_of(at, key)[empty] == looks_of(at, key)[cell] == "conflict"
    put(at, key, empty, 0)
    put(at, key, cell, 0)  # the printed 16 erased: the puzzle is minimal
    assert "leave more than one answer" in "\n".join(texts(at.error)), all_text(at)
    put(at, key, cell, 16)  # typed back
    assert any(s.startswith("Solved") for s in texts(at.success)), all_text(at)
    assert len(texts(at.code)[0].split()) == 256


def put(at: Any, key: str, cell: int, value: int) -> None:
    """Set one cell of a board of any size as its frontend does (10-16 sent as A-G)."""
    args = board_args(at, key)
    digits, printed = list(args["digits"]), list(args["printed"])
    digits[cell], printed[cell] = VALUE_CHARS[value], "1" if value else "0"
    send_board(at, key, "".join(digits), "".join(printed), args["notes"], cell)


# ----------------------------------------------------------------------------- other pages


def test_check_my_progress_checks_a_printed_16x16_on_its_board() -> None:
    at = open_app(layout.PROGRESS)
    at.file_uploader(key="progress_upload").upload(
        SIXTEEN.name, SIXTEEN.read_bytes(), "image/jpeg"
    ).run()
    assert not at.exception, at.exception
    assert not at.warning, texts(at.warning)  # no pen entries: nothing wrong
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["Entries wrong"], metrics["Entries right"]) == ("0", "0"), metrics
    args = board_args(at, board_key(at, "progress_board_"))  # pen checks: test_sixteen_progress
    assert args["size"] == 16 and args["digits"] == givens_of(truth_of(SIXTEEN))


def test_check_my_progress_marks_the_pen_entries_of_a_6x6() -> None:
    made = render_small_photo(0, 6, "newspaper", pen_fill=0.6, pen_mistakes=1, size=(1024, 768))
    truth = made.photo.truth
    ((row, col),) = truth.mistakes
    ok, png = cv2.imencode(".png", made.photo.image)
    assert ok
    at = open_app(layout.PROGRESS)
    at.file_uploader(key="progress_upload").upload("pen6.png", png.tobytes(), "image/png").run()
    assert not at.exception, at.exception
    metrics = {m.label: m.value for m in at.metric}
    right = int(np.count_nonzero(truth.pen)) - 1
    assert (metrics["Entries wrong"], metrics["Entries right"]) == ("1", str(right)), metrics
    assert any(f"wrong: r{row + 1}c{col + 1}" in w for w in texts(at.warning)), texts(at.warning)
    key = board_key(at, "progress_board_")
    args = board_args(at, key)
    on_paper = np.where(truth.givens > 0, truth.givens, truth.pen)
    assert args["size"] == 6 and args["digits"] == "".join(str(v) for v in on_paper.ravel())
    assert looks_of(at, key)[row * 6 + col] == "wrong"
    (hint,) = [b for b in at.button if "Hint" in str(b.label)]  # as a typed 6×6 has
    hint.click().run()
    assert not at.exception, at.exception
    (look,) = [t for t in texts(at.info) if t.startswith("**Look at r")]
    (reveal,) = [b for b in at.button if b.label == "Show the value and why"]
    reveal.click().run()
    (shown,) = [t for t in texts(at.success) if t.startswith("**r")]
    cell = shown[2 : shown.index(" =")]  # "**r2c5 = 4.** ..."
    assert cell in look, (look, shown)
    r, c = map(int, cell[1:].split("c"))
    assert truth.solution[r - 1, c - 1] == int(shown[shown.index("= ") + 2 : shown.index(".**")])
    assert truth.givens[r - 1, c - 1] == 0


def test_the_batch_page_solves_and_draws_small_and_16x16_photos() -> None:
    at = open_app(layout.BATCH)
    files = [(p.name, p.read_bytes(), "image/jpeg") for p in (SIX, SIXTEEN)]
    at.file_uploader(key="batch_files").set_value(files).run()
    at.button(key="batch_run").click().run()
    assert not at.exception, at.exception
    table = at.dataframe[0].value
    assert list(table["Result"]) == ["solved", "solved"]
    assert [d.split(":")[0] for d in table["Details"]] == ["6×6 Sudoku", "16×16 Sudoku"]
    archive = zipfile.ZipFile(io.BytesIO(at.session_state["batch_result"][1].zip_data))
    for photo in (SIX, SIXTEEN):
        member = next(m for m in archive.namelist() if m.startswith(f"solved/{photo.stem}"))
        drawn = cv2.imdecode(np.frombuffer(archive.read(member), np.uint8), cv2.IMREAD_COLOR)
        original = cv2.imread(str(photo))
        assert drawn is not None and original is not None
        assert blue_share(drawn) > 5 * blue_share(original)  # the answer drawn in blue


def blue_share(image: np.ndarray) -> float:
    """The share of an image's pixels in the answer's blue (much more blue than red)."""
    b, g, r = (image[..., k].astype(int) for k in range(3))
    return float(np.mean((b > 120) & (b - r > 60) & (b - g > 20)))
