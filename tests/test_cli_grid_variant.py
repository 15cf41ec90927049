"""`sudokucam grid FILE.json`: typed Killer, X and jigsaw puzzles through CliRunner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sudokucam.solver.variant_json import puzzle_from_json
from sudokucam.ui.cli import app

DATA = json.loads((Path(__file__).parent / "data" / "variant_puzzles.json").read_text())
PUZZLES = {p["name"]: p for p in DATA["puzzles"]}
runner = CliRunner()


def _file(tmp_path: Path, doc: Any, name: str = "puzzle.json") -> str:
    """Write a JSON document to a file and return its path."""
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_line_answer(tmp_path: Path, name: str) -> None:
    entry = PUZZLES[name]
    result = runner.invoke(app, ["grid", "--line", _file(tmp_path, entry["puzzle"])])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == entry["solution"]


def test_pretty_killer_and_jigsaw(tmp_path: Path) -> None:
    killer = PUZZLES["killer_9x9_seed11"]
    out = runner.invoke(app, ["grid", _file(tmp_path, killer["puzzle"])]).stdout.splitlines()
    assert out[0] == "+-------+-------+-------+"
    assert out[1].replace("|", "").split() == list(killer["solution"][:9])
    jigsaw = PUZZLES["jigsaw_9x9_seed16"]
    out = runner.invoke(app, ["grid", _file(tmp_path, jigsaw["puzzle"])]).stdout.splitlines()
    assert len(out) == 9  # no box rules: the region map stands beside each row
    values, regions = out[0].split("    ")
    assert values.split() == list(jigsaw["solution"][:9])
    assert regions.split() == list(jigsaw["puzzle"]["regions"][0])


def test_json_echoes_the_variant_keys(tmp_path: Path) -> None:
    entry = PUZZLES["killer_9x9_seed11"]
    result = runner.invoke(app, ["grid", "--json", _file(tmp_path, entry["puzzle"])])
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["status"] == "solved" and doc["solutions"] == [entry["solution"]]
    assert (doc["size"], doc["variant"], doc["symbols"]) == (9, "killer", "123456789")
    assert doc["diagonals"] is False and doc["regions"] is None
    assert doc["cages"] == entry["puzzle"]["cages"]
    assert puzzle_from_json(doc) == puzzle_from_json(entry["puzzle"])  # reads back


def test_json_of_x_and_jigsaw(tmp_path: Path) -> None:
    x = runner.invoke(app, ["grid", "--json", _file(tmp_path, PUZZLES["x_9x9_seed15"]["puzzle"])])
    assert json.loads(x.stdout)["diagonals"] is True
    jigsaw = PUZZLES["jigsaw_9x9_seed16"]["puzzle"]
    doc = json.loads(runner.invoke(app, ["grid", "--json", _file(tmp_path, jigsaw)]).stdout)
    assert doc["variant"] == "jigsaw" and len(doc["regions"]) == 9


def test_json_as_the_argument_and_on_stdin() -> None:
    entry = PUZZLES["killer_6x6_seed14"]
    text = json.dumps(entry["puzzle"])
    assert runner.invoke(app, ["grid", "--line", text]).stdout.strip() == entry["solution"]
    piped = runner.invoke(app, ["grid", "--line", "-"], input=text)
    assert piped.stdout.strip() == entry["solution"]


def test_count(tmp_path: Path) -> None:
    entry = PUZZLES["x_9x9_seed15"]["puzzle"]
    assert runner.invoke(app, ["grid", "--count", _file(tmp_path, entry)]).stdout.strip() == "1"
    empty = {"variant": "x", "givens": "." * 81}
    result = runner.invoke(app, ["grid", "--count", "--limit", "3", _file(tmp_path, empty)])
    assert result.exit_code == 1 and result.stdout.strip() == "3+"


def test_several_solutions_exit_1(tmp_path: Path) -> None:
    result = runner.invoke(app, ["grid", _file(tmp_path, {"variant": "x", "givens": "." * 81})])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: more than one solution (they differ at r")
    assert len(result.stderr.splitlines()) == 1


def test_no_solution_exit_1(tmp_path: Path) -> None:
    # r1c1 must be 1 or 2 (a cage of 3), and is given 1; r1c2 then needs 2 but row 1 gives it.
    doc = {"cages": [{"sum": 3, "cells": ["r1c1", "r1c2"]}], "givens": "1.2" + "." * 78}
    result = runner.invoke(app, ["grid", _file(tmp_path, doc)])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ")
    assert "Traceback" not in result.output


BAD = [
    (
        {"cages": [{"sum": 30, "cells": ["r1c1", "r1c2"]}]},
        "the 2-cell cage of 30 at r1c1,r1c2 cannot be reached",
    ),
    ({"regions": ["111111111"] * 9}, '"regions" has 1 different labels'),
    ({"size": 16, "givens": "Z" + "." * 255}, "r1c1: 'Z' is not one of the symbols"),
    ({"cages": [{"sum": 4, "cells": ["r1c1", "r9c9"]}]}, "is not one piece"),
]


@pytest.mark.parametrize(("doc", "words"), BAD)
def test_bad_puzzles_one_line_exit_1(tmp_path: Path, doc: Any, words: str) -> None:
    result = runner.invoke(app, ["grid", _file(tmp_path, doc)])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ") and words in result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.output


def test_a_16x16_with_its_own_symbols_names_them(tmp_path: Path) -> None:
    """0-9/A-F: value 12 is written B, and the error names B (as typed and printed)."""
    doc = {"size": 16, "symbols": "0123456789ABCDEF", "givens": "B....B" + "." * 250}
    result = runner.invoke(app, ["grid", _file(tmp_path, doc)])
    assert result.exit_code == 1
    assert result.stderr == "error: invalid givens: r1c1 and r1c6 both hold B\n"
    doc = {"size": 16, "givens": "C....C" + "." * 250}  # the default symbols 1-9, A-G
    result = runner.invoke(app, ["grid", _file(tmp_path, doc)])
    assert result.stderr == "error: invalid givens: r1c1 and r1c6 both hold C\n"


def test_unparsable_json_and_size_mismatch_exit_2(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"size": 9,')
    result = runner.invoke(app, ["grid", str(broken)])
    assert result.exit_code == 2 and "not valid JSON" in result.stderr
    entry = PUZZLES["killer_6x6_seed14"]["puzzle"]
    result = runner.invoke(app, ["grid", "--size", "9", _file(tmp_path, entry)])
    assert result.exit_code == 2 and "--size 9 disagrees with the puzzle's size 6" in result.stderr


def test_timeout_exit_1(tmp_path: Path) -> None:
    doc = {"size": 16, "variant": "x", "givens": "." * 256}
    result = runner.invoke(app, ["grid", "--time-limit", "0.01", _file(tmp_path, doc)])
    assert result.exit_code == 1
    assert "gave up after 0.01 s" in result.stderr and "--time-limit" in result.stderr
