"""`sudokucam solve` says what it found the way a Sudoku player would: counts that add up,
no probabilities, no "0 entries wrong"; the detail stays in --json."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sudokucam.ui.words import repair_words
from sudokucam.vision.repair import Repair

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "samples"


def solve(photo: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """`sudokucam solve PHOTO -o OUT` in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "sudokucam", "solve", str(photo), "-o", str(out), *extra],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def test_a_repair_is_said_in_a_players_words() -> None:
    assert repair_words(Repair(6, 0, 6, 0.7, 0.7, kind_changed=True)) == (
        "the 6 in r1c7 counts as printed"
    )
    assert repair_words(Repair(36, 8, 3, 0.55, 0.4)) == "r5c1 is taken as a 3 (it looked like an 8)"
    assert "%" not in repair_words(Repair(36, 8, 0, 0.55, 0.4))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["printed/demo", "progress/pencil", "progress/half_blue"])
def test_solve_counts_add_up_and_say_no_zero(name: str, tmp_path: Path) -> None:
    photo = SAMPLES / f"{name}.jpg"
    out = tmp_path / "out.png"
    text = solve(photo, out).stdout.splitlines()[0]
    (grid,) = json.loads(solve(photo, out, "--json").stdout)["grids"]
    printed = sum(1 for d in grid["givens"] if d != "0")
    left = sum(1 for g, h in zip(grid["givens"], grid["handwritten"], strict=True) if g == h == "0")
    assert text.startswith(f"Solved: {printed} printed digits read, {left} cells to fill in."), text
    assert " 0 " not in f" {text} " and "taken as" not in text and "%" not in text, text
    wrong = grid["check"]["wrong"] if grid.get("check") else []
    for cell in wrong:
        assert cell in text
