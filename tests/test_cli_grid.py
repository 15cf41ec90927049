"""`sudokucam grid` through CliRunner, and once through the installed console script."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from sudokucam.solver import Grid, is_solution
from sudokucam.ui.cli import app

ANTI_BACKTRACK = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
ANSWER_ROW = "| 9 8 7 | 6 5 4 | 3 2 1 |"
runner = CliRunner()


def test_help() -> None:
    result = runner.invoke(app, ["grid", "--help"])
    assert result.exit_code == 0
    assert "--count" in result.stdout and "--line" in result.stdout


def test_pretty_solution_by_default() -> None:
    result = runner.invoke(app, ["grid", ANTI_BACKTRACK])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "+-------+-------+-------+"
    assert lines[1] == ANSWER_ROW


def test_line_and_json() -> None:
    line = runner.invoke(app, ["grid", "--line", ANTI_BACKTRACK])
    assert line.exit_code == 0
    assert is_solution(line.stdout.strip(), ANTI_BACKTRACK)
    doc = json.loads(runner.invoke(app, ["grid", "--json", ANTI_BACKTRACK]).stdout)
    assert doc["status"] == "solved" and doc["solutions"] == [line.stdout.strip()]


def test_stdin_nine_line_format() -> None:
    text = Grid.parse(ANTI_BACKTRACK).to_numbers()
    result = runner.invoke(app, ["grid", "-", "--line"], input=text)
    assert result.exit_code == 0
    assert result.stdout.startswith("987654321")


def test_multi_puzzle_file_summary(puzzles_dir: Path) -> None:
    result = runner.invoke(app, ["grid", "--line", str(puzzles_dir / "norvig_hardest.txt")])
    assert result.exit_code == 0
    answers = result.stdout.split()
    puzzles = (puzzles_dir / "norvig_hardest.txt").read_text().split()
    assert len(answers) == len(puzzles) == 11
    assert all(is_solution(a, p) for a, p in zip(answers, puzzles, strict=True))
    assert "11 puzzles: 11 solved, 0 multiple, 0 no solution, 0 invalid in" in result.stderr


def test_mixed_file_exits_one_with_counts(tmp_path: Path) -> None:
    invalid = "..5...5.." + "." * 72
    multiple = "." * 81
    path = tmp_path / "mixed.txt"
    path.write_text(f"{ANTI_BACKTRACK}\n{invalid}\n{multiple}\n")
    result = runner.invoke(app, ["grid", str(path), "--line"])
    assert result.exit_code == 1
    out = result.stdout.splitlines()
    assert out[0].startswith("987654321")
    assert out[1] == "# puzzle 2: invalid givens: r1c3 and r1c7 both hold 5"
    assert out[2].startswith("# puzzle 3: more than one solution")
    assert "3 puzzles: 1 solved, 1 multiple, 0 no solution, 1 invalid" in result.stderr
    doc = json.loads(runner.invoke(app, ["grid", str(path), "--json"]).stdout)
    assert doc["summary"]["invalid"] == 1 and len(doc["results"]) == 3


def test_failures_exit_one_with_a_message() -> None:
    invalid = runner.invoke(app, ["grid", "..5...5.." + "." * 72])
    assert invalid.exit_code == 1
    assert "r1c3 and r1c7 both hold 5" in invalid.stderr
    multiple = runner.invoke(app, ["grid", "." * 81])
    assert multiple.exit_code == 1
    assert "more than one solution" in multiple.stderr
    none = runner.invoke(
        app, ["grid", ".2345678." + "." * 27 + "1........" + "........1" + "." * 27]
    )
    assert none.exit_code == 1
    assert "no solution" in none.stderr


def test_count() -> None:
    unique = runner.invoke(app, ["grid", "--count", ANTI_BACKTRACK])
    assert unique.exit_code == 0 and unique.stdout.strip() == "1"
    many = runner.invoke(app, ["grid", "--count", "--limit", "50", "." * 16])
    assert many.exit_code == 1 and many.stdout.strip() == "50+"
    all_4x4 = runner.invoke(app, ["grid", "--count", "--limit", "1000", "." * 16])
    assert all_4x4.stdout.strip() == "288"


def test_size_option() -> None:
    result = runner.invoke(
        app, ["grid", "--size", "4", "--line", "1...............".replace(".", "0")]
    )
    assert result.exit_code == 1  # an almost empty 4×4 has many solutions
    bad = runner.invoke(app, ["grid", "--size", "10", ANTI_BACKTRACK])
    assert bad.exit_code == 2 and "--size must be one of" in bad.stderr


def test_bad_input_exits_two() -> None:
    short = runner.invoke(app, ["grid", ANTI_BACKTRACK[:80]])
    assert short.exit_code == 2
    assert "wrong length: line 1 has 80 values" in short.stderr
    missing = runner.invoke(app, ["grid", "no/such/file.txt"])
    assert missing.exit_code == 2 and "no such file" in missing.stderr
    both = runner.invoke(app, ["grid", "--line", "--json", ANTI_BACKTRACK])
    assert both.exit_code == 2


def test_installed_console_script(tmp_path: Path) -> None:
    exe = shutil.which("sudokucam") or str(Path(sys.executable).parent / "sudokucam")
    command = [exe] if Path(exe).exists() else [sys.executable, "-m", "sudokucam"]
    path = tmp_path / "one.txt"
    path.write_text(Grid.parse(ANTI_BACKTRACK).to_numbers() + "\n")
    done = subprocess.run(
        [*command, "grid", str(path)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert ANSWER_ROW in done.stdout
    bad = subprocess.run(
        [*command, "grid", "1234"], capture_output=True, text=True, timeout=60, check=False
    )
    assert bad.returncode == 2 and "wrong length" in bad.stderr and "Traceback" not in bad.stderr
