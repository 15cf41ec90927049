"""sudokucam: photograph a Sudoku, read it, solve it, draw the answer back.

    from sudokucam import Reader, read_photo, solve

``read_photo(path)`` gives a ``PhotoResult`` (every grid found, its reading, status and
solution); ``solve(puzzle)`` gives the solver's ``SolveResult`` for a typed puzzle;
``Reader`` reads many photos with one loaded model and settings of your own. They load
when first named, so ``import sudokucam`` itself stays light (no numpy, OpenCV or
onnxruntime).

Nothing in sudokucam sends anything over the network. onnxruntime records usage
telemetry unless ``ORT_DISABLE_TELEMETRY`` is set before it is imported, so importing
sudokucam (which every entry point does first: the CLI, the app, batch and Dask workers,
the Python API) sets it.
"""

import os
from typing import TYPE_CHECKING, Any

os.environ["ORT_DISABLE_TELEMETRY"] = "1"
# OpenCV's own warnings ("[ WARN:...]") stay out of the person's terminal; read when cv2
# is first imported, which happens after this. A value the person set is kept.
os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")

from .errors import SudokucamError

if TYPE_CHECKING:
    from .api import read_photo, solve
    from .vision.pipeline import Reader

__version__ = "0.1.0"

__all__ = ["Reader", "SudokucamError", "__version__", "read_photo", "solve"]

# The public names that load the pipeline or the solver, and the module each lives in.
_LAZY = {"Reader": ".vision.pipeline", "read_photo": ".api", "solve": ".api"}


def __getattr__(name: str) -> Any:
    """Load ``Reader``, ``read_photo`` and ``solve`` when first asked for."""
    if name in _LAZY:
        from importlib import import_module

        value = getattr(import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
