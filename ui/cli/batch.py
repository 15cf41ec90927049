"""`sudokucam batch`: read every Sudoku in a pile of photos, scans and PDFs, resumably."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from ...limits import DEFAULT_DPI, MAX_GRIDS_PER_PHOTO, MAX_WORKERS
from .common import error_line, fail, is_quiet, no_color, say, usage_error

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from ...vision.batch.run import BatchPlan, BatchSummary
    from ...vision.batch.store import BatchStore, StoredUnit
    from ...vision.batch.work import WorkOptions

FORMATS = ("png", "jpg")
NAMED_IN_SUMMARY = 5  # failed inputs and skipped files named in the summary (all in the tables)
NO_SPACE_STATUS = 3  # exit status when the output disk is full (rerun to resume)


InputsArg = Annotated[
    list[Path],
    typer.Argument(
        metavar="INPUT",
        help="Image files, folders (searched recursively) and PDFs of scans.",
        readable=False,  # an unreadable input is a failed input (exit 1), not a usage error
    ),
]
OutDirOpt = Annotated[
    Path,
    typer.Option("--out", "-o", metavar="DIR", help="Output folder (created; reused to resume)."),
]
WorkersOpt = Annotated[
    int | None,
    typer.Option(
        "--workers",
        "-w",
        metavar="N",
        help=f"Local worker processes, 1-{MAX_WORKERS} (default: one per CPU core).",
    ),
]
ExecutorOpt = Annotated[
    str,
    typer.Option(
        "--executor",
        metavar="EXECUTOR",
        help="'local' (process pool) or dask://HOST:PORT of a Dask scheduler "
        "(needs the sudokucam dask extra; workers need sudokucam installed).",
    ),
]
DpiOpt = Annotated[
    float, typer.Option("--dpi", metavar="DPI", help="Resolution to render PDF pages at.")
]
MaxGridsOpt = Annotated[
    int, typer.Option("--max-grids", metavar="N", help="Most grids to look for on one page.")
]
FormatOpt = Annotated[
    str, typer.Option("--format", metavar="FORMAT", help="Solved image format: png or jpg.")
]
RetryOpt = Annotated[
    bool, typer.Option("--retry-failed", help="Read again inputs that failed before.")
]


def register(app: typer.Typer) -> None:
    """Add the `batch` command to the app."""
    app.command("batch")(batch_command)


def batch_command(
    inputs: InputsArg,
    out: OutDirOpt,
    workers: WorkersOpt = None,
    executor: ExecutorOpt = "local",
    dpi: DpiOpt = DEFAULT_DPI,
    max_grids: MaxGridsOpt = MAX_GRIDS_PER_PHOTO,
    image_format: FormatOpt = "png",
    retry_failed: RetryOpt = False,
) -> None:
    """Solve every grid on every page of many files, writing a solved image per grid.

    Writes OUT/solved/STEM_pPAGE_gGRID.png (demo_p1_g1.png; files with the same stem
    get -2, -3, ...), OUT/results.jsonl (one object per grid, per page without a grid,
    per failed input, per skipped file) and OUT/summary.csv, both kept up to date as
    pages finish. Run it again with the same arguments after an interruption: finished
    pages are kept and only the rest is read.

    Folders are walked once per real file: symlink loops and dangling links are listed as
    skipped, a file reached twice is read once, and an --out inside an input folder is
    passed over (it must not be an input folder itself). Every page of a PDF or a multi-page TIFF
    is read; a PDF page too large for the pixel limit at --dpi is rendered at a lower dpi
    (its rows say so in "note").

    Exit status: 0 when every grid was solved, 1 when an input failed (a missing input
    included), a page had no grid
    or a grid was not solved, 2 for bad usage, 3 when the disk of --out is full (temporary
    files are removed; free some space and run the same command again to resume), 130
    when interrupted.
    """
    from ...vision.batch.work import WorkOptions

    count = _check_workers(workers)
    _check_executor(executor)
    if image_format not in FORMATS:
        usage_error(f"--format must be png or jpg, got {image_format!r}")
    try:
        options = WorkOptions(dpi=dpi, max_grids=max_grids, image_format=image_format)
    except ValueError as error:
        usage_error(str(error).replace("max_grids", "--max-grids").replace("dpi", "--dpi"))
    _check_paths(inputs, out)
    summary = _run(inputs, out, executor, count, options, retry_failed)
    _print_summary(summary, out)
    raise typer.Exit(0 if summary.ok else 1)


def _check_workers(workers: int | None) -> int:
    """The number of local workers: given (1 to MAX_WORKERS), or the CPU cores (at most
    MAX_WORKERS)."""
    if workers is None:
        return min(os.cpu_count() or 1, MAX_WORKERS)
    if not 1 <= workers <= MAX_WORKERS:
        shown = str(workers) if len(str(workers)) <= 12 else f"{str(workers)[:12]}..."
        usage_error(
            f"--workers must be 1-{MAX_WORKERS} (each worker holds a model in memory), got {shown}"
        )
    return workers


def _check_executor(executor: str) -> None:
    """Refuse an executor that is neither 'local' nor a Dask address."""
    from ...vision.batch.run import dask_address

    if executor == "local":
        return
    try:
        dask_address(executor)
    except ValueError:
        usage_error(f"--executor must be 'local' or dask://HOST:PORT, got {executor!r}")


def _check_paths(inputs: list[Path], out: Path) -> None:
    """Every input must exist, and the output must be a folder (or not exist yet) that is
    not itself an input folder (one inside an input folder is passed over when walking)."""
    for path in inputs:
        if not path.exists():
            fail(f"{path} does not exist")  # a missing input is a failed input (exit 1)
    if out.exists() and not out.is_dir():
        usage_error(f"--out {out} exists and is not a folder")
    if any(path.is_dir() and path.resolve() == out.resolve() for path in inputs):
        usage_error(f"--out {out} is an input folder; choose a folder for the results")


def _run(
    inputs: list[Path],
    out: Path,
    executor_spec: str,
    workers: int,
    options: WorkOptions,
    retry_failed: bool,
) -> BatchSummary:
    """Plan the batch, read what is left with a progress display, and return the summary."""
    from ...files import NO_SPACE_ERRNOS, OutOfSpaceError
    from ...files import WriteError as StoreWriteError
    from ...vision.batch.lock import BatchLockedError, batch_lock
    from ...vision.batch.store import BatchStore, LinkInTheWayError

    try:
        store = BatchStore(out)
    except StoreWriteError as error:
        usage_error(f"{error}, or choose another --out")
    except OSError as error:
        if error.errno in NO_SPACE_ERRNOS:
            _out_of_space(OutOfSpaceError(Path(error.filename or out)))
        usage_error(f"cannot create --out {out}: {error.strerror or error}")
    try:
        with batch_lock(out):
            return _run_locked(inputs, store, executor_spec, workers, options, retry_failed)
    except BatchLockedError as error:
        usage_error(str(error))
    except OutOfSpaceError as error:
        _out_of_space(error)
    except LinkInTheWayError as error:
        usage_error(f"{error}, or choose another --out")
    except StoreWriteError as error:
        usage_error(f"{error}; choose another --out")


def _out_of_space(error: Exception) -> NoReturn:
    """One line for a full output disk, then exit with NO_SPACE_STATUS."""
    error_line(f"{error}: free some space and run the same command again to resume")
    raise typer.Exit(NO_SPACE_STATUS)


def _run_locked(
    inputs: list[Path],
    store: BatchStore,
    executor_spec: str,
    workers: int,
    options: WorkOptions,
    retry_failed: bool,
) -> BatchSummary:
    """The batch itself, while this process holds the output folder's lock."""
    from ...vision.batch.run import BatchSetupError, make_executor, plan_batch, run_plan

    plan = plan_batch(inputs, store, retry_failed=retry_failed)
    executor = make_executor(executor_spec, workers)
    _stop_on_sigterm()
    progress = _Progress(plan, executor.description)
    try:
        with progress:
            return run_plan(plan, store, executor, options, progress.advance)
    except BatchSetupError as error:
        usage_error(str(error))
    except KeyboardInterrupt:
        done = progress.done
        typer.echo(
            f"interrupted after {done} of {progress.total} pages; run the same command "
            "again to finish the rest",
            err=True,
        )
        raise typer.Exit(130) from None


def _stop_on_sigterm() -> None:
    """Let `kill` (SIGTERM) stop the batch like Ctrl-C: stop cleanly, keep what is done."""

    def handler(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)


class _Progress:
    """A rich progress bar on a terminal, one plain line per page otherwise (none if quiet).

    NO_COLOR also means plain lines: the bar would draw with escape codes.
    """

    def __init__(self, plan: BatchPlan, description: str) -> None:
        self.total = len(plan.inputs.units)
        self.done = self.total - len(plan.todo)
        self.description = description
        self.live = sys.stderr.isatty() and not is_quiet() and not no_color()
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def __enter__(self) -> _Progress:
        """Start the display and say what is left to do."""
        say(
            f"{self.total} pages, {self.done} done earlier, {self.total - self.done} to read "
            f"on {self.description}"
        )
        if self.live:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

            bar = Progress(
                "[progress.description]{task.description}",
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=False,
            )
            bar.start()
            self._task = bar.add_task("pages", total=self.total, completed=self.done)
            self._bar = bar
        return self

    def __exit__(self, *exc: object) -> None:
        """Stop the display."""
        if self._bar is not None:
            self._bar.stop()

    def advance(self, unit: StoredUnit) -> None:
        """Count one finished page and show it."""
        self.done += 1
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=self.done)
            return
        say(f"[{self.done}/{self.total}] {unit.unit.label}: {_unit_line(unit)}")


def _unit_line(unit: StoredUnit) -> str:
    """A few words on one finished page."""
    grids = [row for row in unit.rows if row.get("grid") is not None]
    if not grids:
        row = unit.rows[0]
        return f"{row.get('status')}: {row.get('error')}"
    statuses = ", ".join(str(row.get("status")) for row in grids)
    return f"{len(grids)} grid{'s' if len(grids) != 1 else ''} ({statuses})"


def _print_summary(summary: BatchSummary, out: Path) -> None:
    """The closing summary on stdout."""
    lines = [
        f"pages: {summary.pages} ({summary.pages_read_now} read now, "
        f"{summary.pages_reused} done earlier)",
        f"grids: {summary.grids} found, {summary.grids_solved} solved",
        f"pages without a grid: {summary.pages_without_grid}",
        f"failed inputs: {summary.failed}",
        *_named(f"{label}: {error}" for label, error in summary.failures),
        f"skipped files: {summary.skipped}",
        *_named(f"{_shown(s.source)} ({s.reason})" for s in summary.skipped_files),
        f"time: {summary.seconds:.1f} s ({summary.pages_per_second:.2f} pages/s)",
        f"results: {out / 'results.jsonl'}, {out / 'summary.csv'}",
    ]
    say("\n".join(lines), err=False)


def _named(items: Iterable[str]) -> list[str]:
    """Indented lines naming the first few items, then how many more the tables list."""
    shown = list(items)
    lines = [f"  {item}" for item in shown[:NAMED_IN_SUMMARY]]
    if len(shown) > NAMED_IN_SUMMARY:
        lines.append(f"  and {len(shown) - NAMED_IN_SUMMARY} more (all in results.jsonl)")
    return lines


def _shown(source: str) -> str:
    """A path as a person finds it: relative to the current folder when inside it."""
    path = Path(source)
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return source
