"""Reading phone photos at phone resolution: speed and memory, with accuracy both ways.

Makes camera-like JPEGs (quality 90, every third stored turned with an EXIF orientation
that turns it back, as phones store them) of 12 to 16 megapixels by upscaling real photos
(the validation split of ``sudoku_dataset``, ``times_progress/val``) and rendered ones
(``samples/render.py``), and one of 48 megapixels, into a temporary folder. Then, in one
run, with the reader as the command line and the app use it (``EVERY_GRID_CONFIG``):

1. Speed: each photo in turn, a plain ``cv2.imread`` of the file, then the reader end to
   end (load, find, classify, repair, solve: ``Reader.read``), decoding only the pixels
   it needs ("now") and decoding the whole photo ("full decode", ``DecodeConfig(reduce=
   False)``, as before). Median wall and process CPU milliseconds, and their ratio to
   ``cv2.imread`` in the same run.
2. Memory: the peak resident memory of a fresh process reading the 48-megapixel photo,
   both ways (Linux ``VmHWM``), and how much of it the read added.
3. Accuracy, both ways: the validation split as ``photo_eval.py`` reads it, the
   ``times_progress/val`` photos (each cell's digit, printed or written, against its
   label; cells labelled as notes left out), and the made-up photos against their truth.

    .venv/bin/python benchmarks/photo_speed.py             # everything (about 5 minutes)
    .venv/bin/python benchmarks/photo_speed.py --quick     # fewer photos and rounds

``--before DIR`` times and measures an earlier version beside this one, in child processes
(DIR holds ``sudokucam/``, e.g. ``git archive COMMIT | tar -x -C DIR/sudokucam``).
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from sudokucam.benchmarks.common import script_parser
from sudokucam.benchmarks.photo_eval import evaluate_all
from sudokucam.samples import progress_dataset
from sudokucam.samples.dataset import DATASET, REPO, photo_path, split_ids, truth
from sudokucam.vision.load import DecodeConfig
from sudokucam.vision.pipeline import EVERY_GRID_CONFIG, PipelineConfig, Reader
from sudokucam.vision.results import PhotoResult

PHONE_MEGAPIXELS = (12.0, 16.0)  # phone photos are drawn between these sizes
BIG_MEGAPIXELS = 48.0  # the largest phone sensors
JPEG_QUALITY = 90  # a phone camera's usual JPEG quality
SENSOR_NOISE = 2.0  # gray levels of noise added after upscaling, as a sensor leaves
TURNED_EVERY = 3  # every third photo is stored turned, with the EXIF orientation to undo it
ORIENTATIONS = (6, 8, 3)  # EXIF: turn clockwise, counterclockwise, upside down to view
IGNORED = "?"  # a truth cell not compared (a progress photo's notes cell)
WARM_UP_PHOTO = REPO / "samples" / "printed" / "demo.jpg"  # read first by memory children
MODES = {"now": DecodeConfig(), "full decode": DecodeConfig(reduce=False)}


@dataclass(frozen=True)
class Shot:
    """One made-up phone photo: its file, what it was made from, the 81 cells it shows.

    cells: per cell the digit (printed or written), "0" for empty, ``IGNORED`` where the
    truth says nothing comparable.
    """

    path: Path
    origin: str
    cells: str
    megapixels: float


@dataclass(frozen=True)
class Source:
    """A photo to make a phone photo from: its pixels, a name and its 81 cells."""

    image: np.ndarray
    origin: str
    cells: str


def dataset_sources(count: int) -> Iterator[Source]:
    """Validation photos of sudoku_dataset (printed and pen-filled in turn), with truth."""
    for index, photo_id in enumerate(split_ids("validation")[:count]):
        version = ("v2", "mixed")[index % 2]
        givens, pen, _ = truth(photo_id, version)
        cells = "".join(g if g != "0" else p for g, p in zip(givens, pen, strict=True))
        image = read_bgr(photo_path(photo_id, version))
        yield Source(image, f"sudoku_dataset {version}/image{photo_id}", cells)


def progress_sources(count: int) -> Iterator[Source]:
    """times_progress/val photos with their labels (notes cells ignored)."""
    for photo in progress_dataset.load_split("val")[:count]:
        cells = "".join(IGNORED if v == progress_dataset.NOTES else str(v) for v in photo.labels)
        yield Source(read_bgr(photo.path), f"times_progress {photo.name}", cells)


def read_bgr(path: Path) -> np.ndarray:
    """The photo at ``path`` as BGR uint8 (OpenCV's own decoding)."""
    image = cv2.imread(str(path))
    if image is None:
        raise FileNotFoundError(f"cannot read {path}")
    return np.asarray(image, dtype=np.uint8)


def rendered_sources(count: int) -> Iterator[Source]:
    """Photos rendered by samples/render.py (printed, filled in, bent), with truth."""
    from sudokucam.samples.render import render_photo

    for seed in range(count):
        kind = ("printed", "progress", "bent")[seed % 3]
        photo = render_photo(100 + seed, kind)
        grid = np.where(photo.truth.givens > 0, photo.truth.givens, photo.truth.pen)
        cells = "".join(str(int(v)) for v in grid.ravel())
        yield Source(photo.image, f"rendered {kind} seed {100 + seed}", cells)


def phone_photo(image: np.ndarray, megapixels: float, rng: np.random.Generator) -> np.ndarray:
    """``image`` upscaled to ``megapixels`` (its aspect kept), with a sensor's faint noise."""
    scale = math.sqrt(megapixels * 1e6 / (image.shape[0] * image.shape[1]))
    big = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    noise = rng.normal(0.0, SENSOR_NOISE, big.shape[:2]).astype(np.float32)
    return np.clip(big + noise[:, :, None], 0, 255).astype(np.uint8)


def write_jpeg(path: Path, image: np.ndarray, orientation: int = 1) -> None:
    """Save BGR ``image`` as a phone would: turned as stored, EXIF orientation to turn it back."""
    turns = {1: 0, 6: 1, 8: -1, 3: 2}[orientation]  # quarter turns counterclockwise
    stored = np.ascontiguousarray(np.rot90(image[:, :, ::-1], turns))
    exif = Image.Exif()
    exif[0x0112] = orientation
    buffer = io.BytesIO()
    Image.fromarray(stored).save(buffer, "JPEG", quality=JPEG_QUALITY, exif=exif.tobytes())
    path.write_bytes(buffer.getvalue())


def make_shots(sources: list[Source], folder: Path, seed: int = 0) -> list[Shot]:
    """Every source as a 12-16 megapixel phone JPEG in ``folder``."""
    rng = np.random.default_rng(seed)
    shots = []
    for index, source in enumerate(sources):
        megapixels = float(rng.uniform(*PHONE_MEGAPIXELS))
        orientation = ORIENTATIONS[index // TURNED_EVERY % 3] if index % TURNED_EVERY == 2 else 1
        path = folder / f"phone_{index:02d}.jpg"
        write_jpeg(path, phone_photo(source.image, megapixels, rng), orientation)
        shots.append(Shot(path, source.origin, source.cells, megapixels))
    return shots


def readers(base: PipelineConfig) -> dict[str, Reader]:
    """One reader per decoding mode, sharing one classifier, warmed up."""
    first = Reader(config=replace(base, decode=MODES["now"]))
    made = {"now": first}
    made |= {
        name: Reader(first.classifier, replace(base, decode=mode))
        for name, mode in MODES.items()
        if name != "now"
    }
    return made


@dataclass
class Clock:
    """Wall and process CPU seconds of each run of one thing."""

    wall: list[float]
    cpu: list[float]

    def time(self, run: Callable[[], object]) -> object:
        """Run once, recording its wall and CPU time."""
        wall, cpu = time.perf_counter(), time.process_time()
        out = run()
        self.wall.append(time.perf_counter() - wall)
        self.cpu.append(time.process_time() - cpu)
        return out


def time_reads(
    shots: list[Shot], made: dict[str, Reader], rounds: int, before: TreeReader | None = None
) -> dict[str, Clock]:
    """Every shot ``rounds`` times, in turn: cv2.imread, then each reader (interleaved),
    then the earlier version's reader when given (``--before``)."""
    clocks = {"cv2.imread": Clock([], []), **{name: Clock([], []) for name in made}}
    for reader in made.values():
        reader.read(shots[0].path)  # warm-up: the model's first run
    if before is not None:
        before.read(shots[0].path)
        clocks["before (--before)"] = Clock([], [])
    for _ in range(rounds):
        for shot in shots:
            path = shot.path
            clocks["cv2.imread"].time(lambda: cv2.imread(str(path)))  # noqa: B023
            for name, reader in made.items():
                clocks[name].time(lambda: reader.read(path))  # noqa: B023
            if before is not None:
                wall, cpu = before.read(path)
                clocks["before (--before)"].wall.append(wall)
                clocks["before (--before)"].cpu.append(cpu)
    return clocks


def speed_table(clocks: dict[str, Clock], shots: list[Shot]) -> str:
    """Markdown: median wall and CPU ms of each, and the ratio to cv2.imread."""
    base = clocks["cv2.imread"]
    wall0, cpu0 = statistics.median(base.wall), statistics.median(base.cpu)
    sizes = f"{min(s.megapixels for s in shots):.1f}-{max(s.megapixels for s in shots):.1f}"
    rows = [
        f"{len(shots)} photos of {sizes} megapixels, {len(base.wall) // len(shots)} rounds",
        "",
        "| what | median wall ms | × cv2.imread | median CPU ms | × cv2.imread |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, clock in clocks.items():
        wall, cpu = statistics.median(clock.wall), statistics.median(clock.cpu)
        ratios = f"{wall / wall0:.2f} | {cpu * 1e3:.0f} | {cpu / cpu0:.2f}"
        rows.append(f"| {name} | {wall * 1e3:.0f} | {ratios} |")
    return "\n".join(rows)


def read_cells(result: PhotoResult) -> str:
    """The 81 digits read in the photo's first grid (printed or written), or '' for none."""
    if not result.grids:
        return ""
    grid = result.grids[0]
    return "".join(g if g != "0" else h for g, h in zip(grid.givens, grid.handwritten, strict=True))


def cells_right(read: str, expected: str) -> tuple[int, int]:
    """(cells read as expected, cells compared), ignored cells left out."""
    compared = [i for i, e in enumerate(expected) if e != IGNORED]
    if not read:
        return 0, len(compared)
    return sum(read[i] == expected[i] for i in compared), len(compared)


def shot_accuracy(shots: list[Shot], made: dict[str, Reader]) -> str:
    """Markdown: exact grids and cells right on the made-up photos, per reader."""
    rows = ["| reader | photos | exact grids | cells right |", "|---|---:|---:|---:|"]
    for name, reader in made.items():
        scores = [cells_right(read_cells(reader.read(s.path)), s.cells) for s in shots]
        exact = sum(right == total for right, total in scores)
        right, total = sum(r for r, _ in scores), sum(t for _, t in scores)
        rows.append(f"| {name} | {len(shots)} | {exact} | {right / total:.2%} |")
    return "\n".join(rows)


def progress_accuracy(made: dict[str, Reader], count: int) -> str:
    """Markdown: cells right on times_progress/val (notes cells left out), per reader."""
    photos = progress_dataset.load_split("val")[:count]
    rows = ["| reader | photos | grids found | cells right |", "|---|---:|---:|---:|"]
    for name, reader in made.items():
        found = right = total = 0
        for photo in photos:
            result = reader.read(photo.path)
            expected = "".join(
                IGNORED if v == progress_dataset.NOTES else str(v) for v in photo.labels
            )
            got, compared = cells_right(read_cells(result), expected)
            found += bool(result.grids)
            right, total = right + got, total + compared
        rows.append(f"| {name} | {len(photos)} | {found} | {right / total:.2%} |")
    return "\n".join(rows)


def validation_accuracy(made: dict[str, Reader], count: int) -> str:
    """Markdown: the validation split as photo_eval.py reads it, per reader."""
    rows = [
        "| reader | photos | printed: exact / cells | pen-filled: exact / cells |",
        "|---|---:|---:|---:|",
    ]
    ids = split_ids("validation")[:count]
    for name, reader in made.items():
        outcomes = evaluate_all(reader, DATASET, ids, ["v2", "mixed"])
        cells = []
        for version in ("v2", "mixed"):
            group = [o for o in outcomes if o.version == version]
            exact = sum(o.exact for o in group) / len(group)
            right = sum(o.cells_right for o in group) / (81 * len(group))
            cells.append(f"{exact:.1%} / {right:.2%}")
        rows.append(f"| {name} | {len(outcomes)} | {cells[0]} | {cells[1]} |")
    return "\n".join(rows)


# A fresh process reading one photo with the sudokucam on its path (argv: photo, "full" to
# decode whole, which only a sudokucam with DecodeConfig knows, and a photo read first to
# load the model and every library): prints its memory in MB,
# resident once the model is loaded and used ("before"), and its high-water mark ("peak":
# Linux VmHWM, which a new program starts afresh, unlike ru_maxrss, which keeps the
# forking parent's).
MEMORY_CHILD = """
import json, sys
from dataclasses import replace
from sudokucam.vision.pipeline import EVERY_GRID_CONFIG, Reader
config = EVERY_GRID_CONFIG
if sys.argv[2] == "full":
    from sudokucam.vision.load import DecodeConfig
    config = replace(config, decode=DecodeConfig(reduce=False))
reader = Reader(config=config)
reader.read(sys.argv[3])
def mb(field):
    for line in open("/proc/self/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
before = mb("VmRSS")
result = reader.read(sys.argv[1])
print(json.dumps({"before": before, "peak": mb("VmHWM"), "status": str(result.status)}))
"""
# A process reading photos with the sudokucam on its path: one path per line in, one line
# out with the wall and process CPU seconds of ``Reader.read`` (EVERY_GRID_CONFIG).
READ_CHILD = """
import json, sys, time
from sudokucam.vision.pipeline import EVERY_GRID_CONFIG, Reader
reader = Reader(config=EVERY_GRID_CONFIG)
for line in sys.stdin:
    wall, cpu = time.perf_counter(), time.process_time()
    reader.read(line.strip())
    print(json.dumps([time.perf_counter() - wall, time.process_time() - cpu]), flush=True)
"""


def child_env(tree: Path | None) -> dict[str, str] | None:
    """The environment of a child importing sudokucam from ``tree`` (None: this one)."""
    if tree is None:
        return None
    return {**os.environ, "PYTHONPATH": str(tree)}


class TreeReader:
    """``Reader.read`` of another sudokucam (a checkout of an earlier version), in a child."""

    def __init__(self, tree: Path) -> None:
        """Start the child importing sudokucam from ``tree`` (the folder holding it)."""
        self.child = subprocess.Popen(
            [sys.executable, "-c", READ_CHILD],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=child_env(tree),
        )

    def read(self, path: Path) -> tuple[float, float]:
        """Read ``path`` there: (wall, CPU) seconds as the child measured them."""
        assert self.child.stdin is not None and self.child.stdout is not None
        self.child.stdin.write(f"{path}\n")
        self.child.stdin.flush()
        wall, cpu = json.loads(self.child.stdout.readline())
        return float(wall), float(cpu)

    def close(self) -> None:
        """End the child."""
        if self.child.stdin is not None:
            self.child.stdin.close()
        self.child.wait()


def memory_table(path: Path, before_tree: Path | None) -> str:
    """Markdown: peak resident memory reading ``path`` in a fresh process, each way."""
    rows = [
        "| reader | peak MB | added by the read MB | status |",
        "|---|---:|---:|---|",
    ]
    runs: list[tuple[str, Path | None, str]] = [("now", None, "now"), ("full decode", None, "full")]
    if before_tree is not None:
        runs.append(("before (--before)", before_tree, "now"))
    for name, tree, mode in runs:
        command = [sys.executable, "-c", MEMORY_CHILD, str(path), mode, str(WARM_UP_PHOTO)]
        done = subprocess.run(
            command, capture_output=True, text=True, check=True, env=child_env(tree)
        )
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        rows.append(
            f"| {name} | {figures['peak']:.0f} | {figures['peak'] - figures['before']:.0f} "
            f"| {figures['status']} |"
        )
    return "\n".join(rows)


def big_photo(folder: Path) -> Path:
    """A 48-megapixel phone JPEG of the first validation photo, stored turned."""
    source = next(dataset_sources(1))
    path = folder / "phone_48mp.jpg"
    write_jpeg(path, phone_photo(source.image, BIG_MEGAPIXELS, np.random.default_rng(1)), 6)
    return path


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line options."""
    parser = script_parser(__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer photos and rounds")
    parser.add_argument("--rounds", type=int, default=3, help="times each photo is read")
    parser.add_argument(
        "--before",
        type=Path,
        help="a folder holding an earlier sudokucam (e.g. `git archive` of a commit unpacked "
        "into DIR/sudokucam), timed and measured beside this one",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Make the photos, then print speed, memory and accuracy."""
    args = parse_args(argv)
    if not DATASET.is_dir() or not progress_dataset.available():
        print("error: the shared photos are missing (see samples/dataset.py)", file=sys.stderr)
        return 2
    counts = (4, 2, 2, 2, 1) if args.quick else (8, 4, 3, 30, 80)
    with tempfile.TemporaryDirectory(prefix="photo_speed_") as tmp:
        folder = Path(tmp)
        sources = [
            *dataset_sources(counts[0]),
            *progress_sources(counts[1]),
            *rendered_sources(counts[2]),
        ]
        shots = make_shots(sources, folder)
        made = readers(EVERY_GRID_CONFIG)
        before = TreeReader(args.before) if args.before is not None else None
        rounds = 1 if args.quick else args.rounds
        print("## Speed (EVERY_GRID_CONFIG, as the command line and the app read)\n")
        print(speed_table(time_reads(shots, made, rounds, before), shots))
        if before is not None:
            before.close()
        print("\n## Memory, one 48-megapixel photo, fresh process\n")
        print(memory_table(big_photo(folder), args.before))
        print("\n## Accuracy\n\nThe made-up phone photos:\n")
        print(shot_accuracy(shots, made))
    default = readers(PipelineConfig())
    print("\nValidation split (photo_eval.py's reader and code):\n")
    print(validation_accuracy(default, counts[3]))
    print("\ntimes_progress/val (digits of printed and written cells; notes cells left out):\n")
    print(progress_accuracy(default, counts[4]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
