"""sudokucam: photograph a Sudoku, read it, solve it, draw the answer back."""

from .errors import SudokucamError

__version__ = "0.1.0"

__all__ = ["SudokucamError", "__version__"]
