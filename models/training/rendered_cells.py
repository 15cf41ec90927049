"""Training cells of pages rendered by ``samples/render.py``: notes, pencil and pen, labelled.

Real photos say little about pencil fill-ins (the Times labels do not tell pencil from
print) and show one solver's notes, so the model also learns from half-solved pages the
project renders itself: printed givens, pen or pencil entries, candidate notes in several
hands and layouts, erasures, digits crossed out. Every cell's truth is exact (printed d,
written d, notes, crossed out or empty). Seeds start at ``FIRST_SEED``, far from the
committed samples' (0-12), so the committed samples stay unseen.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ...samples.render import PEN_FONTS, Marks, PhotoTruth, render_photo
from ...vision.grid.warp import to_gray, warp_from_corners
from ...vision.read.cells import DEFAULT_CELL_CONFIG, CellConfig, split_cells
from ...vision.read.classifier import CROSSED_CLASS, NOTES_CLASS
from .dataset import cached_cells

FIRST_SEED = 100_000
RENDERED_VERSION = 2  # bump when the drawing or labelling changes (names the cache)
NOTE_LAYOUTS = ("grid", "free")
CROSSED_SHARE = 0.5  # pages with crossed-out digits


def random_marks(rng: np.random.Generator) -> Marks:
    """Notes in a random hand and layout, pencil fill-ins on about a third of the pages,
    up to 3 crossed-out digits on half of them."""
    fonts = sorted(PEN_FONTS)
    return Marks(
        notes_fill=float(rng.uniform(0.2, 0.8)),
        notes_layout=NOTE_LAYOUTS[int(rng.integers(len(NOTE_LAYOUTS)))],
        notes_font=fonts[int(rng.integers(len(fonts)))],
        notes_pencil=bool(rng.random() < 0.6),
        pencil=bool(rng.random() < 0.35),
        erasures=int(rng.integers(0, 4)),
        crossed_out=int(rng.integers(1, 4)) if rng.random() < CROSSED_SHARE else 0,
    )


def page_classes(truth: PhotoTruth) -> np.ndarray:
    """(81,) model classes: printed d, written d (pen or pencil), notes, crossed out, empty."""
    g, p = truth.givens.reshape(81), truth.pen.reshape(81)
    notes = truth.notes
    noted = np.zeros(81, dtype=bool) if notes is None else (notes.reshape(81) != "")
    classes = np.where(g > 0, g, np.where(p > 0, p + 9, 0))
    classes = np.where((classes == 0) & noted, NOTES_CLASS, classes)
    for r, c in truth.crossed_out:
        classes[9 * r + c] = CROSSED_CLASS
    return classes.astype(np.int64)


def rendered_page_cells(seed: int, config: CellConfig) -> tuple[np.ndarray, np.ndarray]:
    """uint8 cells and classes of one rendered half-solved page (flat, not bent)."""
    rng = np.random.default_rng(seed)
    photo = render_photo(
        seed, "progress", marks=random_marks(rng), pen_fill=float(rng.uniform(0.2, 0.9))
    )
    lattice = photo.truth.lattice
    corners = np.array([lattice[0, 0], lattice[0, 9], lattice[9, 9], lattice[9, 0]])
    warped = warp_from_corners(to_gray(photo.image), corners, score=1.0).warped
    ink = split_cells(warped, config)
    classes = page_classes(photo.truth)
    return (ink * 255).round().astype(np.uint8), classes


def rendered_training_cells(
    n_pages: int, cache: Path, config: CellConfig = DEFAULT_CELL_CONFIG
) -> tuple[np.ndarray, np.ndarray]:
    """uint8 cells and classes of ``n_pages`` rendered pages, cached under ``cache``."""
    path = cache / f"rendered_v{RENDERED_VERSION}_{n_pages}_{config.cell_px}_{config.inset_px}.npz"

    def make() -> tuple[np.ndarray, np.ndarray]:
        pages = [rendered_page_cells(FIRST_SEED + i, config) for i in range(n_pages)]
        return np.concatenate([c for c, _ in pages]), np.concatenate([k for _, k in pages])

    return cached_cells(path, make)
