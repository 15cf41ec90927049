"""Killer cages told by their tint: a page that colours each cage and draws no outline.

Some puzzle books and apps print a Killer's cages as tinted areas, each a light colour
that no cage beside it shares, with no dashed line around it. The colour photo is warped
cell by cell and each cell's tint taken: the median a*, b* of its paper (its inner part,
ink left out), per unit of lightness (a shadow dims a tint without changing it). The step
in tint across each inner border splits in two: borders inside a cage (no step but the
paper's mottle and a digit's blurred edge) and borders between two cages (a step from one
tint to another, as wide as that pair of tints is apart). The split is the widest gap by
ratio between two steps in order, looked for between a quarter and three fifths of a
typical step (``tint_split``). The grid has tinted cages where the gap is wide: the least
step between cages at least ``TintConfig.min_step`` and ``min_ratio`` times the largest
inside, and the share of borders inside cages what a Killer's is
(``CageConfig.open_share``). A lamp's cast moves every cell's tint alike; a grey shading
(alternate boxes, a classic grid's) steps in lightness, not in tint.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..grid.warp import remap_lattice
from .cage_config import TintConfig
from .cage_lines import BOTTOM, LEFT, RIGHT, TOP, CageLines, border_evidence


def cell_tints(image: np.ndarray, lattice: np.ndarray, config: TintConfig) -> np.ndarray:
    """(9, 9, 2) each cell's tint: the median a*, b* of its paper, each pixel's per unit of
    its lightness (116 / (L* + 16): a shadow scales both alike), in the colour ``image``
    (BGR) warped cell by cell along ``lattice`` ((10, 10, 2) line crossings), the cell's
    ``margin`` and its ink (``ink_drop`` below its paper's lightness) left out."""
    p = config.cell_px
    grid = remap_lattice(image, np.asarray(lattice, dtype=np.float64), p)
    lab = cv2.cvtColor(grid.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
    m = round(config.margin * p)
    tiles = lab.reshape(9, p, 9, p, 3)[:, m : p - m, :, m : p - m].transpose(0, 2, 1, 3, 4)
    tiles = tiles.reshape(9, 9, -1, 3)
    light = tiles[..., 0]
    paper = light >= np.percentile(light, 90, axis=-1, keepdims=True) - config.ink_drop
    ab = tiles[..., 1:] * (116.0 / (tiles[..., :1] + 16.0))
    ab[~paper] = np.nan
    return np.nanmedian(ab, axis=-2).astype(np.float64)


def tint_steps(tints: np.ndarray) -> np.ndarray:
    """(81, 4) the tint step across each cell side (TOP, BOTTOM, LEFT, RIGHT) to the cell
    beside it; 0 on the grid's edge."""
    steps = np.zeros((9, 9, 4))
    across = np.linalg.norm(tints[:, 1:] - tints[:, :-1], axis=-1)
    down = np.linalg.norm(tints[1:] - tints[:-1], axis=-1)
    steps[:, :-1, RIGHT], steps[:, 1:, LEFT] = across, across
    steps[:-1, :, BOTTOM], steps[1:, :, TOP] = down, down
    return steps.reshape(81, 4)


def tint_split(steps: np.ndarray, config: TintConfig) -> tuple[float, float, float]:
    """The split of ``steps`` (each at least ``step_floor``) at the widest ratio between
    two neighbours in order, each side at least ``least``, the split within ``window`` of
    the steps' 75th percentile (a step between two cages: most borders are one): the
    largest step below it, the least above it, and the share below it."""
    s = np.sort(np.maximum(np.asarray(steps, dtype=np.float64).ravel(), config.step_floor))
    typical = float(np.percentile(s, 75))
    lo, hi = config.window
    splits = np.arange(max(config.least, 1), len(s) - config.least + 1)
    splits = splits[(s[splits] >= lo * typical) & (s[splits - 1] <= hi * typical)]
    if not len(splits):
        return config.step_floor, config.step_floor, 0.0
    i = int(splits[int(np.argmax(s[splits] / s[splits - 1]))])
    return float(s[i - 1]), float(s[i]), i / len(s)


def tinted_cages(
    image: np.ndarray,
    lattice: np.ndarray,
    config: TintConfig,
    open_share: tuple[float, float],
) -> CageLines | None:
    """The cage borders that the cells' tints give, as ``CageLines`` (the tint steps its
    evidence, no inset), or None where the photo is grey or its tints show no cages: the
    steps do not split in two far enough apart (``min_step``, ``min_ratio``), or the share
    of borders inside cages lies outside ``open_share``."""
    if config.min_step <= 0 or image.ndim != 3:
        return None
    evidence = tint_steps(cell_tints(image, lattice, config))
    across, down = border_evidence(evidence)
    steps = np.concatenate([across.ravel(), down.ravel()])
    low, high, share = tint_split(steps, config)
    if high < config.min_step or high < config.min_ratio * low:
        return None
    if not open_share[0] <= share <= open_share[1]:
        return None
    limit = float(np.sqrt(low * high))
    return CageLines(evidence, 0.0, low, high, share, across >= limit, down >= limit)
