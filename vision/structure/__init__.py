"""The structure stage: which rules a grid's drawing adds to rows and columns.

From the straightened grid (``GridDetection.warped``) it reads the regions (the standard
boxes, or jigsaw regions enclosed by thick borders: ``borders.py``) and whether both main
diagonals are marked, by lines or shaded cells (Sudoku X: ``diagonals.py``), into one
``GridStructure`` (``vision/types.py``). Killer cages (``GridStructure.cages``) are read by
their own module, ``cages.py``, called from ``find_structure`` beside these two; without
it a grid's cages are ().
"""

from .config import DEFAULT_STRUCTURE_CONFIG, BorderConfig, DiagonalConfig, StructureConfig
from .diagonals import DiagonalMark
from .find import find_structure, marked_diagonals
from .lines import DiagonalLinesAside

__all__ = [
    "DEFAULT_STRUCTURE_CONFIG",
    "BorderConfig",
    "DiagonalConfig",
    "DiagonalLinesAside",
    "DiagonalMark",
    "StructureConfig",
    "find_structure",
    "marked_diagonals",
]
