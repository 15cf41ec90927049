"""sudokucam: photograph a Sudoku, read it, solve it, draw the answer back.

Nothing in sudokucam sends anything over the network. onnxruntime records usage
telemetry unless ``ORT_DISABLE_TELEMETRY`` is set before it is imported, so importing
sudokucam (which every entry point does first: the CLI, the app, batch and Dask workers,
the Python API) sets it.
"""

import os

os.environ["ORT_DISABLE_TELEMETRY"] = "1"
# OpenCV's own warnings ("[ WARN:...]") stay out of the person's terminal; read when cv2
# is first imported, which happens after this. A value the person set is kept.
os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")

from .errors import SudokucamError

__version__ = "0.1.0"

__all__ = ["SudokucamError", "__version__"]
