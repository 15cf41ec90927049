"""Batch against bad piles: every input once, bounded pages, a full disk, safe tables.

Each test builds its bad input in tmp_path: a folder with a symlink loop, a dangling link
and the same photo reached several ways; a tiny PDF with a 100×100-inch page; a 3-page
TIFF; an output folder whose disk fills up (simulated everywhere, and on a real 300 KB
tmpfs where this process may mount one); inputs whose names look like formulas.
"""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from typer.testing import CliRunner

from sudokucam.ui.cli import app
from sudokucam.vision.batch.inputs import PayloadReader, discover, render_pdf
from sudokucam.vision.batch.store import csv_bytes
from sudokucam.vision.batch.work import WorkOptions, process_unit
from sudokucam.vision.load import DEFAULT_MAX_PIXELS

REPO = Path(__file__).resolve().parent.parent
PHOTO = REPO / "samples" / "printed" / "demo.jpg"
NO_SPACE_STATUS = 3
# The largest process of a batch of one huge PDF page (2.4 GB unbounded; 507 MB with the
# render's copy and the eager negative; 360 MB now on an idle machine, 402 MB seen once in
# a full CI run): under the 0.45 GB docs/cli.md states.
PEAK_RSS_LIMIT_MB = 450


def _rows(out: Path) -> list[dict[str, Any]]:
    """The objects of results.jsonl."""
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def _table(out: Path) -> list[dict[str, str]]:
    """The rows of summary.csv."""
    with (out / "summary.csv").open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _batch(*args: str) -> Any:
    """`sudokucam batch ARGS --workers 1` in this process."""
    return CliRunner().invoke(app, ["batch", *args, "--workers", "1"])


# -- every real file once ------------------------------------------------------------


@pytest.fixture
def tangled(tmp_path: Path) -> Path:
    """d/photo.png with a loop back to d, a dangling link, a self-link, a link and a hard
    link to the photo, and a link to a folder outside (followed, once)."""
    folder = tmp_path / "d"
    (folder / "n").mkdir(parents=True)
    Image.new("RGB", (40, 30), "white").save(folder / "photo.png")
    (folder / "n" / "loop").symlink_to("..")
    (folder / "n" / "up").symlink_to(tmp_path)
    (folder / "dangling.jpg").symlink_to("nowhere.jpg")
    (folder / "self.jpg").symlink_to("self.jpg")
    (folder / "alias.png").symlink_to("photo.png")
    os.link(folder / "photo.png", folder / "hard.png")
    outside = tmp_path / "outside"
    outside.mkdir()
    Image.new("RGB", (40, 30), "white").save(outside / "other.png")
    (folder / "n" / "away").symlink_to(outside)
    (folder / "n" / "away2").symlink_to(outside)
    return folder


def test_symlink_loops_and_duplicates_are_walked_once(tangled: Path) -> None:
    """Each real file is one unit however often it is reached; loops and dangling links
    are skipped with their reason."""
    again = tangled / ".." / "d" / "photo.png"
    found = discover([tangled, again, tangled / "alias.png", tangled / "n" / "loop"])
    sources = sorted(Path(unit.source).name for unit in found.units)
    assert sources == ["alias.png", "other.png"], sources
    reasons = {Path(s.source).name: s.reason for s in found.skipped}
    assert reasons["loop"].startswith("symlink loop")
    assert reasons["up"].startswith("symlink loop")
    assert reasons["self.jpg"].startswith("symlink loop")
    assert reasons["dangling.jpg"].startswith("dangling link")
    assert len(found.skipped) == 4


def test_the_same_file_named_twice_is_one_row(tmp_path: Path) -> None:
    """`d` and `d/../d/x.png` give one row for x.png; the loop and the dangling link are
    skipped rows of results.jsonl with their reason."""
    folder = tmp_path / "d"
    (folder / "n").mkdir(parents=True)
    (folder / "x.png").write_text("not really a png")
    (folder / "n" / "loop").symlink_to("..")
    (folder / "gone.png").symlink_to("missing.png")
    out = tmp_path / "out"
    result = _batch(str(folder), str(folder / ".." / "d" / "x.png"), "--out", str(out))
    assert result.exit_code == 1, result.output
    rows = _rows(out)
    assert [(Path(r["source"]).name, r["status"]) for r in rows] == [
        ("x.png", "error"),
        ("gone.png", "skipped"),
        ("loop", "skipped"),
    ]
    assert rows[1]["error"].startswith("dangling link")
    assert rows[2]["error"].startswith("symlink loop")


def test_output_folder_inside_an_input_folder_is_not_read_again(tmp_path: Path) -> None:
    """`batch d --out d/out` twice: the second run reads d's photo only, not the crops and
    solved pictures the first run wrote; the output folder is a skipped row with why."""
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "photo.jpg").write_bytes(PHOTO.read_bytes())
    out = folder / "out"
    for _ in range(2):
        result = _batch(str(folder), "--out", str(out))
        assert result.exit_code == 0, result.output
    assert any(out.rglob("*.png")), "the first run wrote pictures into d/out"
    rows = _rows(out)
    read = [r for r in rows if r["status"] != "skipped"]
    assert {Path(r["source"]).name for r in read} == {"photo.jpg"}
    skipped = [r for r in rows if r["status"] == "skipped"]
    assert [Path(r["source"]).name for r in skipped] == ["out"]
    assert "output folder" in skipped[0]["error"]


def test_output_folder_that_is_an_input_folder_is_refused(tmp_path: Path) -> None:
    """`batch d --out d` would mix results with photos: one line, exit 2, nothing written."""
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "photo.jpg").write_bytes(PHOTO.read_bytes())
    result = _batch(str(folder), "--out", str(folder / ".." / "d"))
    assert result.exit_code == 2, result.output
    assert "is an input folder" in result.output
    assert sorted(p.name for p in folder.iterdir()) == ["photo.jpg"]


# -- huge PDF pages ------------------------------------------------------------------


def _huge_pdf(inches: float = 100.0) -> bytes:
    """A PDF of one blank page ``inches`` × ``inches`` (a few hundred bytes)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument.new()
    document.new_page(72 * inches, 72 * inches)
    buffer = io.BytesIO()
    document.save(buffer)
    document.close()
    return buffer.getvalue()


def test_huge_pdf_page_is_rendered_under_the_pixel_limit() -> None:
    """A 100×100-inch page renders at the dpi that keeps it within DEFAULT_MAX_PIXELS."""
    data = _huge_pdf()
    assert len(data) < 2000
    rendered = render_pdf(data, 1, 200, "huge.pdf")
    height, width = rendered.image.shape[:2]
    assert height * width <= DEFAULT_MAX_PIXELS
    assert height * width > 0.99 * DEFAULT_MAX_PIXELS  # as sharp as the limit allows
    assert 70 < rendered.dpi < 71
    small = render_pdf(_huge_pdf(2.0), 1, 200, "small.pdf")
    assert small.dpi == 200 and small.image.shape == (400, 400, 3)


def test_huge_pdf_page_is_read_and_the_record_says_how(tmp_path: Path) -> None:
    """The page is read (no grid on a blank page), not refused, with a note in its row."""
    path = tmp_path / "huge.pdf"
    path.write_bytes(_huge_pdf())
    unit = discover([path]).units[0]
    outcome = process_unit(unit, PayloadReader()(unit), WorkOptions())
    assert outcome.status == "no_grid", outcome.error
    assert outcome.note is not None
    assert "dpi" in outcome.note and "50 megapixels" in outcome.note


def test_huge_pdf_page_in_the_app_is_read_with_its_note() -> None:
    """The app's many-photos page renders PDFs through the same code."""
    from sudokucam.ui.app.state.batch_jobs import run_batch
    from sudokucam.ui.app.state.settings import APP_CONFIG
    from sudokucam.ui.app.widgets.photo_input import PhotoInput

    options = WorkOptions(dpi=APP_CONFIG.pdf_dpi, image_format="png")
    result = run_batch([PhotoInput("huge.pdf", _huge_pdf())], options)
    (row,) = result.rows
    assert row["status"] == "no_grid", row
    assert "megapixels" in row["note"]


def test_too_many_pages_or_bytes_is_one_failed_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PDF with more pages than the limit, or more bytes, fails with the limit and what
    to do, before any page is rendered."""
    import sudokucam.vision.batch.inputs as inputs

    pdf = tmp_path / "book.pdf"
    pdf.write_bytes(_huge_pdf(inches=1.0))
    monkeypatch.setattr(inputs, "MAX_PAGES", 0)
    found = discover([pdf])
    assert not found.units
    assert found.failures[0].error == "book.pdf has 1 pages (limit 0); split it into smaller files"
    monkeypatch.setattr(inputs, "MAX_PAGES", 10)
    monkeypatch.setattr(inputs, "MAX_PDF_BYTES", 100)
    error = discover([pdf]).failures[0].error
    assert error.startswith("book.pdf is too large for a PDF") and "split it" in error


@pytest.mark.slow
def test_huge_pdf_read_peak_memory_is_bounded(tmp_path: Path) -> None:
    """`sudokucam read` on the huge page (rendered at 70.6 dpi) stays under PEAK_RSS_LIMIT_MB."""
    path = tmp_path / "huge.pdf"
    path.write_bytes(_huge_pdf())
    read = [sys.executable, "-m", "sudokucam", "read", str(path)]
    script = (
        "import resource, subprocess, sys\n"
        f"done = subprocess.run({read!r}, capture_output=True, text=True)\n"
        "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "print(done.stderr, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True
    )
    code, peak_kb = (int(word) for word in done.stdout.split())
    assert code == 1, done.stderr  # a page without a grid
    assert "rendered at 70.6 dpi, not 200, to stay under 50 megapixels" in done.stderr
    assert peak_kb / 1024 < PEAK_RSS_LIMIT_MB


@pytest.mark.slow
def test_huge_pdf_batch_peak_memory_is_bounded(tmp_path: Path) -> None:
    """`sudokucam batch` on the huge page stays under PEAK_RSS_LIMIT_MB (workers included)."""
    path = tmp_path / "huge.pdf"
    path.write_bytes(_huge_pdf())
    out = tmp_path / "out"
    batch = [sys.executable, "-m", "sudokucam", "-q", "batch", str(path), "--out", str(out)]
    script = (
        "import resource, subprocess, sys\n"
        f"code = subprocess.run({[*batch, '--workers', '1']!r}).returncode\n"
        "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True
    )
    code, peak_kb = (int(word) for word in done.stdout.split())
    assert code == 1, done.stderr  # a page without a grid
    assert peak_kb / 1024 < PEAK_RSS_LIMIT_MB
    assert "megapixels" in _rows(out)[0]["note"]


# -- multi-page TIFFs ----------------------------------------------------------------


def _three_page_tiff(path: Path) -> None:
    """A TIFF whose pages are: blank, the demo photo, blank."""
    photo = Image.open(PHOTO).convert("RGB")
    blank = Image.new("RGB", photo.size, "white")
    blank.save(path, format="TIFF", save_all=True, append_images=[photo, blank])


def test_multi_page_tiff_reads_every_page(tmp_path: Path) -> None:
    """Each page of a TIFF is a unit with its page number; the puzzle on page 2 is solved."""
    path = tmp_path / "scan.tif"
    _three_page_tiff(path)
    Image.open(PHOTO).save(tmp_path / "single.tiff", format="TIFF")
    found = discover([path, tmp_path / "single.tiff"])
    assert [(u.label, u.page, u.pages) for u in found.units] == [
        ("scan.tif p1", 1, 3),
        ("scan.tif p2", 2, 3),
        ("scan.tif p3", 3, 3),
        ("single.tiff", 1, 1),
    ]
    out = tmp_path / "out"
    result = _batch(str(path), "--out", str(out))
    assert result.exit_code == 1, result.output  # pages 1 and 3 hold no grid
    statuses = [(row["page"], row["status"]) for row in _rows(out)]
    assert statuses == [(1, "no_grid"), (2, "solved"), (3, "no_grid")]
    assert (out / "solved" / "scan_p2_g1.png").is_file()


# -- a full disk ---------------------------------------------------------------------


def _leftovers(out: Path) -> list[Path]:
    """Temporary files under the output folder."""
    return list(out.rglob("*.tmp"))


def test_full_disk_is_one_line_and_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that fails with ENOSPC (simulated) stops the batch with one line and
    status 3, leaves no temporary file, and the same command later finishes the work."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "demo.jpg").write_bytes(PHOTO.read_bytes())
    out = tmp_path / "out"
    real_fsync = os.fsync

    def full_for_images(fd: int) -> None:
        if "solved" in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc/self/fd to tell which file is being written")
    monkeypatch.setattr(os, "fsync", full_for_images)
    full = _batch(str(folder), "--out", str(out))
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert full.exit_code == NO_SPACE_STATUS, full.output
    expected = (
        f"error: no space left on device writing {out}/solved/demo_p1_g1.png: "
        "free some space and run the same command again to resume"
    )
    assert full.stderr.strip().splitlines()[-1] == expected
    assert "Traceback" not in full.output
    assert not _leftovers(out)
    again = _batch(str(folder), "--out", str(out))
    assert again.exit_code == 0, again.output
    assert [row["status"] for row in _rows(out)] == ["solved"]


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 300 KB tmpfs mounted for the test (needs root); skipped where it cannot be."""
    mount = tmp_path / f"disk-{uuid.uuid4().hex[:6]}"
    mount.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=300k", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
    )
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {made.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=False)


@pytest.mark.slow
def test_full_tmpfs_is_one_line_and_resumes_with_space(tiny_disk: Path, tmp_path: Path) -> None:
    """--out on a full 300 KB tmpfs: one line, status 3, no temporary file; with more room
    the same command finishes."""
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("demo", "shadow"):
        (folder / f"{name}.jpg").write_bytes((PHOTO.parent / f"{name}.jpg").read_bytes())
    out = tiny_disk / "out"
    command = [sys.executable, "-m", "sudokucam", "-q", "batch", str(folder), "--out", str(out)]
    full = subprocess.run([*command, "-w", "1"], capture_output=True, text=True, timeout=300)
    assert full.returncode == NO_SPACE_STATUS, full.stderr
    (line,) = full.stderr.strip().splitlines()
    assert line.startswith(f"error: no space left on device writing {out}/")
    assert line.endswith("free some space and run the same command again to resume")
    assert not _leftovers(out)
    subprocess.run(["mount", "-o", "remount,size=20m", str(tiny_disk)], check=True)
    again = subprocess.run([*command, "-w", "1"], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert [row["status"] for row in _rows(out)] == ["solved", "solved"]
    assert not _leftovers(out)


# -- formula-like cells --------------------------------------------------------------


def test_formula_like_cells_are_neutralised_in_summary_csv(tmp_path: Path) -> None:
    """Error messages that start with a file name like =cmd.jpg are text in summary.csv;
    results.jsonl keeps the true values."""
    folder = tmp_path / "in"
    folder.mkdir()
    names = ["=cmd.jpg", "+x.jpg", "-y.jpg", "@z.jpg"]
    for name in names:
        (folder / name).write_text("not an image\n")
    out = tmp_path / "out"
    result = _batch(*(str(folder / name) for name in names), "--out", str(out))
    assert result.exit_code == 1, result.output
    true_errors = [row["error"] for row in _rows(out)]
    assert [error.split(" ")[0] for error in true_errors] == names
    assert [row["error"] for row in _table(out)] == [f"'{error}" for error in true_errors]


def test_safe_cells_leave_numbers_and_plain_text_alone() -> None:
    """Tab and CR starts are neutralised too; numbers (even negative) and paths are not."""
    rows = [
        {"source": "/a/b.jpg", "page": 1, "grid": None, "status": "error", "error": "\tx"},
        {"source": "\rb.jpg", "page": -1, "grid": None, "status": "ok", "error": "fine"},
    ]
    table = list(csv.DictReader(io.StringIO(csv_bytes(rows).decode("utf-8"))))
    assert [row["error"] for row in table] == ["'\tx", "fine"]
    assert [row["source"] for row in table] == ["/a/b.jpg", "'\rb.jpg"]
    assert table[1]["page"] == "-1"
