"""The structure step: from a straightened grid, the rules its drawing adds to rows and columns."""

from __future__ import annotations

import cv2
import numpy as np

from ...solver.variant import Variant
from ..types import CLASSIC_STRUCTURE, GridStructure, box_regions
from .borders import read_regions
from .config import DEFAULT_STRUCTURE_CONFIG, StructureConfig
from .diagonals import DiagonalMark, diagonal_mark


def find_structure(
    warped: np.ndarray,
    size: int = 9,
    config: StructureConfig = DEFAULT_STRUCTURE_CONFIG,
    mark: DiagonalMark | None = None,
) -> GridStructure:
    """The regions (boxes or jigsaw) and marked diagonals of a straightened grid.

    ``warped``: ``GridDetection.warped``, uint8 gray, square, ``size`` cells a side.
    ``mark``: how its diagonals are marked, where already known (``marked_diagonals``).
    Where the drawing says nothing sure, the grid is classic in that respect.
    """
    warped = analysed(warped, size, config)
    regions = read_regions(warped, size, config.borders) if config.regions else None
    if regions == box_regions(size):
        regions = None
    mark = marked_diagonals(warped, size, config) if mark is None else mark
    diagonals = mark is not DiagonalMark.NONE
    if regions is None and not diagonals:
        return CLASSIC_STRUCTURE
    variant = Variant.JIGSAW if regions else Variant.X
    return GridStructure(size, variant, regions or (), diagonals, str(mark))


def marked_diagonals(
    warped: np.ndarray, size: int = 9, config: StructureConfig = DEFAULT_STRUCTURE_CONFIG
) -> DiagonalMark:
    """How both main diagonals are marked (NONE where ``config.diagonals`` is off); the
    same under any quarter turn of the grid."""
    warped = analysed(warped, size, config)
    return diagonal_mark(warped, size, config.diagonal) if config.diagonals else DiagonalMark.NONE


def analysed(warped: np.ndarray, size: int, config: StructureConfig) -> np.ndarray:
    """The straightened grid checked, and shrunk to ``config.cell_pixels`` a cell where it
    is finer (line ink and shading survive the area-averaging; the step stays cheap)."""
    _check_warped(warped, size)
    side = size * config.cell_pixels
    if warped.shape[0] <= side:
        return warped
    return cv2.resize(warped, (side, side), interpolation=cv2.INTER_AREA)


def _check_warped(warped: np.ndarray, size: int) -> None:
    """Raise unless ``warped`` is a square 2-D uint8 image of at least 8 pixels a cell."""
    if not isinstance(warped, np.ndarray):
        raise TypeError(f"warped must be a numpy array, got {type(warped).__name__}")
    if warped.ndim != 2 or warped.shape[0] != warped.shape[1] or warped.dtype != np.uint8:
        raise ValueError(f"warped must be a square 2-D uint8 image, got {warped.shape}")
    if warped.shape[0] < 8 * size or warped.shape[0] % size:
        raise ValueError(
            f"warped must be a whole number (at least 8) of pixels a cell for {size} cells, "
            f"got {warped.shape[0]} pixels"
        )
