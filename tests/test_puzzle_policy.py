"""One policy for the grids of a photo, in every front-end: puzzles top to bottom, left to
right, capped; a grid printed full (yesterday's answer) is a solution grid, not a puzzle.

The page used: yesterday's answer top left, a puzzle top right, another puzzle below
(``samples/synth/grids_page.py``). `solve`, `read`, `batch` and the app must all number
the puzzle top right 1 and the one below 2, and name the answer apart.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sudokucam.samples.synth.grids_page import (
    OTHER,
    PUZZLE,
    SOLUTION_BESIDE,
    SOLUTION_BESIDE_SIZE,
    FontMissingError,
    write_page,
)
from sudokucam.vision.results import PuzzlePolicyConfig, reading_order, sort_grids

REPO = Path(__file__).resolve().parent.parent
APP = REPO / "ui" / "streamlit_app.py"
ORDER = [PUZZLE.replace(".", "0"), OTHER.replace(".", "0")]


def square(x: float, y: float, side: float = 100) -> np.ndarray:
    """The corners of a square grid with its top left at (x, y)."""
    return np.array([[x, y], [x + side, y], [x + side, y + side], [x, y + side]], float)


@dataclass(frozen=True)
class FakeDetection:
    corners: np.ndarray


@dataclass(frozen=True)
class FakeGrid:
    """What the policy looks at: where the grid lies and its printed digits."""

    detection: FakeDetection
    givens: str


def fake(x: float, y: float, printed: int) -> Any:
    return FakeGrid(FakeDetection(square(x, y)), "1" * printed + "0" * (81 - printed))


def test_reading_order_is_rows_top_to_bottom_each_left_to_right() -> None:
    quads = [square(300, 10), square(0, 400), square(10, 30), square(320, 380), square(150, 0)]
    assert reading_order(quads) == [2, 4, 0, 1, 3]  # a row is grids less than half apart


def test_a_grid_printed_full_is_a_solution_grid_not_a_puzzle() -> None:
    answer, puzzle, below = fake(0, 0, 79), fake(200, 0, 30), fake(0, 300, 25)
    found = sort_grids([below, answer, puzzle], max_grids=9)
    assert found.puzzles == (puzzle, below) and found.solutions == (answer,)
    assert sort_grids([below, answer, puzzle], max_grids=1).puzzles == (puzzle,)
    assert sort_grids([answer], max_grids=9).puzzles == (answer,)  # only answers: shown
    strict = PuzzlePolicyConfig(solution_min_printed=81)
    assert len(sort_grids([answer, puzzle], 9, strict).puzzles) == 2
    with pytest.raises(ValueError, match="max_grids"):
        sort_grids([puzzle], max_grids=0)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page of two puzzles and an answer, as a PNG."""
    folder = tmp_path_factory.mktemp("page")
    try:
        return write_page(folder / "page.png", SOLUTION_BESIDE, SOLUTION_BESIDE_SIZE)
    except FontMissingError as exc:
        pytest.skip(f"the print font is not installed: {exc}")


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """`sudokucam ARGS` in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "sudokucam", *args], capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow
def test_solve_and_read_number_the_puzzles_in_reading_order(page: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.png"
    done = cli("solve", str(page), "-o", str(out), "--json")
    assert done.returncode == 0, done.stderr
    assert [g["givens"] for g in json.loads(done.stdout)["grids"]] == ORDER
    done = cli("read", str(page), "--json")
    (photo,) = json.loads(done.stdout)
    assert [g["givens"] for g in photo["grids"]] == ORDER
    text = cli("solve", str(page), "-o", str(out)).stdout
    lines = [ln for ln in text.splitlines() if ln.startswith(("puzzle", "also"))]
    assert lines[0].startswith("puzzle 1 of 2: Solved: 30 printed digits read"), text
    assert lines[1].startswith("puzzle 2 of 2: Solved: 27 printed digits read"), text
    assert lines[2].startswith("also on this photo: a solution grid, printed full"), text
    assert "puzzle 3" not in text and "79 givens" not in text


@pytest.mark.slow
def test_batch_numbers_the_puzzles_as_solve_does(page: Path, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / page.name).write_bytes(page.read_bytes())
    done = cli("batch", str(folder), "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [json.loads(ln) for ln in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert [(r["grid"], r["givens"]) for r in rows] == [(1, ORDER[0]), (2, ORDER[1])]


@pytest.mark.slow
def test_the_app_shows_each_puzzle_and_names_the_answer(page: Path) -> None:
    from streamlit.testing.v1 import AppTest

    from sudokucam.ui.app import layout

    at = AppTest.from_file(str(APP), default_timeout=120)
    at.session_state[layout.MODE_KEY] = layout.PHOTO
    at.run()
    at.file_uploader(key="photo_upload").upload(page.name, page.read_bytes(), "image/png").run()
    assert not at.exception, at.exception
    switch: Any = at.get("button_group")[0]
    assert switch.label.startswith("2 puzzles on this photo")
    for index, givens in enumerate(ORDER):
        switch.set_value(index).run()
        switch = at.get("button_group")[0]
        boards = [e for e in at.get("component_instance") if str(e.key).startswith("photo_grid_")]
        assert json.loads(boards[0].proto.json_args)["digits"] == givens
        assert any(s.value.startswith("Solved from the") for s in at.success)
        assert any("1 solution grid" in str(c.value) for c in at.caption)
