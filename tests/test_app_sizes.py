"""Type a puzzle and Play at every size the board draws: 4×4, 6×6, 8×8, 12×12 and 16×16
classic Sudokus beside the 9×9 (docs/variants.md).

Driven through streamlit.testing.v1.AppTest as tests/test_app.py does. The typed puzzles
are fixed (made once by ``new_classic`` and written out here, their answers checked by
``VariantPuzzle.is_solution``); a new game is made from a fixed seed (the page's random
numbers replaced by a seeded generator), and every cell the tests tap is chosen from the
game's own givens and solution.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from sudokucam.solver.variant import Variant, VariantPuzzle
from sudokucam.tests.app_harness import open_app
from sudokucam.tests.test_app import all_text, board_args, board_key, looks_of, send_board, texts
from sudokucam.ui.app import layout
from sudokucam.ui.app.pages import play_start
from sudokucam.ui.app.state.game import Board, Game, load_game
from sudokucam.ui.app.state.variants import VARIANT_GAMES, new_classic, new_variant
from sudokucam.vision.types import VALUE_CHARS

pytest.importorskip("streamlit.testing.v1")

FOUR = ".1....411..32...", "4132324114232314"
SIX = (
    "3.2.....1.4.42..1..15..3.3...6...23.",
    "342561561342423615615423234156156234",
)
SIXTEEN = (
    ".C.E.4.12GF6....D4.1..A.5.BE..F6..F6..BE39......3.A...F6...15.....5B1..D9.64.A.7A..98.5"
    ".C3..1B..7.82.F..1BG5.E.D.D.......8.2..C..5...D..FE8..6...7EA.895B.1G.3..G.9F...C.D5AB."
    "1...3..A1.7.C..8..E.D7C.32.A...F...14.A..G..9C72E.9....58.672D.1.3.A.57..9E13F.DGC",
    "5CBED4712GF639A8D47139A85CBE2GF62GF65CBE39A8D47139A82GF6D4715CBECE5B12GD9F648A37AF698E54"
    "C3D71B2G73829FCA1BG54E6D1DG4B763A8E2F5C9B51C4D27FE83G69A67EAF895B21GC3D4G89F63EC4D5AB712"
    "423DGA1B76C9E85FE6D7C132GA4B9F85F143A6DG859C72EB9BCGE58F672DA1438A257B49E13F6DGC",
)
SEED = 7


def values_of(line: str) -> tuple[int, ...]:
    """A line of the JSON contract ('.' empty, A-G for 10-16) as values."""
    return tuple(0 if ch == "." else VALUE_CHARS.index(ch) for ch in line)


def sized(size: int, text: str = "", kind: str = "Classic") -> Any:
    """The Type page at a size, with a puzzle pasted (if any) and Solve pressed."""
    at = open_app(layout.TYPE)
    at.radio(key="typed_kind").set_value(kind).run()
    at.selectbox(key="typed_size").set_value(f"{size}×{size}").run()
    if text:
        at.text_area(key="typed_text").input(text).run()
    at.button(key="typed_solve").click().run()
    assert not at.exception, at.exception
    return at


def put(at: Any, key: str, edits: dict[int, int]) -> None:
    """Write values (0: Erase) into cells of a board of any size, as its frontend sends them."""
    args = board_args(at, key)
    digits, printed, notes = list(args["digits"]), list(args["printed"]), list(args["notes"])
    for cell, value in edits.items():
        if digits[cell] == "0":
            printed[cell] = "1" if args["typed_printed"] and value else "0"
        digits[cell], notes[cell] = VALUE_CHARS[value], ""
        printed[cell] = printed[cell] if value else "0"
    send_board(at, key, "".join(digits), "".join(printed), notes, max(edits))


def test_typed_6x6_is_solved_on_a_6x6_board() -> None:
    at = sized(6, SIX[0])
    assert texts(at.success) == ["Solved: the puzzle has exactly one solution."]
    answer = board_args(at, "typed_solution")
    assert answer["size"] == 6 and answer["digits"] == SIX[1]
    assert len(set(answer["regions"])) == 6  # its 2 × 3 boxes drawn
    assert SIX[1] in texts(at.code)[0]
    assert VariantPuzzle(6, values_of(SIX[0]), Variant.CLASSIC).is_solution(values_of(SIX[1]))
    assert "boxes of 2 rows × 3 columns" in all_text(at)


def test_typed_6x6_tapped_in_shows_its_rule_break_on_the_board() -> None:
    at = sized(6)
    assert any("The grid is empty" in i for i in texts(at.info))
    key = board_key(at, "typed_grid_")
    assert board_args(at, key)["size"] == 6
    put(at, key, {c: v for c, v in enumerate(values_of(SIX[0])) if v})
    assert board_args(at, "typed_solution")["digits"] == SIX[1]
    put(at, key, {1: 3})  # r1c2 = 3 beside the given 3 at r1c1
    assert not at.success
    assert any("r1c1 and r1c2 both hold 3" in e for e in texts(at.error)), texts(at.error)
    looks = looks_of(at, key)
    assert looks[0] == looks[1] == "conflict"


def test_typed_16x16_reads_a_to_g_and_names_numbers() -> None:
    at = sized(16, SIXTEEN[0])
    assert board_args(at, "typed_solution")["digits"] == SIXTEEN[1]
    text = texts(at.code)[0]
    first_row = " ".join(f"{VALUE_CHARS.index(ch):>2}" for ch in SIXTEEN[1][:16])
    assert text.splitlines()[0] == first_row  # 10-16 written as numbers
    key = board_key(at, "typed_grid_")
    empty = SIXTEEN[0].index(".", 2)  # r1c3, beside the given 12 (C) at r1c2
    put(at, key, {empty: 12})
    assert any("r1c2 and r1c3 both hold 12" in e for e in texts(at.error)), texts(at.error)
    assert looks_of(at, key)[empty] == "conflict"


def test_typed_text_of_the_wrong_size_says_so() -> None:
    at = sized(6, SIX[0][:35])
    assert any("not a 6×6 puzzle" in e and "Paste 36 characters" in e for e in texts(at.error))


def test_a_typed_json_of_another_size_is_accepted_with_9x9_chosen() -> None:
    at = open_app(layout.TYPE)
    at.text_area(key="typed_text").input(f'{{"size": 4, "givens": "{FOUR[0]}"}}').run()
    at.button(key="typed_solve").click().run()
    assert not at.exception and not at.error, texts(at.error)
    assert board_args(at, "typed_solution")["digits"] == FOUR[1]
    at.button(key="typed_hint_button").click().run()  # a small grid's hint: singles
    assert any("Look at r" in i for i in texts(at.info)), texts(at.info)


def test_typed_sudoku_x_at_6x6_keeps_its_diagonals() -> None:
    at = sized(6, "." * 36, kind="Sudoku X")
    args = board_args(at, board_key(at, "typed_grid_"))
    assert args["size"] == 6 and args["diagonals"] is True


def test_new_classic_games_of_each_size_are_unique_and_keep_the_givens_asked() -> None:
    for size in (4, 6, 8, 12):
        givens = VARIANT_GAMES.givens_for(size)
        many = next(iter(givens.values()))
        puzzle, solution = new_classic(size, many, SEED)
        assert puzzle.size == size and puzzle.is_solution(solution)
        assert sum(1 for v in puzzle.givens if v) >= many
    assert "Fewest" not in VARIANT_GAMES.givens_for(16)
    assert new_variant("Classic", 18, SEED, 6) == new_classic(6, 18, SEED)  # seeded


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Play page's new games made from a fixed seed."""
    monkeypatch.setattr(play_start, "random", random.Random(SEED))


@pytest.mark.usefixtures("seeded")
def test_play_a_new_6x6_check_clash_undo_hint_and_save() -> None:
    at = open_app(layout.PLAY)
    at.selectbox(key="play_size").set_value("6×6").run()
    at.button(key="play_new").click().run()
    assert not at.exception, at.exception
    game = at.session_state["play_game"]
    assert game.board.size == 6 and game.puzzle.size == 6
    key = board_key(at, "play_board_")
    assert board_args(at, key)["size"] == 6
    givens = game.board.givens
    # an empty cell and a digit its row already holds as a given
    cell, held = next(
        (c, givens[m])
        for c in range(36)
        if not givens[c]
        for m in range(c - c % 6, c - c % 6 + 6)
        if givens[m]
    )
    put(at, key, {cell: held})
    assert looks_of(at, key)[cell] == "conflict"
    at.button(key="play_check").click().run()
    assert any("1 wrong" in e for e in texts(at.error))
    at.button(key="play_undo").click().run()
    board = at.session_state["play_game"].board
    assert board.entries[cell] == 0
    hint_key = f"play_hint_{hash(board)}"
    at.button(key=f"{hint_key}_button").click().run()
    assert any("Look at r" in i for i in texts(at.info)), texts(at.info)
    at.button(key=f"{hint_key}_reveal").click().run()
    assert any(" = " in s for s in texts(at.success))
    assert "1 to 6" in all_text(at) and "2×3 (2 rows × 3 columns)" in all_text(at)
    saved = at.session_state["play_game"].to_text()
    assert '"size": 6' in saved
    assert load_game(saved).board == at.session_state["play_game"].board
    put(at, key, {c: game.solution[c] for c in range(36) if not givens[c]})
    assert at.session_state["play_game"].solved


@pytest.mark.usefixtures("seeded")
def test_play_a_new_4x4_and_8x8() -> None:
    for size in (4, 8):
        at = open_app(layout.PLAY)
        at.selectbox(key="play_size").set_value(f"{size}×{size}").run()
        at.button(key="play_new").click().run()
        assert not at.exception, at.exception
        game = at.session_state["play_game"]
        assert game.board.size == size and game.puzzle.is_solution(game.solution)


def test_a_saved_16x16_game_with_notes_past_9_opens_again() -> None:
    puzzle = VariantPuzzle(16, values_of(SIXTEEN[0]), Variant.CLASSIC)
    board = Board(puzzle.givens)
    empty = [c for c in range(256) if not puzzle.givens[c]]
    board = board.place(empty[0], 12).set_marks(empty[1], frozenset({10, 16}))
    game = Game.start(board, puzzle=puzzle)
    saved = game.to_text()
    assert "=AG" in saved  # notes 10 and 16, as the JSON contract writes them
    back = load_game(saved)
    assert back.board == board and back.solution == values_of(SIXTEEN[1])
    at = open_app(layout.PLAY)
    at.session_state["play_game"] = back
    at.run()
    assert not at.exception, at.exception
    args = board_args(at, board_key(at, "play_board_"))
    assert args["size"] == 16 and args["notes"][empty[1]] == "AG"
    put(at, board_key(at, "play_board_"), {empty[2]: 16})
    assert at.session_state["play_game"].board.entries[empty[2]] == 16


def test_play_from_a_6x6_photo_plays_it_on_a_6x6_board() -> None:
    photo = Path(__file__).resolve().parent.parent / "samples" / "small" / "six_book.jpg"
    truth = json.loads(photo.with_suffix(".json").read_text(encoding="utf-8"))
    at = open_app(layout.PLAY)
    at.radio(key="play_start_from").set_value("From a photo").run()
    at.file_uploader(key="play_photo_upload").upload(photo.name, photo.read_bytes(), "image/jpeg")
    at.run()
    at.button(key="play_from_photo").click().run()
    assert not at.exception, at.exception
    game = at.session_state["play_game"]
    assert game.board.givens == values_of(truth["puzzle"]["givens"])
    assert game.solution == values_of(truth["answer"]) and game.puzzle.size == 6
    assert board_args(at, board_key(at, "play_board_"))["size"] == 6
