"""`sudokucam hint`, `grade` and `generate` through Typer's CliRunner."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sudokucam.solver import Grid, count_solutions, solve
from sudokucam.ui.cli import app

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
HARD = ".5..9....1.....6.....3.8.....8.4...9514.......3....2..........4.8...6..77..15..6."
runner = CliRunner()


def test_help_lists_the_commands() -> None:
    for cmd in ("hint", "grade", "generate"):
        result = runner.invoke(app, [cmd, "--help"])
        assert result.exit_code == 0, result.output


def test_hint_prints_an_explained_step() -> None:
    result = runner.invoke(app, ["hint", EASY])
    assert result.exit_code == 0
    assert result.output.startswith("Hidden single: r")
    assert "must be" in result.output


def test_hint_json() -> None:
    result = runner.invoke(app, ["hint", EASY, "--json"])
    doc = json.loads(result.output)
    assert doc["status"] == "step" and len(doc["steps"]) == 1
    step = doc["steps"][0]
    assert step["placements"][0]["cell"] in step["explanation"]


def test_hint_all_lists_steps_to_the_end() -> None:
    result = runner.invoke(app, ["hint", HARD, "--all", "--json"])
    assert result.exit_code == 0
    steps = json.loads(result.output)["steps"]
    placed = sum(len(s["placements"]) for s in steps)
    assert placed == HARD.count(".")
    assert any(s["technique"] == "Forcing chain" for s in steps)


def test_hint_reports_a_wrong_entry_with_exit_1() -> None:
    answer = solve(EASY)
    entries = "." * 81
    wrong = str(int(answer[0]) % 9 + 1)
    entries = wrong + entries[1:]
    result = runner.invoke(app, ["hint", EASY, "--entries", entries])
    assert result.exit_code == 1
    assert "r1c1" in result.output and "wrong" in result.output


def test_hint_with_correct_entries_from_a_file(tmp_path: Path) -> None:
    answer = solve(EASY)
    entries = answer[:9] + "." * 72
    path = tmp_path / "entries.txt"
    path.write_text(entries + "\n")
    result = runner.invoke(app, ["hint", EASY, "--entries", str(path), "--json"])
    assert result.exit_code == 0
    cells = [p["cell"] for p in json.loads(result.output)["steps"][0]["placements"]]
    assert all(not c.startswith("r1c") for c in cells)


def test_hint_bad_puzzle_is_usage_error() -> None:
    result = runner.invoke(app, ["hint", "12345"])
    assert result.exit_code == 2
    assert "error:" in result.output


def test_grade_one_puzzle() -> None:
    result = runner.invoke(app, ["grade", EASY])
    assert result.exit_code == 0
    assert "Easy" in result.output


def test_grade_file_with_summary(tmp_path: Path) -> None:
    path = tmp_path / "set.txt"
    path.write_text(f"{EASY}\n{HARD}\n")
    result = runner.invoke(app, ["grade", str(path), "--json"])
    assert result.exit_code == 0
    doc = json.loads(result.output)
    assert [r["level"] for r in doc["results"]] == ["Easy", "Extremely Difficult"]
    assert doc["summary"]["Easy"] == 1 and doc["summary"]["Extremely Difficult"] == 1
    text = runner.invoke(app, ["grade", str(path)])
    assert "2 puzzles in" in text.output


def test_grade_non_unique_exits_1() -> None:
    result = runner.invoke(app, ["grade", "." * 81])
    assert result.exit_code == 1
    assert "more than one solution" in result.output


def test_generate_json_is_unique_and_at_level() -> None:
    result = runner.invoke(
        app, ["generate", "--level", "Medium", "--seed", "3", "--count", "2", "--json"]
    )
    assert result.exit_code == 0, result.output
    docs = json.loads(result.output)
    assert len(docs) == 2
    for doc in docs:
        assert doc["level"] == "Medium"
        assert count_solutions(Grid.parse(doc["puzzle"]), limit=2) == 1


def test_generate_is_repeatable_with_a_seed() -> None:
    args = ["generate", "--level", "easy", "--size", "6", "--seed", "9"]
    first, second = runner.invoke(app, args), runner.invoke(app, args)
    assert first.exit_code == 0 and first.output == second.output
    assert len(first.output.strip()) == 36


@pytest.mark.parametrize(
    ("given", "level"),
    [
        ("easy", "Easy"),
        ("Med", "Medium"),
        ("diff", "Difficult"),
        ("d", "Difficult"),
        ("extremely", "Extremely Difficult"),
        ("ext", "Extremely Difficult"),
        ("EXTREMELY-difficult", "Extremely Difficult"),
        ("2", "Medium"),
    ],
)
def test_generate_levels_by_any_case_and_unique_start(given: str, level: str) -> None:
    result = runner.invoke(app, ["generate", "--level", given, "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["level"] == level


@pytest.mark.parametrize(
    ("given", "why"),
    [("Harder", "got 'Harder'"), ("nightmare", "got 'nightmare'"), ("e", "'e' could be Easy or")],
)
def test_generate_unknown_or_ambiguous_level_is_usage_error(given: str, why: str) -> None:
    result = runner.invoke(app, ["generate", "--level", given])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --level must be one of Easy, Medium")
    assert "Extremely Difficult" in lines[0] and why in lines[0]


def test_generate_time_limit_is_honoured() -> None:
    """16×16 Extremely Difficult takes seconds; a 0.1 s limit stops it at once, exit 1."""
    args = ["generate", "--size", "16", "--level", "Extremely Difficult", "--time-limit", "0.1"]
    start = time.monotonic()
    result = runner.invoke(app, args)
    elapsed = time.monotonic() - start
    assert result.exit_code == 1
    assert elapsed < 0.1 + 0.4, f"took {elapsed:.2f} s"
    assert result.stderr.startswith("error: time limit reached: no Extremely Difficult 16×16")
    assert "--time-limit" in result.stderr and len(result.stderr.splitlines()) == 1


def test_generate_size_25_agrees_with_help() -> None:
    """25 is in --help and accepted; sizes the solver does not know are usage errors."""
    assert "16 or 25" in " ".join(runner.invoke(app, ["generate", "--help"]).output.split())
    made = runner.invoke(
        app, ["generate", "--level", "medium", "--size", "25", "--time-limit", "0.1"]
    )
    assert made.exit_code == 1 and "25×25" in made.stderr
    bad = runner.invoke(app, ["generate", "--level", "easy", "--size", "10"])
    assert bad.exit_code == 2 and "--size must be one of" in bad.stderr and "25×25" in bad.stderr


def test_generate_impossible_level_exits_1() -> None:
    result = runner.invoke(app, ["generate", "--level", "difficult", "--size", "4"])
    assert result.exit_code == 1
    assert "no harder than Easy" in result.output
