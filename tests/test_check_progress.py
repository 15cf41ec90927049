"""Checking a person's progress: notes, unsure entries, cells left, hints from notes, bad input.

The first half builds readings by hand (no model needed) and checks the JSON contract and
the judgement of each cell; the second drives `sudokucam check --json` on rendered pages.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from sudokucam.samples import render
from sudokucam.solver import Grid
from sudokucam.solver.logic import Candidates, hint
from sudokucam.solver.logic.solving import unique_solution
from sudokucam.solver.outcome import Outcome
from sudokucam.ui.cli import app
from sudokucam.vision.check import (
    CheckConfig,
    UnsureEntry,
    answer_rests_on_sure_digits,
    entry_is_sure,
)
from sudokucam.vision.draw import DEFAULT_DRAW_CONFIG
from sudokucam.vision.pipeline import grid_result
from sudokucam.vision.repair import Repair, solve_givens
from sudokucam.vision.results import PRINTED_FULL_TEXT, EntryCounts, GridResult
from sudokucam.vision.types import NUM_CLASSES, CellReading, GridDetection, Kind

runner = CliRunner()

PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
SOLVED = unique_solution(Grid.parse(PUZZLE).shape, Grid.parse(PUZZLE).values)
assert SOLVED is not None
SOLUTION = "".join(map(str, SOLVED))
OPEN = [c for c, d in enumerate(PUZZLE) if d == "0"]


def detection() -> GridDetection:
    """An upright 360-pixel grid at the origin."""
    ticks = np.arange(10, dtype=np.float64) * 40.0
    xs, ys = np.meshgrid(ticks, ticks)
    corners = np.array([[0, 0], [360, 0], [360, 360], [0, 360]], dtype=np.float64)
    lattice = np.stack([xs, ys], -1)
    return GridDetection(
        corners, lattice, np.eye(3), np.eye(3), np.zeros((360, 360), np.uint8), 1.0
    )


def reading(
    pen: dict[int, int] | None = None,
    notes: dict[int, str] | None = None,
    ink: dict[int, dict[int, float]] | None = None,
) -> CellReading:
    """The printed PUZZLE with pen digits, candidate notes, and a cell's ink as given.

    ``ink``: for a pen cell, the probability of each digit it may be (the rest is spread).
    """
    probs = np.full((81, NUM_CLASSES), 1e-6)
    digits = np.zeros(81, np.int64)
    kinds = np.full(81, Kind.EMPTY, np.int64)
    for c, printed in enumerate(PUZZLE):
        if printed != "0":
            probs[c, int(printed)], digits[c], kinds[c] = 1.0, int(printed), Kind.PRINTED
        else:
            probs[c, 0] = 1.0
    for c, d in (pen or {}).items():
        probs[c] = 1e-6
        for digit, p in (ink or {}).get(c, {d: 1.0}).items():
            probs[c, digit + 9] = p
        digits[c], kinds[c] = d, Kind.HANDWRITTEN
    noted = [""] * 81
    for c, n in (notes or {}).items():
        noted[c], kinds[c] = n, Kind.NOTES
    probs /= probs.sum(axis=1, keepdims=True)
    return CellReading(probs.astype(np.float32), digits, kinds, notes=tuple(noted))


def checked(read: CellReading) -> GridResult:
    """The reading solved and checked as the pipeline does."""
    kinds = zip(read.digits, read.kinds, strict=True)
    givens = "".join(str(d) if k == Kind.PRINTED else "0" for d, k in kinds)
    return grid_result(detection(), read, solve_givens(givens))


def answer(cell: int) -> int:
    """The solution's digit in a cell."""
    return int(SOLUTION[cell])


def wrong_digit(cell: int) -> int:
    """A digit other than the cell's answer."""
    return answer(cell) % 9 + 1


# ------------------------------------------------------------------- JSON contract, notes


def test_json_has_notes_and_contents_and_notes_are_never_entries() -> None:
    right, noted = OPEN[0], OPEN[1]
    notes = {noted: "".join(sorted({str(answer(noted)), "1" if answer(noted) != 1 else "2"}))}
    grid = checked(reading({right: answer(right)}, notes))
    doc: dict[str, Any] = grid.to_dict()
    assert len(doc["notes"]) == 81 and len(doc["contents"]) == 81
    assert doc["notes"][noted] == notes[noted]
    assert doc["notes"][right] == "" and doc["notes"][OPEN[-1]] == ""
    assert doc["contents"][noted] == "notes"
    assert doc["contents"][right] == "written"
    assert doc["contents"][2] == "printed" and doc["contents"][OPEN[-1]] == "empty"
    assert doc["givens"][noted] == "0" and doc["handwritten"][noted] == "0"
    check = doc["check"]
    assert check["right"] == [cell_name(right)] and check["wrong"] == []
    assert check["left"] == len(OPEN) - 1 and check["with_notes"] == 1
    assert grid.cells_left() == len(OPEN) - 1
    assert json.loads(json.dumps(doc)) == doc


def cell_name(cell: int) -> str:
    """r1c1-style name."""
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


def test_notes_that_leave_out_the_answer_are_named() -> None:
    bad, good = OPEN[3], OPEN[4]
    others = "".join(str(d) for d in range(1, 10) if d != answer(bad))[:3]
    grid = checked(reading(notes={bad: others, good: str(answer(good))}))
    assert grid.wrong_notes() == (bad,)
    assert f"{cell_name(bad)}: your notes rule out the answer" in grid.check_message
    check: Any = grid.to_dict()["check"]
    assert check["wrong_notes"] == [cell_name(bad)]
    assert grid.wrong_entries == () and grid.unsure_entries() == ()


def test_writing_no_digit_was_read_in_is_asked_about_not_an_entry() -> None:
    """A cell holding ink no digit could be read in (``recentre.py``) stays a cell left,
    named for the person to say what they wrote, in the line, the JSON and the drawing."""
    right, unread = OPEN[0], OPEN[1]
    marks = tuple(c == unread for c in range(81))
    grid = checked(replace(reading({right: answer(right)}), unreadable=marks))
    assert grid.unreadable_cells == (unread,)
    assert unread in grid.empty_cells and grid.cells_left() == len(OPEN) - 1
    assert grid.wrong_entries == () and grid.unsure_entries() == ()
    assert f"{cell_name(unread)}: writing I cannot read" in grid.check_message
    doc: Any = grid.to_dict()
    assert doc["contents"][unread] == "unreadable" and doc["handwritten"][unread] == "0"
    assert doc["check"]["unreadable"] == [cell_name(unread)]
    assert grid.entry_counts.unreadable == 1
    image = np.full((360, 360, 3), 255, np.uint8)
    r, c = divmod(unread, 9)
    cell = np.s_[r * 40 : (r + 1) * 40, c * 40 : (c + 1) * 40]
    drawn = grid.draw(image, "check")[cell].astype(int)
    plain = replace(grid, reading=reading({right: answer(right)})).draw(image, "check")[cell]
    ring = drawn[(drawn != plain).any(axis=2)]
    assert len(ring)  # ringed, in amber
    amber, red = DEFAULT_DRAW_CONFIG.unsure_color, DEFAULT_DRAW_CONFIG.wrong_color
    assert np.abs(ring - amber).sum() < np.abs(ring - red).sum()
    filled = replace(
        grid, handwritten=grid.handwritten[:unread] + "5" + grid.handwritten[unread + 1 :]
    )
    assert filled.unreadable_cells == ()  # once the person says what it is, nothing to ask


def test_a_lone_noted_digit_is_a_reminder_not_the_cells_candidates() -> None:
    """One small digit in a cell (a corner mark) is never said to rule out the answer, nor
    taken as the cell's only candidate by the hint; two that leave it out are."""
    lone, pair = OPEN[3], OPEN[4]
    others = [str(d) for d in range(1, 10) if d != answer(pair)]
    grid = checked(reading(notes={lone: str(wrong_digit(lone)), pair: "".join(others[:2])}))
    assert grid.wrong_notes() == (pair,)
    assert grid.complete_notes[lone] == "" and grid.complete_notes[pair] == grid.notes[pair]
    assert cell_name(lone) not in grid.check_message
    assert grid.notes[lone] == str(wrong_digit(lone))  # still reported as the person's note
    with pytest.raises(ValueError, match="min_candidates"):
        CheckConfig(min_candidates=0)


# ------------------------------------------------------------------- sure, unsure


def test_a_clearly_written_wrong_digit_is_called_wrong() -> None:
    cell = OPEN[5]
    grid = checked(reading({cell: wrong_digit(cell)}))
    assert grid.wrong_entries == (cell,)
    assert grid.unsure_entries() == ()
    assert f"1 entry wrong ({cell_name(cell)})" in grid.check_message


def test_a_digit_that_may_be_the_answer_misread_is_unsure_not_wrong() -> None:
    """A right 2 read as 9 (a looped 2): the answer is the runner-up, so the person is asked."""
    cell = OPEN[6]
    read = wrong_digit(cell)
    ink = {cell: {read: 0.985, answer(cell): 0.012}}
    grid = checked(reading({cell: read}, ink=ink))
    assert grid.handwritten[cell] == str(read)  # the answer prior did not overrule the ink
    assert grid.wrong_entries == ()
    assert grid.unsure_entries() == (UnsureEntry(cell, read, answer(cell)),)
    check: Any = grid.to_dict()["check"]
    unsure = check["unsure"]
    assert unsure == [{"cell": cell_name(cell), "reading": read, "other": answer(cell)}]
    assert f"1 unsure ({cell_name(cell)}: {read} or {answer(cell)}?)" in grid.check_message
    assert grid.entry_counts.unsure == 1 and grid.entry_counts.wrong == 0


def test_an_answer_resting_on_an_unsure_promoted_entry_calls_nothing_wrong() -> None:
    """A pen entry the repair took for print, read unsurely, may be misread: then the
    answer may be wrong, so a disagreeing entry is asked about, not called wrong."""
    assert answer_rests_on_sure_digits([]) and answer_rests_on_sure_digits([0.999])
    assert not answer_rests_on_sure_digits([0.999, 0.6])
    cell = OPEN[5]
    grid = checked(reading({cell: wrong_digit(cell)}))
    promoted = Repair(OPEN[0], 0, answer(OPEN[0]), 0.6, 0.6, kind_changed=True)
    doubtful = replace(grid, repairs=(promoted,))
    assert grid.wrong_entries == (cell,)
    assert doubtful.wrong_entries == ()
    assert [u.cell for u in doubtful.unsure_entries()] == [cell]
    sure = replace(promoted, new_probability=0.999)
    assert replace(grid, repairs=(sure,)).wrong_entries == (cell,)


def test_an_answer_resting_on_an_unsure_digit_repair_calls_nothing_wrong() -> None:
    """A printed digit the repair changed to another (a written 7 read as a printed 1,
    taken as a 7 at 10 %) may be the wrong change: the answer then may be wrong, so a
    disagreeing entry is asked about, never called wrong; a sure change keeps the call."""
    cell, given = OPEN[5], next(c for c, d in enumerate(PUZZLE) if d != "0")
    grid = checked(reading({cell: wrong_digit(cell)}))
    other = int(PUZZLE[given]) % 9 + 1
    changed = Repair(given, other, int(PUZZLE[given]), 0.87, 0.10)
    assert grid.wrong_entries == (cell,)
    doubtful = replace(grid, repairs=(changed,))
    assert doubtful.wrong_entries == ()
    assert [u.cell for u in doubtful.unsure_entries()] == [cell]
    assert "1 unsure" in replace(doubtful, message="").check_message
    emptied = Repair(given, int(PUZZLE[given]), 0, 0.6, 0.3)  # a given taken out at 30 %
    assert replace(grid, repairs=(emptied,)).wrong_entries == ()
    speck = replace(emptied, new_probability=0.995)  # a speck surely no digit
    assert replace(grid, repairs=(speck,)).wrong_entries == (cell,)
    sure = replace(changed, new_probability=0.995)
    assert replace(grid, repairs=(sure,)).wrong_entries == (cell,)


def test_an_answer_resting_on_a_print_taken_as_written_calls_nothing_wrong() -> None:
    """Two printed 1s clash (one a written 7 misread): the repair took one as written,
    maybe the true print. The answer may then be wrong: disagreeing entries are asked."""
    cell, given = OPEN[5], next(c for c, d in enumerate(PUZZLE) if d != "0")
    grid = checked(reading({cell: wrong_digit(cell)}))
    demoted = Repair(given, int(PUZZLE[given]), 0, 0.97, 0.97, kind_changed=True)
    assert "taken as a handwritten" in demoted.text
    doubtful = replace(grid, repairs=(demoted,))
    assert grid.wrong_entries == (cell,) and doubtful.wrong_entries == ()
    assert [u.cell for u in doubtful.unsure_entries()] == [cell]


def test_sureness_follows_the_config() -> None:
    probs = np.full(NUM_CLASSES, 1e-6)
    probs[12], probs[14] = 0.995, 0.004  # a handwritten 3, a little 5
    assert entry_is_sure(probs, 3, 7)  # the answer 7 has next to nothing
    assert not entry_is_sure(probs, 3, 5)  # the answer 5 has 0.4 %
    assert entry_is_sure(probs, 3, 5, CheckConfig(max_answer_probability=0.01))
    with pytest.raises(ValueError, match="min_probability"):
        CheckConfig(min_probability=1.5)


# ------------------------------------------------------------------- what the line says


def test_entry_counts_say_no_entries_and_complete_in_their_own_words() -> None:
    assert EntryCounts(51, 0, 0).text() == "no entries to check yet: 51 cells left"
    assert EntryCounts(51, 0, 0, notes=20).text() == (
        "no entries to check yet: 51 cells left (20 with notes)"
    )
    assert EntryCounts(0, 0, 51).text() == "complete: all 51 entries right"
    assert EntryCounts(0, 0, 0).text() == PRINTED_FULL_TEXT  # not "0 cells left"
    names = [f"r1c{i}" for i in range(1, 10)] + [f"r2c{i}" for i in range(1, 10)]
    line = EntryCounts(0, 18, 0).text(names)
    assert line.startswith("0 cells left, 18 entries wrong (r1c1, r1c2,")
    assert "and 6 more)" in line


# ------------------------------------------------------------------- hints from notes


def notes_everywhere(values: str) -> list[str]:
    """Notes in every open cell: the grid's own candidates."""
    grid = Grid.parse(values)
    cand = Candidates.from_values(grid.shape, grid.values)
    return ["".join(map(str, cand.candidates(c))) if d == "0" else "" for c, d in enumerate(values)]


def test_notes_read_in_part_are_never_said_to_rule_out_the_answer() -> None:
    """Notes whose digits were not all read may hold the answer: neither the check nor the
    hint says they rule it out (the hint works as if the cell had no notes)."""
    bad = OPEN[3]
    others = "".join(str(d) for d in range(1, 10) if d != answer(bad))[:3]
    read = reading(notes={bad: others})
    partly = replace(read, notes_sure=tuple(c != bad for c in range(81)))
    assert checked(read).wrong_notes() == (bad,)
    grid = checked(partly)
    assert grid.wrong_notes() == () and grid.complete_notes[bad] == ""
    found = grid.next_hint()
    assert found is not None and found.status is not Outcome.WRONG_NOTES
    assert "rule out" not in found.message


def test_hint_names_notes_that_leave_out_the_answer_first() -> None:
    notes = notes_everywhere(PUZZLE)
    cell = OPEN[2]
    notes[cell] = notes[cell].replace(SOLUTION[cell], "")
    found = hint(Grid.parse(PUZZLE), notes=notes)
    assert found.status is Outcome.WRONG_NOTES
    assert found.wrong == (cell,)
    assert found.message.startswith(f"{cell_name(cell)}: your notes rule out the answer")
    assert SOLUTION[cell] in found.message  # the note they missed


def test_hint_brings_the_notes_up_to_date() -> None:
    """A noted cell whose notes are down to one digit the grid allows: that is the step."""
    cell = OPEN[7]
    given = next(int(PUZZLE[p]) for p in range(81) if PUZZLE[p] != "0" and p // 9 == cell // 9)
    notes = [""] * 81
    notes[cell] = "".join(sorted({SOLUTION[cell], str(given)}))
    found = hint(Grid.parse(PUZZLE), notes=notes)
    assert found.status is Outcome.STEP and found.step is not None
    assert found.step.placements == ((cell, answer(cell)),)
    assert "of your notes" in found.step.explanation
    plain = hint(Grid.parse(PUZZLE))
    assert plain.step is not None and plain.step.placements != found.step.placements


def test_next_hint_of_a_photo_uses_the_persons_notes() -> None:
    cell = OPEN[8]
    others = "".join(str(d) for d in range(1, 10) if d != answer(cell))[:2]
    grid = checked(reading(notes={cell: others}))
    found = grid.next_hint()
    assert found is not None and found.status is Outcome.WRONG_NOTES and found.wrong == (cell,)


def test_hint_refuses_notes_of_the_wrong_shape() -> None:
    with pytest.raises(ValueError, match="notes must hold 81 cells"):
        hint(Grid.parse(PUZZLE), notes=["1"] * 80)
    with pytest.raises(ValueError, match="digits 1-9"):
        hint(Grid.parse(PUZZLE), notes=["0"] * 81)


# ------------------------------------------------------------------- the CLI on rendered pages

PAGES: dict[str, dict[str, Any]] = {  # name: render_photo arguments
    "finished": {"pen_fill": 1.0, "pen_mistakes": 0},
    "empty": {"pen_fill": 0.0, "pen_mistakes": 0},
    "covered_in_notes": {"pen_fill": 0.0, "pen_mistakes": 0, "marks": render.Marks(notes_fill=1.0)},
    "every_entry_wrong": {"pen_fill": 0.4, "pen_mistakes": 81},
    "margin_writing": {
        "pen_fill": 0.5,
        "pen_mistakes": 1,
        "marks": render.Marks(margin_writing=True),
    },
    "notes_and_erasures": {
        "pen_fill": 0.4,
        "pen_mistakes": 1,
        "marks": render.Marks(notes_fill=0.6, notes_layout="free", erasures=3),
    },
    "crossed_out": {
        "pen_fill": 0.4,
        "pen_mistakes": 1,
        "marks": render.Marks(notes_fill=0.3, erasures=1, crossed_out=5),
    },
}


def check_json(photo: Path, tmp_path: Path) -> tuple[int, dict[str, Any]]:
    """`sudokucam check PHOTO --json --hint`: the exit code and the document."""
    out = runner.invoke(
        app, ["check", str(photo), "-o", str(tmp_path / "o.png"), "--json", "--hint"]
    )
    assert "Traceback" not in out.output, out.output
    return out.exit_code, json.loads(out.stdout)


def rendered(tmp_path: Path, name: str, seed: int = 41) -> tuple[Path, render.PhotoTruth]:
    """A rendered page of a kind in PAGES, written as a JPEG."""
    photo = render.render_photo(seed, "progress", size=(1024, 768), **PAGES[name])
    path = tmp_path / f"{name}.jpg"
    cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return path, photo.truth


def truth_mistakes(truth: render.PhotoTruth) -> set[str]:
    """The names of the cells written wrong on purpose."""
    return {f"r{r + 1}c{c + 1}" for r, c in truth.mistakes}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_check_never_makes_up_a_mistake(tmp_path: Path, name: str) -> None:
    """Every entry called wrong was written wrong; the report is one clear line, exit 0 or 1."""
    path, truth = rendered(tmp_path, name)
    code, doc = check_json(path, tmp_path)
    assert code in (0, 1)
    grids = doc["grids"]
    assert isinstance(grids, list) and len(grids) == 1
    grid = grids[0]
    assert set(grid["check"]["wrong"]) <= truth_mistakes(truth)
    assert len(grid["notes"]) == 81 and len(grid["contents"]) == 81
    assert grid["message"]


def test_crossed_out_digits_are_not_entries(tmp_path: Path) -> None:
    """Digits the person struck through (a slash, an X or a line) are no entries of theirs.

    Two pages, 10 crossed-out digits: at most one is taken for an entry (about 1 in 10 on
    rendered pages, where the stroke is thin or faint), none is called wrong, most are
    named crossed out.
    """
    taken, named, total = 0, 0, 0
    for seed in (41, 42):
        path, truth = rendered(tmp_path, "crossed_out", seed)
        _, doc = check_json(path, tmp_path)
        grid = doc["grids"][0]
        crossed = [9 * r + c for r, c in truth.crossed_out]
        total += len(crossed)
        taken += sum(grid["handwritten"][c] != "0" for c in crossed)
        named += sum(grid["contents"][c] == "crossed_out" for c in crossed)
        assert set(grid["check"]["wrong"]) <= truth_mistakes(truth)
    assert total == 10 and taken <= 1 and named >= 8


def test_a_finished_grid_is_complete(tmp_path: Path) -> None:
    path, _ = rendered(tmp_path, "finished")
    out = runner.invoke(app, ["check", str(path), "-o", str(tmp_path / "o.png"), "--hint"])
    assert out.exit_code == 0, out.output
    first, second = out.stdout.splitlines()[:2]
    assert first.startswith("complete: all ") and first.endswith(" entries right")
    assert second == "next: the grid is complete and correct"


def test_an_empty_grid_has_nothing_to_check(tmp_path: Path) -> None:
    path, truth = rendered(tmp_path, "empty")
    out = runner.invoke(app, ["check", str(path), "-o", str(tmp_path / "o.png"), "--hint"])
    assert out.exit_code == 0, out.output
    left = int(np.count_nonzero(truth.givens == 0))
    assert out.stdout.splitlines()[0] == f"no entries to check yet: {left} cells left"
    assert out.stdout.splitlines()[1].startswith("next: ")


def test_every_entry_wrong_is_reported_or_refused_in_words(tmp_path: Path) -> None:
    """Either the wrong entries are named (none of them made up) or the line says why not."""
    path, _ = rendered(tmp_path, "every_entry_wrong")
    out = runner.invoke(app, ["check", str(path), "-o", str(tmp_path / "o.png")])
    line = out.stdout.splitlines()[0]
    assert out.exit_code in (0, 1) and "Traceback" not in out.output
    if out.exit_code == 1:
        assert line.startswith("cannot check the entries: the digits read as printed ")
        assert "retake the photo, or correct the reading" in line
    else:
        assert "entries wrong" in line or "unsure" in line


@pytest.mark.parametrize("name", ["notes_half", "pencil", "half_blue", "nearly_done"])
def test_committed_progress_samples_have_no_false_alarm(
    repo_dir: Path, tmp_path: Path, name: str
) -> None:
    photo = repo_dir / "samples" / "progress" / f"{name}.jpg"
    truth = json.loads(photo.with_suffix(".json").read_text(encoding="utf-8"))
    _, doc = check_json(photo, tmp_path)
    grid = doc["grids"][0]
    mistakes = {f"r{r + 1}c{c + 1}" for r, c in truth["mistakes"]}
    assert set(grid["check"]["wrong"]) <= mistakes
    if name in ("half_blue", "nearly_done"):  # clear pen: every mistake is flagged
        unsure = {u["cell"] for u in grid["check"]["unsure"]}
        assert mistakes <= set(grid["check"]["wrong"]) | unsure


def test_two_digits_written_over_each_other_are_asked_about(
    tmp_path: Path, samples_dir: Path
) -> None:
    """A 4 and a 5 written over each other in an empty cell of a committed sample: no digit
    reads surely, even centred, so `check` names the cell for the person to say what it is
    (content "unreadable"), calls nothing wrong there and counts it as a cell left."""
    from sudokucam.vision.pipeline import Reader

    image = cv2.imread(str(samples_dir / "progress" / "half_blue.jpg"))
    assert image is not None
    grid = Reader().read(image).grids[0]
    cell = 51
    assert cell in grid.empty_cells
    r, c = divmod(cell, 9)
    lattice = grid.detection.lattice
    side = float(np.linalg.norm(lattice[r, c + 1] - lattice[r, c]))
    centre = (lattice[r, c] + lattice[r + 1, c + 1]) / 2
    font, scale, stroke = cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, side / 40, max(2, int(side / 20))
    for digit in "45":
        (w, h), _ = cv2.getTextSize(digit, font, scale, stroke)
        at = (int(centre[0] - w / 2), int(centre[1] + h / 2))
        cv2.putText(image, digit, at, font, scale, (150, 60, 20), stroke, cv2.LINE_AA)
    path = tmp_path / "overwritten.jpg"
    cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    _, doc = check_json(path, tmp_path)
    checked_grid = doc["grids"][0]
    name = cell_name(cell)
    assert checked_grid["contents"][cell] == "unreadable"
    assert checked_grid["handwritten"][cell] == "0" and checked_grid["givens"][cell] == "0"
    assert checked_grid["check"]["unreadable"] == [name]
    assert name not in checked_grid["check"]["wrong"]
    assert checked_grid["check"]["left"] == len(grid.empty_cells)
    text = runner.invoke(app, ["check", str(path), "-o", str(tmp_path / "o.png")]).stdout
    assert f"{name}: writing I cannot read" in text
