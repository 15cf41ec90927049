"""Killer hints (cage combinations, the 45 rule) and the 45 rule's sums."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sudokucam.solver.logic.variant_hint import (
    apply,
    board_for,
    cage_combination,
    rule_45,
    variant_hint,
    variant_steps,
)
from sudokucam.solver.rule45 import HouseSum, house_sums
from sudokucam.solver.variant import Cage, Variant, VariantPuzzle, all_units
from sudokucam.solver.variant_json import puzzle_from_json
from sudokucam.ui.cli import app

DATA = json.loads((Path(__file__).parent / "data" / "variant_puzzles.json").read_text())
PUZZLES = {p["name"]: p for p in DATA["puzzles"]}
runner = CliRunner()


def test_a_hint_names_values_in_the_puzzles_symbols() -> None:
    """A 4×4 typed with the symbols WXYZ: the hint says W, not 1."""
    solution = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
    puzzle = VariantPuzzle(4, (0, *solution[1:]), Variant.CLASSIC, symbols="WXYZ")
    hint = variant_hint(puzzle, (0,) * 16, solution)
    assert hint.step is not None
    assert hint.step.explanation == "r1c1 can only be W: its units hold every other value"


def _row_cages() -> tuple[Cage, ...]:
    """Row 1 cut into a cage of 3 (r1c1,r1c2) and a cage of 30 (r1c3..r1c6)."""
    return (Cage(3, (0, 1)), Cage(30, (2, 3, 4, 5)))


def test_innies_of_a_row() -> None:
    sums = house_sums(9, all_units(9, (), False), _row_cages())
    row1 = next(s for s in sums if s.house == "row 1" and not s.outies)
    assert row1.cells == (6, 7, 8) and row1.total == 45 - 3 - 30
    assert row1.describe(9) == "the 45 rule on row 1: its innies r1c7,r1c8,r1c9 add up to 12"


def test_outies_of_a_box() -> None:
    # box 1 covered by three row cages of 3 cells that stick out by one cell each
    cages = tuple(
        Cage(t, (r * 9, r * 9 + 1, r * 9 + 2, r * 9 + 3)) for r, t in enumerate((10, 14, 22))
    )
    sums = house_sums(9, all_units(9, (), False), cages)
    box1 = next(s for s in sums if s.house == "box 1" and s.outies)
    assert box1.cells == (3, 12, 21) and box1.total == 10 + 14 + 22 - 45


def test_cage_combination_step_names_the_cage() -> None:
    puzzle = VariantPuzzle(9, (0,) * 81, Variant.KILLER, cages=(Cage(3, (0, 1)),))
    step = cage_combination(board_for(puzzle))
    assert step is not None
    assert step.explanation.startswith("the 2-cell cage of 3 at r1c1,r1c2 can only hold 1 and 2")
    assert {v for _, v in step.eliminations} == set(range(3, 10))


def test_rule_45_places_a_lone_innie() -> None:
    cages = (Cage(45 - 7, tuple(range(8))),)  # r1c1..r1c8: r1c9 must be 7
    puzzle = VariantPuzzle(9, (0,) * 81, Variant.KILLER, cages=cages)
    b = board_for(puzzle)
    step = rule_45(b)
    assert step is not None and step.placements == ((8, 7),)
    assert step.explanation == "the 45 rule on row 1: its innie r1c9 is 7"  # one cell: singular
    apply(b, step)
    assert b.values[8] == 7 and 7 not in b.cands[0]


def test_rule_45_names_one_outie_in_the_singular() -> None:
    outie = HouseSum(5, (9,), "row 1", outies=True)
    assert outie.describe(9) == "the 45 rule on row 1: its outie r2c1 is 5"
    assert HouseSum(9, (9, 10), "row 1", True).describe(9).endswith("outies r2c1,r2c2 add up to 9")


@pytest.mark.parametrize("name", ["killer_9x9_seed11", "killer_9x9_seed12", "killer_6x6_seed14"])
def test_killer_steps_reach_the_solution(name: str) -> None:
    entry = PUZZLES[name]
    puzzle = puzzle_from_json(entry["puzzle"])
    steps, done = variant_steps(puzzle)
    assert done
    b = board_for(puzzle)
    for step in steps:
        for c, v in step.placements:
            assert puzzle.symbols[v - 1] == entry["solution"][c], str(step)
        for c, v in step.eliminations:
            assert puzzle.symbols[v - 1] != entry["solution"][c], str(step)
        apply(b, step)
    assert puzzle.write(b.values) == entry["solution"]
    assert {"Cage combination", "45 rule"} <= {s.technique for s in steps} or name.startswith(
        "killer_6x6"
    )


def _file(tmp_path: Path, name: str) -> str:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(PUZZLES[name]["puzzle"]))
    return str(path)


def test_hint_command_on_a_killer(tmp_path: Path) -> None:
    result = runner.invoke(app, ["hint", _file(tmp_path, "killer_9x9_seed11")])
    assert result.exit_code == 0
    assert result.stdout.startswith("Cage combination: the ")
    doc = json.loads(
        runner.invoke(app, ["hint", "--json", _file(tmp_path, "killer_9x9_seed11")]).stdout
    )
    assert doc["status"] == "step" and doc["variant"] == "killer" and len(doc["steps"]) == 1


def test_hint_all_and_wrong_entries(tmp_path: Path) -> None:
    path = _file(tmp_path, "killer_6x6_seed14")
    every = runner.invoke(app, ["hint", "--all", path])
    assert every.exit_code == 0 and every.stdout.startswith("1. ")
    truth = PUZZLES["killer_6x6_seed14"]["solution"]
    wrong = ("2" if truth[0] != "2" else "3") + "." * 35
    result = runner.invoke(app, ["hint", path, "--entries", wrong])
    assert result.exit_code == 1 and "wrong entries at r1c1" in result.stderr
    done = runner.invoke(app, ["hint", path, "--entries", truth])
    assert done.exit_code == 0 and done.stdout.strip() == "solved"


def test_hint_on_a_stuck_jigsaw_says_so(tmp_path: Path) -> None:
    result = runner.invoke(app, ["hint", "--all", _file(tmp_path, "jigsaw_9x9_seed16")])
    assert result.exit_code == 0
    last = result.stdout.splitlines()[-1]
    assert "find nothing more here; the solution has r" in last


def test_hint_bad_puzzle_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"cages": [{"sum": 30, "cells": ["r1c1", "r1c2"]}]}))
    result = runner.invoke(app, ["hint", str(path)])
    assert result.exit_code == 1 and result.stderr.startswith(f"error: {path}: the 2-cell cage")
    assert len(result.stderr.splitlines()) == 1
