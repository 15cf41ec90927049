"""The Streamlit app driven through streamlit.testing.v1.AppTest, one test per flow.

Uploads and webcam shots are simulated with AppTest's file_uploader and camera_input.
A tap on the board (a custom component, whose JavaScript AppTest does not run) is
simulated as the board's frontend does it: the arguments the page gave the board are
read from the page, the cell is changed, and the whole grid is sent back as the
board's value with the next edit number.
"""

from __future__ import annotations

import io
import json
import struct
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from sudokucam.solver import is_solution
from sudokucam.tests.app_harness import APP, open_app, uploaded
from sudokucam.ui.app import layout
from sudokucam.ui.app.pages.play_board import board_after, game_view, notes_of
from sudokucam.ui.app.state.game import Board, Game, load_game
from sudokucam.ui.app.state.settings import APP_CONFIG
from sudokucam.ui.app.widgets.board import BoardEdit, BoardView, Look
from sudokucam.ui.app.widgets.hints import HintMarks
from sudokucam.ui.cli import app as cli_app
from sudokucam.ui.cli.serve import streamlit_command, streamlit_env

pytest.importorskip("streamlit.testing.v1")

REPO = Path(__file__).resolve().parent.parent
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


# ----------------------------------------------------------------------------- helpers


def texts(elements: Any) -> list[str]:
    """The text of every element of a list (success, error, markdown, ...)."""
    return [str(e.value) for e in elements]


def all_text(at: Any) -> str:
    """Every message and line of text on the page, joined."""
    kinds = ("success", "error", "warning", "info", "markdown", "caption", "code", "metric")
    return "\n".join(t for kind in kinds for t in texts(getattr(at, kind)))


def board_args(at: Any, key: str) -> dict[str, Any]:
    """The arguments the page last gave the board with this key."""
    found = [e for e in at.get("component_instance") if e.key == key]
    assert len(found) == 1, [e.key for e in at.get("component_instance")]
    args: dict[str, Any] = json.loads(found[0].proto.json_args)
    return args


def board_keys(at: Any, prefix: str) -> list[str]:
    """The keys of the boards on the page whose key starts with prefix."""
    return [str(e.key) for e in at.get("component_instance") if str(e.key).startswith(prefix)]


def board_key(at: Any, prefix: str) -> str:
    """The key of the one board whose key starts with prefix."""
    keys = board_keys(at, prefix)
    assert len(keys) == 1, keys
    return keys[0]


def send_board(at: Any, key: str, digits: str, printed: str, notes: list[str], cell: int) -> None:
    """Send the board's value as its frontend does after an edit, then rerun."""
    seq = board_args(at, key)["ack"] + 1
    value = {"seq": seq, "cell": cell, "digits": digits, "printed": printed, "notes": notes}
    at.session_state[key] = value
    at.run()
    assert not at.exception, at.exception


def tap(at: Any, key: str, edits: dict[int, int], note: bool = False) -> None:
    """Tap cells (0-80) and digits on the board (0: Erase; note: in Notes mode), then rerun."""
    args = board_args(at, key)
    digits, printed, notes = list(args["digits"]), list(args["printed"]), list(args["notes"])
    for cell, digit in edits.items():
        if note:
            notes[cell] = "".join(sorted(set(notes[cell]) ^ {str(digit)}))
            digits[cell], printed[cell] = "0", "0"
            continue
        if digits[cell] == "0":
            printed[cell] = "1" if args["typed_printed"] and digit else "0"
        digits[cell], notes[cell] = str(digit), ""
        printed[cell] = printed[cell] if digit else "0"
    send_board(at, key, "".join(digits), "".join(printed), notes, max(edits))


def looks_of(at: Any, key: str) -> dict[int, str]:
    """The look of every cell of a board that has one."""
    return {c: look for c, look in enumerate(board_args(at, key)["looks"]) if look}


def png_of(image: np.ndarray) -> bytes:
    """An RGB array encoded as PNG."""
    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, format="PNG")
    return buffer.getvalue()


def progress_checked(photo: Path) -> Any:
    """The app's 'Check my progress' page with ``photo`` uploaded and read."""
    return uploaded(layout.PROGRESS, photo)


def sample(samples_dir: Path, kind: str, name: str) -> tuple[Path, dict[str, Any]]:
    """A committed sample photo and its ground truth."""
    photo = samples_dir / kind / f"{name}.jpg"
    truth = photo.with_suffix(".json")
    return photo, json.loads(truth.read_text())


def flat(values: Any) -> str:
    """A grid from the ground truth (81-char string or 9×9 lists) as 81 digits."""
    if isinstance(values, str):
        return values.replace(".", "0")
    return "".join(str(v) for row in values for v in row)


# ----------------------------------------------------------------------------- command


def test_ui_help_lists_port() -> None:
    result = CliRunner().invoke(cli_app, ["ui", "--help"])
    assert result.exit_code == 0
    assert "--port" in result.output


def test_ui_command_serves_locally_without_usage_statistics() -> None:
    cmd = streamlit_command(9123)
    assert cmd[1:4] == ["-m", "streamlit", "run"]
    assert Path(cmd[4]) == REPO / "ui" / "streamlit_server.py" and APP.is_file()  # door + app
    pairs = dict(zip(cmd[5::2], cmd[6::2], strict=True))
    assert pairs["--server.address"] == "127.0.0.1"
    assert pairs["--server.port"] == "9123"
    assert pairs["--server.headless"] == "true"
    assert pairs["--browser.gatherUsageStats"] == "false"
    assert pairs["--global.developmentMode"] == "false"
    assert pairs["--server.maxUploadSize"] == str(APP_CONFIG.max_upload_mb)
    assert streamlit_env()["STREAMLIT_BROWSER_GATHER_USAGE_STATS"] == "false"


def test_ui_rejects_bad_port() -> None:
    result = CliRunner().invoke(cli_app, ["ui", "--port", "0"])
    assert result.exit_code == 2


# ----------------------------------------------------------------------------- pure parts


def test_board_view_args_and_edits_round_trip() -> None:
    view = BoardView(
        PUZZLE.replace(".", "0"),
        {0: Look.GIVEN, 2: Look.UNSURE},
        notes=("", "", "12", *[""] * 78),
        removed={2: "2"},
        editable=True,
        legend=(Look.GIVEN,),
    )
    args = view.args(ack=4)
    assert args["printed"][:3] == "100" and args["looks"][:3] == ["given", "", "unsure"]
    assert args["removed"][2] == "2" and args["ack"] == 4 and args["words"]["given"] == "printed"
    sent = {"seq": 5, "cell": 2, "digits": args["digits"], "printed": args["printed"],
            "notes": args["notes"]}  # fmt: skip
    edit = BoardEdit.parse(sent)
    assert edit is not None and edit.seq == 5 and edit.values[0] == 5
    printed, pen = edit.split()
    assert printed[0] == 5 and pen[0] == 0 and printed[1] == 0  # r1c2: a 3, not printed
    assert BoardEdit.parse({**sent, "digits": "12"}) is None
    assert BoardEdit.parse({**sent, "notes": ["x"] * 81}) is None
    with pytest.raises(ValueError, match="81 characters"):
        BoardView("123")


def test_board_edits_become_moves_with_notes_and_givens_kept() -> None:
    board = Board(tuple(int(ch) if ch != "." else 0 for ch in PUZZLE))
    notes = list(notes_of(board))
    notes[3] = "26"
    digits = "9" + "0" * 80  # a given overwritten: ignored
    digits = PUZZLE.replace(".", "0")[:2] + "4" + PUZZLE.replace(".", "0")[3:]
    moved = board_after(board, BoardEdit(1, 2, digits, "0" * 81, tuple(notes)))
    assert moved.entries[2] == 4 and moved.marks[3] == {2, 6} and moved.givens == board.givens
    forged = board_after(board, BoardEdit(2, 0, "9" + digits[1:], "0" * 81, tuple(notes)))
    assert forged.givens[0] == 5 and forged.entries[0] == 0
    hint = HintMarks(frozenset({3}), {3: "6"})
    view = game_view(moved, wrong=[2], hint=hint)
    assert view.looks[0] is Look.GIVEN and view.looks[2] is Look.WRONG
    assert view.looks[3] is Look.HINT and view.removed == {3: "6"} and view.notes[3] == "26"
    assert view.lock_printed and view.can_note and 0 in view.printed_cells()
    assert not game_view(moved, wrong=[], hint=hint, playing=False).editable  # game over


def test_game_undo_redo_check_and_save_round_trip() -> None:
    game = Game.start(Board(tuple(int(ch) if ch != "." else 0 for ch in PUZZLE)))
    game.play(game.board.place(2, 4))
    game.play(game.board.place(3, 9))  # wrong: the answer is 6
    game.play(game.board.set_marks(5, frozenset({1, 8})))
    assert game.wrong_cells() == [3]
    assert game.undo() and game.undo()
    assert game.board.entries[3] == 0 and game.redo()
    assert game.board.entries[3] == 9
    game.pause()
    saved = load_game(game.to_text())
    assert saved.board.entries == game.board.entries
    assert saved.solution == tuple(int(ch) for ch in SOLUTION)
    assert abs(saved.seconds() - round(game.seconds())) < 1.5


def test_game_clock_stops_while_paused() -> None:
    game = Game.start(Board(tuple(int(ch) if ch != "." else 0 for ch in PUZZLE)))
    game.pause()
    frozen = game.seconds()
    assert game.paused and game.seconds(now=1e12) == frozen
    game.resume()
    assert not game.paused


# ----------------------------------------------------------------------------- app pages


def test_every_tab_opens_without_error() -> None:
    for page in layout.pages():
        at = open_app(page.label)
        assert [t.label for t in at.tabs] == [p.label for p in layout.pages()]
        assert texts(at.subheader) == [page.label]


def test_typed_puzzle_is_solved() -> None:
    at = open_app(layout.TYPE)
    at.text_area(key="typed_text").input(PUZZLE).run()
    at.button(key="typed_solve").click().run()
    assert not at.exception
    assert texts(at.success) == ["Solved: the puzzle has exactly one solution."]
    assert texts(at.code) == [SOLUTION]
    assert is_solution(SOLUTION, PUZZLE)


def test_typed_grid_edit_resolves_and_reports_conflict() -> None:
    at = open_app(layout.TYPE)
    at.text_area(key="typed_text").input(PUZZLE).run()
    at.button(key="typed_solve").click().run()
    key = board_key(at, "typed_grid_")
    tap(at, key, {2: 5})  # r1c3 = 5: twice in row 1
    assert not at.success
    assert any("r1c1 and r1c3 both hold 5" in e for e in texts(at.error))
    looks = looks_of(at, key)
    assert looks[0] == looks[2] == "conflict" and looks[1] == "given"  # the clash highlighted
    tap(at, key, {2: 0})  # Erase: solved again
    assert texts(at.code) == [SOLUTION] and "conflict" not in looks_of(at, key).values()


def test_typed_into_the_empty_grid_is_solved() -> None:
    at = open_app(layout.TYPE)
    at.button(key="typed_solve").click().run()
    assert any("The grid is empty" in i for i in texts(at.info))
    key = board_key(at, "typed_grid_")
    tap(at, key, {c: int(ch) for c, ch in enumerate(PUZZLE) if ch != "."})
    assert texts(at.code) == [SOLUTION]
    assert board_args(at, "typed_solution")["digits"] == SOLUTION


def test_typed_puzzle_with_several_solutions_warns() -> None:
    at = open_app(layout.TYPE)
    at.text_area(key="typed_text").input("." * 9 + PUZZLE[9:]).run()
    at.button(key="typed_solve").click().run()
    assert any("more than one solution" in w for w in texts(at.warning))


def test_typed_text_of_wrong_length_says_what_is_wrong() -> None:
    at = open_app(layout.TYPE)
    at.text_area(key="typed_text").input(PUZZLE[:80]).run()
    assert any("80 values" in e and "Paste 81 characters" in e for e in texts(at.error))


def test_play_new_puzzle_type_check_undo_hint() -> None:
    at = open_app(layout.PLAY)
    at.button(key="play_new").click().run()
    game = at.session_state["play_game"]
    key = board_key(at, "play_board_")
    cell = game.board.givens.index(0)
    wrong = next(v for v in range(1, 10) if v != game.solution[cell])
    tap(at, key, {cell: wrong})
    assert at.session_state["play_game"].board.entries[cell] == wrong
    at.run()  # a rerun does not apply the same edit twice
    assert len(at.session_state["play_game"].undo_stack) == 1
    at.button(key="play_check").click().run()
    assert any("1 wrong" in e for e in texts(at.error))
    assert looks_of(at, key)[cell] == "wrong"
    at.button(key="play_undo").click().run()
    assert at.session_state["play_game"].board.entries[cell] == 0
    assert board_args(at, key)["digits"][cell] == "0"  # the board shows the undone move
    at.button(key=f"play_hint_{hash(at.session_state['play_game'].board)}_button").click().run()
    assert any("Look at r" in i for i in texts(at.info))
    assert "hint" in looks_of(at, key).values()
    hint_key = f"play_hint_{hash(at.session_state['play_game'].board)}_reveal"
    at.button(key=hint_key).click().run()
    assert any(" = " in s for s in texts(at.success))


def test_play_notes_mode_adds_and_removes_candidate_notes() -> None:
    at = open_app(layout.PLAY)
    at.button(key="play_new").click().run()
    key = board_key(at, "play_board_")
    cell = at.session_state["play_game"].board.givens.index(0)
    tap(at, key, {cell: 4}, note=True)
    tap(at, key, {cell: 7}, note=True)
    assert at.session_state["play_game"].board.marks[cell] == {4, 7}
    assert board_args(at, key)["notes"][cell] == "47"
    tap(at, key, {cell: 4}, note=True)
    assert at.session_state["play_game"].board.marks[cell] == {7}
    at.button(key="play_undo").click().run()
    assert at.session_state["play_game"].board.marks[cell] == {4, 7}


def test_hint_marks_name_the_cells_and_the_candidates_removed() -> None:
    """A hint shows its target first; once revealed, its pattern and the notes it rules out."""
    from sudokucam.solver.logic.solving import Hint
    from sudokucam.solver.logic.step import Step, Technique
    from sudokucam.solver.outcome import Outcome
    from sudokucam.ui.app.widgets.hints import hint_marks

    step = Step(Technique.NAKED_PAIR, (), ((5, 3), (5, 8), (7, 3)), (2, 3), (0,), "a pair")
    found = Hint(Outcome.STEP, "", step)
    assert hint_marks(found, revealed=False).cells == {2, 3}
    shown = hint_marks(found, revealed=True)
    assert shown.cells == {2, 3} and shown.removed == {5: "38", 7: "3"}
    assert hint_marks(None, revealed=True) == HintMarks()


def test_progress_hint_starts_from_the_persons_notes() -> None:
    """The Check page's hint takes the person's notes: a cell whose notes leave out its
    answer is named first and marked on the board."""
    from sudokucam.solver import Grid
    from sudokucam.solver.logic.solving import unique_solution
    from sudokucam.solver.outcome import Outcome
    from sudokucam.ui.app.widgets.hints import find_hint, hint_marks

    puzzle = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
    givens = [int(d) for d in puzzle]
    solved = unique_solution(Grid.parse(puzzle).shape, Grid.parse(puzzle).values)
    assert solved is not None
    cell = puzzle.index("0")
    notes = [""] * 81
    notes[cell] = "".join(str(d) for d in range(1, 10) if d != solved[cell])[:2]
    found = find_hint(givens, [0] * 81, notes)
    assert found.status is Outcome.WRONG_NOTES and found.wrong == (cell,)
    assert hint_marks(found, revealed=False).cells == {cell}
    assert find_hint(givens, [0] * 81).status is Outcome.STEP  # without notes: a step


def test_play_pause_hides_the_board() -> None:
    at = open_app(layout.PLAY)
    at.button(key="play_new").click().run()
    at.button(key="play_pause").click().run()
    assert any("Paused" in i for i in texts(at.info))
    assert not board_keys(at, "play_board_")
    at.button(key="play_pause").click().run()
    assert board_keys(at, "play_board_")


# ----------------------------------------------------------------------------- photos


def test_photo_upload_is_read_and_solved(samples_dir: Path) -> None:
    photo, truth = sample(samples_dir, "printed", "demo")
    at = open_app(layout.PHOTO)
    at.file_uploader(key="photo_upload").upload(photo.name, photo.read_bytes(), "image/jpeg")
    at.run()
    assert not at.exception, at.exception
    assert any(s.startswith("Solved") for s in texts(at.success)), all_text(at)
    assert texts(at.code) == [flat(truth["solution"])]
    assert len(at.image) == 2  # the grid found, and the answer drawn in
    labels = [b.label for b in at.get("download_button")]
    assert labels == ["Download the solved photo", "Download the reading (JSON)"]


def test_photo_from_camera_is_solved(samples_dir: Path) -> None:
    photo, truth = sample(samples_dir, "printed", "demo")
    at = open_app(layout.PHOTO)
    at.radio(key="photo_source").set_value("Camera").run()
    assert at.camera_input[0].resolution == "1080p"
    at.camera_input[0].upload("shot.jpg", photo.read_bytes()).run()
    assert not at.exception, at.exception
    assert texts(at.code) == [flat(truth["solution"])]


def test_photo_sample_selector_and_cell_edit(samples_dir: Path) -> None:
    _, truth = sample(samples_dir, "printed", "demo")
    at = open_app(layout.PHOTO)
    at.radio(key="photo_source").set_value("Sample").run()
    at.selectbox(key="photo_sample").set_value("printed/demo").run()
    assert texts(at.code) == [flat(truth["solution"])]
    givens = flat(truth["givens"]) if "givens" in truth else None
    key = board_key(at, "photo_grid_")
    table = [int(d) for d in board_args(at, key)["digits"]]
    if givens is not None:
        assert "".join(map(str, table)) == givens
    filled = next(c for c, v in enumerate(table) if v)
    same_row = next(c for c in range(filled // 9 * 9, filled // 9 * 9 + 9) if not table[c])
    tap(at, key, {same_row: table[filled]})  # a digit twice in one row
    assert not at.code and "break the rules" in "\n".join(texts(at.error))
    looks = looks_of(at, key)
    assert looks[same_row] == looks[filled] == "conflict"  # the clash is highlighted
    tap(at, key, {same_row: 0})  # take it back: solved again
    assert texts(at.code) == [flat(truth["solution"])]
    assert "conflict" not in looks_of(at, key).values()


@pytest.mark.parametrize("name", ["half_blue", "nearly_done"])
def test_progress_check_rings_wrong_entries(samples_dir: Path, name: str) -> None:
    photo, truth = sample(samples_dir, "progress", name)
    at = progress_checked(photo)
    correct_reading(at, flat(truth["givens"]), flat(truth["pen"]))
    answer_questions(at, flat(truth["pen"]))
    metrics = {m.label: int(m.value) for m in at.metric}
    mistakes = {r * 9 + c for r, c in truth["mistakes"]}
    pen = flat(truth["pen"])
    assert metrics["Entries wrong"] == len(mistakes), all_text(at)
    assert metrics["Entries right"] == sum(1 for d in pen if d != "0") - len(mistakes)
    assert metrics["To check"] == 0
    # a wrong entry is not an empty cell: the two are counted apart
    assert metrics["Cells left"] == pen.count("0") - sum(
        1 for d in flat(truth["givens"]) if d != "0"
    )
    looks = looks_of(at, board_key(at, "progress_board_"))
    assert {c for c, look in looks.items() if look == "wrong"} == mistakes
    names = [f"r{c // 9 + 1}c{c % 9 + 1}" for c in sorted(mistakes)]
    if mistakes:
        assert all(n in texts(at.warning)[0] for n in names)
    hint_button = next(b.key for b in at.button if b.key and b.key.endswith("_button"))
    at.button(key=hint_button).click().run()
    assert any("Look at r" in i for i in texts(at.info)), all_text(at)


def test_progress_asks_about_an_unsure_entry_and_one_tap_answers_it(
    samples_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry the reading is unsure of is a question with its cell's picture; tapping a
    digit writes it on the board and closes the question (the reader's doubt is stubbed: the
    page's mistake is asked about instead of called wrong)."""
    from sudokucam.vision.results import GridResult, UnsureEntry

    photo, truth = sample(samples_dir, "progress", "half_blue")
    at = progress_checked(photo)
    key = board_key(at, "progress_board_")
    args = board_args(at, key)
    row, col = truth["mistakes"][0]  # a pen mistake: asked about, the answer's digit tapped
    cell = row * 9 + col
    read, other = int(args["digits"][cell]), truth["solution"][row][col]
    assert args["printed"][cell] == "0" and read != other
    doubt = (UnsureEntry(cell, read, other),)
    monkeypatch.setattr(GridResult, "unsure_entries", lambda self: doubt, raising=False)
    monkeypatch.setattr(GridResult, "wrong_entries", property(lambda self: ()), raising=False)
    at.run()
    question = f"is this a **{read}** or a **{other}**?"
    assert any(question in m for m in texts(at.markdown)), all_text(at)
    assert looks_of(at, key)[cell] == "unsure"
    assert {m.label: int(m.value) for m in at.metric}["To check"] == 1
    assert any("1 unsure" in c.value for c in at.caption)  # the CLI's line, as read
    at.button(key=f"progress_ask_{_digest(photo)}_{cell}_{other}").click().run()
    assert not at.exception, at.exception
    assert board_args(at, key)["digits"][cell] == str(other)
    assert not any(question in m for m in texts(at.markdown))
    assert looks_of(at, key)[cell] == "edited"
    assert {m.label: int(m.value) for m in at.metric}["To check"] == 0
    assert not any("unsure" in c.value for c in at.caption)  # no stale CLI line once answered


def test_progress_asks_what_unreadable_writing_is_and_one_tap_answers_it(
    samples_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writing no digit was read in is a question with its cell's picture and a button per
    digit; tapping one writes it on the board as the person's entry (the reader's
    unreadable cell is stubbed)."""
    from sudokucam.vision.results import GridResult

    photo, _ = sample(samples_dir, "progress", "half_blue")
    at = progress_checked(photo)
    key = board_key(at, "progress_board_")
    cell = board_args(at, key)["digits"].index("0")
    asked = {m.label: int(m.value) for m in at.metric}["To check"]
    monkeypatch.setattr(
        GridResult,
        "unreadable_cells",
        property(lambda self: (cell,) if self.handwritten[cell] == "0" else ()),
    )
    at.run()
    question = f"r{cell // 9 + 1}c{cell % 9 + 1}: which digit did you write here?"
    assert any(question in m for m in texts(at.markdown)), all_text(at)
    assert looks_of(at, key)[cell] == "unsure"
    assert {m.label: int(m.value) for m in at.metric}["To check"] == asked + 1
    assert any("writing I cannot read" in c.value for c in at.caption)  # the CLI's line
    at.button(key=f"progress_read_{_digest(photo)}_{cell}_7").click().run()
    assert not at.exception, at.exception
    assert board_args(at, key)["digits"][cell] == "7"
    assert board_args(at, key)["printed"][cell] == "0"  # the person's own entry
    assert not any(question in m for m in texts(at.markdown))
    assert {m.label: int(m.value) for m in at.metric}["To check"] == asked


@pytest.mark.parametrize("name", ["half_blue", "nearly_done"])
def test_progress_counts_and_words_are_those_of_the_cli(
    samples_dir: Path, tmp_path: Path, name: str
) -> None:
    """The app and `sudokucam check` give the same counts, in the same words, for one photo."""
    photo, _ = sample(samples_dir, "progress", name)
    out = str(tmp_path / "checked.png")
    text = CliRunner().invoke(cli_app, ["check", str(photo), "-o", out])
    doc = json.loads(CliRunner().invoke(cli_app, ["check", str(photo), "-o", out, "--json"]).stdout)
    check = doc["grids"][0]["check"]
    at = progress_checked(photo)
    metrics = {m.label: int(m.value) for m in at.metric}
    assert metrics == {
        "Cells left": check["left"],
        "Entries wrong": len(check["wrong"]),
        "To check": len(check["unsure"]) + len(check["unreadable"]),
        "Entries right": len(check["right"]),
    }
    line = text.stdout.splitlines()[0]
    assert line.startswith(f"{check['left']} cells left, {len(check['wrong'])} entr"), line
    assert line in texts(at.caption), all_text(at)


def test_photo_of_several_puzzles_shows_each_with_its_answer(repo_dir: Path) -> None:
    photo = repo_dir / "samples" / "pages" / "page0.jpg"
    at = open_app(layout.PHOTO)
    at.file_uploader(key="photo_upload").upload(photo.name, photo.read_bytes(), "image/jpeg")
    at.run()
    assert not at.exception, at.exception
    switch = at.get("button_group")[0]
    assert switch.label.startswith("3 puzzles on this photo"), switch.label
    answers = set()
    for index in range(3):
        switch.set_value(index).run()
        assert not at.exception, at.exception
        assert any(t.startswith("Solved") for t in texts(at.success)), all_text(at)
        (answer,) = texts(at.code)
        answers.add(answer)
        switch = at.get("button_group")[0]
    assert len(answers) == 3  # three puzzles, three answers
    assert "sudokucam solve" not in all_text(at)  # no command line to send a phone user to


def correct_reading(at: Any, givens: str, pen: str) -> None:
    """Correct the checked board to the truth, as a person tapping misread cells would."""
    key = board_key(at, "progress_board_")
    args = board_args(at, key)
    digits = "".join(g if g != "0" else p for g, p in zip(givens, pen, strict=True))
    printed = "".join("1" if g != "0" else "0" for g in givens)
    if (args["digits"], args["printed"]) != (digits, printed):
        send_board(at, key, digits, printed, args["notes"], -1)


def answer_questions(at: Any, pen: str) -> None:
    """Answer each 'is this a 3 or an 8?' with the digit truly written: one tap on its button,
    or, when neither is right, a tap on the board."""
    for _ in range(81):
        asks = [b for b in at.button if b.key and b.key.startswith("progress_ask_")]
        if not asks:
            return
        cell = int(asks[0].key.split("_")[-2])
        button = next((b for b in asks if b.key.endswith(f"_{cell}_{pen[cell]}")), None)
        if button is not None:
            button.click().run()
        else:
            tap(at, board_key(at, "progress_board_"), {cell: int(pen[cell])})
        assert not at.exception, at.exception
        assert not any(b.key.endswith(f"_{cell}_{pen[cell]}") for b in at.button if b.key)


def _digest(photo: Path) -> str:
    """The app's fingerprint of a photo's bytes."""
    from sudokucam.ui.app.widgets.photo_input import PhotoInput

    return PhotoInput(photo.name, photo.read_bytes()).digest


def test_non_image_file_says_it_cannot_be_read() -> None:
    at = open_app(layout.PHOTO)
    at.file_uploader(key="photo_upload").upload("notes.jpg", b"shopping list\n", "image/jpeg")
    at.run()
    assert not at.exception, at.exception
    message = "\n".join(texts(at.error))
    assert "could not be read as a photo" in message and "JPEG, PNG, WebP or HEIC" in message


def test_photo_uploader_says_its_limits() -> None:
    at = open_app(layout.PHOTO)
    assert "Photos up to 25 MB and 25 megapixels" in "\n".join(texts(at.caption))


def test_an_upload_over_the_size_limit_says_its_size_and_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A file over max_upload_mb that reaches the app (the browser refuses it before it is
    sent; another client need not) is refused with its size and the limit."""
    from sudokucam.ui.app.state.settings import AppConfig

    monkeypatch.setattr(
        "sudokucam.ui.app.widgets.photo_input.APP_CONFIG", AppConfig(max_upload_mb=1)
    )
    at = open_app(layout.PHOTO)
    assert "Photos up to 1 MB and 25 megapixels" in "\n".join(texts(at.caption))
    at.file_uploader(key="photo_upload").upload("big.jpg", b"\xff" * (3 * 2**19), "image/jpeg")
    at.run()
    assert not at.exception, at.exception
    message = "\n".join(texts(at.error))
    assert "big.jpg is too large: 1.5 MB (limit 1 MB)" in message
    assert "smaller photo" in message and "JPEG, PNG" not in message


def jpeg_claiming(width: int, height: int) -> bytes:
    """A 16×16 JPEG whose frame header announces ``width`` × ``height`` (a few hundred bytes)."""
    buffer = io.BytesIO()
    Image.new("RGB", (16, 16), (200, 200, 200)).save(buffer, "JPEG")
    data = bytearray(buffer.getvalue())
    frame = data.find(b"\xff\xc0")  # SOF0: marker, length, precision, height, width
    data[frame + 5 : frame + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def test_a_photo_with_too_many_pixels_is_told_to_be_smaller_not_another_format() -> None:
    at = open_app(layout.PHOTO)
    at.file_uploader(key="photo_upload").upload("x.jpg", jpeg_claiming(12000, 9000), "image/jpeg")
    at.run()
    assert not at.exception, at.exception
    message = "\n".join(texts(at.error))
    assert "x.jpg is too large: 12000×9000 = 108.0 megapixels (limit 25.0)." in message
    assert "smaller photo" in message and "JPEG, PNG, WebP or HEIC" not in message


def test_blank_image_says_no_grid_and_what_to_try() -> None:
    blank = np.full((900, 1200, 3), 235, dtype=np.uint8)
    at = open_app(layout.PHOTO)
    at.file_uploader(key="photo_upload").upload("blank.png", png_of(blank), "image/png")
    at.run()
    assert not at.exception, at.exception
    message = "\n".join(texts(at.error))
    assert "No Sudoku grid was found" in message and "straight above" in message
    assert not at.get("download_button")


def test_many_photos_and_pdf_pages_give_a_table_and_a_zip(samples_dir: Path) -> None:
    photo, _ = sample(samples_dir, "printed", "demo")
    other = samples_dir / "printed" / "shadow.jpg"
    pdf = io.BytesIO()
    pages = [Image.open(photo).convert("RGB"), Image.open(other).convert("RGB")]
    pages[0].save(pdf, format="PDF", save_all=True, append_images=pages[1:], resolution=150)
    at = open_app(layout.BATCH)
    at.file_uploader(key="batch_files").set_value(
        [
            (photo.name, photo.read_bytes(), "image/jpeg"),
            ("two.pdf", pdf.getvalue(), "application/pdf"),
            ("broken.png", b"not a png", "image/png"),
        ]
    ).run()
    at.button(key="batch_run").click().run()
    assert not at.exception, at.exception
    table = at.dataframe[0].value
    assert list(table["File"]) == [photo.name, "two.pdf", "two.pdf", "broken.png"]
    assert list(table["Page"]) == ["", "1", "2", ""]
    assert list(table["Result"]) == ["solved", "solved", "solved", "unreadable"]
    assert texts(at.success) == ["3 of 4 grids solved."]
    zip_data = at.session_state["batch_result"][1].zip_data
    names = zipfile.ZipFile(io.BytesIO(zip_data)).namelist()
    assert "results.csv" in names
    assert sum(1 for n in names if n.startswith("solved/") and n.endswith(".png")) == 3
    assert {"solved/demo_p1_g1.png", "solved/two_p1_g1.png", "solved/two_p2_g1.png"} <= set(names)


def test_check_board_marks_notes_that_rule_out_the_answer() -> None:
    """A cell whose notes leave out its answer is drawn wrong on the Check board; other
    notes cells stay plain."""
    from types import SimpleNamespace

    from sudokucam.ui.app.pages.progress import check_looks
    from sudokucam.ui.app.widgets.board import Look

    givens = "5" + "0" * 80
    notes = ("", "12", "34") + ("",) * 78
    solution = "5" + "3" + "4" + "0" * 78
    grid = SimpleNamespace(
        givens=givens,
        handwritten="0" * 81,
        pen_cells=(),
        right_entries=(),
        wrong_entries=(),
        solution=solution,
        conflict_cells=(),
        notes=notes,
        wrong_notes=lambda: tuple(c for c, n in enumerate(notes) if n and solution[c] not in n),
    )
    looks = check_looks(grid, grid, set())  # type: ignore[arg-type]
    assert looks[1] == Look.WRONG  # notes 1 and 2, the answer is 3
    assert 2 not in looks  # notes 3 and 4 hold the answer 4
    assert looks[0] == Look.GIVEN
