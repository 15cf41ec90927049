"""Synthetic grids with candidate notes: several small digits in a cell, beside entries.

Each grid is drawn like ``synth.synth_grid`` (lines, one printed typeface, handwritten
entries from MNIST or handwriting fonts, camera damage) and some empty cells instead hold
notes: one to four small digits (MNIST, a handwriting font or a printed font), in a 3 × 3
layout (digit d at position d), in a row along the top, or scattered; some entries are
written over faint, rubbed-out notes (they stay entries). Classes per cell:
0 empty, 1 a digit (printed or written entry), 2 notes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...vision.read.cells import DEFAULT_CELL_CONFIG, CellConfig, split_cells
from .synth import (
    CELL,
    HAND_FONT_GLOBS,
    PRINTED_FONT_GLOBS,
    SIDE,
    SynthConfig,
    camera,
    draw_digits,
    font_paths,
    glyph,
    grid_lines,
    mnist_glyph,
)

NOTES_SYNTH_VERSION = 2  # bump when the rendering changes (names the training-data cache)
EMPTY, ENTRY, NOTES = 0, 1, 2
LAYOUTS = ("grid", "top", "scatter")


@dataclass(frozen=True)
class NotesSynthConfig:
    """How often and how notes are drawn (sizes are shares of a cell's side)."""

    notes_share: float = 0.5  # of the cells left empty by the entries
    max_digits: int = 4
    height: tuple[float, float] = (0.25, 0.42)
    darkness: tuple[float, float] = (0.5, 1.0)
    mnist_share: float = 0.6
    printed_share: float = 0.15
    erased_share: float = 0.3  # of entry cells: faint, rubbed-out notes under the entry
    erased_darkness: tuple[float, float] = (0.1, 0.4)


def paste(
    ink: np.ndarray, g: np.ndarray, top_left: tuple[int, int], height: int, dark: float
) -> None:
    """Paste glyph ``g`` scaled to ``height`` pixels with its top-left at ``top_left``."""
    import cv2

    h = max(3, height)
    w = max(2, min(round(g.shape[1] * h / g.shape[0]), CELL // 2))
    scaled = cv2.resize(g, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    y0 = int(np.clip(top_left[0], 0, SIDE - h))
    x0 = int(np.clip(top_left[1], 0, SIDE - w))
    region = ink[y0 : y0 + h, x0 : x0 + w]
    np.maximum(region, scaled * dark, out=region)


def note_positions(
    rng: np.random.Generator, digits: list[int], layout: str, size: int
) -> list[tuple[int, int]]:
    """Top-left offsets (inside a cell) of each note digit for a layout."""
    margin, step = 3, (CELL - 6) / 3
    if layout == "grid":
        return [
            (round(margin + (d - 1) // 3 * step), round(margin + (d - 1) % 3 * step))
            for d in digits
        ]
    if layout == "top":
        x = margin + int(rng.integers(0, 4))
        return [
            (margin + int(rng.integers(0, 3)), x + i * (size * 2 // 3 + 1))
            for i in range(len(digits))
        ]
    return [
        (int(rng.integers(margin, CELL - size - margin)), int(rng.integers(margin, CELL - size)))
        for _ in digits
    ]


def draw_notes(
    rng: np.random.Generator,
    ink: np.ndarray,
    cell: int,
    config: NotesSynthConfig,
    darkness: tuple[float, float] | None = None,
) -> None:
    """Draw one cell's candidate notes into ``ink`` (``darkness``: default the config's)."""
    count = int(rng.integers(1, config.max_digits + 1))
    digits = sorted(int(d) for d in rng.choice(np.arange(1, 10), count, replace=False))
    size = round(rng.uniform(*config.height) * CELL)
    dark = rng.uniform(*(darkness or config.darkness))
    source = rng.random()
    hand_fonts, printed_fonts = font_paths(HAND_FONT_GLOBS), font_paths(PRINTED_FONT_GLOBS)
    layout = LAYOUTS[int(rng.integers(len(LAYOUTS)))]
    row, col = divmod(cell, 9)
    for digit, (dy, dx) in zip(digits, note_positions(rng, digits, layout, size), strict=True):
        if source < config.mnist_share:
            g = mnist_glyph(rng, digit)
        elif source < 1 - config.printed_share:
            g = glyph(hand_fonts[int(rng.integers(len(hand_fonts)))], digit, 48)
        else:
            g = glyph(printed_fonts[int(rng.integers(len(printed_fonts)))], digit, 48)
        paste(ink, g, (row * CELL + dy, col * CELL + dx), size, dark)


def notes_grid(
    rng: np.random.Generator, config: NotesSynthConfig, synth: SynthConfig
) -> tuple[np.ndarray, np.ndarray]:
    """One synthetic warped grid with notes (360×360 uint8) and its (81,) classes."""
    ink: np.ndarray = np.zeros((SIDE, SIDE), dtype=np.float32)
    grid_lines(rng, ink)
    digits = draw_digits(rng, ink, synth)
    labels = np.where(digits > 0, ENTRY, EMPTY)
    for cell in range(81):
        if digits[cell] == 0 and rng.random() < config.notes_share:
            draw_notes(rng, ink, cell, config)
            labels[cell] = NOTES
        elif digits[cell] > 0 and rng.random() < config.erased_share:
            draw_notes(rng, ink, cell, config, config.erased_darkness)
    return camera(rng, ink, synth), labels


def notes_cells(
    n_grids: int,
    seed: int,
    config: NotesSynthConfig = NotesSynthConfig(),
    cell_config: CellConfig = DEFAULT_CELL_CONFIG,
) -> tuple[np.ndarray, np.ndarray]:
    """(n_grids*81, N, N) float32 cell ink images and their classes (0, 1, 2)."""
    rng = np.random.default_rng(seed)
    synth = SynthConfig(show_through_share=0.2, smudge_share=0.1)
    cells, labels = [], []
    for _ in range(n_grids):
        warped, lab = notes_grid(rng, config, synth)
        cells.append(split_cells(warped, cell_config))
        labels.append(lab)
    return np.concatenate(cells), np.concatenate(labels)
