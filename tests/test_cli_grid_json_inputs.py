"""`sudokucam grid FILE.json` on JSON no person meant as a puzzle, and on a photo's JSON.

Whatever the file holds (a byte-order mark, JSON nested deep, numbers too long, values of
the wrong type, a list), the answer is one "error: FILE: ..." line and exit status 1,
never a traceback; the JSON `read`, `solve` and `check` print for a photo of one grid is
solved as that grid's puzzle.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sudokucam.ui.cli import app

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "samples"
DEMO = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
DEMO_ANSWER = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def _grid(tmp_path: Path, text: str | bytes, *args: str) -> Any:
    """Run `grid` on a file holding ``text``; the CliRunner result."""
    path = tmp_path / "puzzle.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return runner.invoke(app, ["grid", *args, str(path)])


def _one_error_line(result: Any, words: str) -> None:
    """One "error: <file>: ..." line holding ``words``, exit status 1, no traceback."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and "puzzle.json: " in lines[0]
    assert words in lines[0], lines[0]


def test_a_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    doc = json.dumps({"size": 9, "givens": DEMO}).encode()
    result = _grid(tmp_path, b"\xef\xbb\xbf" + doc, "--line")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == DEMO_ANSWER


NESTED = 100_000
BAD_TEXT = [
    ('{"size": ' + "[" * NESTED + "]" * NESTED + "}", "nested too deeply"),
    ("[" * NESTED + "]" * NESTED, "nested too deeply"),
    ('{"size": 1' + "0" * 5000 + "}", "a number of 5001 digits"),
    ('{"size": 1e400, "givens": ""}', '"size" must be one of 4, 6, 8, 9, 12, 16, 25; got inf'),
    ('{"cages": [{"sum": 1e400, "cells": ["r1c1"]}]}', 'cage 1: "sum" must be a whole number'),
    ('[{"size": 9}, {"size": 9}]', "got a list of 2 items"),
    ("[]", "got a list of 0 items"),
    ('{"size": ' + "[" * 900 + "]" * 900 + "}", '"size" must be one of'),
]


@pytest.mark.parametrize(("text", "words"), BAD_TEXT, ids=lambda x: str(x)[:20])
def test_json_no_puzzle_can_be_is_one_line(tmp_path: Path, text: str, words: str) -> None:
    _one_error_line(_grid(tmp_path, text), words)


BAD_DOCS = [
    ({}, 'the puzzle has no "givens"'),
    ({"size": 9}, 'the puzzle has no "givens"'),
    ({"size": "9", "givens": DEMO}, "\"size\" must be one of 4, 6, 8, 9, 12, 16, 25; got '9'"),
    ({"size": True, "givens": DEMO}, '"size" must be one of'),
    ({"givens": 5}, '"givens" must be a string or a list of row strings'),
    ({"givens": [1, 2]}, '"givens" must be a string or a list of row strings'),
    ({"givens": DEMO, "diagonals": [1]}, '"diagonals" must be true or false; got [1]'),
    ({"givens": DEMO, "variant": [1]}, '"variant" must be one of'),
    ({"givens": DEMO, "regions": 5}, '"regions" must be a string or a list of row strings'),
    ({"givens": DEMO, "regions": [[1, 2], [3]]}, '"regions" labels 3 cells; 9×9 needs 81'),
    ({"givens": DEMO, "regions": [[{}] * 9] * 9}, '"regions" labels are letters or whole'),
    ({"givens": DEMO, "regions": [[[1]] * 9] * 9}, '"regions" labels are letters or whole'),
    ({"givens": DEMO, "regions": [[True] * 9] * 9}, '"regions" labels are letters or whole'),
    ({"cages": [{"sum": 3, "cells": ["r0c1"]}]}, "cell r0c1 is outside the 9×9 grid"),
    ({"cages": [{"sum": 3, "cells": ["x"]}]}, "bad cell name 'x'"),
    ({"cages": [{"sum": 3, "cells": [5]}]}, "bad cell name 5"),
    ({"cages": [{"sum": 3, "cells": ["r" + "9" * 5000 + "c1"]}]}, "bad cell name 'r999"),
    ({"cages": [{"sum": 3, "cells": "r1c1"}]}, '"cells" must be a list of cell names'),
    ({"cages": {"sum": 3}}, '"cages" must be a list'),
    ({"givens": DEMO, "variant": "x" * 10_000}, '"variant" must be one of'),
]


@pytest.mark.parametrize(("doc", "words"), BAD_DOCS, ids=lambda x: str(x)[:30])
def test_wrong_types_and_cells_are_one_line(tmp_path: Path, doc: Any, words: str) -> None:
    result = _grid(tmp_path, json.dumps(doc))
    _one_error_line(result, words)
    assert len(result.stderr) < 300  # a long value is shown clipped


def test_hint_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps({"cages": [{"sum": 3, "cells": ["r0c1"]}]}))
    result = runner.invoke(app, ["hint", str(path)])
    assert result.exit_code == 1
    assert result.stderr == f"error: {path}: cell r0c1 is outside the 9×9 grid\n"
    piped = runner.invoke(app, ["hint", "-"], input=path.read_text())
    assert piped.stderr.startswith("error: stdin: cell r0c1")


@pytest.fixture(scope="module")
def killer_read() -> str:
    """`read --json` of the committed Killer sample, as printed."""
    result = runner.invoke(app, ["read", "--json", str(SAMPLES / "killer" / "dashed.jpg")])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_grid_solves_the_json_read_printed(tmp_path: Path, killer_read: str) -> None:
    truth = json.loads((SAMPLES / "killer" / "dashed.json").read_text(encoding="utf-8"))
    answer = "".join(str(v) for row in truth["solution"] for v in row)
    result = _grid(tmp_path, killer_read, "--line")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == answer
    photo = json.loads(killer_read)[0]  # solve/check --json print the photo's object
    assert _grid(tmp_path, json.dumps(photo), "--line").stdout.strip() == answer
    typed = json.loads(_grid(tmp_path, killer_read, "--json").stdout)
    assert (typed["variant"], len(typed["cages"])) == ("killer", len(truth["cages"]))


def test_a_photo_of_no_grid_or_two_is_named(tmp_path: Path, killer_read: str) -> None:
    photo = json.loads(killer_read)[0]
    none = {**photo, "grids": [], "error": "no grid found"}
    _one_error_line(_grid(tmp_path, json.dumps([none])), "has no grid read: no grid found")
    two = {**photo, "grids": photo["grids"] * 2}
    _one_error_line(_grid(tmp_path, json.dumps([two])), "has 2 grids")


def test_grid_solves_the_json_check_printed(tmp_path: Path) -> None:
    """A jigsaw's regions come with it (a classic grid's boxes are left out)."""
    photo = SAMPLES / "variants" / "jigsaw_thick.jpg"
    out = str(tmp_path / "checked.png")
    checked = runner.invoke(app, ["check", "--json", "-o", out, str(photo)])
    assert checked.exit_code == 0, checked.output
    truth = json.loads(photo.with_suffix(".json").read_text(encoding="utf-8"))
    answer = "".join(str(v) for row in truth["solution"] for v in row)
    result = _grid(tmp_path, checked.stdout, "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["solutions"] == [answer] and doc["variant"] == "jigsaw"
