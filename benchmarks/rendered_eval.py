"""Read rendered photos of one kind end to end against their exact truth.

Photos come from ``samples/render.py`` (seeds ``--seed`` onwards), pass through JPEG at
their own quality like a camera's, and are read by ``Reader.check``: grid found, givens
and pen digits exactly as drawn, the answer right, median milliseconds.
``--compare-polarity`` also reads them without the search in the photo's negative
(``PipelineConfig.light_on_dark`` off), in the same run.

    .venv/bin/python benchmarks/rendered_eval.py --kind screen --count 30
    .venv/bin/python benchmarks/rendered_eval.py --kind screen --compare-polarity
    .venv/bin/python benchmarks/rendered_eval.py --kind webcam --count 20 --seed 500
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass

import cv2
import numpy as np

from sudokucam.samples import render
from sudokucam.vision.grid.polarity import PolarityConfig
from sudokucam.vision.pipeline import PipelineConfig, Reader


@dataclass(frozen=True)
class Outcome:
    """How one rendered photo was read."""

    found: bool
    exact: bool
    solved: bool
    seconds: float


def camera_jpeg(photo: render.Photo) -> np.ndarray:
    """The rendered photo after a round trip through JPEG at its own quality."""
    ok, data = cv2.imencode(".jpg", photo.image, [cv2.IMWRITE_JPEG_QUALITY, photo.jpeg_quality])
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
    return photo.image if decoded is None else decoded


def digits(grid: np.ndarray) -> str:
    """A 9 × 9 digit array as 81 characters."""
    return "".join(str(int(d)) for d in np.asarray(grid).ravel())


def read_one(reader: Reader, photo: render.Photo) -> Outcome:
    """Read one photo and compare it with its truth."""
    image = camera_jpeg(photo)
    started = time.perf_counter()
    result = reader.read(image, name="rendered")
    seconds = time.perf_counter() - started
    if not result.grids:
        return Outcome(False, False, False, seconds)
    grid, truth = result.grids[0], photo.truth
    exact = (grid.givens, grid.handwritten) == (digits(truth.givens), digits(truth.pen))
    return Outcome(True, exact, grid.solution == digits(truth.solution), seconds)


def row(label: str, outcomes: list[Outcome]) -> str:
    """One Markdown table row."""
    n = len(outcomes)
    return (
        f"| {label} | {n} | {sum(o.found for o in outcomes) / n:.1%} "
        f"| {sum(o.exact for o in outcomes) / n:.1%} | {sum(o.solved for o in outcomes) / n:.1%} "
        f"| {statistics.median(o.seconds for o in outcomes) * 1000:.0f} |"
    )


def main() -> None:
    """Render, read and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", choices=sorted(render.KINDS), default="screen")
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument(
        "--compare-polarity", action="store_true", help="also read without the negative's search"
    )
    args = parser.parse_args()
    readers = {"default": Reader()}
    if args.compare_polarity:
        off = PipelineConfig(light_on_dark=PolarityConfig(on=False))
        readers["no negative"] = Reader(readers["default"].classifier, off)
    photos = [render.render_photo(s, args.kind) for s in range(args.seed, args.seed + args.count)]
    print(f"kind {args.kind}, seeds {args.seed}-{args.seed + args.count - 1}")
    print("| reader | photos | grid found | read exactly | solved right | median ms |")
    print("|---|---|---|---|---|---|")
    for label, reader in readers.items():
        print(row(label, [read_one(reader, photo) for photo in photos]))


if __name__ == "__main__":
    main()
