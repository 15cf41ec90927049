"""Inputs a reliability probe found getting through (issue 30) and a newcomer's stumbles
(issue 29), each refused in one line or handled, through the real console script.

Extreme image shapes (a 1×100000 PNG) are "too narrow to hold a Sudoku grid"; `read`,
`solve` and `check` read every page of a PDF or multi-page TIFF as `batch` does, or one
with `--page N`; a PDF whose page tree lies about its count gives one failure row; a
planted symlink in a batch's output folder is never followed; out-of-range numbers are
one-line usage errors; stdin is bounded; a full disk keeps the existing output; file
names' escape sequences are printed escaped.
"""

from __future__ import annotations

import errno
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from sudokucam import limits
from sudokucam.ui.cli import app
from sudokucam.ui.cli.common import printable
from sudokucam.vision.load import ImageLoadError, LoadProblem, check_room, problem_of
from sudokucam.vision.pages import page_count

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "samples" / "printed" / "demo.jpg"
runner = CliRunner()


def cli(*args: str, stdin: Any = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """The console script run in a fresh process: exit status, stdout, stderr."""
    return subprocess.run(
        [sys.executable, "-m", "sudokucam", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=stdin,
    )


def one_error(done: subprocess.CompletedProcess[str]) -> str:
    """The one stderr line of a run, which must be an "error: ..." line (no traceback)."""
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: "), done.stderr
    return lines[0]


def pdf_bytes(objects: list[bytes]) -> bytes:
    """A minimal PDF of the given objects (1 0 obj is the catalogue), with its xref table."""
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return out


def lying_pdf() -> bytes:
    """A PDF whose page tree says 5 pages and holds one (a blank letter page)."""
    return pdf_bytes(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 5 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
        ]
    )


def pageless_pdf() -> bytes:
    """A well-formed PDF without a page."""
    return pdf_bytes(
        [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]
    )


def strip_png(path: Path, width: int, height: int) -> Path:
    """A white ``width`` × ``height`` gray PNG at ``path``."""
    Image.new("L", (width, height), 255).save(path)
    return path


# -- 1. extreme shapes ------------------------------------------------------------------

EXTREME = [(1, 100_000), (5, 30_000), (16, 40_000), (100_000, 1), (40, 40_000), (8, 8)]


@pytest.mark.parametrize(("width", "height"), EXTREME)
def test_check_room_refuses_what_cannot_hold_a_grid(width: int, height: int) -> None:
    with pytest.raises(ImageLoadError, match="to hold a Sudoku grid") as caught:
        check_room((width, height), "x.png")
    assert caught.value.problem is LoadProblem.TOO_SMALL
    assert problem_of(str(caught.value)) is LoadProblem.TOO_SMALL


@pytest.mark.parametrize(("width", "height"), [(16, 320), (400, 8000), (7000, 350), (17, 17)])
def test_check_room_lets_thin_but_usable_photos_through(width: int, height: int) -> None:
    check_room((width, height), "x.png")


@pytest.mark.parametrize("command", ["read", "solve", "check"])
def test_extreme_shapes_are_one_line_from_every_photo_command(command: str, tmp_path: Path) -> None:
    photos = [strip_png(tmp_path / f"s{w}x{h}.png", w, h) for w, h in EXTREME[:3]]
    for photo in photos:
        args = [command, str(photo)] + (
            [] if command == "read" else ["-o", str(tmp_path / "o.png")]
        )
        result = runner.invoke(app, args)
        assert result.exit_code == 1, result.output
        assert "too narrow to hold a Sudoku grid" in result.output
        assert "Traceback" not in result.output and not (tmp_path / "o.png").exists()


def test_extreme_shapes_in_a_fresh_process_give_no_traceback(tmp_path: Path) -> None:
    photo = strip_png(tmp_path / "strip.png", 1, 100_000)
    done = cli("read", str(photo))
    assert done.returncode == 1
    assert one_error(done) == f"error: {photo} (1×100000) is too narrow to hold a Sudoku grid"


def test_extreme_shapes_are_clean_error_rows_in_a_batch(tmp_path: Path) -> None:
    inputs = [strip_png(tmp_path / f"s{w}x{h}.png", w, h) for w, h in EXTREME[:3]]
    out = tmp_path / "out"
    result = runner.invoke(app, ["batch", *map(str, inputs), "--out", str(out), "-w", "1"])
    assert result.exit_code == 1, result.output
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 3
    for row, photo in zip(sorted(rows, key=lambda r: r["source"]), sorted(inputs), strict=True):
        assert row["status"] == "error"
        assert row["error"].startswith(photo.name + " (")
        assert row["error"].endswith("is too narrow to hold a Sudoku grid")
        assert "internal error" not in row["error"]


# -- 3. one input vocabulary --------------------------------------------------------------


def test_a_pdf_whose_count_lies_is_one_failure_row_and_the_batch_finishes(
    tmp_path: Path,
) -> None:
    lying = tmp_path / "lying.pdf"
    lying.write_bytes(lying_pdf())
    out = tmp_path / "out"
    for _ in range(2):  # a rerun resumes rather than crashing again
        done = cli("batch", str(lying), str(DEMO), "--out", str(out), "-w", "1")
        assert "Traceback" not in done.stderr and done.returncode == 1, done.stderr
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    errors = [r for r in rows if r["status"] == "error"]
    assert [r["error"] for r in errors] == [
        "lying.pdf is damaged: it lists 5 pages, but pages 2-5 cannot be read"
    ]
    assert any(r["source"].endswith("demo.jpg") and r["status"] == "solved" for r in rows)
    assert any(r["source"].endswith("lying.pdf") and r["page"] == 1 for r in rows)


def test_a_pdf_without_pages_says_so(tmp_path: Path) -> None:
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(pageless_pdf())
    with pytest.raises(ImageLoadError, match="is corrupt: not a readable PDF"):
        page_count(b"%PDF-1.4\n" + b"\x00" * 64, "junk.pdf")  # pdfium's error state then
    with pytest.raises(ImageLoadError, match="has no pages") as caught:
        page_count(empty.read_bytes(), "empty.pdf")
    assert caught.value.problem is LoadProblem.NO_PAGE
    done = cli("read", str(empty))
    assert done.returncode == 1
    assert one_error(done) == f"error: {empty} has no pages"


@pytest.fixture(scope="module")
def scans(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The demo photo as a one-page PDF, and as a 3-page TIFF (upright, turned, blank)."""
    folder = tmp_path_factory.mktemp("scans")
    photo = Image.open(DEMO).convert("RGB")
    photo.save(folder / "demo.pdf", resolution=150)
    blank = Image.new("RGB", photo.size, "white")
    photo.save(folder / "three.tiff", save_all=True,
               append_images=[photo.rotate(90, expand=True), blank])  # fmt: skip
    return {"pdf": folder / "demo.pdf", "tiff": folder / "three.tiff"}


def test_read_reads_a_pdf_like_a_photo(scans: dict[str, Path]) -> None:
    result = runner.invoke(app, ["read", "--json", str(scans["pdf"])])
    assert result.exit_code == 0, result.output
    (doc,) = json.loads(result.stdout)
    assert doc["status"] == "solved" and "page" not in doc


def test_every_page_of_a_tiff_is_read_or_only_the_page_asked(
    scans: dict[str, Path], tmp_path: Path
) -> None:
    every = runner.invoke(app, ["read", "--json", str(scans["tiff"])])
    docs = json.loads(every.stdout)
    assert [(d["page"], d["status"]) for d in docs] == [
        (1, "solved"),
        (2, "solved"),
        (3, "no_grid"),
    ]
    assert every.exit_code == 1  # page 3 holds no grid
    second = runner.invoke(app, ["read", "--json", "--page", "2", str(scans["tiff"])])
    assert second.exit_code == 0
    assert [d["page"] for d in json.loads(second.stdout)] == [2]
    beyond = runner.invoke(app, ["read", "--page", "4", str(scans["tiff"])])
    assert beyond.exit_code == 1
    assert beyond.output.strip() == f"error: {scans['tiff']} has no page 4 (it has 3 pages)"


def test_solve_writes_one_picture_per_page(scans: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "answer.png"
    every = runner.invoke(app, ["solve", str(scans["tiff"]), "-o", str(out)])
    assert every.exit_code == 1  # the blank page
    assert sorted(p.name for p in tmp_path.iterdir()) == ["answer_p1.png", "answer_p2.png"]
    one = runner.invoke(app, ["solve", str(scans["tiff"]), "--page", "2", "-o", str(out)])
    assert one.exit_code == 0, one.output
    assert out.is_file()


# -- 4. the batch's own folder, numbers, stdin, full disk, names ----------------------------


def test_a_planted_lock_link_is_never_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    out = tmp_path / "out"
    (out / ".batch").mkdir(parents=True)
    (out / ".batch" / "lock").symlink_to(victim)
    result = runner.invoke(app, ["batch", str(DEMO), "--out", str(out), "-w", "1"])
    assert result.exit_code == 2
    assert "is a symbolic link" in result.output
    assert victim.read_text() == "precious\n"


def test_a_planted_solved_link_is_never_followed(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "solved").symlink_to(elsewhere)
    result = runner.invoke(app, ["batch", str(DEMO), "--out", str(out), "-w", "1"])
    assert result.exit_code == 2
    assert result.output.startswith(f"error: {out / 'solved'} is a symbolic link")
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (
            ["batch", str(DEMO), "--out", "OUT", "-w", "99999999999999999999"],
            "--workers must be 1-64",
        ),
        (["batch", str(DEMO), "--out", "OUT", "-w", "65"], "--workers must be 1-64"),
        (["batch", str(DEMO), "--out", "OUT", "--dpi", "inf"], "--dpi must be between"),
        (["generate", "--level", "easy", "--time-limit", "inf"], "--time-limit"),
        (["grid", "--time-limit", "inf", "1" * 81], "--time-limit"),
        (["hint", "--time-limit", "1e400", "1" * 81], "--time-limit"),
    ],
)
def test_numbers_out_of_range_are_one_line_usage_errors(
    args: list[str], says: str, tmp_path: Path
) -> None:
    done = cli(*[str(tmp_path / "out") if a == "OUT" else a for a in args])
    assert done.returncode == 2
    assert says in one_error(done)
    assert not (tmp_path / "out").exists()


def test_the_worker_cap_is_the_documented_one() -> None:
    assert limits.MAX_WORKERS == 64
    assert "1-64" in runner.invoke(app, ["batch", "--help"]).output


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("command", ["grid", "grade"])
def test_stdin_is_read_only_up_to_a_bound(command: str) -> None:
    with open("/dev/zero", "rb") as zero:
        done = cli(command, "-", stdin=zero, timeout=60)
    assert done.returncode == 2
    assert one_error(done) == "error: stdin holds more than 64 MB: no file of puzzles is that large"


def test_a_full_disk_keeps_the_existing_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    output = tmp_path / "answer.png"
    output.write_bytes(b"yesterday's answer")
    real_fdopen = os.fdopen

    class FullDisk:
        """A file whose every write finds the disk full."""

        def __init__(self, descriptor: int, *args: Any, **kwargs: Any) -> None:
            self.inner = real_fdopen(descriptor, *args, **kwargs)

        def __enter__(self) -> FullDisk:
            return self

        def __exit__(self, *exc: object) -> None:
            self.inner.close()

        def write(self, data: bytes) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fdopen", FullDisk)  # the store writes through os.fdopen
    result = runner.invoke(app, ["solve", str(DEMO), "-o", str(output)])
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (
        f"error: cannot write {output}: no space left on device; {output} was left as it was"
    )
    assert output.read_bytes() == b"yesterday's answer"
    assert [p.name for p in tmp_path.iterdir()] == ["answer.png"]  # no temporary file left


def test_escape_sequences_in_file_names_are_printed_escaped(tmp_path: Path) -> None:
    name = "bad\x1b[31mred\x07.jpg"
    (tmp_path / name).write_text("not a photo\n")
    done = cli("read", str(tmp_path / name))
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr
    assert (
        one_error(done)
        == f"error: {tmp_path}/bad\\x1b[31mred\\x07.jpg is not an image (looks like text)"
    )
    assert printable("a\u202eb\nc", keep="\n") == "a\\u202eb\nc"
    photo = tmp_path / "demo\x1b]0;owned\x07.jpg"
    photo.write_bytes(DEMO.read_bytes())
    read = cli("read", str(photo))
    assert read.returncode == 0
    assert read.stdout.splitlines()[0] == f"{tmp_path}/demo\\x1b]0;owned\\x07.jpg: solved"


def test_a_tiny_pixel_limit_is_said_as_it_is(tmp_path: Path) -> None:
    result = runner.invoke(app, ["read", "--max-pixels", "1", str(DEMO)])
    assert result.exit_code == 1
    assert "(limit 1 pixel)" in result.output and "limit 0.0" not in result.output


def test_the_photo_commands_take_their_limits_from_one_module() -> None:
    from sudokucam.ui.cli import batch as cli_batch
    from sudokucam.ui.cli import photo as cli_photo
    from sudokucam.vision import load
    from sudokucam.vision.batch import work

    assert cli_photo.DEFAULT_MAX_PIXELS is limits.DEFAULT_MAX_PIXELS is load.DEFAULT_MAX_PIXELS
    assert cli_photo.MAX_GRIDS_LIMIT == limits.MAX_GRIDS_PER_PHOTO
    batch_defaults = inspect.signature(cli_batch.batch_command).parameters
    assert work.WorkOptions().dpi == limits.DEFAULT_DPI == batch_defaults["dpi"].default
    # `batch` looks for as many grids on a page as `solve` does on a photo (one default)
    assert batch_defaults["max_grids"].default == limits.MAX_GRIDS_PER_PHOTO
    assert work.WorkOptions().max_grids == limits.MAX_GRIDS_PER_PHOTO


def test_the_limits_module_imports_nothing_heavy() -> None:
    code = (
        "import sys, sudokucam.limits; "
        "print(sorted(m for m in ('numpy', 'cv2', 'PIL') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


# -- 6. a newcomer's stumbles ---------------------------------------------------------------


def test_a_missing_batch_input_is_an_input_failure(tmp_path: Path) -> None:
    done = cli("batch", str(tmp_path / "nonexistent"), "--out", str(tmp_path / "x"))
    assert done.returncode == 1
    assert one_error(done) == f"error: {tmp_path / 'nonexistent'} does not exist"


@pytest.mark.parametrize("level", ["hard", "HARD", "Hard", "expert", "Very Hard"])
def test_generate_takes_the_everyday_level_words(level: str) -> None:
    result = runner.invoke(app, ["generate", "--level", level, "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    wanted = "Difficult" if level.lower() == "hard" else "Extremely Difficult"
    assert json.loads(result.stdout)["level"] == wanted


def erased_photo(path: Path, keep: int = 12) -> Path:
    """The demo photo with all but ``keep`` of its printed digits painted over: a puzzle
    of so few givens has many solutions, whatever the reader makes of the rest."""
    import cv2

    from sudokucam.vision.pipeline import Reader

    image = cv2.imread(str(DEMO))
    assert image is not None
    grid = Reader().read(image).grids[0]
    lattice = grid.detection.lattice
    givens = [c for c, d in enumerate(grid.givens) if d != "0"]
    for cell in givens[keep:]:
        row, col = divmod(cell, 9)
        quad = np.array([lattice[row, col], lattice[row, col + 1],
                         lattice[row + 1, col + 1], lattice[row + 1, col]])  # fmt: skip
        centre = quad.mean(axis=0)
        inner = centre + 0.7 * (quad - centre)  # the grid lines are kept
        cv2.fillConvexPoly(image, inner.round().astype(np.int32), (235, 235, 235))
    assert cv2.imwrite(str(path), image)
    return path


def test_an_unsolved_photo_is_written_with_its_doubtful_cells_ringed(tmp_path: Path) -> None:
    photo = erased_photo(tmp_path / "sparse.png")
    output = tmp_path / "answer.png"
    result = runner.invoke(app, ["solve", str(photo), "-o", str(output)])
    assert result.exit_code == 1, result.output
    wrote = [line for line in result.output.splitlines() if line.startswith("wrote ")]
    assert wrote == [
        f"wrote {output} (the puzzle was not solved: its 3 doubtful cells are ringed, "
        "look at those digits)"
    ]
    drawn = np.asarray(Image.open(output).convert("RGB"), dtype=np.int16)
    taken = np.asarray(Image.open(photo).convert("RGB"), dtype=np.int16)
    changed = np.abs(drawn - taken).max(axis=2) > 40
    assert 0 < changed.mean() < 0.05  # rings drawn on a few cells, the photo kept
