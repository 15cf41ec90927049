"""The console script's manners: help at 80 columns, --version, completion, NO_COLOR, --quiet.

Help is checked as printed (CliRunner at a fixed terminal width, and the installed
script with COLUMNS set): no type placeholders, arguments and option values named in
the usage line, and no paragraph that leaves a lone word on its last line.
"""

from __future__ import annotations

import importlib.metadata
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sudokucam.ui.cli import app

runner = CliRunner()
SCRIPT = Path(sys.executable).with_name("sudokucam")
PUZZLE = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
ANSI = "\x1b["

USAGE = {
    "": "Usage: sudokucam [OPTIONS] COMMAND [ARGS]...",
    "ui": "Usage: sudokucam ui [OPTIONS]",
    "grid": "Usage: sudokucam grid [OPTIONS] PUZZLE",
    "read": "Usage: sudokucam read [OPTIONS] PHOTO...",
    "solve": "Usage: sudokucam solve [OPTIONS] PHOTO",
    "check": "Usage: sudokucam check [OPTIONS] PHOTO",
    "batch": "Usage: sudokucam batch [OPTIONS] INPUT...",
    "hint": "Usage: sudokucam hint [OPTIONS] PUZZLE",
    "grade": "Usage: sudokucam grade [OPTIONS] PUZZLE",
    "generate": "Usage: sudokucam generate [OPTIONS]",
}
# Options that take a value, as help must show them.
VALUES = {
    "ui": ["-p, --port PORT"],
    "grid": ["--limit N", "--size N"],
    "read": ["--max-grids N"],
    "solve": ["-o, --output FILE", "--max-grids N"],
    "check": ["-o, --output FILE", "--max-grids N"],
    "batch": ["-o, --out DIR", "-w, --workers N", "--dpi DPI", "--max-grids N"],
    "hint": ["--entries GRID", "--size N"],
    "generate": ["--level LEVEL", "--size N", "--count N", "--time-limit SECONDS"],
}
PLACEHOLDERS = ("<bool>", "<int", "<float", "<str>", "<path>", "<list", "{")


def help_text(command: str, width: int) -> str:
    """`sudokucam [command] --help` as printed on a terminal ``width`` columns wide."""
    args = [command, "--help"] if command else ["--help"]
    result = runner.invoke(app, args, terminal_width=width, prog_name="sudokucam")
    assert result.exit_code == 0, result.output
    return result.stdout


def lone_words(text: str) -> list[str]:
    """Lines holding one word that continue the line above (same paragraph or help cell).

    In the description (before the first section) a continuation is any line after a
    non-empty one; in a section it is a line indented past the name column (> 2 spaces).
    """
    found = []
    in_description = True
    lines = text.splitlines()
    for above, line in itertools.pairwise(lines):
        if re.match(r"^\S.*:$", line):
            in_description = False
        indent = len(line) - len(line.lstrip())
        continues = above.strip() != "" and (in_description or indent > 2)
        if continues and len(line.split()) == 1 and not line.startswith("Usage:"):
            found.append(f"{above!r} / {line!r}")
    return found


@pytest.mark.parametrize("command", list(USAGE))
@pytest.mark.parametrize("width", [80, 120])
def test_help_reads_like_a_tool(command: str, width: int) -> None:
    text = help_text(command, width)
    assert text.splitlines()[0] == USAGE[command]
    assert not [p for p in PLACEHOLDERS if p in text], text
    assert not lone_words(text), lone_words(text)
    assert max(len(line) for line in text.splitlines()) <= width
    for shown in VALUES.get(command, []):
        assert shown in text, (shown, text)
    assert re.search(r"^  --json\s+Print JSON", text, re.M) or "--json" not in text
    assert ANSI not in text


def test_lone_word_check_sees_an_orphan() -> None:
    """The check above is not vacuous: Typer's old layout left "are" alone on a line."""
    old = " The missing digits are written in blue, and cells that break the rules\n are\n"
    assert lone_words(old)
    assert not lone_words(" A sentence that wraps onto a line\n of its own words.\n")


@pytest.mark.skipif(not SCRIPT.is_file(), reason="the console script is not installed")
def test_installed_script_help_at_80_columns() -> None:
    env = dict(os.environ, COLUMNS="80")
    done = subprocess.run(
        [str(SCRIPT), "solve", "--help"], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.splitlines()[0] == USAGE["solve"]
    assert max(len(line) for line in done.stdout.splitlines()) <= 80
    assert not lone_words(done.stdout) and "<" not in done.stdout


def test_usage_errors_are_one_line() -> None:
    for args, words in (
        (["solve", "x.jpg"], "missing option '--output'"),
        (["read", "--max-grids", "many", "x.jpg"], "invalid value for '--max-grids'"),
        (["solv"], "no such command 'solv'"),
        (["--bogus"], "no such option: --bogus"),
    ):
        result = runner.invoke(app, args, prog_name="sudokucam")
        assert result.exit_code == 2, args
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {words}"), result.stderr
        assert "--help" in lines[0]


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(flag: str) -> None:
    result = runner.invoke(app, [flag])
    assert result.exit_code == 0
    assert result.stdout == f"sudokucam {importlib.metadata.version('sudokucam')}\n"


def test_version_loads_neither_opencv_nor_onnxruntime() -> None:
    code = (
        "import sys\n"
        "from sudokucam.ui.cli import app\n"
        "code = app(['--version'], standalone_mode=False)\n"
        "print(code, sorted(m for m in ('cv2', 'onnxruntime') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "0 []"


def test_completion_script_and_completions() -> None:
    script = runner.invoke(
        app, [], env={"_SUDOKUCAM_COMPLETE": "source_bash"}, prog_name="sudokucam"
    )
    assert script.exit_code == 0
    assert "complete -o default -F _sudokucam_completion sudokucam" in script.stdout
    env = {"_SUDOKUCAM_COMPLETE": "complete_bash", "COMP_WORDS": "sudokucam so", "COMP_CWORD": "1"}
    words = runner.invoke(app, [], env=env, prog_name="sudokucam")
    assert words.stdout.split() == ["solve"]
    env |= {"COMP_WORDS": "sudokucam batch --wo", "COMP_CWORD": "2"}
    assert runner.invoke(app, [], env=env, prog_name="sudokucam").stdout.split() == ["--workers"]


@pytest.mark.skipif(
    not SCRIPT.is_file() or shutil.which("bash") is None, reason="needs the script and bash"
)
def test_show_completion_prints_the_script_for_the_shell() -> None:
    # A second command keeps bash as the script's parent (a lone command is exec'd), so the
    # shell is detected whatever ran the tests.
    done = subprocess.run(
        ["bash", "-c", f"'{SCRIPT}' --show-completion; exit $?"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "_SUDOKUCAM_COMPLETE=complete_bash" in done.stdout


def run_in_terminal(args: list[str], env: dict[str, str]) -> tuple[int, str]:
    """Run a command on a pseudo-terminal (stdout and stderr both); its exit status and output."""
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # the terminal closes when the command ends (EIO on Linux)
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return proc.wait(), b"".join(chunks).decode(errors="replace")


@pytest.mark.skipif(
    sys.platform == "win32" or not SCRIPT.is_file(), reason="needs a POSIX pseudo-terminal"
)
def test_no_color_means_no_escape_codes_even_on_a_forced_terminal(tmp_path: Path) -> None:
    """On a terminal with FORCE_COLOR, batch draws a coloured bar; NO_COLOR turns it all off."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "notes.txt").write_text("not a photo\n")
    base = dict(os.environ, FORCE_COLOR="1", COLUMNS="80")
    base.pop("NO_COLOR", None)
    batch = [str(SCRIPT), "batch", str(folder), "-w", "1", "-o"]
    code, out = run_in_terminal([*batch, str(tmp_path / "a")], base)
    assert code == 0 and ANSI in out, out  # the check can see escape codes
    plain = base | {"NO_COLOR": "1"}
    code, out = run_in_terminal([*batch, str(tmp_path / "b")], plain)
    assert code == 0 and ANSI not in out and "skipped files: 1" in out, repr(out)
    for args in (["solve", "--help"], ["solve", "--bogus"], ["grid", PUZZLE], ["--version"]):
        code, out = run_in_terminal([str(SCRIPT), *args], plain)
        assert ANSI not in out, (args, repr(out))


def test_quiet_grid_prints_only_the_answers(tmp_path: Path) -> None:
    puzzles = tmp_path / "two.txt"
    puzzles.write_text(f"{PUZZLE}\n{PUZZLE}\n")
    loud = runner.invoke(app, ["grid", "--line", str(puzzles)])
    assert "2 puzzles: 2 solved" in loud.stderr
    for args in (["-q", "grid", "--line", str(puzzles)], ["grid", str(puzzles), "--line", "-q"]):
        quiet = runner.invoke(app, args)
        assert quiet.exit_code == 0 and quiet.stderr == ""
        assert quiet.stdout == loud.stdout and len(quiet.stdout.split()) == 2


def test_quiet_still_prints_errors() -> None:
    result = runner.invoke(app, ["-q", "solve", "x.jpg", "-o", "out.txt"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --output must end in")


def test_quiet_solve_writes_the_picture_and_no_chatter(samples_dir: Path, tmp_path: Path) -> None:
    photo = str(samples_dir / "printed" / "demo.jpg")
    loud = runner.invoke(app, ["solve", photo, "-o", str(tmp_path / "loud.png")])
    assert f"wrote {tmp_path / 'loud.png'}" in loud.stdout
    out = tmp_path / "quiet.png"
    quiet = runner.invoke(app, ["-q", "solve", photo, "-o", str(out)])
    assert quiet.exit_code == loud.exit_code == 0
    assert out.is_file() and out.stat().st_size > 0
    assert "wrote" not in quiet.stdout and quiet.stderr == ""
    as_json = runner.invoke(app, ["solve", photo, "-o", str(out), "--json", "-q"])
    assert json.loads(as_json.stdout)["output"] == str(out)


def test_quiet_batch_prints_nothing_and_writes_everything(
    samples_dir: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(samples_dir / "printed" / "demo.jpg", folder / "demo.jpg")
    result = runner.invoke(
        app, ["-q", "batch", str(folder), "-o", str(tmp_path / "out"), "-w", "1"]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout == "" and result.stderr == ""
    rows = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    assert json.loads(rows[0])["status"] == "solved"
    assert list((tmp_path / "out" / "solved").iterdir())
