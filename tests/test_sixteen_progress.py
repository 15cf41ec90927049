"""A 16×16 photo half solved in pen, checked as a 9×9 or small grid is: the next step
(``check --hint``, the app's *Hint*) and the app's *Check my progress* page (the counts,
the wrong entries named, the board of 16×16 with 10-16, questions named as printed).

The photo is rendered in the test (``render_sixteen_photo``, as tests/test_sixteen_pen.py
does) and read once for the module.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import pytest
from typer.testing import CliRunner

from sudokucam.samples import render
from sudokucam.samples.synth.boxed_grids import SmallPhoto
from sudokucam.solver.logic.variant_hint import VariantStep
from sudokucam.solver.outcome import Outcome
from sudokucam.tests.app_harness import open_app
from sudokucam.tests.test_app import board_args, board_key, looks_of, texts
from sudokucam.ui.app import layout
from sudokucam.ui.cli import app
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.results import GridResult
from sudokucam.vision.types import VALUE_CHARS, digit_values

runner = CliRunner()
NUMBERS = {str(v) for v in range(1, 17)}


@pytest.fixture(scope="module")
def made() -> SmallPhoto:
    """A bold 16×16 of numbers, 40 % of its empty cells written in pen, two wrong."""
    return render.render_sixteen_photo(1601, "bold", pen_fill=0.4, pen_mistakes=2,
                                       size=(1600, 1200))  # fmt: skip


@pytest.fixture(scope="module")
def png(made: SmallPhoto) -> bytes:
    """The photo as PNG bytes."""
    ok, data = cv2.imencode(".png", made.photo.image)
    assert ok
    return bytes(data.tobytes())


@pytest.fixture(scope="module")
def grid(made: SmallPhoto) -> GridResult:
    """The photo's one grid as the default reader reads it."""
    (found,) = Reader().read(made.photo.image).grids
    return found


def solution_of(made: SmallPhoto) -> tuple[int, ...]:
    """The photo's true answer, a value a cell."""
    return tuple(int(v) for v in made.photo.truth.solution.ravel())


@pytest.mark.slow
def test_a_16x16_photo_has_a_next_step_from_its_right_entries(
    made: SmallPhoto, grid: GridResult
) -> None:
    found = grid.next_hint()
    assert found is not None and found.status is Outcome.STEP, found
    step = found.step
    assert isinstance(step, VariantStep) and step.placements, step
    answer, printed = solution_of(made), made.photo.truth.givens.ravel()
    for cell, value in step.placements:
        assert value == answer[cell] and printed[cell] == 0
        assert grid.kept_entries[cell] == "0"  # a cell left, or a wrong entry set aside


@pytest.mark.slow
def test_a_16x16_names_values_as_the_page_prints_them(grid: GridResult) -> None:
    assert [grid.value_word(v) for v in (9, 12, 16)] == ["9", "12", "16"]
    hex_page = replace(grid, structure=replace(grid.structure, glyphs="0123456789ABCDEF"))
    assert [hex_page.value_word(v) for v in (1, 11, 16)] == ["0", "A", "F"]


@pytest.mark.slow
def test_check_hint_gives_the_next_step_on_a_16x16_photo(
    made: SmallPhoto, png: bytes, tmp_path: Path
) -> None:
    photo = tmp_path / "half.png"
    photo.write_bytes(png)
    out = tmp_path / "checked.png"
    text = runner.invoke(app, ["check", str(photo), "-o", str(out), "--hint"])
    assert text.exit_code == 0, text.output
    (line,) = [x for x in text.stdout.splitlines() if x.startswith("next: ")]
    assert "no hint" not in line, line
    done = runner.invoke(app, ["check", "--json", str(photo), "-o", str(out), "--hint"])
    assert done.exit_code == 0, done.output
    (checked,) = json.loads(done.stdout)["grids"]
    step = checked["next"]["step"]
    assert step["placements"] and step["explanation"] in line
    answer = solution_of(made)
    for placed in step["placements"]:
        r, c = map(int, placed["cell"][1:].split("c"))
        assert placed["value"] == answer[(r - 1) * 16 + c - 1]


def progress_page(png: bytes) -> Any:
    """*Check my progress* with the photo uploaded and checked."""
    at = open_app(layout.PROGRESS)
    at.file_uploader(key="progress_upload").upload("pen16.png", png, "image/png").run()
    assert not at.exception, at.exception
    return at


@pytest.mark.slow
def test_check_my_progress_checks_a_16x16_as_sudokucam_check_does(
    made: SmallPhoto, png: bytes, grid: GridResult
) -> None:
    at = progress_page(png)
    assert not [w for w in texts(at.warning) if "checks grids up to 9×9" in w]
    metrics = {m.label: m.value for m in at.metric}
    counts = grid.entry_counts
    assert metrics["Entries wrong"] == str(counts.wrong) and metrics["Entries right"] == str(
        counts.right
    ), metrics
    assert counts.right > 0 and metrics["To check"] == str(counts.unsure), metrics
    assert grid.check_message in texts(at.caption)  # the line `sudokucam check` prints
    key = board_key(at, "progress_board_")
    args = board_args(at, key)
    pen = digit_values(grid.handwritten)
    on_paper = [g or h for g, h in zip(digit_values(grid.givens), pen, strict=True)]
    assert args["size"] == 16 and args["digits"] == "".join(VALUE_CHARS[v] for v in on_paper)
    looks = looks_of(at, key)
    assert {c for c, look in looks.items() if look == "right"} == set(grid.right_entries)
    assert {c for c, look in looks.items() if look == "unsure"} == {
        u.cell for u in grid.unsure_entries()
    }
    mistakes = {r * 16 + c for r, c in made.photo.truth.mistakes}
    assert {c for c, look in looks.items() if look == "wrong"} <= mistakes


@pytest.mark.slow
def test_a_16x16_question_is_asked_and_answered_in_numbers(png: bytes, grid: GridResult) -> None:
    unsure = grid.unsure_entries()
    assert unsure, "the rendered photo's two mistakes are asked about"
    at = progress_page(png)
    first = unsure[0]
    name = grid.cell_name(first.cell)
    (asked,) = [t for t in texts(at.markdown) if t.startswith(f"{name}: is this a")]
    assert f"**{first.reading}** or a **{first.other}**" in asked, asked
    buttons = [b for b in at.button if str(b.key).startswith("progress_ask_")]
    assert buttons and {str(b.label) for b in buttons} <= NUMBERS
    (other,) = [b for b in buttons if str(b.key).endswith(f"_{first.cell}_{first.other}")]
    other.click().run()
    assert not at.exception, at.exception
    args = board_args(at, board_key(at, "progress_board_"))
    assert args["digits"][first.cell] == VALUE_CHARS[first.other]
    assert not [t for t in texts(at.markdown) if t.startswith(f"{name}: is this a")]


@pytest.mark.slow
def test_check_my_progress_hints_on_a_16x16(made: SmallPhoto, png: bytes) -> None:
    at = progress_page(png)
    (hint,) = [b for b in at.button if "Hint" in str(b.label)]
    hint.click().run()
    assert not at.exception, at.exception
    (look,) = [t for t in texts(at.info) if t.startswith("**Look at r")]
    (reveal,) = [b for b in at.button if b.label == "Show the value and why"]
    reveal.click().run()
    assert not at.exception, at.exception
    (shown,) = [t for t in texts(at.success) if t.startswith("**r")]
    cell = shown[2 : shown.index(" =")]  # "**r2c5 = 12.** ..."
    assert cell in look, (look, shown)
    r, c = map(int, cell[1:].split("c"))
    value = shown[shown.index("= ") + 2 : shown.index(".**")]
    assert value in NUMBERS and int(value) == solution_of(made)[(r - 1) * 16 + c - 1]
