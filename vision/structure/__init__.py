"""The structure stage: which rules a grid's drawing adds to rows and columns.

From the straightened grid (``GridDetection.warped``) it reads the regions (the standard
boxes, or jigsaw regions enclosed by thick borders: ``borders.py``) and whether both main
diagonals are marked, by lines or shaded cells (Sudoku X: ``diagonals.py``), into one
``GridStructure`` (``vision/types.py``). Killer cages (``GridStructure.cages``) are read by
their own module, ``cages.py`` (lines ``cage_lines.py``, sums ``cage_sums.py``, settings
``cage_config.py``), which needs the digit model: ``Reader.read_grid`` calls it beside
``find_structure``, reads the cells again with the sums masked out, and settles the sums
by the rules. A photo holding no Sudoku it can solve is looked at once more
for what it is (``lookalike.py``: a Samurai, Kakuro, KenKen or crossword is named, never
read as a Sudoku).
"""

from .config import (
    DEFAULT_STRUCTURE_CONFIG,
    BorderConfig,
    DiagonalConfig,
    LookalikeConfig,
    StructureConfig,
)
from .diagonals import DiagonalMark
from .find import find_structure, marked_diagonals
from .lines import DiagonalLinesAside
from .lookalike import Lookalike, page_lookalike

__all__ = [
    "DEFAULT_STRUCTURE_CONFIG",
    "BorderConfig",
    "DiagonalConfig",
    "DiagonalLinesAside",
    "DiagonalMark",
    "Lookalike",
    "LookalikeConfig",
    "StructureConfig",
    "find_structure",
    "marked_diagonals",
    "page_lookalike",
]
