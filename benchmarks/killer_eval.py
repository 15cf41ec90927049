"""Measure reading Killer Sudoku cages and sums from photos: rendered Killers against their
truth, and false cages on real classic photos.

Rendered: Killer photos from ``samples/render.py`` (kind ``killer``: dashed, grey, dotted
and coloured cages in turn, or the ``--styles`` named, ``tinted`` among them: cages told
by their colour alone; some with a few givens; seeds ``--seed`` onwards, or the
photos of a folder rendered with ``--kind killer``), through JPEG at their own quality.
Each grid is found as every photo's is (``Reader.find``); the cage step
(``vision/structure/cages.py``: lines, grouping, sums, the rules) reads it, the givens
read in the cells with the sums masked out (``without_sums``; every digit read counts
as a given, print or pen: the renderer draws no pen). Reported, per style and in
all: grids found, grids whose cages are all outlined right, sums read right (cages
outlined right and summed right, of all cages), puzzles solved right (the one solution
the reading allows is the truth's) and solved wrong (one solution, not the truth's), sums
the rules changed, and the cage step's median
and slowest milliseconds.

Real: the 60 validation photos of the shared dataset (30 printed, 30 filled in by pen,
``../shared/data/sudoku_dataset``; skipped without it): classic grids, where a grid read
as having cages is a false Killer.

    .venv/bin/python benchmarks/killer_eval.py                 # 32 rendered, 60 real
    .venv/bin/python benchmarks/killer_eval.py --count 8 --no-real
    .venv/bin/python benchmarks/killer_eval.py --styles tinted --seed 880000 --no-real
    .venv/bin/python benchmarks/killer_eval.py --folder /tmp/k/killer
    .venv/bin/python benchmarks/killer_eval.py --time-scale 4   # a machine 4 times slower
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from sudokucam.benchmarks.common import add_killer_styles, json_text, script_parser
from sudokucam.samples.dataset import DATASET, photo_path, validation_ids
from sudokucam.samples.render import KILLER_STYLES, TINTED, render_killer
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.read.classifier import DigitClassifier
from sudokucam.vision.structure.cage_config import DEFAULT_CAGE_CONFIG, CageConfig
from sudokucam.vision.structure.cages import find_cages, settle_cages, without_sums
from sudokucam.vision.types import GridDetection

Truth = tuple[dict[tuple[int, ...], int], list[int], list[int], str]  # cages, givens, answer


def rendered(
    seed: int, count: int, styles: Sequence[str] = KILLER_STYLES
) -> Iterator[tuple[np.ndarray, Truth]]:
    """Rendered Killer photos (``styles`` in turn) through JPEG, with their truth."""
    for i in range(count):
        photo = render_killer(seed + i, styles[i % len(styles)])
        ok, data = cv2.imencode(".jpg", photo.image, [cv2.IMWRITE_JPEG_QUALITY, photo.jpeg_quality])
        if not ok:
            raise OSError("JPEG encoding failed")
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
        if image is None:
            raise OSError("JPEG decoding failed")
        yield image, truth_of(photo.truth.to_json())


def from_folder(folder: Path) -> Iterator[tuple[np.ndarray, Truth]]:
    """The Killer photos of a folder (``<name>.jpg`` beside ``<name>.json``) with their truth."""
    for jpg in sorted(folder.glob("*.jpg")):
        data = json.loads(jpg.with_suffix(".json").read_text(encoding="utf-8"))
        image = cv2.imread(str(jpg), cv2.IMREAD_COLOR)
        if image is None or data.get("variant") != "killer":
            continue
        yield image, truth_of(data)


def truth_of(data: dict[str, object]) -> Truth:
    """The cages (cells → sum), givens, answer and style of a rendered photo's JSON."""
    cages = {
        tuple(sorted((int(n[1]) - 1) * 9 + int(n[3]) - 1 for n in cage["cells"])): int(cage["sum"])
        for cage in data["cages"]  # type: ignore[attr-defined]
    }
    flat = lambda grid: [int(v) for row in grid for v in row]  # noqa: E731
    return cages, flat(data["givens"]), flat(data["solution"]), str(data["killer_style"])


def read_killer(
    clf: DigitClassifier,
    reader: Reader,
    detection: GridDetection,
    image: np.ndarray,
    config: CageConfig = DEFAULT_CAGE_CONFIG,
) -> tuple[dict[str, object], float]:
    """The cage step on one grid (cages, sums read in the grid warped again from the photo
    ``image``, the givens read with the sums masked, the rules), and its milliseconds (the
    givens' reading not counted)."""
    start = time.perf_counter()
    photo = (image, detection.lattice)
    size = clf.config.input_size
    layout = find_cages(detection.warped, clf.predict, size, config, photo=photo)
    ms = (time.perf_counter() - start) * 1000
    if layout is None:
        return {"cages": None}, ms
    masked = replace(detection, warped=without_sums(detection.warped, layout))
    _, reading = reader.classify(masked)
    givens = [int(d) for d in reading.digits]  # print or pen: a rendered Killer has no pen
    start = time.perf_counter()
    settled = settle_cages(layout, givens, config)
    ms += (time.perf_counter() - start) * 1000
    return {"cages": settled, "givens": givens}, ms


def judge(found: dict[str, object], truth: Truth) -> Counter[str]:
    """What one grid's reading got right."""
    cages, givens, answer, _ = truth
    out: Counter[str] = Counter(cages_total=len(cages))
    reading = found.get("cages")
    if reading is None:
        return out
    read = {tuple(c.cells): c.total for c in reading.cages}  # type: ignore[attr-defined]
    out["has_cages"] = 1
    out["outlines_right"] = int(set(read) == set(cages))
    out["sums_right"] = sum(1 for cells, total in cages.items() if read.get(cells) == total)
    out["repaired"] = len(reading.repaired)  # type: ignore[attr-defined]
    out["givens_right"] = int(found.get("givens") == givens)
    solution = list(reading.solution or ())  # type: ignore[attr-defined]
    out["solved_right"] = int(solution == answer)
    out["solved_wrong"] = int(bool(solution) and solution != answer)
    return out


def rendered_rows(
    photos: Iterator[tuple[np.ndarray, Truth]],
    reader: Reader,
    clf: DigitClassifier,
    config: CageConfig = DEFAULT_CAGE_CONFIG,
) -> dict[str, dict[str, float]]:
    """Per style and in all: counts of what was right, and the cage step's milliseconds."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    times: dict[str, list[float]] = defaultdict(list)
    for image, truth in photos:
        style = truth[3]
        for key in (style, "all"):
            counts[key]["photos"] += 1
        detections = reader.find(image)
        if not detections:
            continue
        found, ms = read_killer(clf, reader, detections[0], image, config)
        verdict = judge(found, truth) + Counter(grid_found=1)
        for key in (style, "all"):
            counts[key].update(verdict)
            times[key].append(ms)
    return {key: summary(counts[key], times[key]) for key in sorted(counts)}


def summary(c: Counter[str], ms: Sequence[float]) -> dict[str, float]:
    """One row of the report."""
    photos = max(c["photos"], 1)
    return {
        "photos": c["photos"],
        "grids_found": c["grid_found"],
        "outlines_right_pct": round(100 * c["outlines_right"] / photos, 1),
        "sums_right_pct": round(100 * c["sums_right"] / max(c["cages_total"], 1), 1),
        "solved_right_pct": round(100 * c["solved_right"] / photos, 1),
        "solved_wrong": c["solved_wrong"],
        "givens_right": c["givens_right"],
        "sums_repaired": c["repaired"],
        "median_ms": round(statistics.median(ms), 1) if ms else 0.0,
        "max_ms": round(max(ms), 1) if ms else 0.0,
    }


def false_cages(reader: Reader, clf: DigitClassifier) -> dict[str, object]:
    """Grids read as Killers among the 60 validation photos of the shared dataset."""
    if not DATASET.is_dir():
        return {"skipped": f"needs the shared data at {DATASET}"}
    grids, named = 0, []
    for version in ("v2", "mixed"):
        for photo_id in validation_ids():
            image = cv2.imread(str(photo_path(photo_id, version)), cv2.IMREAD_COLOR)
            if image is None:
                continue
            for detection in reader.find(image):
                grids += 1
                photo = (image, detection.lattice)
                if find_cages(detection.warped, clf.predict, clf.config.input_size, photo=photo):
                    named.append(f"{version}/image{photo_id}")
    return {"photos": 2 * len(validation_ids()), "grids": grids, "false_killers": named}


def slower(config: CageConfig, scale: float) -> CageConfig:
    """The cage step's settings with every time limit ``scale`` times as long (measured
    on a machine that other work slows ``scale`` times, the rules try as much as on an
    idle one)."""
    return replace(
        config,
        seconds_per_solve=scale * config.seconds_per_solve,
        seconds_per_open=scale * config.seconds_per_open,
        time_limit_s=scale * config.time_limit_s,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurements and print them as JSON."""
    parser = script_parser(__doc__)
    parser.add_argument("--count", type=int, default=32, help="rendered photos (default 32)")
    parser.add_argument("--seed", type=int, default=700000, help="first seed (default 700000)")
    parser.add_argument("--folder", type=Path, help="read rendered Killer photos from here")
    parser.add_argument("--no-real", action="store_true", help="skip the real classic photos")
    add_killer_styles(parser, (*KILLER_STYLES, TINTED))
    parser.add_argument(
        "--time-scale",
        type=float,
        default=1.0,
        help="multiply the cage step's time limits (a machine busy with other work)",
    )
    args = parser.parse_args(argv)
    if args.time_scale <= 0:
        parser.error(f"--time-scale must be positive, got {args.time_scale}")
    config = slower(DEFAULT_CAGE_CONFIG, args.time_scale)
    clf = DigitClassifier()
    reader = Reader(clf)
    if args.folder:
        photos = from_folder(args.folder)
    else:
        photos = rendered(args.seed, args.count, args.styles)
    report: dict[str, object] = {"rendered": rendered_rows(photos, reader, clf, config)}
    if not args.no_real:
        report["real_classic"] = false_cages(reader, clf)
    sys.stdout.write(json_text(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
