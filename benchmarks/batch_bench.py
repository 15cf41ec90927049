"""Measure `sudokucam batch`: pages per second with 1 and 2 local workers and on Dask.

Renders a set of multi-puzzle newspaper pages with the project's page renderer
(``samples/render.py``: several puzzles per page plus distractor grids such as
crosswords) at scan resolutions of 150-300 dpi, saves them as JPEG scans and one PDF, and
runs the whole batch (discover → read → store → tables) on each executor into a fresh
output folder. Prints a Markdown table: wall time including the start of the workers,
pages per second over the whole run and once every worker is warm, and how many of the
rendered puzzles came back solved correctly.

    .venv/bin/python benchmarks/batch_bench.py                 # 16 pages
    .venv/bin/python benchmarks/batch_bench.py --pages 32 --workers 1 2
"""

from __future__ import annotations

import io
import json
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image

from sudokucam.benchmarks.common import script_parser
from sudokucam.samples import render
from sudokucam.vision.batch.run import (
    DaskExecutor,
    Executor,
    LocalExecutor,
    plan_batch,
    run_plan,
)
from sudokucam.vision.batch.store import RESULTS_NAME, BatchStore, StoredUnit
from sudokucam.vision.batch.work import WorkOptions

DPIS = (150, 200, 300)
PDF_PAGES = 4
JPEG_QUALITY = 90


@dataclass(frozen=True)
class PageSet:
    """The rendered pages on disk and the solutions of the puzzles on them."""

    folder: Path
    pages: int
    solutions: dict[tuple[str, int], set[str]]


def make_pages(folder: Path, count: int, seed: int) -> PageSet:
    """Render ``count`` pages: JPEG scans, and the last PDF_PAGES bundled in one PDF."""
    folder.mkdir(parents=True, exist_ok=True)
    solutions: dict[tuple[str, int], set[str]] = {}
    pdf_images: list[Image.Image] = []
    pdf_dpi = DPIS[1]
    for index in range(count):
        in_pdf = index >= count - PDF_PAGES
        dpi = pdf_dpi if in_pdf else DPIS[index % len(DPIS)]
        image, truth = render.render_page(seed + index, 2 + index % 5, dpi)
        answers = {solution_of(item) for item in truth}
        if in_pdf:
            pdf_images.append(Image.fromarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB)))
            solutions[(str(folder / "pages.pdf"), len(pdf_images))] = answers
        else:
            path = folder / f"page{index:03d}_{dpi}dpi.jpg"
            cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
            solutions[(str(path), 1)] = answers
    if pdf_images:
        buffer = io.BytesIO()
        pdf_images[0].save(
            buffer, "PDF", resolution=pdf_dpi, save_all=True, append_images=pdf_images[1:]
        )
        (folder / "pages.pdf").write_bytes(buffer.getvalue())
    return PageSet(folder, count, solutions)


def solution_of(truth: Any) -> str:
    """The 81-digit solution of one rendered puzzle's truth record."""
    value = truth["solution"] if isinstance(truth, dict) else truth.solution
    return value if isinstance(value, str) else "".join(str(int(v)) for v in np.ravel(value))


@dataclass(frozen=True)
class Run:
    """One timed batch."""

    name: str
    seconds: float
    warm_rate: float
    grids: int
    correct: int


def timed_batch(name: str, pages: PageSet, out: Path, executor: Executor) -> Run:
    """Run the batch on ``executor`` into ``out`` and time it."""
    store = BatchStore(out)
    plan = plan_batch([pages.folder], store)
    finished: list[float] = []
    started = time.perf_counter()

    def tick(_unit: StoredUnit) -> None:
        finished.append(time.perf_counter())

    run_plan(plan, store, executor, WorkOptions(dpi=200), tick)
    seconds = time.perf_counter() - started
    grids, correct = score(out / RESULTS_NAME, pages)
    return Run(name, seconds, warm_rate(finished), grids, correct)


def warm_rate(finished: Sequence[float], skip: int = 2) -> float:
    """Pages per second between the ``skip``-th finished page and the last."""
    if len(finished) <= skip + 1:
        return float("nan")
    return (len(finished) - 1 - skip) / (finished[-1] - finished[skip])


def score(results: Path, pages: PageSet) -> tuple[int, int]:
    """Grids reported, and grids whose solution is one of the page's true solutions."""
    grids = correct = 0
    for line in results.read_text().splitlines():
        row = json.loads(line)
        if row.get("grid") is None:
            continue
        grids += 1
        truth = pages.solutions.get((row["source"], row["page"]), set())
        correct += int(row.get("solution") in truth)
    return grids, correct


def local_run(pages: PageSet, out: Path, workers: int) -> Run:
    """The batch on a local pool of ``workers`` processes."""
    name = f"local pool, {workers} worker{'s' if workers > 1 else ''}"
    return timed_batch(name, pages, out, LocalExecutor(workers))


def dask_run(pages: PageSet, out: Path, workers: int) -> Run:
    """The batch on a local Dask cluster of ``workers`` single-threaded processes."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        address = cluster.scheduler_address.replace("tcp://", "dask://")
        return timed_batch(
            f"Dask LocalCluster, {workers} workers", pages, out, DaskExecutor(address)
        )


def main(argv: Sequence[str] | None = None) -> None:
    """Render the pages, run every executor, print the table."""
    parser = script_parser(__doc__)
    parser.add_argument("--pages", type=int, default=16)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--dask-workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="batch_bench_") as tmp:
        root = Path(tmp)
        pages = make_pages(root / "pages", args.pages, args.seed)
        expected = sum(len(s) for s in pages.solutions.values())
        results = [local_run(pages, root / f"local{n}", n) for n in args.workers]
        results.append(dask_run(pages, root / "dask", args.dask_workers))
    print_table(results, pages.pages, expected)


def print_table(results: Sequence[Run], pages: int, expected: int) -> None:
    """The Markdown table of the runs."""
    print(f"{pages} pages, {expected} puzzles rendered\n")
    print("| executor | wall s | pages/s | pages/s warm | grids found | solved correctly |")
    print("|---|---:|---:|---:|---:|---:|")
    for run in results:
        print(
            f"| {run.name} | {run.seconds:.1f} | {pages / run.seconds:.2f} | "
            f"{run.warm_rate:.2f} | {run.grids} | {run.correct}/{expected} |"
        )


if __name__ == "__main__":
    main()
