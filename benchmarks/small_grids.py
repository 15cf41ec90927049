"""Small grids on a page: are puzzles of 150-250 px found and read like large ones?

Two sheets, both rendered by ``samples/render.py`` with exact truth:

* six phone photos (kind ``printed``), each shrunk to 640×480 and pasted on one white
  sheet, three rows of two (issue 30 found four of the six read, one missed, one misread);
* the same shrunk to 480×360 (grids of 170-260 px);
* a puzzle page of six Sudokus rendered at 150, 100 and 72 dpi (grids of 390, 260 and
  190 px: a page scanned at 150 dpi, and pages whose puzzles are printed smaller).

Each sheet is read as `sudokucam read` reads it (every grid, up to 9) and every puzzle is
matched to the grid found over its centre: found, givens read exactly, solved right.

    .venv/bin/python benchmarks/small_grids.py --sheets 3 --seed 0
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import cv2
import numpy as np

from sudokucam.benchmarks.common import script_parser
from sudokucam.samples import render
from sudokucam.vision.pipeline import PipelineConfig, Reader
from sudokucam.vision.results import PhotoResult

TILE = (640, 480)  # (width, height) of each shrunk phone photo
GAP = 40  # px of white paper around and between the photos
COLUMNS, ROWS = 2, 3


@dataclass(frozen=True)
class Puzzle:
    """One puzzle on a sheet: where its centre lies, its printed givens and solution."""

    centre: np.ndarray  # (x, y) in sheet pixels
    givens: str
    solution: str
    side: float  # px, the grid's mean side on the sheet


@dataclass(frozen=True)
class Score:
    """How the puzzles of one sheet were read."""

    puzzles: int
    found: int
    exact: int
    solved: int
    seconds: float


def digits(grid: np.ndarray) -> str:
    """A 9 × 9 digit array as 81 characters."""
    return "".join(str(int(d)) for d in np.asarray(grid).ravel())


def side_of(corners: np.ndarray) -> float:
    """The mean side of a quad (TL, TR, BR, BL)."""
    return float(np.mean(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)))


def phone_sheet(seed: int, tile: tuple[int, int] = TILE) -> tuple[np.ndarray, list[Puzzle]]:
    """Six rendered phone photos, each shrunk to ``tile`` (turned when taken upright),
    pasted on a white sheet in square slots."""
    slot = max(tile)
    width = COLUMNS * slot + (COLUMNS + 1) * GAP
    height = ROWS * slot + (ROWS + 1) * GAP
    sheet = np.full((height, width, 3), 255, np.uint8)
    puzzles = []
    for index in range(COLUMNS * ROWS):
        photo = render.render_photo(seed * 100 + index, "printed")
        row, column = divmod(index, COLUMNS)
        x0, y0 = GAP + column * (slot + GAP), GAP + row * (slot + GAP)
        upright = photo.image.shape[0] > photo.image.shape[1]
        size = (tile[1], tile[0]) if upright else tile
        scale = np.array([size[0] / photo.image.shape[1], size[1] / photo.image.shape[0]])
        shrunk = cv2.resize(photo.image, size, interpolation=cv2.INTER_AREA)
        sheet[y0 : y0 + size[1], x0 : x0 + size[0]] = shrunk
        corners = np.asarray(photo.truth.corners, np.float64) * scale + (x0, y0)
        truth = photo.truth
        puzzles.append(Puzzle(corners.mean(axis=0), digits(truth.givens),
                              digits(truth.solution), side_of(corners)))  # fmt: skip
    return sheet, puzzles


def scanned_page(seed: int, dpi: int = 150) -> tuple[np.ndarray, list[Puzzle]]:
    """A rendered puzzle page of six Sudokus at ``dpi``."""
    image, truths = render.render_page(seed, 6, dpi)
    puzzles = [
        Puzzle(t.corners.mean(axis=0), digits(t.givens), digits(t.solution), side_of(t.corners))
        for t in truths
    ]
    return image, puzzles


def score(result: PhotoResult, puzzles: list[Puzzle], seconds: float) -> Score:
    """Match each puzzle to the grid whose outline holds its centre, and count."""
    found = exact = solved = 0
    for puzzle in puzzles:
        point = tuple(float(v) for v in puzzle.centre)
        for grid in result.grids:
            outline = grid.detection.corners.astype(np.float32)
            if cv2.pointPolygonTest(outline, point, False) >= 0:
                found += 1
                exact += grid.givens == puzzle.givens
                solved += grid.solution == puzzle.solution
                break
    return Score(len(puzzles), found, exact, solved, seconds)


def read_sheet(reader: Reader, image: np.ndarray, puzzles: list[Puzzle]) -> Score:
    """Read one sheet through a PNG round trip (as a file would be) and score it."""
    ok, data = cv2.imencode(".png", image)
    assert ok
    started = time.perf_counter()
    result = reader.read(data.tobytes(), name="sheet")
    return score(result, puzzles, time.perf_counter() - started)


def main() -> None:
    """Render the sheets, read them, print a Markdown table."""
    parser = script_parser(__doc__)
    parser.add_argument("--sheets", type=int, default=2, help="sheets of each kind")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    reader = Reader(config=PipelineConfig(max_grids=9, more_when_seen=True))
    print("| sheet | grid side px | puzzles | found | givens exact | solved right | s |")
    print("|---|---|---|---|---|---|---|")
    makers = {
        "six phone photos at 640×480": phone_sheet,
        "six phone photos at 480×360": lambda seed: phone_sheet(seed, (480, 360)),
        "page at 150 dpi": scanned_page,
        "page at 100 dpi": lambda seed: scanned_page(seed, 100),
        "page at 72 dpi": lambda seed: scanned_page(seed, 72),
    }
    for label, make in makers.items():
        for seed in range(args.seed, args.seed + args.sheets):
            image, puzzles = make(seed)
            got = read_sheet(reader, image, puzzles)
            sides = [p.side for p in puzzles]
            print(
                f"| {label} (seed {seed}) | {min(sides):.0f}-{max(sides):.0f} | {got.puzzles} "
                f"| {got.found} | {got.exact} | {got.solved} | {got.seconds:.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
