"""Read the 81 cells of a warped grid with the shipped ONNX digit classifier (onnxruntime)."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import SudokucamError
from ..types import NUM_CLASSES, CellReading
from .cells import CellConfig, shifted_cells, split_cells
from .kinds import KindConfig, settle

MODEL_DIR = Path(__file__).resolve().parents[2] / "models" / "digits_v1"
CLASS_NAMES: tuple[str, ...] = (
    "empty",
    *(f"printed_{d}" for d in range(1, 10)),
    *(f"handwritten_{d}" for d in range(1, 10)),
)


class ModelError(SudokucamError):
    """The model folder is missing, incomplete or inconsistent."""


@dataclass(frozen=True)
class ModelConfig:
    """What the model expects, read from its config.json."""

    version: str
    input_size: int
    mean: float
    std: float
    cells: CellConfig
    input_name: str
    probs_output: str
    embedding_output: str


def read_model_config(path: Path) -> ModelConfig:
    """Parse and check a model's config.json; raise ModelError naming what is wrong."""
    if not path.is_file():
        raise ModelError(f"model config not found: {path}")
    try:
        raw: dict[str, Any] = json.loads(path.read_text())
        config = ModelConfig(
            version=str(raw["version"]),
            input_size=int(raw["input_size"]),
            mean=float(raw["mean"]),
            std=float(raw["std"]),
            cells=CellConfig(**raw["cells"]),
            input_name=str(raw["input_name"]),
            probs_output=str(raw["probs_output"]),
            embedding_output=str(raw["embedding_output"]),
        )
        names = tuple(raw["class_names"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"model config {path} is invalid: {exc!r}") from exc
    if names != CLASS_NAMES:
        raise ModelError(f"model config {path}: class_names must be {list(CLASS_NAMES)}")
    if config.cells.output_size != config.input_size:
        raise ModelError(
            f"model config {path}: cells give {config.cells.output_size} px, "
            f"model wants {config.input_size}"
        )
    if config.std <= 0:
        raise ModelError(f"model config {path}: std must be positive")
    return config


@dataclass(frozen=True)
class ShiftConfig:
    """Optionally read each cell at several small offsets of its crop, averaging the probabilities.

    A digit a pixel off-centre, or touching a grid-line fragment, can tip one reading; the
    mean over ``shifts`` ((dy, dx) pixels, the first (0, 0)) is steadier, and all offsets
    of the 81 cells go through one `run`. Off by default: with the five offsets
    ``SHIFTED_READS`` the 129 training ids read printed grids exactly 96.9 → 98.4 % and
    pen-filled 89.1 → 90.7 %, but the validation split gains no grid, classify takes
    9 → 26 ms, and the softer runner-up probabilities let the answer prior hide more pen
    mistakes (``benchmarks/pen_check_eval.py``: flagged 92.0 → 91.3 %).
    """

    shifts: tuple[tuple[int, int], ...] = ((0, 0),)

    def __post_init__(self) -> None:
        """The unshifted crop comes first: the per-puzzle ink features are taken from it."""
        if not self.shifts or tuple(self.shifts[0]) != (0, 0):
            raise ValueError(f"shifts must start with (0, 0), got {self.shifts}")


SHIFTED_READS = ShiftConfig(shifts=((0, 0), (1, 1), (-1, -1), (1, -1), (-1, 1)))


class DigitClassifier:
    """The ONNX digit classifier: one onnxruntime session, one `run` call per grid."""

    def __init__(
        self,
        model_dir: Path = MODEL_DIR,
        kind_config: KindConfig = KindConfig(),
        shift_config: ShiftConfig = ShiftConfig(),
    ):
        """Load and check the model folder (model.onnx + config.json) and build the session."""
        import onnxruntime as ort

        model_path = Path(model_dir) / "model.onnx"
        if not model_path.is_file():
            raise ModelError(f"model file not found: {model_path}")
        self.config = read_model_config(Path(model_dir) / "config.json")
        self.kind_config = kind_config
        self.shift_config = shift_config
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(
            str(model_path), options, providers=["CPUExecutionProvider"]
        )
        self._check_session()

    def _check_session(self) -> None:
        """Raise ModelError if the session's inputs/outputs disagree with the config."""
        inputs = {i.name: i.shape for i in self.session.get_inputs()}
        outputs = {o.name: o.shape for o in self.session.get_outputs()}
        n = self.config.input_size
        if list(inputs.get(self.config.input_name, []))[1:] != [1, n, n]:
            raise ModelError(f"model input {self.config.input_name!r} is not (N, 1, {n}, {n})")
        if list(outputs.get(self.config.probs_output, []))[1:] != [NUM_CLASSES]:
            raise ModelError(f"model output {self.config.probs_output!r} is not (N, 19)")
        if self.config.embedding_output not in outputs:
            raise ModelError(f"model output {self.config.embedding_output!r} is missing")

    def cells(self, warped: np.ndarray) -> np.ndarray:
        """The 81 normalised cell images of a warped grid, cut as the model expects."""
        return split_cells(warped, self.config.cells)

    def predict(self, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(N, 19) class probabilities and (N, E) embeddings of N cells, in one `run` call."""
        n = self.config.input_size
        if not isinstance(cells, np.ndarray):
            raise TypeError(f"cells must be a numpy array, got {type(cells).__name__}")
        if cells.ndim != 3 or cells.shape[1:] != (n, n):
            raise ValueError(f"cells must have shape (N, {n}, {n}), got {cells.shape}")
        x = ((cells.astype(np.float32) - self.config.mean) / self.config.std)[:, None]
        probs, embedding = self.session.run(
            [self.config.probs_output, self.config.embedding_output],
            {self.config.input_name: x},
        )
        return np.asarray(probs, dtype=np.float32), np.asarray(embedding, dtype=np.float32)

    def read_cells(self, cells: np.ndarray) -> CellReading:
        """Classify 81 cell images (one `run`) and settle printed/handwritten per puzzle."""
        if cells.shape[0] != 81:
            raise ValueError(f"cells must hold 81 cells, got {cells.shape[0]}")
        probs, _ = self.predict(cells)
        digits, kinds, log_odds = settle(probs, cells, self.kind_config)
        return CellReading(probs=probs, digits=digits, kinds=kinds, kind_log_odds=log_odds)

    def read(self, warped: np.ndarray) -> CellReading:
        """Read every cell of a warped grid, averaged over the crop offsets (one `run`)."""
        shifts = self.shift_config.shifts
        if len(shifts) == 1:
            return self.read_cells(self.cells(warped))
        cells = shifted_cells(warped, shifts, self.config.cells)
        probs, _ = self.predict(cells.reshape(-1, *cells.shape[2:]))
        mean = probs.reshape(len(shifts), 81, -1).mean(axis=0).astype(np.float32)
        digits, kinds, log_odds = settle(mean, cells[0], self.kind_config)
        return CellReading(probs=mean, digits=digits, kinds=kinds, kind_log_odds=log_odds)

    def read_upright(self, warped: np.ndarray) -> tuple[int, CellReading]:
        """Read a grid photographed in any of four quarter-turn orientations.

        The four rotations' 324 cells go through one `run`; the rotation whose cells are
        read most confidently wins (each cell once; with crop offsets configured, the
        winning rotation is then read again as ``read`` does). Returns k, the
        counter-clockwise quarter turns (``np.rot90(warped, k)``) that make the grid upright
        (equivalently, corners rolled by ``-k``), and the reading of the upright grid.
        """
        cells = np.concatenate(
            [self.cells(np.ascontiguousarray(np.rot90(warped, k))) for k in range(4)]
        )
        probs, _ = self.predict(cells)
        scores = np.log(probs.max(axis=1) + 1e-6).reshape(4, 81).sum(axis=1)
        k = int(np.argmax(scores))
        if len(self.shift_config.shifts) > 1:
            return k, self.read(np.ascontiguousarray(np.rot90(warped, k)))
        rows = slice(81 * k, 81 * (k + 1))
        digits, kinds, log_odds = settle(probs[rows], cells[rows], self.kind_config)
        return k, CellReading(probs[rows], digits, kinds, kind_log_odds=log_odds)


@functools.cache
def default_classifier() -> DigitClassifier:
    """The shipped classifier, built once per process."""
    return DigitClassifier()
