"""Labelled cells of the shared Sudoku photos (Wicht & Hennebert, CC-BY-4.0), for training.

v2 photos are cut with their annotated corners. A mixed photo is the same page after a
person filled the empty cells with a pen, photographed again without corner annotations:
its corners come from registering it onto the v2 photo (SIFT matches + RANSAC homography),
so its labels never depend on the grid finder being evaluated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ...samples.dataset import dat_grid, dataset_dir, photo_ids, read_outlines, validation_ids
from ...vision.grid.warp import to_gray, warp_from_corners
from ...vision.load import load_image
from ...vision.read.cells import DEFAULT_CELL_CONFIG, CellConfig, split_cells

REGISTER_MAX_SIDE = 900
MIN_INLIERS = 40
DATA_VERSION = 2  # bump when cutting or labelling changes (names the cell cache)
# Photos whose annotated p1 is not the puzzle's top-left corner (the page lies rotated in
# the photo): corners are rolled by this many quarter turns so the cells match the .dat.
# Found by scoring the four rotations of every photo with a classifier (each winner by a
# wide margin) and checked by eye.
QUARTER_TURNS = {1031: 1, 1036: 1, 1038: 1, 1039: 1, 1040: 1, 1043: 1, 1083: 2}


@dataclass(frozen=True)
class PhotoCells:
    """The 81 cells of one photo with their classes (0 empty, 1-9 printed, 10-18 handwritten)."""

    photo_id: int
    version: str
    cells: np.ndarray
    labels: np.ndarray


def held_out_ids() -> frozenset[int]:
    """The validation photo ids (never trained or tuned on), as a set."""
    return frozenset(validation_ids())


def selection_ids(n: int, seed: int, root: Path | None = None) -> frozenset[int]:
    """`n` training ids (never validation ones) held out of training for model selection."""
    import random

    ids = photo_ids(root) if root is not None else []
    pool = sorted(set(ids) - held_out_ids())
    return frozenset(random.Random(seed).sample(pool, n)) if n else frozenset()


def puzzle_outlines(root: Path) -> dict[int, np.ndarray]:
    """Annotated v2 corners by photo id, (4, 2) float64 TL, TR, BR, BL of the puzzle.

    The dataset's corners start at the photo's top-left; photos listed in QUARTER_TURNS
    are rolled so that the first corner is the puzzle's top-left, matching the .dat.
    """
    return {
        photo_id: np.roll(corners, -QUARTER_TURNS.get(photo_id, 0), axis=0)
        for photo_id, corners in read_outlines(root).items()
    }


def warp(gray: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The grid inside `corners` straightened exactly as the pipeline does."""
    return warp_from_corners(gray, corners, score=1.0).warped


def class_labels(v2_grid: np.ndarray, mixed_grid: np.ndarray | None) -> np.ndarray:
    """(81,) classes: v2 digits are printed; digits only in the mixed grid are handwritten."""
    printed = v2_grid.reshape(81)
    if mixed_grid is None:
        return printed.copy()
    hand = np.where(printed == 0, mixed_grid.reshape(81) + 9, printed)
    return np.where((printed == 0) & (mixed_grid.reshape(81) == 0), 0, hand)


def register_corners(
    v2_gray: np.ndarray, mixed_gray: np.ndarray, v2_corners: np.ndarray
) -> np.ndarray | None:
    """The v2 grid corners mapped into the mixed photo, or None if registration fails."""
    s1 = min(1.0, REGISTER_MAX_SIDE / max(v2_gray.shape))
    s2 = min(1.0, REGISTER_MAX_SIDE / max(mixed_gray.shape))
    a = cv2.resize(v2_gray, None, fx=s1, fy=s1, interpolation=cv2.INTER_AREA)
    b = cv2.resize(mixed_gray, None, fx=s2, fy=s2, interpolation=cv2.INTER_AREA)
    mask = np.zeros_like(a)
    cv2.fillConvexPoly(mask, (v2_corners * s1).astype(np.int32), 255)
    sift = cv2.SIFT_create(nfeatures=4000)  # type: ignore[attr-defined]
    ka, da = sift.detectAndCompute(a, mask)
    kb, db = sift.detectAndCompute(b, None)
    if da is None or db is None or len(ka) < MIN_INLIERS or len(kb) < MIN_INLIERS:
        return None
    pairs = cv2.BFMatcher().knnMatch(da, db, k=2)
    good = [m for m, n in (p for p in pairs if len(p) == 2) if m.distance < 0.75 * n.distance]
    if len(good) < MIN_INLIERS:
        return None
    src = np.array([ka[m.queryIdx].pt for m in good], dtype=np.float32)
    dst = np.array([kb[m.trainIdx].pt for m in good], dtype=np.float32)
    h, inliers = cv2.findHomography(src, dst, cv2.RANSAC, 4.0)
    if h is None or int(inliers.sum()) < MIN_INLIERS:
        return None
    pts = cv2.perspectiveTransform((v2_corners * s1).reshape(1, 4, 2).astype(np.float64), h)
    return pts.reshape(4, 2) / s2


def load_photo_cells(
    root: Path, photo_id: int, corners: np.ndarray, config: CellConfig = DEFAULT_CELL_CONFIG
) -> tuple[PhotoCells, PhotoCells | None]:
    """Cells and classes of the v2 photo and (if it registers) the mixed photo of one id."""
    name = f"image{photo_id}"
    v2_gray = read_gray(root / "v2" / "train" / f"{name}.jpg")
    v2_grid = dat_grid(root / "v2" / "train" / f"{name}.dat")
    mixed_grid = dat_grid(root / "mixed" / "train" / f"{name}.dat")
    v2 = PhotoCells(
        photo_id, "v2", split_cells(warp(v2_gray, corners), config), class_labels(v2_grid, None)
    )
    mixed_gray = read_gray(root / "mixed" / "train" / f"{name}.jpg")
    mixed_corners = register_corners(v2_gray, mixed_gray, corners)
    if mixed_corners is None:
        return v2, None
    mixed_cells = split_cells(warp(mixed_gray, mixed_corners), config)
    return v2, PhotoCells(photo_id, "mixed", mixed_cells, class_labels(v2_grid, mixed_grid))


def read_gray(path: Path) -> np.ndarray:
    """A photo as grayscale uint8, loaded (EXIF orientation applied) as the pipeline does."""
    return to_gray(load_image(path))


def load_all(
    shared: Path, config: CellConfig = DEFAULT_CELL_CONFIG, cache_dir: Path | None = None
) -> list[PhotoCells]:
    """Cells of every photo in both versions (mixed ones only where registration works)."""
    cache = None
    if cache_dir is not None:
        name = f"real_cells_v{DATA_VERSION}_{config.cell_px}_{config.inset_px}.npz"
        cache = cache_dir / name
        if cache.exists():
            return _from_npz(cache)
    root = dataset_dir(shared)
    outlines = puzzle_outlines(root)
    photos: list[PhotoCells] = []
    for photo_id in photo_ids(root):
        if photo_id not in outlines:
            continue
        v2, mixed = load_photo_cells(root, photo_id, outlines[photo_id], config)
        photos.extend(p for p in (v2, mixed) if p is not None)
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        _to_npz(cache, photos)
    return photos


def _to_npz(path: Path, photos: list[PhotoCells]) -> None:
    """Save photo cells to one compressed file."""
    np.savez_compressed(
        path,
        ids=np.array([p.photo_id for p in photos]),
        versions=np.array([p.version for p in photos]),
        cells=np.stack([(p.cells * 255).round().astype(np.uint8) for p in photos]),
        labels=np.stack([p.labels for p in photos]),
    )


def _from_npz(path: Path) -> list[PhotoCells]:
    """Load photo cells saved by _to_npz."""
    data = np.load(path)
    return [
        PhotoCells(int(i), str(v), c.astype(np.float32) / 255, lab)
        for i, v, c, lab in zip(
            data["ids"], data["versions"], data["cells"], data["labels"], strict=True
        )
    ]


def cached_cells(
    path: Path, make: Callable[[], tuple[np.ndarray, np.ndarray]]
) -> tuple[np.ndarray, np.ndarray]:
    """Cells and labels saved at ``path``; made by ``make`` and saved there the first time."""
    if path.exists():
        data = np.load(path)
        return data["cells"], data["labels"]
    cells, labels = make()
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, cells=cells, labels=labels)
    return cells, labels
