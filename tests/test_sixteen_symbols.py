"""16×16 Sudokus printed with 0-9 and A-F or the letters A-P: the glyphs grouped, the
groups named by reference glyphs and the digit model (one assignment), solved, said in
the page's own symbols (JSON, text board, drawn answer); a 17th symbol refused."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from sudokucam.samples import render
from sudokucam.solver.outcome import Outcome, ProblemKind
from sudokucam.solver.variant_json import puzzle_from_json
from sudokucam.solver.variant_solve import solve_variant
from sudokucam.ui.cli import app
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.small.assign import assignment
from sudokucam.vision.small.symbols import glyph_crop, glyph_feature, load_references
from sudokucam.vision.types import GridStructure, digits_of

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "samples" / "sixteen"
SYMBOL_SAMPLES = {"hex_bold": "0123456789ABCDEF", "letters_shaded": "ABCDEFGHIJKLMNOP"}
runner = CliRunner()


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


def test_assignment_is_the_cheapest_one_to_one() -> None:
    rng = np.random.default_rng(7)
    for _ in range(60):
        n = int(rng.integers(1, 6))
        cost = rng.random((n, int(rng.integers(n, 7))))
        chosen = assignment(cost)
        assert len(set(chosen)) == n
        best = min(
            sum(cost[i, p[i]] for i in range(n))
            for p in itertools.permutations(range(cost.shape[1]), n)
        )
        assert sum(cost[i, chosen[i]] for i in range(n)) == pytest.approx(best)
    with pytest.raises(ValueError, match="n <= m"):
        assignment(np.zeros((3, 2)))


def test_a_glyph_is_cut_to_its_ink_and_compared_as_a_unit_vector() -> None:
    cell = np.zeros((40, 40), np.float32)
    cell[10:30, 15:22] = 1.0  # a bar: taller than wide
    cell[2, 2] = 1.0  # a speck, left out
    crop = glyph_crop(cell)
    assert crop.shape == (20, 7)
    feature, aspect = glyph_feature(cell)
    assert np.linalg.norm(feature) == pytest.approx(1.0) and aspect == pytest.approx(7 / 20)
    refs = load_references()
    assert set("0123456789ABCDEFGHIJKLMNOP") <= set(refs.symbols)
    assert refs.features.shape[1] == len(refs.symbols)


def test_a_structure_writes_the_page_symbols_and_empty_cells() -> None:
    hexa = GridStructure(size=16, glyphs="0123456789ABCDEF")
    assert hexa.symbols == "0123456789ABCDEF" and hexa.empty_symbol == "."
    assert hexa.written("01G" + "0" * 253)[:3] == ".0F"
    assert hexa.printed[0] == "0"
    letters = GridStructure(size=16, glyphs="ABCDEFGHIJKLMNOP")
    assert letters.written("1G0") == "AP." and letters.empty_symbol == "."
    assert GridStructure(size=16).written("1G0") == "1G0"
    with pytest.raises(ValueError, match="glyphs"):
        GridStructure(size=16, glyphs="ABC")


@pytest.mark.parametrize("name", sorted(SYMBOL_SAMPLES))
def test_a_committed_symbol_sample_is_read_exactly(reader: Reader, name: str) -> None:
    photo = SAMPLES / f"{name}.jpg"
    truth: dict[str, Any] = json.loads(photo.with_suffix(".json").read_text(encoding="utf-8"))
    symbols = SYMBOL_SAMPLES[name]
    assert truth["puzzle"]["symbols"] == symbols
    (grid,) = reader.read(photo).grids
    doc = grid.to_dict()
    assert doc["symbols"] == symbols and doc["size"] == 16 and doc["status"] == "solved"
    assert doc["givens"] == truth["puzzle"]["givens"] and doc["solution"] == truth["answer"]
    typed = {k: doc[k] for k in ("size", "variant", "givens", "symbols", "regions", "diagonals")}
    puzzle = puzzle_from_json(typed)
    solved = solve_variant(puzzle, 10.0)
    assert solved.status is Outcome.SOLVED and solved.solution is not None
    assert puzzle.write(tuple(solved.solution.values)) == truth["answer"]


def test_the_command_line_prints_and_round_trips_the_page_symbols(tmp_path: Path) -> None:
    photo = SAMPLES / "hex_bold.jpg"
    truth = json.loads(photo.with_suffix(".json").read_text(encoding="utf-8"))
    done = runner.invoke(app, ["solve", str(photo), "-o", str(tmp_path / "solved.png")])
    assert done.exit_code == 0, done.output
    first = truth["answer"][:4]
    assert "| " + " ".join(first) + " |" in done.stdout  # the board in 0-9 and A-F
    assert "printed symbols read" in done.stdout  # not "digits": 0-9 and A-F
    done = runner.invoke(app, ["read", "--json", str(photo)])
    assert done.exit_code == 0, done.output
    (grid,) = json.loads(done.stdout)[0]["grids"]
    keys = ("size", "variant", "givens", "symbols", "regions", "diagonals", "cages")
    typed = tmp_path / "typed.json"
    typed.write_text(json.dumps({k: grid[k] for k in keys}), encoding="utf-8")
    done = runner.invoke(app, ["grid", "--json", str(typed)])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["solutions"] == [truth["answer"]]


@pytest.mark.parametrize(("symbols", "style"), [("hex", "narrow"), ("letters", "magazine")])
def test_a_rendered_symbol_page_is_read_exactly(reader: Reader, symbols: str, style: str) -> None:
    made = render.render_sixteen_photo(21, style, symbols, size=(1200, 900))
    (grid,) = reader.read(made.photo.image).grids
    assert grid.structure.symbols == render.SIXTEEN_SYMBOLS[symbols]
    assert grid.givens == digits_of(made.puzzle.givens)
    assert grid.solution == digits_of(made.answer)


@pytest.mark.parametrize("symbols", ["letters", "hex"])
def test_a_page_holding_a_symbol_outside_its_set_is_refused(reader: Reader, symbols: str) -> None:
    plain = render.render_sixteen_photo(3, "magazine", symbols, size=(1200, 900))
    cell = next(c for c, v in enumerate(plain.puzzle.givens) if v)
    made = render.render_sixteen_photo(3, "magazine", symbols, misprint=(cell, "X"),
                                       size=(1200, 900))  # fmt: skip
    (grid,) = reader.read(made.photo.image).grids
    assert grid.status == Outcome.INVALID and grid.solution is None
    (problem,) = grid.problems
    assert problem.kind is ProblemKind.FOREIGN_SYMBOL and problem.cells == (cell,)
    assert "r1c1 holds a symbol outside the grid's 16" in grid.message if cell == 0 else True
    assert "a 16×16 prints 16 different symbols" in grid.message


def test_a_misprint_must_be_a_given_of_a_symbol_page() -> None:
    with pytest.raises(ValueError, match="misprint"):
        render.render_sixteen_photo(3, "magazine", "numbers", misprint=(0, "X"))
    with pytest.raises(ValueError, match="prints one of"):
        render.render_sixteen_photo(3, "magazine", "roman")


def test_a_bold_letter_page_taken_for_numbers_is_read_again_as_symbols(reader: Reader) -> None:
    made = render.render_sixteen_photo(1609, "bold", "letters")  # wide M, N, H cut in two
    (grid,) = reader.read(made.photo.image).grids
    assert grid.structure.symbols == "ABCDEFGHIJKLMNOP"
    assert grid.solution == digits_of(made.answer)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("symbols", "turn"), [("hex", cv2.ROTATE_90_CLOCKWISE), ("letters", cv2.ROTATE_180)]
)
def test_a_symbol_page_turned_is_read_the_right_way_up(
    reader: Reader, symbols: str, turn: int
) -> None:
    """A symbol page photographed sideways or upside down: its glyphs match the reference
    glyphs best one way up; read exactly, row 1 the puzzle's (a Sudoku solves under any
    turn and naming, so a wrong turn would be solved wrong, not refused)."""
    made = render.render_sixteen_photo(5, "magazine", symbols, size=(1200, 900))
    (grid,) = reader.read(cv2.rotate(made.photo.image, turn)).grids
    assert grid.structure.symbols == render.SIXTEEN_SYMBOLS[symbols]
    assert grid.givens == digits_of(made.puzzle.givens)
    assert grid.solution == digits_of(made.answer)
