"""The shared photo dataset's truth: where it lives, its ids and splits, `.dat` files, outlines.

The read-only photos of newspaper Sudokus (Wicht & Hennebert, CC-BY-4.0) lie in
``$SUDOKUCAM_SHARED/data/sudoku_dataset`` (default ``<repo>/../shared``). Tests,
benchmarks and the training code read their ground truth through this one module; the
sudokucam package itself never does. Nothing here needs the data to be present until a
file is read.

Layout: ``v2/train/imageN.jpg`` (printed puzzle) and ``mixed/train/imageN.jpg`` (the same
page filled in with a pen), each with ``imageN.dat``; ``outlines_train.csv`` holds the
corners of every v2 grid.
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("SUDOKUCAM_SHARED", REPO.parent / "shared"))
PUZZLES = SHARED / "data" / "puzzles"
VALIDATION_IDS_FILE = REPO / "models" / "validation_ids.txt"
VERSIONS = ("v2", "mixed")  # printed only; filled in with a pen
SPLITS = ("validation", "training", "all")


def dataset_dir(shared: Path) -> Path:
    """The photo dataset folder inside a shared data folder: ``<shared>/data/sudoku_dataset``."""
    return shared / "data" / "sudoku_dataset"


DATASET = dataset_dir(SHARED)


def validation_ids() -> list[int]:
    """The 30 photo ids never used to train or tune, in file order."""
    lines = VALIDATION_IDS_FILE.read_text().splitlines()
    return [int(s) for s in lines if s.strip() and not s.startswith("#")]


def photo_path(photo_id: int, version: str, dataset: Path = DATASET) -> Path:
    """The photo ``imageN.jpg`` of one id in one version ("v2" or "mixed")."""
    if version not in VERSIONS:
        raise ValueError(f"version must be one of {VERSIONS}, got {version!r}")
    return dataset / version / "train" / f"image{photo_id}.jpg"


def photo_ids(dataset: Path = DATASET) -> list[int]:
    """Ids of the photos present in both versions, sorted."""
    found = [{int(p.stem.removeprefix("image")) for p in (dataset / v / "train").glob("*.jpg")}
             for v in VERSIONS]  # fmt: skip
    return sorted(found[0] & found[1])


def split_ids(split: str, dataset: Path = DATASET) -> list[int]:
    """The ids of a split: "validation", "training" (the rest) or "all"."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    if split == "validation":
        return validation_ids()
    held_out = set(validation_ids())
    return [i for i in photo_ids(dataset) if split == "all" or i not in held_out]


def read_dat(path: Path) -> str:
    """The 81 digits of a ``.dat`` truth file (lines 3-11; 0 is an empty cell)."""
    lines = path.read_text().splitlines()[2:11]
    digits = "".join(ch for line in lines for ch in line.split())
    if len(digits) != 81 or not digits.isdigit():
        raise ValueError(f"{path}: expected 81 digits on lines 3-11, got {len(digits)}")
    return digits


def dat_grid(path: Path) -> np.ndarray:
    """The ``.dat`` truth as a (9, 9) int64 array."""
    return np.array([int(d) for d in read_dat(path)], dtype=np.int64).reshape(9, 9)


def truth(photo_id: int, version: str, dataset: Path = DATASET) -> tuple[str, str, str]:
    """(givens, pen entries, solution) of one photo, 81 digits each ("0" where none)."""
    printed = read_dat(photo_path(photo_id, "v2", dataset).with_suffix(".dat"))
    full = read_dat(photo_path(photo_id, "mixed", dataset).with_suffix(".dat"))
    if version == "v2":
        return printed, "0" * 81, full
    pen = "".join("0" if g != "0" else f for g, f in zip(printed, full, strict=True))
    return printed, pen, full


def read_outlines(dataset: Path = DATASET) -> dict[int, np.ndarray]:
    """Annotated v2 corners by photo id: (4, 2) float64 in the order the CSV gives them.

    The CSV's p1..p4 are top-left, top-right, bottom-right, bottom-left of the grid as it
    lies in the photo (for a page photographed turned, p1 is not the puzzle's top-left).
    """
    outlines: dict[int, np.ndarray] = {}
    with (dataset / "outlines_train.csv").open(newline="") as handle:
        for row in csv.DictReader(handle):
            photo_id = int(Path(row["filepath"]).stem.removeprefix("image"))
            values = [float(row[f"p{i}_{axis}"]) for i in range(1, 5) for axis in "xy"]
            outlines[photo_id] = np.array(values, dtype=np.float64).reshape(4, 2)
    return outlines


WILD = SHARED / "data" / "wild_photos"


@dataclass(frozen=True)
class WildPhoto:
    """One photo of ``wild_photos``: its file, its truth and where it comes from.

    givens, handwritten: 81 digits each ("0" where none), the first grid in reading order.
    """

    name: str
    path: Path
    givens: str
    handwritten: str
    source: str
    tags: tuple[str, ...]


def wild_photos(folder: Path = WILD) -> list[WildPhoto]:
    """The photos of the wild set (``NNN_source.jpg|png`` beside ``NNN_source.txt``), by name."""
    photos = []
    for label in sorted(folder.glob("*.txt")):
        lines = label.read_text().splitlines()
        givens, handwritten = lines[0].strip(), lines[1].strip()
        for digits in (givens, handwritten):
            if len(digits) != 81 or not digits.isdigit():
                raise ValueError(f"{label}: expected 81 digits on lines 1-2")
        image = next(p for p in folder.glob(f"{label.stem}.*") if p.suffix != ".txt")
        tags = tuple(t.strip() for t in lines[3].split(",")) if len(lines) > 3 else ()
        source = lines[2].strip() if len(lines) > 2 else ""
        photos.append(WildPhoto(label.stem, image, givens, handwritten, source, tags))
    return photos


def kind_swaps(
    givens: str, handwritten: str, true_givens: str, true_handwritten: str
) -> tuple[int, int]:
    """(printed digits taken as written, written digits taken as printed) of a reading."""
    as_pen = sum(t != "0" and h != "0" for t, h in zip(true_givens, handwritten, strict=True))
    as_print = sum(t != "0" and g != "0" for t, g in zip(true_handwritten, givens, strict=True))
    return as_pen, as_print
