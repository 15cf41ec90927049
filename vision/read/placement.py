"""Printed or pen by where the ink sits in its cell: one puzzle's print has one placement.

A printer sets every given of a puzzle in one type size on one baseline, so the printed
digits' ink starts and ends on the same rows of their cells (a pixel or two apart where
the photo's grid is curved or steep). A hand writes each entry a little higher or lower,
taller or shorter. So the puzzle's sure printed cells give its print's placement (the
median top and bottom rows of the ink of those nearest a cell), and a cell whose kind is
still unsure is measured against it: off the print's rows by more than the print's own
spread it leans handwritten, by ``PlacementConfig.per_px`` log-odds a pixel; exactly on
them it leans printed a little (a neat hand can land there by chance).

``decide.decide_kinds`` applies this step after the ink-shape step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .kind_trace import Finding


@dataclass(frozen=True)
class PlacementConfig:
    """How the placement of a cell's ink in its cell settles the kind of unsure cells.

    Ink is stroke above ``ink_threshold`` of the cell's darkest ink and above ``min_ink``
    (a faint printed digit is stroke all over, paper noise is not), ``border_px`` cut from
    each side of the cell image (grid lines); a row or column within ``edge_px`` of a side
    whose stroke spans ``line_share`` of the cell is a grid line, not a digit's stem. The
    digit's ink is its largest blob of stroke and every blob at least ``part_share`` of it
    (a pen 5's bar), specks aside. Cells beyond ``sure_log_odds`` printed give the print's
    placement (at least ``min_sure_cells``): where a cell lies, the median top and bottom
    rows of its ``neighbours`` nearest ones; the print's spread is the
    ``spread_percentile`` of their own offsets from theirs (100: the farthest, so a page
    whose print sits unevenly gets a wide spread), at least ``min_spread_px``. A cell
    within ``ambiguous_log_odds`` of 0 whose top or bottom row lies further off than the
    spread leans handwritten by ``per_px`` log-odds a pixel beyond it (top and bottom
    added), at most ``max_log_odds``; one whose top and bottom rows are exactly the
    print's leans printed by ``on_log_odds``. ``weight`` scales it all; 0 turns the step
    off. How these were chosen: ``benchmarks/README.md`` (the placement and symmetry
    steps).
    """

    ink_threshold: float = 0.35
    min_ink: float = 0.15
    border_px: int = 3
    line_share: float = 0.8
    edge_px: int = 4
    part_share: float = 0.2
    sure_log_odds: float = 5.0
    min_sure_cells: int = 5
    neighbours: int = 6
    spread_percentile: float = 100.0
    min_spread_px: float = 1.0
    ambiguous_log_odds: float = 5.0
    per_px: float = 1.5
    max_log_odds: float = 5.0
    on_log_odds: float = 0.5
    weight: float = 1.0

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if min(self.border_px, self.edge_px) < 0 or self.min_sure_cells < 2 or self.neighbours < 1:
            raise ValueError("need border_px, edge_px ≥ 0, min_sure_cells ≥ 2, neighbours ≥ 1")
        if not 0.0 < self.line_share <= 1.0 or not 0.0 < self.part_share <= 1.0:
            raise ValueError("line_share and part_share must be in (0, 1]")
        if self.per_px < 0 or self.max_log_odds < 0 or self.min_spread_px < 0:
            raise ValueError("per_px, max_log_odds and min_spread_px must be ≥ 0")


DEFAULT_PLACEMENT_CONFIG = PlacementConfig()


def ink_rows(
    cells: np.ndarray,
    config: PlacementConfig = DEFAULT_PLACEMENT_CONFIG,
    which: np.ndarray | None = None,
) -> np.ndarray:
    """(N, 2) float64 top and bottom row of each cell's digit ink in its (N, S, S) ink
    image (rows of the whole image, the bottom one inclusive); NaN where a cell holds none
    or is not one of ``which`` ((N,) bool, default all)."""
    if cells.ndim != 3 or cells.shape[1] != cells.shape[2]:
        raise ValueError(f"cells must have shape (N, S, S), got {cells.shape}")
    b = config.border_px
    inner = np.asarray(cells[:, b : cells.shape[1] - b, b : cells.shape[2] - b])
    peaks = inner.max(axis=(1, 2), initial=0.0)
    strokes = inner > np.maximum(config.ink_threshold * peaks, config.min_ink)[:, None, None]
    lines = grid_lines(strokes, config)
    rows = np.full((len(cells), 2), np.nan)
    for i in np.flatnonzero(np.ones(len(cells), bool) if which is None else which):
        span = digit_span(strokes[i] & ~lines[i], config)
        if span is not None:
            rows[i] = (span[0] + b, span[1] + b)
    return rows


def grid_lines(strokes: np.ndarray, config: PlacementConfig) -> np.ndarray:
    """(N, H, W) bool: the stroke of (N, H, W) cells that lies on grid lines, rows or
    columns within ``edge_px`` of a side whose stroke spans ``line_share`` of the cell."""
    side = strokes.shape[1]
    near = np.zeros(side, dtype=bool)
    near[: config.edge_px] = near[side - config.edge_px :] = True
    across = near & (strokes.sum(axis=2) >= config.line_share * strokes.shape[2])
    down = near & (strokes.sum(axis=1) >= config.line_share * side)
    return np.asarray(across[:, :, None] | down[:, None, :])


def digit_span(stroke: np.ndarray, config: PlacementConfig) -> tuple[int, int] | None:
    """The first and last row of the digit's blobs in one cell's (H, W) stroke mask."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(stroke.astype(np.uint8), connectivity=8)
    if count < 2:
        return None
    areas = stats[1:, cv2.CC_STAT_AREA]
    kept = stats[1:][areas >= config.part_share * areas.max()]
    top = kept[:, cv2.CC_STAT_TOP]
    return int(top.min()), int((top + kept[:, cv2.CC_STAT_HEIGHT]).max() - 1)


def placement_evidence(
    log_odds: np.ndarray,
    filled: np.ndarray,
    rows: np.ndarray,
    config: PlacementConfig = DEFAULT_PLACEMENT_CONFIG,
) -> Finding:
    """Log-odds to add: unsure cells off the print's placement lean pen, on it print.

    ``rows`` are the cells' ink rows (``ink_rows``) of a grid of n² cells, row-major. Each
    cell is measured against its ``neighbours`` nearest sure printed cells (a curved page
    or a steep photo moves the print's rows a little across the grid). Nothing when fewer
    than ``min_sure_cells`` cells are surely printed (the finding says so).
    """
    none = np.zeros(log_odds.shape, dtype=np.float64)
    known = ~np.isnan(rows).any(axis=1)
    sure = filled & known & (log_odds > config.sure_log_odds)
    if int(sure.sum()) < config.min_sure_cells or config.weight == 0:
        return Finding(none, f"{int(sure.sum())} sure printed cells, too few to place the print")
    reference = print_rows(rows, sure, config.neighbours)
    off = np.abs(np.where(known[:, None], rows, reference) - reference)
    spread = max(float(np.percentile(off[sure], config.spread_percentile)), config.min_spread_px)
    beyond = np.maximum(off - spread, 0.0).sum(axis=1)
    lean = np.where(beyond > 0, -np.minimum(config.per_px * beyond, config.max_log_odds), 0.0)
    lean = np.where(off.max(axis=1) == 0, config.on_log_odds, lean)
    unsure = filled & known & (np.abs(log_odds) < config.ambiguous_log_odds)
    added = np.where(unsure, config.weight * lean, 0.0)
    middle = np.median(rows[sure], axis=0)
    reason = (
        f"print's ink rows {middle[0]:g}-{middle[1]:g} "
        f"(±{spread:g} px, {int(sure.sum())} sure printed cells)"
    )
    why = tuple((int(c), cell_reason(off[c], spread)) for c in np.flatnonzero(added))
    return Finding(added, reason, why)


def print_rows(rows: np.ndarray, sure: np.ndarray, neighbours: int) -> np.ndarray:
    """(N, 2) the print's top and bottom rows where each of N cells (n² of them, row-major)
    lies: the median of its ``neighbours`` nearest ``sure`` cells, itself left out."""
    side = max(math.isqrt(len(rows)), 1)
    place = np.stack(np.divmod(np.arange(len(rows)), side), axis=1).astype(np.float64)
    printed = np.flatnonzero(sure)
    distance = np.linalg.norm(place[:, None, :] - place[printed][None, :, :], axis=2)
    distance[printed, np.arange(len(printed))] = np.inf  # a sure cell is not its own print
    nearest = np.argsort(distance, axis=1, kind="stable")[:, : min(neighbours, len(printed) - 1)]
    return np.asarray(np.median(rows[printed][nearest], axis=1), dtype=np.float64)


def cell_reason(off: np.ndarray, spread: float) -> str:
    """Why one cell leans as it does: how far its top and bottom rows are from the print's."""
    if off.max() == 0:
        return "ink on the print's rows"
    return f"ink {off[0]:g} px (top) and {off[1]:g} px (bottom) off the print's rows (±{spread:g})"
