"""`sudokucam batch` end to end with the real pipeline on rendered newspaper pages.

Pages come from ``samples/render.py`` (several Sudokus among crosswords, tables and
articles, with exact truth). Covered: a mixed folder (PDF, corrupt JPEG, text file, page
without a grid), every puzzle on a multi-puzzle page found and solved with the crossword
left alone, a batch killed part-way and resumed (each unit exactly once), and the Dask
executor on a LocalCluster bound to 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from sudokucam.samples import render
from sudokucam.ui.cli import app
from sudokucam.vision.batch.inputs import discover
from sudokucam.vision.batch.work import WorkOptions, process_unit, worker_reader

REPO = Path(__file__).resolve().parent.parent
DPI = 150
CORNER_TOLERANCE = 0.2  # of a cell
# Seeds of rendered pages (seed, puzzles): 1 has a crossword, 3 two crosswords, 2 a table.
PAGES = ((1, 2), (2, 2), (3, 2), (4, 3))


@pytest.fixture(scope="module")
def pages() -> dict[int, tuple[np.ndarray, list[Any]]]:
    """The rendered test pages at DPI, by seed, with their truth."""
    return {seed: render.render_page(seed, n, DPI) for seed, n in PAGES}


def _solution(truth: Any) -> str:
    """81-digit solution string of a rendered puzzle."""
    return "".join(str(int(v)) for v in np.ravel(truth.solution))


def _save_pdf(path: Path, images: list[np.ndarray]) -> None:
    """Save BGR page images as a multi-page PDF at DPI (a scanner's output)."""
    pil = [Image.fromarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB)) for image in images]
    pil[0].save(path, "PDF", resolution=DPI, save_all=True, append_images=pil[1:])


def _rows(out: Path) -> list[dict[str, Any]]:
    """The objects of results.jsonl."""
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def _check_grids(rows: list[dict[str, Any]], truths: list[Any]) -> None:
    """Each true puzzle found once at its place and solved right; nothing else reported."""
    grids = [row for row in rows if row["grid"] is not None]
    assert len(grids) == len(truths), [row["corners"] for row in grids]
    for truth in truths:
        cell = float(np.linalg.norm(truth.corners[1] - truth.corners[0])) / 9
        near = [
            row
            for row in grids
            if np.abs(np.asarray(row["corners"]) - truth.corners).max() < CORNER_TOLERANCE * cell
        ]
        assert len(near) == 1, f"puzzle at {truth.corners.tolist()} found {len(near)} times"
        assert near[0]["status"] == "solved", near[0]["message"]
        assert near[0]["solution"] == _solution(truth)


def _check_outputs(out: Path) -> None:
    """results.jsonl and summary.csv agree; every solved image exists and decodes."""
    rows = _rows(out)
    with (out / "summary.csv").open(newline="") as handle:
        table = list(csv.DictReader(handle))
    assert len(table) == len(rows)
    keys = [(row["source"], row["page"], row["grid"]) for row in rows]
    assert len(set(keys)) == len(keys), "a row is listed twice"
    images = {row["image"] for row in rows if row.get("image")}
    assert images == {f"solved/{p.name}" for p in (out / "solved").iterdir()}
    for name in images:
        image = cv2.imread(str(out / name))
        assert image is not None and image.shape[0] > 50 and image.shape[1] > 50
    assert not list(out.rglob("*.tmp")), "a temporary file was left behind"


def test_help() -> None:
    """`batch --help` lists the flags."""
    result = CliRunner().invoke(app, ["batch", "--help"])
    assert result.exit_code == 0
    for flag in ("--out", "--workers", "--executor", "--dpi", "--retry-failed"):
        assert flag in result.output


@pytest.mark.parametrize(
    "extra",
    [
        ["--workers", "0"],
        ["--executor", "ftp://host:1"],
        ["--executor", "dask://host"],
        ["--format", "gif"],
        ["--dpi", "5"],
        ["--max-grids", "0"],
    ],
)
def test_usage_errors_exit_2(tmp_path: Path, extra: list[str]) -> None:
    """Bad flags are refused with one line and status 2, before any work."""
    (tmp_path / "in").mkdir()
    result = CliRunner().invoke(
        app, ["batch", str(tmp_path / "in"), "--out", str(tmp_path / "out"), *extra]
    )
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_missing_input_exits_1_and_file_as_out_exit_2(tmp_path: Path) -> None:
    """An input that does not exist is a failed input (exit 1, as for `read`); --out
    naming a file is a usage error."""
    runner = CliRunner()
    missing = runner.invoke(app, ["batch", str(tmp_path / "nope.jpg"), "--out", str(tmp_path)])
    assert missing.exit_code == 1
    assert missing.output == f"error: {tmp_path / 'nope.jpg'} does not exist\n"
    (tmp_path / "file").write_text("x")
    clash = runner.invoke(app, ["batch", str(tmp_path), "--out", str(tmp_path / "file")])
    assert clash.exit_code == 2


def test_one_model_per_process() -> None:
    """Batch readers (any --max-grids) and the app's Reader share one onnxruntime session."""
    from sudokucam.vision.pipeline import Reader

    assert worker_reader(1).classifier is worker_reader(3).classifier is Reader().classifier


def test_second_batch_on_the_same_out_is_refused(tmp_path: Path) -> None:
    """While one batch holds --out, another is refused naming it; afterwards it runs."""
    from sudokucam.vision.batch.lock import BatchLockedError, batch_lock

    (tmp_path / "in").mkdir()
    out = tmp_path / "out"
    runner = CliRunner()
    with batch_lock(out):
        busy = runner.invoke(app, ["batch", str(tmp_path / "in"), "--out", str(out)])
        assert busy.exit_code == 2
        assert f"another sudokucam batch (process {os.getpid()}) is writing to {out}" in (
            busy.output
        )
        with pytest.raises(BatchLockedError), batch_lock(out):
            pass
    free = runner.invoke(app, ["batch", str(tmp_path / "in"), "--out", str(out)])
    assert "another sudokucam batch" not in free.output
    assert (out / "results.jsonl").is_file()


@pytest.mark.parametrize(("seed", "n_puzzles"), PAGES)
def test_every_puzzle_on_a_page_and_no_distractor(
    pages: dict[int, tuple[np.ndarray, list[Any]]], tmp_path: Path, seed: int, n_puzzles: int
) -> None:
    """Each Sudoku on the page is found once and solved; crosswords and tables are not."""
    image, truths = pages[seed]
    assert len(truths) == n_puzzles
    path = tmp_path / f"page{seed}.png"
    cv2.imwrite(str(path), image)
    unit = discover([path]).units[0]
    outcome = process_unit(unit, path.read_bytes(), WorkOptions())
    assert outcome.error is None
    _check_grids([{**grid.record, "image": None} for grid in outcome.grids], truths)
    for grid in outcome.grids:
        crop = cv2.imdecode(np.frombuffer(grid.image, np.uint8), cv2.IMREAD_COLOR)
        assert crop is not None
        x0, y0, x1, y1 = grid.record["crop"]
        assert crop.shape[:2] == (y1 - y0, x1 - x0)
        assert not np.array_equal(crop, image[y0:y1, x0:x1]), "no answer drawn"


@pytest.fixture(scope="module")
def mixed_folder(
    tmp_path_factory: pytest.TempPathFactory, pages: dict[int, tuple[np.ndarray, list[Any]]]
) -> Path:
    """A folder with a 2-page PDF scan, a page PNG, a corrupt JPEG, a text file, no-grid page."""
    folder = tmp_path_factory.mktemp("mixed")
    (folder / "scans").mkdir()
    _save_pdf(folder / "scans" / "paper.pdf", [pages[1][0], pages[2][0]])
    cv2.imwrite(str(folder / "page3.png"), pages[3][0])
    good = cv2.imencode(".jpg", pages[4][0])[1].tobytes()
    (folder / "corrupt.jpg").write_bytes(good[: len(good) // 3])
    (folder / "notes.txt").write_text("scanned on Monday\n")
    article = pages[1][0].copy()
    for truth in pages[1][1]:
        x0, y0 = truth.corners.min(axis=0).astype(int) - 20
        x1, y1 = truth.corners.max(axis=0).astype(int) + 20
        article[max(y0, 0) : y1, max(x0, 0) : x1] = 240
    article = article[: article.shape[0] // 3]  # masthead and text, no Sudoku
    cv2.imwrite(str(folder / "no_grid.jpg"), article)
    return folder


def _truths_by_source(
    folder: Path, pages: dict[int, tuple[np.ndarray, list[Any]]]
) -> dict[tuple[str, int], list[Any]]:
    """The truth of each page of the mixed folder, by (source, page)."""
    pdf = str(folder / "scans" / "paper.pdf")
    return {
        (pdf, 1): pages[1][1],
        (pdf, 2): pages[2][1],
        (str(folder / "page3.png"), 1): pages[3][1],
    }


def _check_mixed(out: Path, folder: Path, pages: dict[int, tuple[np.ndarray, list[Any]]]) -> None:
    """The mixed folder's results: puzzles solved, each bad file recorded with its reason."""
    rows = _rows(out)
    for (source, page), truths in _truths_by_source(folder, pages).items():
        _check_grids([r for r in rows if r["source"] == source and r["page"] == page], truths)
    by_name = {Path(r["source"]).name: r for r in rows if r["grid"] is None}
    assert by_name["corrupt.jpg"]["status"] == "error"
    assert "truncated" in by_name["corrupt.jpg"]["error"]
    assert by_name["notes.txt"]["status"] == "skipped"
    assert by_name["no_grid.jpg"]["status"] == "no_grid"
    _check_outputs(out)


@pytest.mark.slow
def test_mixed_folder_local_pool(
    mixed_folder: Path, pages: dict[int, tuple[np.ndarray, list[Any]]], tmp_path: Path
) -> None:
    """Every grid of the folder solved; the corrupt file is recorded and the exit is 1."""
    out = tmp_path / "out"
    args = ["batch", str(mixed_folder), "--out", str(out), "--workers", "2", "--dpi", str(DPI)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output
    _check_mixed(out, mixed_folder, pages)
    assert "grids: 6 found, 6 solved" in result.stdout
    assert "failed inputs: 1\n  corrupt.jpg: " in result.stdout
    notes = mixed_folder / "notes.txt"
    assert f"skipped files: 1\n  {notes} (neither an image nor a PDF)\n" in result.stdout
    images = {row["image"] for row in _rows(out) if row.get("image")}
    assert images == {
        "solved/paper_p1_g1.png",
        "solved/paper_p1_g2.png",
        "solved/paper_p2_g1.png",
        "solved/paper_p2_g2.png",
        "solved/page3_p1_g1.png",
        "solved/page3_p1_g2.png",
    }
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 1
    assert "(0 read now, 5 done earlier)" in again.stdout
    _check_mixed(out, mixed_folder, pages)


def test_skipped_files_are_named_then_counted(tmp_path: Path) -> None:
    """The summary names the first few skipped files with the reason; the tables all."""
    folder = tmp_path / "in"
    folder.mkdir()
    for n in range(7):
        (folder / f"note{n}.txt").write_text("not a photo\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["batch", str(folder), "--out", str(out)])
    assert result.exit_code == 0, result.output
    named = [f"  {folder / f'note{n}.txt'} (neither an image nor a PDF)" for n in range(5)]
    expected = ["skipped files: 7", *named, "  and 2 more (all in results.jsonl)"]
    lines = result.stdout.splitlines()
    start = lines.index("skipped files: 7")
    assert lines[start : start + 7] == expected
    assert [row["status"] for row in _rows(out)] == ["skipped"] * 7


@pytest.mark.slow
def test_inputs_sharing_a_stem_get_distinct_stable_names(tmp_path: Path) -> None:
    """a/demo.jpg and b/demo.jpg: demo_p1_g1.png and demo-2_p1_g1.png, also when resumed."""
    photo = REPO / "samples" / "printed" / "demo.jpg"
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "demo.jpg").write_bytes(photo.read_bytes())
    out = tmp_path / "out"
    args = ["batch", str(tmp_path / "b"), str(tmp_path / "a"), "--out", str(out), "-w", "2"]
    assert CliRunner().invoke(app, args).exit_code == 0
    names = {row["source"]: row["image"] for row in _rows(out)}
    assert names == {
        str(tmp_path / "a" / "demo.jpg"): "solved/demo_p1_g1.png",
        str(tmp_path / "b" / "demo.jpg"): "solved/demo-2_p1_g1.png",
    }
    first = discover([tmp_path / "a"]).units[0]
    (out / ".batch" / "units" / f"{first.uid}.json").unlink()  # as if killed before it
    (out / "solved" / "demo_p1_g1.png").unlink()
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0 and "(1 read now, 1 done earlier)" in again.stdout
    assert {row["source"]: row["image"] for row in _rows(out)} == names
    _check_outputs(out)


@pytest.fixture
def local_cluster() -> Iterator[str]:
    """A Dask LocalCluster in this process, listening on 127.0.0.1 only; its dask:// address."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        yield cluster.scheduler_address.replace("tcp://", "dask://")


@pytest.mark.slow
def test_mixed_folder_on_dask(
    mixed_folder: Path,
    pages: dict[int, tuple[np.ndarray, list[Any]]],
    tmp_path: Path,
    local_cluster: str,
) -> None:
    """The same folder through a Dask cluster gives the same results."""
    out = tmp_path / "out"
    args = ["batch", str(mixed_folder), "--out", str(out), "--executor", local_cluster]
    result = CliRunner().invoke(app, [*args, "--dpi", str(DPI)])
    assert result.exit_code == 1, result.output
    assert "Dask cluster at tcp://127.0.0.1:" in result.output
    _check_mixed(out, mixed_folder, pages)


def test_dask_unreachable_is_a_clear_error(tmp_path: Path) -> None:
    """A scheduler that is not there gives one line and status 2."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    (tmp_path / "a.png").write_bytes(
        cv2.imencode(".png", np.zeros((64, 64, 3), np.uint8))[1].tobytes()
    )
    address = f"dask://127.0.0.1:{port}"
    args = ["batch", str(tmp_path / "a.png"), "--out", str(tmp_path / "o"), "--executor", address]
    result = subprocess.run(
        [sys.executable, "-m", "sudokucam", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"},
    )
    assert result.returncode == 2, result.stderr
    assert "cannot reach the Dask scheduler" in result.stderr
    assert "Traceback" not in result.stderr


RESUME_PDF_SEEDS = (2, 3, 1)
KILL_WAIT_S = 240  # most seconds a batch may take to store the pages it is killed after


@pytest.fixture(scope="module")
def resume_folder(
    tmp_path_factory: pytest.TempPathFactory, pages: dict[int, tuple[np.ndarray, list[Any]]]
) -> Path:
    """Six units: three page images and a 3-page PDF."""
    folder = tmp_path_factory.mktemp("resume")
    for seed in (1, 2, 3):
        cv2.imwrite(str(folder / f"page{seed}.jpg"), pages[seed][0])
    _save_pdf(folder / "scans.pdf", [pages[seed][0] for seed in RESUME_PDF_SEEDS])
    return folder


def _batch_process(folder: Path, out: Path, **env: str) -> subprocess.Popen[str]:
    """`python -m sudokucam batch` in its own process group."""
    args = ["batch", str(folder), "--out", str(out), "--workers", "1", "--dpi", str(DPI)]
    return subprocess.Popen(
        [sys.executable, "-m", "sudokucam", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **env},
        start_new_session=True,
    )


def _finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    """Wait for a batch process; then remove any worker it left behind."""
    try:
        stdout, stderr = process.communicate(timeout=180)  # workers must end with the batch
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    return process.returncode, stdout, stderr


def _check_resumed(
    out: Path, folder: Path, pages: dict[int, tuple[np.ndarray, list[Any]]], code: int
) -> None:
    """After the rerun every unit is listed once, with all its grids, and outputs are valid."""
    rows = _rows(out)
    expected = {(str(folder / f"page{seed}.jpg"), 1): seed for seed in (1, 2, 3)}
    pdf = str(folder / "scans.pdf")
    expected |= {(pdf, n): seed for n, seed in enumerate(RESUME_PDF_SEEDS, start=1)}
    assert {(r["source"], r["page"]) for r in rows} == set(expected)
    assert len(list((out / ".batch" / "units").glob("*.json"))) == len(expected)
    for (source, page), seed in expected.items():
        grids = [r for r in rows if (r["source"], r["page"]) == (source, page)]
        assert sorted(r["grid"] for r in grids) == list(range(1, len(pages[seed][1]) + 1))
    solved = all(r["status"] == "solved" for r in rows)
    assert code == (0 if solved else 1), [(r["source"], r["page"], r["status"]) for r in rows]
    for row in (r for r in rows if r["grid"] is not None):  # named as if never killed
        stem = Path(row["source"]).stem
        assert row["image"] == f"solved/{stem}_p{row['page']}_g{row['grid']}.png"
    _check_outputs(out)


def _table_units(out: Path) -> set[tuple[str, int]]:
    """The (source, page) of every unit results.jsonl lists (none while it is missing)."""
    if not (out / "results.jsonl").exists():
        return set()
    return {(row["source"], row["page"]) for row in _rows(out)}


def _kill_once_stored(process: subprocess.Popen[str], out: Path, count: int) -> int:
    """SIGKILL the batch's process group once ``count`` units are stored; return how many are.

    A unit is stored when its record (written atomically) is in ``.batch/units`` and
    results.jsonl lists it; a unit finished between the check and the kill is counted too.
    """
    units = out / ".batch" / "units"
    deadline = time.monotonic() + KILL_WAIT_S
    while time.monotonic() < deadline and process.poll() is None:
        stored = units.is_dir() and len(list(units.glob("*.json"))) >= count
        if stored and len(_table_units(out)) >= count:
            break
        time.sleep(0.01)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=60)
    return len(list(units.glob("*.json")))


def _check_tables_hold_the_stored_units(out: Path) -> None:
    """results.jsonl and summary.csv list exactly the units whose records are stored."""
    records = [json.loads(p.read_text()) for p in (out / ".batch" / "units").glob("*.json")]
    stored = {(r["unit"]["source"], r["unit"]["page"]) for r in records}
    assert _table_units(out) == stored
    with (out / "summary.csv").open(newline="") as handle:
        table = [(row["source"], int(row["page"]), row["grid"]) for row in csv.DictReader(handle)]
    assert table == [(row["source"], row["page"], str(row["grid"])) for row in _rows(out)]


@pytest.mark.slow
def test_killed_batch_resumes_without_loss_or_duplicates(
    resume_folder: Path, pages: dict[int, tuple[np.ndarray, list[Any]]], tmp_path: Path
) -> None:
    """Killed (SIGKILL) after two pages, then rerun: the rest is read, nothing twice."""
    out = tmp_path / "out"
    process = _batch_process(resume_folder, out)
    stored = _kill_once_stored(process, out, 2)
    code, _, _ = _finish(process)
    assert code == -signal.SIGKILL
    total = len(discover([resume_folder]).units)
    assert 2 <= stored < total
    _check_tables_hold_the_stored_units(out)
    leftover = out / "solved" / ".half.png.123.tmp"
    leftover.write_bytes(b"\x89PNG half")  # what a kill mid-write leaves
    pending = discover([resume_folder]).units
    torn = out / ".batch" / "units" / f"{pending[-1].uid}.json"
    if not torn.exists():
        torn.write_text('{"version": 1, "unit": {"source"')  # a torn record is not "done"
    code, stdout, stderr = _finish(_batch_process(resume_folder, out))
    assert f"{stored} done earlier" in stderr
    assert f"({total - stored} read now, {stored} done earlier)" in stdout
    assert not leftover.exists()
    _check_resumed(out, resume_folder, pages, code)


@pytest.mark.slow
def test_batch_killed_from_outside_resumes(
    resume_folder: Path, pages: dict[int, tuple[np.ndarray, list[Any]]], tmp_path: Path
) -> None:
    """SIGKILL to the whole process group once the first page is stored; rerun finishes."""
    out = tmp_path / "out"
    process = _batch_process(resume_folder, out)
    _kill_once_stored(process, out, 1)
    killed, _, first_stderr = _finish(process)
    assert killed == -signal.SIGKILL, first_stderr
    _check_tables_hold_the_stored_units(out)
    code, _, stderr = _finish(_batch_process(resume_folder, out))
    assert "done earlier" in stderr, stderr
    _check_resumed(out, resume_folder, pages, code)


@pytest.mark.slow
def test_interrupt_keeps_tables_consistent(resume_folder: Path, tmp_path: Path) -> None:
    """SIGTERM after the first page: exit 130, and the tables list exactly what is stored."""
    out = tmp_path / "out"
    process = _batch_process(resume_folder, out)
    units = out / ".batch" / "units"
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not (units.is_dir() and any(units.glob("*.json"))):
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    code, _, stderr = _finish(process)
    if code == 0:
        pytest.skip("the batch finished before the signal arrived")
    assert code == 130, stderr
    assert "run the same command again" in stderr
    stored = len(list(units.glob("*.json")))
    assert len({(r["source"], r["page"]) for r in _rows(out)}) == stored
    _check_outputs(out)


def test_pdf_bytes_only_travel(
    tmp_path: Path, pages: dict[int, tuple[np.ndarray, list[Any]]]
) -> None:
    """A PDF page unit is read from its payload alone (as on a remote Dask worker)."""
    pdf = tmp_path / "paper.pdf"
    _save_pdf(pdf, [pages[3][0], pages[1][0]])
    unit = discover([pdf]).units[1]
    from sudokucam.vision.batch.inputs import PayloadReader

    payload = PayloadReader()(unit)
    pdf.unlink()
    outcome = process_unit(unit, payload, WorkOptions(dpi=DPI))
    _check_grids([dict(g.record) for g in outcome.grids], pages[1][1])
    assert io.BytesIO(payload).getvalue().startswith(b"%PDF")


def test_internal_error_keeps_its_traceback_in_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unexpected exception: one line in the tables, the whole traceback in the record."""
    from sudokucam.vision.batch import work
    from sudokucam.vision.batch.store import BatchStore

    image = tmp_path / "page.png"
    cv2.imwrite(str(image), np.full((40, 40, 3), 255, np.uint8))
    unit = discover([image]).units[0]

    def broken(*args: object) -> np.ndarray:
        raise RuntimeError("boom")

    monkeypatch.setattr(work, "page_image", broken)
    outcome = process_unit(unit, image.read_bytes(), WorkOptions())
    assert outcome.error == "internal error reading page.png: RuntimeError: boom"
    store = BatchStore(tmp_path / "out")
    stored = store.commit(outcome)
    record = json.loads(store.record_path(unit).read_text())
    assert "Traceback" in record["traceback"] and "in broken" in record["traceback"]
    assert "traceback" not in stored.rows[0]


def _worker_pids() -> list[int]:
    """Process ids of this process's pool workers (Linux /proc)."""
    workers = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            command = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and b"spawn_main" in command:
            workers.append(int(stat.parent.name))
    return workers


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_worker_killed_mid_batch_is_replaced(
    resume_folder: Path, pages: dict[int, tuple[np.ndarray, list[Any]]]
) -> None:
    """A worker process killed while reading: the pool is rebuilt, no unit lost or doubled."""
    from sudokucam.vision.batch.run import LocalExecutor

    units = discover([resume_folder]).units
    outcomes = LocalExecutor(1).map(units, WorkOptions(dpi=DPI))
    seen = [next(outcomes).unit.uid]
    before = set(_worker_pids())
    assert len(before) == 1
    for pid in before:
        os.kill(pid, signal.SIGKILL)
    seen.extend(outcome.unit.uid for outcome in outcomes)
    assert sorted(seen) == sorted(unit.uid for unit in units)
    assert not set(_worker_pids()) & before
