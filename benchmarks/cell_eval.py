"""Measure the digit classifier on the validation photos: accuracy, exact grids, speed.

    .venv/bin/python benchmarks/cell_eval.py                      # shipped model
    .venv/bin/python benchmarks/cell_eval.py --find-grid          # also through find_grid
    .venv/bin/python benchmarks/cell_eval.py --no-puzzle-kinds    # per-cell kinds only

Cells are cut with the annotated corners (v2) or corners registered from v2 (mixed); see
models/training/evaluate.py. Speed: median time of `DigitClassifier.read` (cut 81 cells + one
onnxruntime run) per warped grid, and of `read_upright` (four orientations, one run).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from sudokucam.benchmarks.common import script_parser
from sudokucam.models.training.dataset import (
    held_out_ids,
    load_all,
    puzzle_outlines,
    read_gray,
    warp,
)
from sudokucam.models.training.evaluate import (
    evaluate_found_grids,
    evaluate_photos,
    print_report,
)
from sudokucam.samples.dataset import SHARED, dataset_dir
from sudokucam.vision.read.classifier import MODEL_DIR, DigitClassifier
from sudokucam.vision.read.config import ReadConfig
from sudokucam.vision.read.decide import KindDecisionConfig
from sudokucam.vision.read.kinds import InkShapeConfig


def median_ms(
    fn: Callable[[np.ndarray], object], grids: list[np.ndarray], repeat: int = 3
) -> float:
    """Median wall time in ms of fn(grid) over the grids (after one warm-up call)."""
    fn(grids[0])
    times = []
    for _ in range(repeat):
        for grid in grids:
            start = time.perf_counter()
            fn(grid)
            times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    """Print the validation report and timings."""
    p = script_parser(__doc__)
    p.add_argument("--model-dir", type=Path, default=MODEL_DIR)
    p.add_argument("--shared", type=Path, default=SHARED)
    p.add_argument("--cache", type=Path, default=Path("/tmp/sudokucam_cache"))
    p.add_argument("--find-grid", action="store_true", help="also evaluate through find_grid")
    p.add_argument("--no-puzzle-kinds", action="store_true", help="decide kinds per cell")
    args = p.parse_args()
    shape = InkShapeConfig(feature_weight=0.0) if args.no_puzzle_kinds else InkShapeConfig()
    config = ReadConfig(kind_decision=KindDecisionConfig(ink_shape=shape))
    classifier = DigitClassifier(args.model_dir)
    held_out = held_out_ids()
    photos = [
        p
        for p in load_all(args.shared, classifier.config.cells, args.cache)
        if p.photo_id in held_out
    ]
    print_report(evaluate_photos(classifier, photos, config))
    root = dataset_dir(args.shared)
    outlines = puzzle_outlines(root)
    grids = [
        warp(read_gray(root / "v2" / "train" / f"image{i}.jpg"), outlines[i])
        for i in sorted(held_out)
    ]
    read = median_ms(lambda grid: classifier.read(grid, config), grids)
    upright = median_ms(lambda grid: classifier.read_upright(grid, config), grids)
    print(f"read (81 cells, one run): median {read:.2f} ms/grid")
    print(f"read_upright (324 cells, one run): median {upright:.2f} ms/grid")
    if args.find_grid:
        print("== through vision.grid.find")
        print_report(evaluate_found_grids(args.model_dir, args.shared))


if __name__ == "__main__":
    main()
