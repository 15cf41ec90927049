"""Live video: speed, lag, time to the answer, drift and wrong answers on rendered clips.

Usage: .venv/bin/python benchmarks/live_bench.py [--sizes 640x480,1280x720] [--fps 30]
       [--seeds 0,1] [--video samples/video/pan.mp4 ...] [--repeat N] [--json]

Each clip (``samples/clips.py``, the longer story: pan onto a page, tilt, zoom, roll, a
whip away, a second page) is rendered frame by frame and fed to ``LiveProcessor``; only
``process`` is timed (wall clock, one process; rendering is not). ``--video`` adds a
committed clip (decoded first; its truth is the ``.json`` beside it) and ``--repeat`` runs
every clip that many times (each a fresh ``LiveProcessor``). Per clip:

- fps while tracking: tracking frames per second of their processing time (wall clock,
  and per CPU second of this process, which stays fair on a busy machine), and over all
  frames (also per CPU second); lag: the median, 95th percentile and largest time from
  frame in to frame out.
- frames to the answer: for each page, from the first frame whose grid is wholly in view
  to the first frame drawn with its answer (and that in seconds at the clip's rate).
- drift: on every drawn frame (the grid wholly or partly in view), how far the drawn
  cells' centres lie from the true ones (the largest over the 81 cells, in cell widths);
  the share of frames within 0.15 cell.
- wrong answers: drawn frames whose answer is not the solution of the page in view.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from sudokucam.benchmarks.common import json_text, script_parser
from sudokucam.samples.clips import (
    DEFAULT_SHOTS,
    ClipRenderer,
    ClipSpec,
    FrameTruth,
    clip_frames,
    load_truth,
)
from sudokucam.vision.grid.warp import map_points
from sudokucam.vision.live import FrameResult, LiveProcessor
from sudokucam.vision.pipeline import Reader

DRIFT_TARGET_CELLS = 0.15  # drawn digits within this many cell widths of their cells


@dataclass(frozen=True)
class Row:
    """The figures of one clip."""

    size: str
    seed: int
    frames: int
    tracking_fps: float
    tracking_fps_cpu: float
    overall_fps: float
    overall_fps_cpu: float
    lag_median_ms: float
    lag_p95_ms: float
    lag_max_ms: float
    frames_to_answer: list[int | None]
    seconds_to_answer: list[float | None]
    drift_median_cells: float
    drift_p95_cells: float
    within_target_share: float
    wrong_frames: int


def cell_centres(lattice: np.ndarray) -> np.ndarray:
    """(81, 2) centres of the cells of a (10, 10, 2) lattice."""
    c = (lattice[:-1, :-1] + lattice[1:, :-1] + lattice[:-1, 1:] + lattice[1:, 1:]) / 4
    return c.reshape(81, 2)


def drift(result: FrameResult, truth: FrameTruth) -> float | None:
    """The largest distance of a drawn cell's centre from the true one, in cell widths."""
    if not (result.drawn and result.lattice is not None):
        return None
    cell = float(np.linalg.norm(truth.lattice[0, 9] - truth.lattice[0, 0])) / 9
    error = np.linalg.norm(cell_centres(result.lattice) - cell_centres(truth.lattice), axis=1)
    return float(error.max() / cell)


def wrong(result: FrameResult, truth: FrameTruth, solutions: list[str]) -> bool:
    """True when the frame shows an answer that is not that of the page in view."""
    if not result.drawn or result.grid is None:
        return False
    return result.grid.solution != solutions[truth.page]


def answer_delays(results: list[FrameResult], truths: list[FrameTruth]) -> list[int | None]:
    """Per page: frames from its grid wholly in view to its answer first drawn (None: never)."""
    delays: list[int | None] = []
    for page in sorted({t.page for t in truths}):
        seen = [i for i, t in enumerate(truths) if t.page == page and t.in_view]
        shown = [i for i in seen if results[i].drawn]
        delays.append(shown[0] - seen[0] if seen and shown else None)
    return delays


@dataclass(frozen=True)
class Run:
    """One processed clip: every frame's result and truth, and each page's solution."""

    spec: ClipSpec
    results: list[FrameResult]
    truths: list[FrameTruth]
    solutions: list[str]
    cpu: list[float]  # CPU seconds of this process (all its threads) per frame


def run_clip(spec: ClipSpec, reader: Reader) -> Run:
    """Render the clip and process it frame by frame."""
    renderer = ClipRenderer(spec)
    results, truths, cpu = processed(renderer, reader)
    return Run(spec, results, truths, [p.solution for p in renderer.pages], cpu)


def processed(
    clip: Iterable[tuple[np.ndarray, FrameTruth]], reader: Reader
) -> tuple[list[FrameResult], list[FrameTruth], list[float]]:
    """Each frame's result (image dropped), truth and CPU seconds, through one processor."""
    processor = LiveProcessor(reader)
    results, truths, cpu = [], [], []
    for frame, truth in clip:
        started = time.process_time()
        results.append(replace(processor.process(frame), image=frame[:0, :0]))
        cpu.append(time.process_time() - started)
        truths.append(truth)
    return results, truths, cpu


def committed_truths(truth: dict[str, object]) -> list[FrameTruth]:
    """The frames' truth of a committed clip's ``.json`` (``samples/clips.py`` wrote it)."""
    puzzles, frames = truth["puzzles"], truth["frames"]
    assert isinstance(puzzles, list) and isinstance(frames, list)
    out = []
    for f in frames:
        page = np.asarray(puzzles[f["page"]]["lattice"], dtype=np.float64).reshape(-1, 2)
        homography = np.asarray(f["homography"], dtype=np.float64)
        lattice = map_points(homography, page).reshape(10, 10, 2)
        out.append(FrameTruth(int(f["page"]), homography, lattice, bool(f["in_view"])))
    return out


def run_video(path: Path, reader: Reader) -> Run:
    """Process a committed clip (decoded before timing) against the truth beside it."""
    truth = load_truth(path.with_suffix(".json"))
    size, fps, seed, puzzles = truth["size"], truth["fps"], truth["seed"], truth["puzzles"]
    assert isinstance(size, list) and isinstance(fps, int) and isinstance(seed, int)
    assert isinstance(puzzles, list)
    frames = clip_frames(path)
    results, truths, cpu = processed(zip(frames, committed_truths(truth), strict=True), reader)
    spec = ClipSpec(size=(int(size[0]), int(size[1])), fps=fps, seed=seed)
    return Run(spec, results, truths, [str(p["solution"]) for p in puzzles], cpu)


def summarise(run: Run) -> Row:
    """The figures of one processed clip."""
    spec, results, truths = run.spec, run.results, run.truths
    lags = [r.seconds for r in results]
    tracking = [r.seconds for r in results if r.state.value == "tracking"]
    tracking_cpu = [c for r, c in zip(results, run.cpu, strict=True) if r.state.value == "tracking"]
    drifts = [d for r, t in zip(results, truths, strict=True) if (d := drift(r, t)) is not None]
    delays = answer_delays(results, truths)
    return Row(
        size=f"{spec.size[0]}x{spec.size[1]}",
        seed=spec.seed,
        frames=len(results),
        tracking_fps=len(tracking) / sum(tracking) if tracking else 0.0,
        tracking_fps_cpu=len(tracking_cpu) / sum(tracking_cpu) if tracking_cpu else 0.0,
        overall_fps=len(lags) / sum(lags),
        overall_fps_cpu=len(run.cpu) / sum(run.cpu),
        lag_median_ms=1000 * statistics.median(lags),
        lag_p95_ms=1000 * float(np.percentile(lags, 95)),
        lag_max_ms=1000 * max(lags),
        frames_to_answer=delays,
        seconds_to_answer=[None if d is None else d / spec.fps for d in delays],
        drift_median_cells=statistics.median(drifts) if drifts else float("nan"),
        drift_p95_cells=float(np.percentile(drifts, 95)) if drifts else float("nan"),
        within_target_share=float(np.mean(np.array(drifts) <= DRIFT_TARGET_CELLS))
        if drifts
        else 0.0,
        wrong_frames=sum(wrong(r, t, run.solutions) for r, t in zip(results, truths, strict=True)),
    )


def table(rows: list[Row]) -> str:
    """The rows as a Markdown table."""
    lines = [
        "| clip | frames | fps tracking (per CPU s) | fps overall (per CPU s) "
        "| lag median / p95 / max ms "
        "| frames (s) to answer, per page | drift median / p95 (cells) | within 0.15 cell "
        "| wrong frames |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        answer = ", ".join(
            "never" if f is None else f"{f} ({s:.2f} s)"
            for f, s in zip(r.frames_to_answer, r.seconds_to_answer, strict=True)
        )
        lines.append(
            f"| {r.size} seed {r.seed} | {r.frames} "
            f"| {r.tracking_fps:.0f} ({r.tracking_fps_cpu:.0f}) "
            f"| {r.overall_fps:.0f} ({r.overall_fps_cpu:.0f}) "
            f"| {r.lag_median_ms:.0f} / {r.lag_p95_ms:.0f} / {r.lag_max_ms:.0f} | {answer} "
            f"| {r.drift_median_cells:.3f} / {r.drift_p95_cells:.3f} "
            f"| {100 * r.within_target_share:.1f} % | {r.wrong_frames} |"
        )
    return "\n".join(lines)


def parse_sizes(text: str) -> list[tuple[int, int]]:
    """ "640x480,1280x720" as [(640, 480), (1280, 720)]."""
    return [(int(w), int(h)) for w, h in (s.lower().split("x") for s in text.split(","))]


def main() -> int:
    """Render and process the clips; print the table (or JSON)."""
    parser = script_parser(__doc__)
    parser.add_argument("--sizes", default="640x480,1280x720", help="frame sizes WxH")
    parser.add_argument("--fps", type=int, default=30, help="the clips' frame rate")
    parser.add_argument("--seeds", default="0,1", help="clip seeds, comma-separated")
    parser.add_argument("--video", nargs="*", type=Path, default=[],
                        help="committed clips (a .json of truth beside each)")  # fmt: skip
    parser.add_argument("--repeat", type=int, default=1, help="runs of every clip")
    parser.add_argument("--json", action="store_true", help="print JSON rows")
    args = parser.parse_args()
    reader = Reader()
    rows = []
    for _ in range(args.repeat):
        for path in args.video:
            rows.append(replace(summarise(run_video(path, reader)), size=path.name))
        for size in parse_sizes(args.sizes) if args.sizes else []:
            for seed in (int(s) for s in args.seeds.split(",")):
                spec = ClipSpec(size=size, fps=args.fps, seed=seed, shots=DEFAULT_SHOTS)
                started = time.perf_counter()
                rows.append(summarise(run_clip(spec, reader)))
                took = time.perf_counter() - started
                print(f"{size} seed {seed}: {took:.0f} s", file=sys.stderr)
    print(json_text(rows) if args.json else table(rows) + "\n", end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
