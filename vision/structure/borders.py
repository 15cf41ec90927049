"""Regions from the drawn borders: thick lines between cells split the grid into regions.

Every border between two neighbouring cells of the straightened grid is weighed by the
ink across it as a share of its paper's brightness (a thick line holds two to four times
a thin one's; a shadow dims a line and its paper alike). The borders split
into thin and thick at the widest gap in their weights; the cells joined across thin
borders make the regions. Nine pieces of nine cells are regions; anything else is no
reading of regions (the standard boxes are then assumed). Pen strokes along a thin line
and shadow over a thick one blur the gap: where the widest gives no regions, the next
widest are tried, then the few borders weighed nearest a split taken the other way.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations

import numpy as np

from ..read.groups import joined_roots
from .config import BorderConfig

Labels = tuple[int, ...]  # size² region numbers, row by row, 0-based in reading order


def border_ink(
    warped: np.ndarray, size: int, config: BorderConfig
) -> tuple[np.ndarray, np.ndarray]:
    """The ink across each inner border, each pixel's as a share of the paper's brightness
    beside it: (size, size-1) between columns, (size-1, size) rows.

    ``warped`` is the straightened grid (uint8 gray, square, a whole number of pixels a
    cell, ``size`` cells a side).
    """
    dark = 255.0 - warped.astype(np.float32)
    across = _borders_across(dark, size, config)
    down = _borders_across(np.ascontiguousarray(dark.T), size, config).T
    return across, down


def _borders_across(dark: np.ndarray, size: int, config: BorderConfig) -> np.ndarray:
    """(size, size-1): the ink of the vertical borders (between columns c and c+1), per row."""
    side = dark.shape[0] // size
    half, ground = max(2, round(config.strip * side)), max(1, round(config.ground * side))
    margin = round(config.end_margin * side)
    columns = np.arange(1, size)[:, None] * side + np.arange(-half, half + 1)[None, :]
    strips = dark[:, columns].reshape(size, side, size - 1, 2 * half + 1)
    profiles = np.median(strips[:, margin : side - margin], axis=1)  # (size, size-1, width)
    left = profiles[..., :ground].mean(axis=-1, keepdims=True)
    right = profiles[..., -ground:].mean(axis=-1, keepdims=True)
    paper = left + (right - left) * np.linspace(0.0, 1.0, profiles.shape[-1])
    light = np.maximum(255.0 - paper, 1.0)  # the paper's brightness: shadow dims the ink too
    return (np.clip(profiles - paper, 0.0, None) / light).sum(axis=-1).astype(np.float64)


def thick_borders(
    across: np.ndarray, down: np.ndarray, config: BorderConfig
) -> tuple[np.ndarray, np.ndarray] | None:
    """Which borders are thick (same shapes), split at the widest gap in their weights;
    None when no border stands out."""
    limits = thick_limits(across, down, replace(config, cuts=1))
    if not limits:
        return None
    return across > limits[0], down > limits[0]


def piece_roots(across: np.ndarray, down: np.ndarray, size: int) -> list[int]:
    """For every cell, a name of the piece it lies in: cells joined across borders that
    are not thick share one."""
    open_across = np.nonzero(~np.asarray(across, dtype=bool))
    open_down = np.nonzero(~np.asarray(down, dtype=bool))
    right = [(r * size + c, r * size + c + 1) for r, c in zip(*open_across, strict=True)]
    below = [(r * size + c, r * size + c + size) for r, c in zip(*open_down, strict=True)]
    return joined_roots(size * size, right + below)


def regions_from_borders(across: np.ndarray, down: np.ndarray, size: int) -> Labels | None:
    """The regions the thick borders enclose, or None unless they are ``size`` of ``size``."""
    roots = piece_roots(across, down, size)
    names = list(dict.fromkeys(roots))
    if len(names) != size or any(n != size for n in Counter(roots).values()):
        return None
    return tuple(names.index(k) for k in roots)


def box_labels(size: int = 9, box: tuple[int, int] = (3, 3)) -> Labels:
    """The standard boxes as region labels (``box`` rows × columns a box)."""
    rows, cols = box
    per_row = size // cols
    return tuple((r // rows) * per_row + c // cols for r in range(size) for c in range(size))


def read_regions(warped: np.ndarray, size: int, config: BorderConfig) -> Labels | None:
    """The regions drawn in a straightened grid, or None when the borders make none."""
    across, down = border_ink(warped, size, config)
    limits = thick_limits(across, down, config)
    for limit in limits:
        regions = regions_from_borders(across > limit, down > limit, size)
        if regions is not None:
            return regions
    for flips in range(1, config.max_flips + 1):  # the fewest borders taken the other way
        for limit in limits[: config.mended_cuts]:
            regions = mended_regions(across, down, limit, flips, size, config)
            if regions is not None:
                return regions
    return None


def thick_limits(across: np.ndarray, down: np.ndarray, config: BorderConfig) -> list[float]:
    """Weights splitting thin from thick borders, likeliest first: the middles of the
    ``config.cuts`` widest gaps between the sorted weights, each kept where the thick
    borders hold ``min_thick_ratio`` times the thin ones' ink."""
    weights = np.sort(np.concatenate([across.ravel(), down.ravel()]))
    limits = []
    for cut in np.argsort(-np.diff(weights), kind="stable")[: config.cuts]:
        thin, thick = weights[: cut + 1], weights[cut + 1 :]
        if thick.mean() >= config.min_thick_ratio * max(float(thin.mean()), 1e-6):
            limits.append(float(weights[cut] + weights[cut + 1]) / 2.0)
    return limits


def mended_regions(
    across: np.ndarray,
    down: np.ndarray,
    limit: float,
    flips: int,
    size: int,
    config: BorderConfig,
) -> Labels | None:
    """The regions when ``flips`` of the borders that could mend the split at ``limit``
    (``mending_borders``, the ``config.flip_pool`` nearest it) are taken the other way;
    or None."""
    weights = np.concatenate([across.ravel(), down.ravel()])
    thick = weights > limit
    pool = mending_borders(across, down, limit, size, config)[: config.flip_pool]
    for chosen in combinations(pool, flips):
        taken = thick.copy()
        taken[list(chosen)] ^= True
        split = across.size
        regions = regions_from_borders(
            taken[:split].reshape(across.shape), taken[split:].reshape(down.shape), size
        )
        if regions is not None:
            return regions
    return None


def mending_borders(
    across: np.ndarray, down: np.ndarray, limit: float, size: int, config: BorderConfig
) -> list[int]:
    """The borders (indices into across then down, raveled) whose flip could mend the
    pieces split at ``limit``: a thick one between two pieces too small (a pen stroke
    along a thin line), a thin one inside a piece too large (a thick line paled), each
    weighed between the thin and thick ones' medians (``config.flip_margin`` of the way
    in); those nearest the limit first."""
    weights = np.concatenate([across.ravel(), down.ravel()])
    thin, thick = np.median(weights[weights <= limit]), np.median(weights[weights > limit])
    margin = config.flip_margin * (thick - thin)
    roots = piece_roots(across > limit, down > limit, size)
    count = Counter(roots)
    found = []
    for i, (a, b) in enumerate(border_cells(size)):
        ra, rb = roots[a], roots[b]
        w = float(weights[i])
        pen = limit < w < thick - margin and ra != rb and max(count[ra], count[rb]) < size
        pale = thin + margin < w <= limit and ra == rb and count[ra] > size
        if pen or pale:
            found.append(i)
    return sorted(found, key=lambda i: abs(float(weights[i]) - limit))


def border_cells(size: int) -> list[tuple[int, int]]:
    """The two cells on either side of each inner border: the borders between columns
    (row by row), then those between rows, as ``border_ink`` orders them raveled."""
    across = [(r * size + c, r * size + c + 1) for r in range(size) for c in range(size - 1)]
    down = [(r * size + c, (r + 1) * size + c) for r in range(size - 1) for c in range(size)]
    return across + down
