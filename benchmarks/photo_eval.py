"""Measure the photo pipeline on real photos: exact grids, cell accuracy, corners, speed.

Reads the validation split (``models/validation_ids.txt``) of the Wicht-Hennebert
dataset (``samples.dataset.DATASET``: ``../shared/data/sudoku_dataset`` by default), both
the printed (v2) and the pen-filled (mixed) photo of each id, end to end in one process:
load → find grid → classify → repair → solve → draw. Prints a Markdown table and the
failures.

    .venv/bin/python benchmarks/photo_eval.py            # the 30 validation ids
    .venv/bin/python benchmarks/photo_eval.py --all      # all 160 ids
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sudokucam.benchmarks.common import json_text, script_parser
from sudokucam.samples.dataset import (
    DATASET,
    SPLITS,
    VERSIONS,
    kind_swaps,
    photo_path,
    read_outlines,
    split_ids,
)
from sudokucam.samples.dataset import truth as photo_truth
from sudokucam.solver.geometry import cell_name
from sudokucam.vision.pipeline import PipelineConfig, Reader
from sudokucam.vision.read.config import ReadConfig
from sudokucam.vision.read.decide import KindDecisionConfig
from sudokucam.vision.read.ink_colour import InkColourConfig
from sudokucam.vision.read.pen import PenConfig
from sudokucam.vision.results import PhotoResult

LABELS = {"v2": "printed (v2)", "mixed": "pen-filled (mixed)"}
STEPS = ["load", "find_grid", "classify", "structure", "solve", "draw"]


@dataclass(frozen=True)
class Truth:
    """What a photo holds: printed givens, pen digits (81 chars each), the full solution."""

    givens: str
    handwritten: str
    solution: str


@dataclass(frozen=True)
class PhotoOutcome:
    """How one photo was read against its truth."""

    photo_id: int
    version: str
    found: bool
    exact: bool
    cells_right: int
    solved_right: bool
    mean_corner_px: float | None  # mean_corner_distance_px, None when no grid was found
    seconds: float
    status: str
    wrong: tuple[str, ...]
    repairs: int
    steps: dict[str, float]
    print_as_pen: int = 0  # printed digits taken as written
    pen_as_print: int = 0  # written digits taken as printed
    pen_right: int = 0  # written digits read right, as written
    pen_total: int = 0


def truth_for(dataset: Path, photo_id: int, version: str) -> Truth:
    """The ground truth of one photo from the v2 and mixed .dat files."""
    return Truth(*photo_truth(photo_id, version, dataset))


def evaluate(
    reader: Reader,
    path: Path,
    photo_id: int,
    version: str,
    truth: Truth,
    corners: np.ndarray | None,
) -> PhotoOutcome:
    """Read, solve and draw one photo end to end and compare with the truth."""
    mode = "solution" if version == "v2" else "check"
    started = time.perf_counter()
    result, _ = reader.check(path) if mode == "check" else reader.solve(path)
    seconds = time.perf_counter() - started
    return compare(result, photo_id, version, truth, corners, seconds)


def compare(
    result: PhotoResult,
    photo_id: int,
    version: str,
    truth: Truth,
    corners: np.ndarray | None,
    seconds: float,
) -> PhotoOutcome:
    """Score one PhotoResult against the truth."""
    if not result.grids:
        return PhotoOutcome(photo_id, version, False, False, 0, False, None, seconds, result.status,
                       ("no grid",), 0, result.timings)  # fmt: skip
    grid = result.grids[0]
    wrong = tuple(
        f"{cell_name(c)} {_cell_text(grid.givens[c], grid.handwritten[c])}"
        f"≠{_cell_text(truth.givens[c], truth.handwritten[c])}"
        for c in range(81)
        if (grid.givens[c], grid.handwritten[c]) != (truth.givens[c], truth.handwritten[c])
    )
    error = None
    if corners is not None:
        error = mean_corner_distance_px(grid.detection.corners, corners)
    swaps = kind_swaps(grid.givens, grid.handwritten, truth.givens, truth.handwritten)
    pen_right = sum(
        t != "0" and h == t for t, h in zip(truth.handwritten, grid.handwritten, strict=True)
    )
    return PhotoOutcome(
        photo_id, version, True, not wrong, 81 - len(wrong), grid.solution == truth.solution,
        error, seconds, grid.status, wrong, len(grid.repairs), result.timings, *swaps,
        pen_right, sum(d != "0" for d in truth.handwritten),
    )  # fmt: skip


def pen_share(group: list[PhotoOutcome]) -> str:
    """Handwritten digits read right (digit and kind) as a share, '-' where none."""
    total = sum(o.pen_total for o in group)
    return f"{sum(o.pen_right for o in group) / total:.2%}" if total else "-"


def _cell_text(given: str, pen: str) -> str:
    """'5' for a printed 5, '5p' for a pen 5, '.' for empty."""
    if given != "0":
        return given
    return f"{pen}p" if pen != "0" else "."


def mean_corner_distance_px(found: np.ndarray, annotated: np.ndarray) -> float:
    """Mean corner distance in pixels, whichever corner the annotation starts at.

    A few photos show the page turned; their annotation starts at the image's top-left
    corner while sudokucam starts at the puzzle's, so the four cyclic orders are compared.
    """
    return min(
        float(np.linalg.norm(np.roll(found, k, axis=0) - annotated, axis=1).mean())
        for k in range(4)
    )


def table(outcomes: list[PhotoOutcome], split: str) -> str:
    """The Markdown summary table."""
    rows = [
        "| photos | n | grid found | exact grids | cell accuracy | printed taken as written "
        "| written taken as printed | handwritten digits right | solved right | repaired "
        "| median ms | corner error px (median / max) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for version in VERSIONS:
        group = [o for o in outcomes if o.version == version]
        if not group:
            continue
        n = len(group)
        errors = [o.mean_corner_px for o in group if o.mean_corner_px is not None]
        corner = f"{statistics.median(errors):.1f} / {max(errors):.1f}" if errors else "-"
        rows.append(
            f"| {LABELS[version]} | {n} | {sum(o.found for o in group) / n:.1%} "
            f"| {sum(o.exact for o in group) / n:.1%} "
            f"| {sum(o.cells_right for o in group) / (81 * n):.2%} "
            f"| {sum(o.print_as_pen for o in group)} | {sum(o.pen_as_print for o in group)} "
            f"| {pen_share(group)} "
            f"| {sum(o.solved_right for o in group) / n:.1%} "
            f"| {sum(o.repairs > 0 for o in group)} "
            f"| {statistics.median(o.seconds for o in group) * 1000:.0f} | {corner} |"
        )
    every = [o.seconds for o in outcomes]
    rows.append("")
    rows.append(
        f"{split} split: {len(outcomes)} photos, median {statistics.median(every) * 1000:.0f} ms, "
        f"p90 {np.percentile(every, 90) * 1000:.0f} ms per photo end to end"
    )
    names = sorted({k for o in outcomes for k in o.steps}, key=STEPS.index)
    medians = ", ".join(
        f"{k} {statistics.median(o.steps.get(k, 0.0) for o in outcomes) * 1000:.1f}" for k in names
    )
    rows.append(f"median ms per step: {medians}")
    return "\n".join(rows)


def failures(outcomes: list[PhotoOutcome]) -> str:
    """One line per photo not read exactly."""
    lines = []
    for o in outcomes:
        if not o.exact:
            shown = ", ".join(o.wrong[:8]) + (f" (+{len(o.wrong) - 8})" if len(o.wrong) > 8 else "")
            lines.append(f"- {o.version}/image{o.photo_id}: {o.status}; {shown}")
    return "\n".join(lines) if lines else "none"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line options."""
    parser = script_parser(__doc__)
    parser.add_argument(
        "--split",
        choices=SPLITS,
        default="validation",
        help="which photo ids: the validation split (default), the training rest, or all",
    )
    parser.add_argument("--all", action="store_true", help="same as --split all")
    parser.add_argument("--dataset", type=Path, default=None, help="the sudoku_dataset folder")
    parser.add_argument("--versions", nargs="+", choices=VERSIONS, default=list(VERSIONS))
    parser.add_argument("--no-repair", action="store_true", help="turn the solver repair off")
    parser.add_argument(
        "--pen-prior",
        type=float,
        default=PenConfig().right_prior,
        help="prior that a pen entry equals the answer (0 = read the ink alone)",
    )
    parser.add_argument(
        "--pen-phantom",
        type=float,
        default=PenConfig().phantom_empty_probability,
        help="p(empty) from which a pen digit that disagrees with the answer is a phantom",
    )
    parser.add_argument(
        "--no-colour", action="store_true", help="do not use ink colour to tell print from pen"
    )
    parser.add_argument("--json", type=Path, default=None, help="also write every outcome here")
    parser.add_argument(
        "--model-dir", type=Path, default=None, help="a model folder other than the shipped one"
    )
    return parser.parse_args(argv)


def make_reader(args: argparse.Namespace) -> Reader:
    """The photo reader the options ask for (model, pen, ink colour, repair)."""
    classifier = None
    if args.model_dir is not None:
        from sudokucam.vision.read.classifier import DigitClassifier

        classifier = DigitClassifier(args.model_dir)
    pen = PenConfig(args.pen_prior, args.pen_phantom)
    colour = InkColourConfig(weight=0.0 if args.no_colour else InkColourConfig().weight)
    read = ReadConfig(pen=pen, kinds=KindDecisionConfig(ink_colour=colour))
    config = PipelineConfig(use_repair=not args.no_repair, read=read)
    return Reader(classifier, config)


def evaluate_all(
    reader: Reader, dataset: Path, ids: list[int], versions: list[str]
) -> list[PhotoOutcome]:
    """Every photo of ``ids`` in ``versions`` read and scored, after one warm-up read."""
    outlines = read_outlines(dataset)
    reader.solve(photo_path(ids[0], "v2", dataset))  # warm-up: model load, first-run costs
    outcomes = []
    for photo_id in ids:
        for version in versions:
            path = photo_path(photo_id, version, dataset)
            expected = truth_for(dataset, photo_id, version)
            corners = outlines.get(photo_id) if version == "v2" else None
            outcomes.append(evaluate(reader, path, photo_id, version, expected, corners))
    return outcomes


def main(argv: list[str] | None = None) -> int:
    """Run the evaluation and print the report."""
    args = parse_args(argv)
    dataset = args.dataset or DATASET
    if not dataset.is_dir():
        print(f"error: dataset not found at {dataset}", file=sys.stderr)
        return 2
    reader = make_reader(args)
    split = "all" if args.all else args.split
    outcomes = evaluate_all(reader, dataset, split_ids(split, dataset), args.versions)
    print(table(outcomes, split))
    print("\nFailures (cell read≠truth; 'p' = pen):")
    print(failures(outcomes))
    if args.json is not None:
        args.json.write_text(json_text(outcomes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
