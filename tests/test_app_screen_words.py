"""What the app's pages say matches what they show, and the pages a phone user plays on.

Driven through streamlit.testing.v1.AppTest. A tap on the board (a custom component) is
sent as its frontend sends it: the whole grid with the next edit number.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from sudokucam.tests.app_harness import open_app
from sudokucam.ui.app import layout
from sudokucam.ui.app.widgets.board import LOOK_COLOURS, Look

pytest.importorskip("streamlit.testing.v1")

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "samples"
COLOUR_WORDS = ("red", "amber", "orange", "green", "blue", "yellow", "pink", "purple")


def board_args(at: Any, prefix: str) -> tuple[str, dict[str, Any]]:
    """The key and arguments of the one board whose key starts with prefix."""
    found = [e for e in at.get("component_instance") if str(e.key).startswith(prefix)]
    assert len(found) == 1, [e.key for e in at.get("component_instance")]
    return str(found[0].key), json.loads(found[0].proto.json_args)


def send(at: Any, prefix: str, digits: str, printed: str | None = None) -> None:
    """The board's grid sent back as after a tap (printed flags kept unless given)."""
    key, args = board_args(at, prefix)
    value = {"seq": args["ack"] + 1, "cell": 0, "digits": digits,
             "printed": printed or args["printed"], "notes": args["notes"]}  # fmt: skip
    at.session_state[key] = value
    at.run()
    assert not at.exception, at.exception


def looks(at: Any, prefix: str) -> dict[int, str]:
    """The look of every cell of a board that has one."""
    return {c: look for c, look in enumerate(board_args(at, prefix)[1]["looks"]) if look}


def words(at: Any) -> str:
    """Every message on the page."""
    kinds = ("success", "error", "warning", "info", "markdown", "caption")
    return "\n".join(str(e.value) for kind in kinds for e in getattr(at, kind))


def colours_named(text: str) -> set[str]:
    """The colour words a text uses."""
    return {w for w in COLOUR_WORDS if re.search(rf"\b{w}\b", text)}


def assert_legend_lists_every_look(at: Any, prefix: str) -> None:
    """The board's legend names every look its cells are drawn in."""
    _, args = board_args(at, prefix)
    assert set(looks(at, prefix).values()) <= set(args["legend"]), args["legend"]


def upload(at: Any, prefix: str, photo: Path) -> None:
    at.file_uploader(key=f"{prefix}_upload").upload(photo.name, photo.read_bytes(), "image/jpeg")
    at.run()
    assert not at.exception, at.exception


# ----------------------------------------------------------------------------- messages


def test_a_broken_reading_names_only_the_colours_the_board_shows() -> None:
    at = open_app(layout.PHOTO)
    upload(at, "photo", SAMPLES / "printed" / "demo.jpg")
    _, args = board_args(at, "photo_grid_")
    digits = args["digits"]
    filled = next(c for c, d in enumerate(digits) if d != "0")
    twin = next(c for c in range(filled // 9 * 9, filled // 9 * 9 + 9) if digits[c] == "0")
    clash = digits[:twin] + digits[filled] + digits[twin + 1 :]
    send(at, "photo_grid_", clash, args["printed"][:twin] + "1" + args["printed"][twin + 1 :])
    shown = looks(at, "photo_grid_")
    assert shown[twin] == shown[filled] == Look.CONFLICT
    errors = "\n".join(str(e.value) for e in at.error)
    assert "break the rules" in errors
    allowed = {LOOK_COLOURS[Look(look)] for look in shown.values()} | {"red"}  # photo rings
    assert colours_named(errors) <= {w for a in allowed for w in colours_named(a)}, errors
    assert "red" in colours_named(errors)  # the clash is named by its colour
    assert_legend_lists_every_look(at, "photo_grid_")


def test_a_reading_with_several_answers_names_no_colour_the_board_lacks() -> None:
    at = open_app(layout.PHOTO)
    upload(at, "photo", SAMPLES / "printed" / "demo.jpg")
    _, args = board_args(at, "photo_grid_")
    kept = [c for c, d in enumerate(args["digits"]) if d != "0"][:12]
    digits = "".join(d if c in kept else "0" for c, d in enumerate(args["digits"]))
    send(at, "photo_grid_", digits, "".join("1" if d != "0" else "0" for d in digits))
    errors = "\n".join(str(e.value) for e in at.error)
    assert "more than one answer" in errors, words(at)
    shown = {LOOK_COLOURS[Look(look)] for look in looks(at, "photo_grid_").values()}
    if Look.CONFLICT not in looks(at, "photo_grid_").values():
        assert "red" not in colours_named(errors), errors  # it said "outlined in red"
    assert colours_named(errors) <= {w for a in shown for w in colours_named(a)}, errors


def test_the_count_of_digits_read_is_the_boards() -> None:
    at = open_app(layout.PHOTO)
    upload(at, "photo", SAMPLES / "printed" / "demo.jpg")
    _, args = board_args(at, "photo_grid_")
    printed = sum(1 for d in args["digits"] if d != "0")
    (solved,) = [str(s.value) for s in at.success]
    assert f"from the {printed} printed digits read" in solved


def test_a_digit_moved_to_pen_is_in_the_legend() -> None:
    at = open_app(layout.PROGRESS)
    upload(at, "progress", SAMPLES / "progress" / "half_blue.jpg")
    _, args = board_args(at, "progress_board_")
    cell = args["printed"].index("1")
    moved = args["printed"][:cell] + "0" + args["printed"][cell + 1 :]
    send(at, "progress_board_", args["digits"], moved)
    assert looks(at, "progress_board_")[cell] == Look.EDITED
    assert_legend_lists_every_look(at, "progress_board_")


# ------------------------------------------------------------------- a phone's first screen


def test_once_a_photo_is_read_the_answer_comes_first_and_the_source_folds() -> None:
    at = open_app(layout.PHOTO)
    (chooser,) = at.expander
    assert chooser.label == "Choose a photo" and chooser.proto.expanded
    upload(at, "photo", SAMPLES / "printed" / "demo.jpg")
    chooser = next(e for e in at.expander if e.label.startswith("Photo: demo.jpg"))
    assert not chooser.proto.expanded
    assert at.success and at.code  # the answer is on the page, the source folded below it


# ----------------------------------------------------------------------------- play


def new_game(at: Any) -> Any:
    at.button(key="play_new").click().run()
    assert not at.exception, at.exception
    return at.session_state["play_game"]


def test_the_start_panel_folds_once_a_game_starts() -> None:
    at = open_app(layout.PLAY)
    (panel,) = at.expander
    assert panel.label == "Start a game" and panel.proto.expanded
    new_game(at)
    panel = next(e for e in at.expander if e.label == "Another game")
    assert not panel.proto.expanded
    assert board_args(at, "play_board_")[1]["editable"]


def test_a_clash_shows_at_once_and_the_setting_turns_it_off() -> None:
    at = open_app(layout.PLAY)
    game = new_game(at)
    givens = game.board.givens
    # an empty cell and a given of its row (a random game's first empty row may have none)
    cell, given = next(
        (c, g) for c in range(81) if not givens[c]
        for g in range(c // 9 * 9, c // 9 * 9 + 9) if givens[g]
    )  # fmt: skip
    digits = "".join(map(str, game.board.values))
    send(at, "play_board_", digits[:cell] + digits[given] + digits[cell + 1 :])
    shown = looks(at, "play_board_")
    assert shown[given] == Look.CONFLICT and shown[cell] in (Look.CONFLICT, Look.WRONG)
    assert_legend_lists_every_look(at, "play_board_")
    at.toggle(key="play_clashes").set_value(False).run()
    assert Look.CONFLICT not in looks(at, "play_board_").values()


def test_a_hint_with_a_mistake_shows_it_and_follows_once_it_is_corrected() -> None:
    at = open_app(layout.PLAY)
    game = new_game(at)
    values = list(game.board.values)
    # a wrong digit that clashes with nothing: the hint, not the rules, must find it
    for cell in (c for c, v in enumerate(values) if not v):
        peers = {values[p] for p in range(81) if p != cell and (
            p // 9 == cell // 9 or p % 9 == cell % 9
            or (p // 27 == cell // 27 and p % 9 // 3 == cell % 9 // 3))}  # fmt: skip
        free = [d for d in range(1, 10) if d not in peers and d != game.solution[cell]]
        if free:
            break
    digits = "".join(map(str, values))
    send(at, "play_board_", digits[:cell] + str(free[0]) + digits[cell + 1 :])
    board = at.session_state["play_game"].board
    at.button(key=f"play_hint_{hash(board)}_button").click().run()
    warned = "\n".join(str(w.value) for w in at.warning)
    assert "is wrong" in warned and "(in red on the board)" in warned
    assert looks(at, "play_board_")[cell] == Look.WRONG
    send(at, "play_board_", digits)  # erased: the hint shows without asking again
    assert any("Look at r" in str(i.value) for i in at.info), words(at)
    assert Look.HINT in looks(at, "play_board_").values()


def test_a_solved_game_says_so_on_top_with_no_pad_and_no_hint() -> None:
    at = open_app(layout.PLAY)
    game = new_game(at)
    send(at, "play_board_", "".join(map(str, game.solution)))
    assert any(str(s.value).startswith("**Solved in") for s in at.success)
    assert not [b for b in at.button if str(b.key).endswith("_button")]  # no Hint button
    assert not [b for b in at.button if b.key in ("play_pause", "play_undo", "play_redo")]
    assert not board_args(at, "play_board_")[1]["editable"]  # no number pad


def test_play_from_a_photo_keeps_its_candidate_notes() -> None:
    at = open_app(layout.PLAY)
    at.radio(key="play_start_from").set_value("From a photo").run()
    photo = SAMPLES / "progress" / "notes_half.jpg"
    upload(at, "play_photo", photo)
    read = at.session_state["play_photo_result"][1].grids[0]
    at.button(key="play_from_photo").click().run()
    assert not at.exception, at.exception
    notes = board_args(at, "play_board_")[1]["notes"]
    expected = [n if read.givens[c] == "0" and read.kept_entries[c] == "0" else ""
                for c, n in enumerate(read.notes)]  # fmt: skip
    assert sum(1 for n in expected if n) >= 10
    assert notes == expected


def test_the_typed_puzzles_legend_lists_the_clash() -> None:
    at = open_app(layout.TYPE)
    clash = "55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    at.text_area(key="typed_text").input(clash).run()
    at.button(key="typed_solve").click().run()
    assert not at.exception, at.exception
    assert looks(at, "typed_grid_")[0] == looks(at, "typed_grid_")[1] == Look.CONFLICT
    assert_legend_lists_every_look(at, "typed_grid_")


def test_digits_read_as_handwritten_are_counted_on_the_solve_page() -> None:
    """Every digit on the photo is accounted for: printed ones and those left out as pen."""
    at = open_app(layout.PHOTO)
    upload(at, "photo", SAMPLES / "progress" / "half_blue.jpg")
    read = at.session_state["photo_result"][1].grids[0]
    printed = sum(1 for d in read.givens if d != "0")
    pen = sum(1 for d in read.handwritten if d != "0")
    (solved,) = [str(s.value) for s in at.success]
    assert f"from the {printed} printed digits read ({pen} digits that look handwritten" in solved
