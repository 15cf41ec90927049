"""`sudokucam read / solve / check` on the command line: bad input, usage, JSON contract."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from sudokucam.samples.dataset import read_dat
from sudokucam.ui.cli import app

runner = CliRunner()


def sample_photos(repo: Path) -> list[Path]:
    """The committed sample photos that come with a .dat ground truth."""
    return sorted(p for p in (repo / "samples").glob("*/*.jpg") if p.with_suffix(".dat").is_file())


@pytest.fixture()
def bad_files(tmp_path: Path) -> dict[str, Path]:
    """A text file, an empty file, a corrupt JPEG, a missing file and a blank page."""
    text = tmp_path / "notes.jpg"
    text.write_text("this is not a photo\n")
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    ok, encoded = cv2.imencode(".jpg", np.full((300, 400, 3), 128, np.uint8))
    assert ok
    corrupt = tmp_path / "corrupt.jpg"
    corrupt.write_bytes(encoded.tobytes()[:200])
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 240, np.uint8))
    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), np.full((10, 12, 3), 200, np.uint8))
    enormous = tmp_path / "enormous.png"
    enormous.write_bytes(png_claiming(30_000, 20_000))
    return {
        "tiny": tiny,
        "enormous": enormous,
        "text": text,
        "empty": empty,
        "corrupt": corrupt,
        "missing": tmp_path / "missing.jpg",
        "blank": blank,
    }


def png_claiming(width: int, height: int) -> bytes:
    """A small PNG whose header announces ``width`` × ``height`` pixels (a decompression bomb)."""
    ok, encoded = cv2.imencode(".png", np.zeros((8, 8), np.uint8))
    assert ok
    data = bytearray(encoded.tobytes())
    ihdr = bytes(data[12:16]) + struct.pack(">II", width, height) + bytes(data[24:29])
    data[16:24] = struct.pack(">II", width, height)
    data[29:33] = struct.pack(">I", zlib.crc32(ihdr))
    return bytes(data)


EXPECTED_ERRORS = {
    "tiny": "too small",
    "enormous": "too large",
    "text": "not an image",
    "empty": "is empty",
    "corrupt": "corrupt or truncated",
    "missing": "does not exist",
    "blank": "no Sudoku grid found",
}


@pytest.mark.parametrize("kind", sorted(EXPECTED_ERRORS))
@pytest.mark.parametrize("command", ["read", "solve", "check"])
def test_bad_input_gives_one_clear_line_and_exit_1(
    command: str, kind: str, bad_files: dict[str, Path], tmp_path: Path
) -> None:
    args = [command, str(bad_files[kind])]
    if command != "read":
        args += ["-o", str(tmp_path / "out.png")]
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert EXPECTED_ERRORS[kind] in lines[0]
    assert "Traceback" not in result.output


def test_read_json_lists_every_photo_in_order_even_when_some_fail(
    bad_files: dict[str, Path],
) -> None:
    paths = [bad_files[k] for k in ("missing", "blank", "text")]
    result = runner.invoke(app, ["read", "--json", *map(str, paths)])
    assert result.exit_code == 1
    docs = json.loads(result.stdout)
    assert [d["image"] for d in docs] == [str(p) for p in paths]
    assert all(d["grids"] == [] and d["error"] for d in docs)
    assert len(result.stderr.strip().splitlines()) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "x.jpg", "-o", "out.txt"], "--output must end in"),
        (["check", "x.jpg", "-o", "/no/such/folder/out.png"], "does not exist"),
        (["read", "--max-grids", "0", "x.jpg"], "--max-grids"),
    ],
)
def test_usage_errors_exit_2_before_any_photo_is_read(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_solve_needs_an_output() -> None:
    result = runner.invoke(app, ["solve", "x.jpg"])
    assert result.exit_code == 2


@pytest.mark.parametrize("command", ["read", "solve", "check"])
def test_help(command: str) -> None:
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0
    assert "--json" in result.stdout


@pytest.mark.slow
def test_read_json_contract_on_the_samples(repo_dir: Path) -> None:
    photos = sample_photos(repo_dir)
    result = runner.invoke(app, ["read", "--json", *map(str, photos)])
    docs = json.loads(result.stdout)
    assert [d["image"] for d in docs] == [str(p) for p in photos]
    for photo, doc in zip(photos, docs, strict=True):
        assert doc["error"] is None, doc["error"]
        grid = doc["grids"][0]
        assert set(grid) >= {"corners", "givens", "handwritten", "confidence", "status", "solution"}
        assert np.asarray(grid["corners"]).shape == (4, 2)
        assert len(grid["confidence"]) == 81
        assert len(grid["givens"]) == len(grid["handwritten"]) == 81
        if photo.parent.name == "printed":  # every sample is read exactly in test_pipeline
            assert grid["givens"] == read_dat(photo.with_suffix(".dat")), photo


def test_solve_writes_a_same_size_photo(repo_dir: Path, tmp_path: Path) -> None:
    photos = sample_photos(repo_dir)
    out = tmp_path / "solved.png"
    result = runner.invoke(app, ["solve", str(photos[0]), "-o", str(out), "--json"])
    doc = json.loads(result.stdout)
    assert doc["output"] == str(out)
    before, after = cv2.imread(str(photos[0])), cv2.imread(str(out))
    assert before is not None and after is not None
    assert after.shape == before.shape
    assert result.exit_code == (0 if doc["grids"][0]["status"] in ("solved", "complete") else 1)


@pytest.mark.slow
def test_console_script_runs_as_a_module(bad_files: dict[str, Path]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sudokucam", "read", str(bad_files["text"])],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stderr.strip().count("\n") == 0 and "not an image" in done.stderr


def test_check_hint_gives_a_right_next_step_from_the_right_entries(
    repo_dir: Path, tmp_path: Path
) -> None:
    photo = repo_dir / "samples" / "progress" / "half_blue.jpg"
    truth = json.loads(photo.with_suffix(".json").read_text())
    solution = [d for row in truth["solution"] for d in row]
    wrong = {r * 9 + c for r, c in truth["mistakes"]}
    out = tmp_path / "checked.png"

    plain = runner.invoke(app, ["check", str(photo), "-o", str(out)])
    assert plain.exit_code == 0 and "next:" not in plain.stdout
    text = runner.invoke(app, ["check", str(photo), "-o", str(out), "--hint"])
    assert text.exit_code == 0
    next_lines = [line for line in text.stdout.splitlines() if line.startswith("next: ")]
    assert len(next_lines) == 1

    result = runner.invoke(app, ["check", str(photo), "-o", str(out), "--hint", "--json"])
    grid = json.loads(result.stdout)["grids"][0]
    without = runner.invoke(app, ["check", str(photo), "-o", str(out), "--json"])
    assert "next" not in json.loads(without.stdout)["grids"][0]
    assert grid["next"]["status"] == "step"
    step = grid["next"]["step"]
    assert step["placements"] or step["eliminations"]
    for placed in step["placements"]:
        r, c = int(placed["cell"][1]) - 1, int(placed["cell"][3]) - 1
        cell = r * 9 + c
        assert placed["value"] == solution[cell]
        # the step fills an empty cell or corrects a wrong entry, never a right digit
        assert grid["givens"][cell] == "0"
        assert grid["handwritten"][cell] == "0" or cell in wrong
        if cell in wrong:  # called wrong, or unsure: either way the line says so
            assert "which is wrong" in next_lines[0] or "looks wrong" in next_lines[0]
    assert step["explanation"] in next_lines[0]


def page_truth(repo: Path) -> tuple[Path, list[str]]:
    """samples/pages/page0.jpg and the givens of its puzzles, top to bottom."""
    page = repo / "samples" / "pages" / "page0.jpg"
    truth = json.loads(page.with_suffix(".json").read_text())
    givens = ["".join(str(d) for row in g["givens"] for d in row) for g in truth["grids"]]
    return page, givens


def test_solve_solves_every_puzzle_on_a_page(repo_dir: Path, tmp_path: Path) -> None:
    """By default every puzzle on the page: in the text, the JSON and the drawn photo."""
    page, givens = page_truth(repo_dir)
    out = tmp_path / "solved.png"
    text = runner.invoke(app, ["solve", str(page), "-o", str(out)])
    assert text.exit_code == 0, text.output
    n = len(givens)
    assert n == 3
    labels = [line.split(":")[0] for line in text.stdout.splitlines() if ": Solved: " in line]
    assert labels == [f"puzzle {i} of {n}" for i in range(1, n + 1)]

    result = runner.invoke(app, ["solve", str(page), "-o", str(out), "--json"])
    grids = json.loads(result.stdout)["grids"]
    assert [g["givens"] for g in grids] == givens  # in reading order
    assert all(g["status"] == "solved" for g in grids)
    before, after = cv2.imread(str(page)), cv2.imread(str(out))
    assert before is not None and after is not None
    for grid in grids:  # every grid has the answer drawn into it
        x0, y0 = np.min(grid["corners"], axis=0).astype(int)
        x1, y1 = np.max(grid["corners"], axis=0).astype(int)
        changed = np.any(before[y0:y1, x0:x1] != after[y0:y1, x0:x1], axis=2).mean()
        assert changed > 0.02, (grid["corners"], changed)


def test_max_grids_caps_the_puzzles_read(repo_dir: Path) -> None:
    page, givens = page_truth(repo_dir)
    result = runner.invoke(app, ["read", "--json", "--max-grids", "1", str(page)])
    grids = json.loads(result.stdout)[0]["grids"]
    assert len(grids) == 1 and grids[0]["givens"] in givens
    two = runner.invoke(app, ["read", "--max-grids", "2", str(page)])
    assert "puzzle 2 of 2" in two.stdout and "of 3" not in two.stdout


def test_a_photo_of_one_puzzle_reads_one_grid(repo_dir: Path) -> None:
    photos = [p for p in sample_photos(repo_dir) if p.parent.name != "pages"]
    result = runner.invoke(app, ["read", "--json", *map(str, photos)])
    assert [len(d["grids"]) for d in json.loads(result.stdout)] == [1] * len(photos)
    text = runner.invoke(app, ["read", str(photos[0])])
    assert "puzzle 1 of" not in text.stdout


@pytest.mark.parametrize("name", ["half_blue", "nearly_done"])
def test_check_says_cells_left_and_entries_wrong_apart(
    repo_dir: Path, tmp_path: Path, name: str
) -> None:
    """Wrong entries are not cells left: `check` counts both, as its JSON does."""
    photo = repo_dir / "samples" / "progress" / f"{name}.jpg"
    truth = json.loads(photo.with_suffix(".json").read_text())
    out = str(tmp_path / "checked.png")
    text = runner.invoke(app, ["check", str(photo), "-o", out])
    check = json.loads(runner.invoke(app, ["check", str(photo), "-o", out, "--json"]).stdout)[
        "grids"
    ][0]["check"]
    wrong, unsure = check["wrong"], [u["cell"] for u in check["unsure"]]
    entries = "entry" if len(wrong) == 1 else "entries"
    names = f" ({', '.join(wrong)})" if wrong else ""
    asked = [f"{u['cell']}: {u['reading']} or {u['other']}?" for u in check["unsure"]]
    unsure_part = f", {len(unsure)} unsure ({', '.join(asked)})" if unsure else ""
    expected = (
        f"{check['left']} cells left, {len(wrong)} {entries} wrong{names}{unsure_part}, "
        f"{len(check['right'])} right"
    )
    assert check["left"] == check["empty"]
    assert text.stdout.splitlines()[0] == expected
    # every mistake is flagged: called wrong when read surely, else asked about
    assert sorted(wrong + unsure) == sorted(f"r{r + 1}c{c + 1}" for r, c in truth["mistakes"])
    pen = sum(1 for row in truth["pen"] for d in row if d) if truth["pen"] else 0
    assert len(check["right"]) + len(wrong) + len(unsure) == pen


@pytest.mark.slow
def test_read_jsonl_writes_one_line_per_photo_in_order(repo_dir: Path) -> None:
    photos = [repo_dir / "samples" / "printed" / "demo.jpg", page_truth(repo_dir)[0]]
    result = runner.invoke(app, ["read", "--jsonl", *map(str, photos)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    docs = [json.loads(line) for line in lines]
    assert [d["image"] for d in docs] == [str(p) for p in photos]
    assert [len(d["grids"]) for d in docs] == [1, 3]
    listed = json.loads(runner.invoke(app, ["read", "--json", *map(str, photos)]).stdout)
    assert [d["grids"][0]["givens"] for d in listed] == [d["grids"][0]["givens"] for d in docs]


def test_read_json_and_jsonl_together_is_a_usage_error() -> None:
    result = runner.invoke(app, ["read", "--json", "--jsonl", "x.jpg"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "--jsonl" in lines[0], result.stderr
