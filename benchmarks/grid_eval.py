"""Measure the grid finder on the shared newspaper photos.

Corner error of a photo = the largest distance between a found corner and the annotated
one, divided by the mean side length of the annotated grid (so 0.05 = 5 % of a side,
about half a cell). A grid counts as found when that error is at most ``--tolerance``.

    .venv/bin/python benchmarks/grid_eval.py                 # v2: all annotated photos
    .venv/bin/python benchmarks/grid_eval.py --ids validation
    .venv/bin/python benchmarks/grid_eval.py --set mixed --debug-dir /tmp/grids
    .venv/bin/python benchmarks/grid_eval.py --set samples          # samples/*/*.jpg
    .venv/bin/python benchmarks/grid_eval.py --set bent --count 20  # rendered bent pages

``samples`` and ``bent`` have exact truth (the lattice of line crossings): they also
report the lattice error in cells (distance of each found crossing from the true one
over the mean cell side), and corner error against the true corners. Those are the
centres of the border lines while ``GridDetection.corners`` are its outer corners, so
a perfect finder is off there by half the border's thickness (about 0.5 %).
``bent`` renders ``--count`` pages with ``samples/render.py`` (seeds from ``--seed``,
kind ``bent``: waved and curled pages) and saves them as JPEG first, like a camera.

The v2 annotations (``outlines_train.csv``, paths ``./images/imageN.jpg``) are in the
pixels of the upright photo, i.e. after its EXIF orientation is applied, which is what
``load_image`` returns.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from sudokucam.samples import render
from sudokucam.samples.dataset import DATASET, read_outlines, validation_ids
from sudokucam.vision.grid.config import GridConfig, with_setting
from sudokucam.vision.grid.find import find_grid
from sudokucam.vision.load import load_image
from sudokucam.vision.types import GridDetection

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Outcome:
    """One photo's result (lattice errors in cells, when the truth has a lattice)."""

    name: str
    seconds: float
    cpu: float
    score: float | None
    error: float | None
    lattice_mean: float | None = None
    lattice_max: float | None = None


@dataclass(frozen=True)
class Truth:
    """A photo with exactly known grid: corners (4, 2) and lattice (10, 10, 2)."""

    name: str
    image: np.ndarray
    lattice: np.ndarray

    @property
    def corners(self) -> np.ndarray:
        """Centres of the border lines' crossings, TL, TR, BR, BL."""
        return self.lattice[[0, 0, 9, 9], [0, 9, 9, 0]]


def sample_truths() -> list[Truth]:
    """The committed sample photos with one grid and a .json truth."""
    truths = []
    for path in sorted((REPO / "samples").glob("*/*.jpg")):
        meta = path.with_suffix(".json")
        if meta.is_file() and "lattice" in (data := json.loads(meta.read_text())):
            name = f"{path.parent.name}/{path.name}"
            truths.append(Truth(name, load_image(path), np.array(data["lattice"], np.float64)))
    return truths


def rendered_truths(kind: str, count: int, seed: int) -> list[Truth]:
    """``count`` photos rendered by samples/render.py, passed through JPEG like a camera's."""
    truths = []
    for index in range(seed, seed + count):
        photo = render.render_photo(index, kind)
        params = [cv2.IMWRITE_JPEG_QUALITY, photo.jpeg_quality]
        ok, data = cv2.imencode(".jpg", photo.image, params)
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        image = photo.image if decoded is None else decoded
        bend = photo.truth.effects.get("bend", "none")
        truths.append(Truth(f"{kind}{index}-{bend}", image, photo.truth.lattice))
    return truths


def lattice_errors(found: np.ndarray, truth: np.ndarray) -> tuple[float, float]:
    """Mean and largest distance of found crossings from the true ones, in cells."""
    cell = float(np.linalg.norm(truth[9, 9] - truth[0, 0]) / np.sqrt(2.0) / 9.0)
    distances = np.linalg.norm(found - truth, axis=-1) / cell
    return float(distances.mean()), float(distances.max())


def evaluate_truths(truths: list[Truth], config: GridConfig) -> list[Outcome]:
    """Run the finder on photos with exact truth, timing find_grid alone."""
    outcomes = []
    for truth in truths:
        start, cpu_start = time.perf_counter(), time.process_time()
        found = find_grid(truth.image, config=config)
        seconds = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        if found is None:
            outcomes.append(Outcome(truth.name, seconds, cpu, None, None))
            continue
        mean, largest = lattice_errors(found.lattice, truth.lattice)
        error = corner_error(found.corners, truth.corners)
        outcomes.append(Outcome(truth.name, seconds, cpu, found.score, error, mean, largest))
    return outcomes


def report_lattice(outcomes: list[Outcome]) -> None:
    """Print each photo's lattice error and the summary over all."""
    measured = [o for o in outcomes if o.lattice_mean is not None and o.lattice_max is not None]
    for o in measured:
        print(f"  {o.name:24s} lattice mean {o.lattice_mean:.3f}  max {o.lattice_max:.3f} cells")
    if measured:
        means = [o.lattice_mean for o in measured if o.lattice_mean is not None]
        maxes = [o.lattice_max for o in measured if o.lattice_max is not None]
        print(f"lattice error mean      {statistics.mean(means):.4f} cells")
        print(
            f"lattice error max       {max(maxes):.4f} cells (mean of per-photo max "
            f"{statistics.mean(maxes):.4f})"
        )


def outlines_by_name() -> dict[str, np.ndarray]:
    """Annotated v2 corners (TL, TR, BR, BL as the photo lies) by image file name."""
    return {f"image{photo_id}.jpg": corners for photo_id, corners in read_outlines().items()}


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance over the mean side of the annotated grid."""
    sides = np.linalg.norm(np.roll(truth, -1, axis=0) - truth, axis=1)
    return float(np.linalg.norm(found - truth, axis=1).max() / sides.mean())


def validation_names() -> set[str]:
    """Photo names of the validation split (models/validation_ids.txt)."""
    return {f"image{photo_id}.jpg" for photo_id in validation_ids()}


def draw_debug(
    image: np.ndarray, found: GridDetection | None, truth: np.ndarray | None
) -> np.ndarray:
    """The photo with the found lattice (green) and the annotated outline (red)."""
    out = image.copy()
    if truth is not None:
        cv2.polylines(out, [truth.astype(np.int32)], True, (0, 0, 255), 2)
    if found is not None:
        for i in range(10):
            cv2.polylines(out, [found.lattice[i].astype(np.int32)], False, (0, 200, 0), 1)
            cv2.polylines(out, [found.lattice[:, i].astype(np.int32)], False, (0, 200, 0), 1)
        cv2.putText(out, f"{found.score:.2f}", (10, 30), 0, 1.0, (0, 160, 0), 2)
    return out


def evaluate(
    paths: list[Path],
    outlines: dict[str, np.ndarray],
    debug_dir: Path | None,
    config: GridConfig,
) -> list[Outcome]:
    """Run the finder on every photo, timing find_grid alone."""
    outcomes = []
    for path in paths:
        image = load_image(path)
        start, cpu_start = time.perf_counter(), time.process_time()
        found = find_grid(image, config=config)
        seconds = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        truth = outlines.get(path.name)
        error = None if found is None or truth is None else corner_error(found.corners, truth)
        outcomes.append(
            Outcome(path.name, seconds, cpu, None if found is None else found.score, error)
        )
        if debug_dir is not None:
            cv2.imwrite(str(debug_dir / path.name), draw_debug(image, found, truth))
    return outcomes


def report(outcomes: list[Outcome], tolerance: float, annotated: bool) -> None:
    """Print the summary table and the failures."""
    seconds = [o.seconds for o in outcomes]
    found = [o for o in outcomes if o.score is not None]
    print(f"photos                  {len(outcomes)}")
    print(f"grid returned           {len(found)} ({len(found) / max(1, len(outcomes)):.1%})")
    if annotated:
        errors = [o.error for o in outcomes if o.error is not None]
        for limit in sorted({0.03, tolerance, 0.10}):
            good = [e for e in errors if e <= limit]
            share = len(good) / max(1, len(outcomes))
            print(f"within {limit:.0%} corner error  {len(good)} ({share:.1%})")
        if errors:
            print(f"corner error mean       {statistics.mean(errors):.4f}")
            print(f"corner error median     {statistics.median(errors):.4f}")
    print(f"median s / photo        {statistics.median(seconds):.4f}")
    print(f"max s / photo           {max(seconds):.4f}")
    print(f"median CPU s / photo    {statistics.median(o.cpu for o in outcomes):.4f}")
    scores = [o.score for o in found if o.score is not None]
    if scores:
        print(f"grid score min/median   {min(scores):.3f} / {statistics.median(scores):.3f}")
    failures = [
        o
        for o in outcomes
        if o.score is None or (annotated and (o.error is None or o.error > tolerance))
    ]
    if failures:
        print("failures:")
        for o in failures:
            error = "-" if o.error is None else f"{o.error:.3f}"
            score = "none" if o.score is None else f"{o.score:.3f}"
            print(f"  {o.name:16s} score {score:>6s}  error {error}")


def parse_override(item: str) -> tuple[str, Any]:
    """``section.name=value`` into a GridConfig setting and a number of the setting's type."""
    name, _, value = item.partition("=")
    default: Any = GridConfig()
    for part in name.split("."):
        default = getattr(default, part, None)
    if not isinstance(default, int | float):
        raise SystemExit(f"unknown GridConfig setting {name!r}")
    return name, type(default)(value)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=("v2", "mixed", "samples", "bent"), default="v2")
    parser.add_argument("--count", type=int, default=20, help="pages rendered for --set bent")
    parser.add_argument("--seed", type=int, default=1000, help="first seed for --set bent")
    parser.add_argument("--ids", choices=("all", "validation", "train"), default="all")
    parser.add_argument("--tolerance", type=float, default=0.05)
    parser.add_argument("--debug-dir", type=Path, default=None)
    parser.add_argument("--only", nargs="*", default=None, help="image names, e.g. image12.jpg")
    parser.add_argument(
        "--config", nargs="*", default=[], help="GridConfig overrides, e.g. select.min_score=0.6"
    )
    args = parser.parse_args(argv)
    config = GridConfig()
    for name, value in map(parse_override, args.config):
        config = with_setting(config, name, value)
    if args.set in ("samples", "bent"):
        truths = sample_truths() if args.set == "samples" else []
        if args.set == "bent":
            truths = rendered_truths("bent", args.count, args.seed)
        outcomes = evaluate_truths(truths, config)
        report(outcomes, args.tolerance, annotated=True)
        report_lattice(outcomes)
        return 0
    if not DATASET.is_dir():
        print(f"no dataset at {DATASET}", file=sys.stderr)
        return 2
    outlines = outlines_by_name() if args.set == "v2" else {}
    paths = sorted((DATASET / args.set / "train").glob("*.jpg"), key=lambda p: int(p.stem[5:]))
    if args.set == "v2":
        paths = [p for p in paths if p.name in outlines]
    held_out = validation_names()
    if args.ids == "validation":
        paths = [p for p in paths if p.name in held_out]
    elif args.ids == "train":
        paths = [p for p in paths if p.name not in held_out]
    if args.only:
        paths = [p for p in paths if p.name in set(args.only)]
    if args.debug_dir is not None:
        args.debug_dir.mkdir(parents=True, exist_ok=True)
    outcomes = evaluate(paths, outlines, args.debug_dir, config)
    report(outcomes, args.tolerance, annotated=args.set == "v2")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
