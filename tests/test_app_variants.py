"""Killer, Sudoku X and jigsaw puzzles in the app: the board's layout, Type a puzzle, Play.

Driven through streamlit.testing.v1.AppTest as tests/test_app.py does (its helpers read
the board's arguments and send taps back as the board's frontend would). The puzzles come
from solver/variant_sample.py with fixed seeds; every answer is checked by the puzzle's
own oracle, `VariantPuzzle.is_solution`.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from sudokucam.solver.logic.variant_hint import variant_hint
from sudokucam.solver.variant import Cage, Variant, VariantPuzzle
from sudokucam.solver.variant_sample import layout_solvable, random_killer
from sudokucam.tests.app_harness import open_app
from sudokucam.tests.test_app import (
    all_text,
    board_args,
    board_key,
    looks_of,
    tap,
    texts,
)
from sudokucam.ui.app import layout
from sudokucam.ui.app.state import variants
from sudokucam.ui.app.state.game import Board, Game, load_game
from sudokucam.ui.app.state.variants import Kind, clashing_cells, new_variant
from sudokucam.ui.app.widgets.board import BoardLayout, BoardView

SEED = 11


def killer() -> tuple[VariantPuzzle, tuple[int, ...]]:
    """A seeded 9×9 Killer without givens, and its solution."""
    return random_killer(random.Random(SEED))


def line(values: tuple[int, ...]) -> str:
    """81 digits, '.' for empty."""
    return "".join(str(v) if v else "." for v in values)


def pieces(labels: Any) -> set[frozenset[int]]:
    """The cells of each region, whatever the labels."""
    return {frozenset(c for c in range(81) if labels[c] == k) for k in set(labels)}


def typed(kind: str, text: str) -> Any:
    """The Type page with a kind chosen and a puzzle pasted, then Solve pressed."""
    at = open_app(layout.TYPE)
    at.radio(key="typed_kind").set_value(kind).run()
    at.text_area(key="typed_text").input(text).run()
    at.button(key="typed_solve").click().run()
    assert not at.exception, at.exception
    return at


def played(kind: str) -> Any:
    """The Play page with a new game of the kind started."""
    at = open_app(layout.PLAY)
    at.selectbox(key="play_kind").set_value(kind).run()
    at.button(key="play_new").click().run()
    assert not at.exception, at.exception
    return at


# ----------------------------------------------------------------------------- the board


def test_board_layout_sends_regions_diagonals_and_cages() -> None:
    puzzle, _ = killer()
    args = BoardView("0" * 81, layout=BoardLayout.of(puzzle)).args(0)
    assert len(args["cages"]) == len(puzzle.cages)
    first = puzzle.cages[0]
    assert args["cages"][0] == {"sum": first.total, "cells": list(first.cells)}
    assert args["regions"] == [] and args["diagonals"] is False
    classic = BoardView("0" * 81).args(0)
    assert (classic["regions"], classic["diagonals"], classic["cages"]) == ([], False, [])
    x = VariantPuzzle(9, (0,) * 81, Variant.X, diagonals=True)
    assert BoardView("0" * 81, layout=BoardLayout.of(x)).args(0)["diagonals"] is True


def test_board_layout_refuses_what_the_board_cannot_draw() -> None:
    with pytest.raises(ValueError, match=r"the board draws 4×4, .* puzzles; this one is 25×25"):
        BoardLayout.of(VariantPuzzle(25, (0,) * 625))
    six = BoardLayout.of(VariantPuzzle(6, (0,) * 36))  # a 6×6: its 2×3 boxes as regions
    assert six.size == 6 and len(set(six.regions)) == 6
    with pytest.raises(ValueError, match="regions must label 81 cells"):
        BoardLayout(regions=(0,) * 80)


# ----------------------------------------------------------------------------- rules


def test_clashes_follow_cages_diagonals_and_regions() -> None:
    puzzle, solution = killer()
    cage = next(k for k in puzzle.cages if len(k.cells) >= 2)
    a, b = cage.cells[:2]
    values = [0] * 81
    values[a] = values[b] = solution[a]  # one digit twice in a cage (maybe not a unit)
    assert {a, b} <= clashing_cells(puzzle, tuple(values))
    wrong_sum = list(solution)
    c, d = cage.cells[:2]
    wrong_sum[c], wrong_sum[d] = solution[c] % 9 + 1, solution[d]  # full cage, other sum
    if len({wrong_sum[x] for x in cage.cells}) == len(cage.cells):
        assert set(cage.cells) <= clashing_cells(puzzle, tuple(wrong_sum))
    assert clashing_cells(puzzle, solution) == frozenset()
    x = VariantPuzzle(9, (0,) * 81, Variant.X, diagonals=True)
    on_diagonal = [0] * 81
    on_diagonal[0] = on_diagonal[80] = 5  # r1c1 and r9c9: only the main diagonal holds both
    assert clashing_cells(x, tuple(on_diagonal)) == {0, 80}
    assert clashing_cells(VariantPuzzle(9, (0,) * 81), tuple(on_diagonal)) == frozenset()


def test_a_full_cage_with_the_wrong_sum_clashes() -> None:
    cage = Cage(3, (0, 1))
    puzzle = VariantPuzzle(9, (0,) * 81, Variant.KILLER, cages=(cage,))
    values = [0] * 81
    values[0], values[1] = 1, 3  # different digits, 4 instead of 3
    assert clashing_cells(puzzle, tuple(values)) == {0, 1}
    values[1] = 2
    assert clashing_cells(puzzle, tuple(values)) == frozenset()


@pytest.mark.parametrize("kind", [Kind.KILLER, Kind.X, Kind.JIGSAW])
def test_new_variant_games_are_unique_and_saved_whole(kind: Kind) -> None:
    puzzle, solution = new_variant(kind, 0, SEED)
    assert puzzle.is_solution(solution)
    game = Game.begin(Board(puzzle.givens), solution, puzzle=puzzle)
    again = load_game(game.to_text())
    assert again.solution == solution and again.puzzle is not None
    assert again.puzzle.variant is puzzle.variant and again.puzzle.cages == puzzle.cages
    assert set(again.puzzle.units) == set(puzzle.units)  # the same regions, whatever their labels


def test_a_jigsaw_layout_is_searched_for_a_solution_first() -> None:
    boxes = tuple((c // 27) * 3 + (c % 9) // 3 for c in range(81))
    assert layout_solvable(boxes, 1.0)


def test_new_x_and_jigsaw_keep_the_givens_asked_for() -> None:
    puzzle, _ = new_variant(Kind.X, 32, SEED)
    assert sum(1 for v in puzzle.givens if v) >= 32


def test_variant_hint_names_wrong_entries_first() -> None:
    puzzle, solution = killer()
    entries = [0] * 81
    entries[4] = solution[4] % 9 + 1
    found = variant_hint(puzzle, tuple(entries), solution)
    assert found.wrong == (4,)
    step = variant_hint(puzzle, (0,) * 81, solution).step
    assert step is not None and step.placements + step.eliminations
    for cell, value in step.placements:
        assert solution[cell] == value


# ----------------------------------------------------------------------------- Type a puzzle


def test_typed_killer_json_is_solved_with_its_cages_drawn() -> None:
    puzzle, solution = killer()
    at = typed(Kind.KILLER, variants.puzzle_text(puzzle))
    assert texts(at.success) == ["Solved: the puzzle has exactly one solution."]
    assert texts(at.code) == [line(solution)]
    assert puzzle.is_solution(solution)
    answer = board_args(at, "typed_solution")
    assert answer["digits"] == line(solution)
    assert len(answer["cages"]) == len(puzzle.cages)
    assert len(board_args(at, board_key(at, "typed_grid_"))["cages"]) == len(puzzle.cages)
    at.button(key="typed_hint_button").click().run()
    assert any(i.startswith("**Look at r") for i in texts(at.info)), texts(at.info)


def test_typed_x_puzzle_keeps_its_diagonals() -> None:
    puzzle, solution = new_variant(Kind.X, 0, SEED)
    at = typed(Kind.X, line(puzzle.givens))
    assert texts(at.code) == [line(solution)]
    assert puzzle.is_solution(solution)
    assert board_args(at, "typed_solution")["diagonals"] is True


def test_typed_jigsaw_from_an_uploaded_file() -> None:
    puzzle, solution = new_variant(Kind.JIGSAW, 0, SEED)
    at = open_app(layout.TYPE)
    at.radio(key="typed_kind").set_value(Kind.JIGSAW).run()
    text = variants.puzzle_text(puzzle).encode()
    at.file_uploader(key="typed_upload").upload("jigsaw.json", text, "application/json").run()
    at.button(key="typed_solve").click().run()
    assert not at.exception, at.exception
    assert texts(at.code) == [line(solution)]
    assert pieces(board_args(at, "typed_solution")["regions"]) == pieces(puzzle.regions)


def test_typed_givens_on_a_killer_are_checked_against_the_cages() -> None:
    puzzle, solution = killer()
    at = typed(Kind.KILLER, variants.puzzle_text(puzzle))
    key = board_key(at, "typed_grid_")
    cage = next(k for k in puzzle.cages if len(k.cells) >= 2)
    a, b = cage.cells[:2]
    tap(at, key, {a: solution[a], b: solution[a]})  # one digit twice in a cage
    errors = " ".join(texts(at.error))
    names = f"{puzzle.cell_name(a)} and {puzzle.cell_name(b)} both hold {solution[a]}"
    assert names in errors and not at.success, errors
    looks = looks_of(at, key)
    assert looks[a] == looks[b] == "conflict"


def test_a_given_typed_into_a_cage_it_cannot_fit_is_refused() -> None:
    doc = {"variant": "killer", "cages": [{"sum": 3, "cells": ["r1c1", "r1c2"]}]}
    at = typed(Kind.KILLER, json.dumps(doc))
    assert any("more than one solution" in w for w in texts(at.warning))  # one cage only
    tap(at, board_key(at, "typed_grid_"), {0: 3})
    errors = texts(at.error)
    assert any("the 2-cell cage of 3 at r1c1,r1c2 cannot reach its sum with r1c1=3" in e
               for e in errors), errors  # fmt: skip
    assert not at.success and not at.warning  # nothing solved without the cage


@pytest.mark.parametrize(
    ("doc", "words"),
    [
        (
            {
                "variant": "killer",
                "cages": [
                    {"sum": 4, "cells": [f"r{r}c{c}"]} for r in range(1, 10) for c in range(1, 10)
                ],
            },
            "the cage sums add up to 324, but a full 9×9 grid adds up to 405",
        ),
        (
            {"variant": "killer", "cages": [{"sum": 2, "cells": ["r1c1", "r1c2"]}]},
            "the 2-cell cage of 2 at r1c1,r1c2 cannot be reached",
        ),
        ({"variant": "jigsaw", "regions": ["111111111"] * 2 + ["234567899"] * 7}, "has 18 cells"),
        (
            {
                "variant": "killer",
                "givens": "x" + "." * 80,
                "cages": [{"sum": 3, "cells": ["r1c1"]}],
            },
            "r1c1: 'x' is not one of the symbols",
        ),
        ({"size": 25, "givens": "." * 625}, "the board shows 4×4, 6×6, 8×8, 9×9, 12×12, 16×16"),
    ],
    ids=["cage-sum", "unreachable", "region-size", "symbol", "size"],
)
def test_typed_variant_mistakes_say_what_is_wrong(doc: dict[str, Any], words: str) -> None:
    at = open_app(layout.TYPE)
    at.radio(key="typed_kind").set_value(Kind.KILLER).run()
    at.text_area(key="typed_text").input(json.dumps(doc)).run()
    assert not at.exception, at.exception
    errors = texts(at.error)
    assert any(words in e for e in errors), errors
    assert not at.success


def test_typed_killer_without_json_asks_for_it() -> None:
    at = open_app(layout.TYPE)
    at.radio(key="typed_kind").set_value(Kind.KILLER).run()
    assert any("Paste or upload a Killer puzzle" in i for i in texts(at.info))
    at.text_area(key="typed_text").input("53..7....").run()
    assert any("typed as JSON" in e for e in texts(at.error))
    at.button(key="typed_example").click().run()
    assert not at.exception, at.exception
    made = variants.parse_variant_json(at.text_area(key="typed_text").value)
    assert made.variant is Variant.KILLER


# ----------------------------------------------------------------------------- Play


def test_play_killer_clash_check_hint_and_save() -> None:
    at = played(Kind.KILLER)
    game = at.session_state["play_game"]
    assert game.puzzle is not None and game.puzzle.variant is Variant.KILLER
    key = board_key(at, "play_board_")
    assert len(board_args(at, key)["cages"]) == len(game.puzzle.cages)
    assert "dashed cage" in all_text(at)
    assert "**Killer.** Each dashed cage" in all_text(at)  # the help says the rules
    cage = next(k for k in game.puzzle.cages if len(k.cells) >= 2)
    a, b = cage.cells[:2]
    digit = game.solution[a]
    tap(at, key, {a: digit, b: digit})  # the same digit twice in one cage
    looks = looks_of(at, key)
    assert looks[a] == looks[b] == "conflict"
    at.button(key="play_check").click().run()
    assert any("1 wrong" in e and game.puzzle.cell_name(b) in e for e in texts(at.error))
    at.button(key="play_undo").click().run()
    board = at.session_state["play_game"].board
    hint_key = f"play_hint_{hash(board)}"
    at.button(key=f"{hint_key}_button").click().run()
    assert any("Look at r" in i for i in texts(at.info)), texts(at.info)
    assert "hint" in looks_of(at, key).values()  # the cell to look at, marked
    at.button(key=f"{hint_key}_reveal").click().run()
    assert any(" = " in t or "rules out" in t or "cage" in t for t in texts(at.success))
    saved = at.session_state["play_game"].to_text()
    assert '"variant": "killer"' in saved
    assert load_game(saved).puzzle == at.session_state["play_game"].puzzle


@pytest.mark.parametrize("kind", [Kind.X, Kind.JIGSAW])
def test_play_x_and_jigsaw_draw_their_lines_and_clash_on_them(kind: Kind) -> None:
    at = played(kind)
    game = at.session_state["play_game"]
    assert game.puzzle is not None and game.puzzle.variant is variants.VARIANT_OF[kind]
    key = board_key(at, "play_board_")
    args = board_args(at, key)
    assert args["diagonals"] is (kind is Kind.X)
    assert (len(args["regions"]) == 81) is (kind is Kind.JIGSAW)
    # a diagonal (X) or a region (jigsaw) holding a given and an empty cell
    special = game.puzzle.units[27:] if kind is Kind.X else game.puzzle.units[18:]
    givens = game.board.givens
    unit = next(u for u in special if any(givens[c] for c in u) and not all(givens[c] for c in u))
    empty = [c for c in unit if not givens[c]]
    held = next(c for c in unit if givens[c])
    tap(at, key, {empty[0]: game.board.givens[held]})
    assert looks_of(at, key)[empty[0]] == "conflict"
    tap(at, key, {c: game.solution[c] for c in range(81) if not game.board.givens[c]})
    assert at.session_state["play_game"].solved
    assert any("Solved in" in s for s in texts(at.success))


def test_play_opens_a_variant_puzzle_json_file() -> None:
    puzzle, solution = killer()
    at = open_app(layout.PLAY)
    at.radio(key="play_start_from").set_value("Open a file").run()
    data = variants.puzzle_text(puzzle).encode()
    at.file_uploader(key="play_file").upload("killer.json", data, "application/json").run()
    at.button(key="play_open").click().run()
    assert not at.exception, at.exception
    game = at.session_state["play_game"]
    assert game.solution == solution and game.puzzle.cages == puzzle.cages
