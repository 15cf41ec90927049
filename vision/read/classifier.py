"""Read the 81 cells of a warped grid with the shipped ONNX digit classifier (onnxruntime)."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import SudokucamError
from ..types import CellReading, CellScores
from .cells import CellConfig, split_cells
from .config import DEFAULT_READ_CONFIG, ReadConfig
from .decide import decide_kinds, digit_share
from .faint import (
    cell_ink,
    faint_candidates,
    faint_page_ink,
    reread_faint,
    writing_ink,
)
from .notes import note_digits
from .orientation import turns_ruled_out
from .recentre import reread_centred

MODEL_DIR = Path(__file__).resolve().parents[2] / "models" / "digits_v4"
CLASS_NAMES: tuple[str, ...] = (
    "empty",
    *(f"printed_{d}" for d in range(1, 10)),
    *(f"handwritten_{d}" for d in range(1, 10)),
)
NOTES_CLASS = len(CLASS_NAMES)  # a model's extra last class: the cell holds candidate notes
NOTES_CLASS_NAMES: tuple[str, ...] = (*CLASS_NAMES, "notes")
CROSSED_CLASS = NOTES_CLASS + 1  # then: a digit the person struck through (no entry)
CROSSED_CLASS_NAMES: tuple[str, ...] = (*NOTES_CLASS_NAMES, "crossed_out")
LOG_FLOOR = 1e-6  # added to probabilities before their log when comparing quarter turns
# onnxruntime logs errors only (0 verbose .. 3 error, 4 fatal): its warnings never reach
# the person's terminal.
ORT_LOG_SEVERITY = 3


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
    class_names: tuple[str, ...] = CLASS_NAMES
    base_probs_output: str | None = None  # a joined model's base's own probabilities

    @property
    def has_notes(self) -> bool:
        """True when the model has a notes class (after the 19 digit classes)."""
        return self.class_names in (NOTES_CLASS_NAMES, CROSSED_CLASS_NAMES)

    @property
    def has_crossed_out(self) -> bool:
        """True when the model has a crossed-out class (after the notes class)."""
        return self.class_names == CROSSED_CLASS_NAMES


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
            class_names=tuple(raw["class_names"]),
            base_probs_output=raw.get("base_probs_output"),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"model config {path} is invalid: {exc!r}") from exc
    if config.class_names not in (CLASS_NAMES, NOTES_CLASS_NAMES, CROSSED_CLASS_NAMES):
        raise ModelError(
            f"model config {path}: class_names must be {list(CLASS_NAMES)}, "
            f"optionally followed by 'notes' (and then 'crossed_out')"
        )
    if config.cells.output_size != config.input_size:
        raise ModelError(
            f"model config {path}: cells give {config.cells.output_size} px, "
            f"model wants {config.input_size}"
        )
    if config.std <= 0:
        raise ModelError(f"model config {path}: std must be positive")
    return config


class DigitClassifier:
    """The ONNX digit classifier: one onnxruntime session, one `run` call per grid.

    ``score`` gives the class probabilities of a grid's cells (and the cell images, and
    with a notes class each cell's probability of holding candidate notes and the noted
    digits); ``decide.decide_kinds`` settles digits and kinds from them. ``read`` does both,
    for callers without a photo (no ink colour). Every method takes the reading stage's
    settings (``ReadConfig``: notes, recentre, the kind thresholds and steps); the model
    itself holds none, so one loaded classifier serves any settings.
    """

    def __init__(self, model_dir: Path = MODEL_DIR):
        """Load and check the model folder (model.onnx + config.json) and build the session.

        A model without a notes class (digits_v1) never takes a cell for notes.
        """
        import onnxruntime as ort

        model_path = Path(model_dir) / "model.onnx"
        if not model_path.is_file():
            raise ModelError(f"model file not found: {model_path}")
        self.config = read_model_config(Path(model_dir) / "config.json")
        ort.disable_telemetry_events()  # also when the host program imported ort first
        ort.set_default_logger_severity(ORT_LOG_SEVERITY)
        options = ort.SessionOptions()
        options.log_severity_level = ORT_LOG_SEVERITY
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
        classes = len(self.config.class_names)
        if list(outputs.get(self.config.probs_output, []))[1:] != [classes]:
            raise ModelError(f"model output {self.config.probs_output!r} is not (N, {classes})")
        if self.config.embedding_output not in outputs:
            raise ModelError(f"model output {self.config.embedding_output!r} is missing")
        base = self.config.base_probs_output
        if base is not None and list(outputs.get(base, []))[1:] != [classes]:
            raise ModelError(f"model output {base!r} is not (N, {classes})")

    def cells(self, warped: np.ndarray) -> np.ndarray:
        """The 81 normalised cell images of a warped grid, cut as the model expects."""
        return split_cells(warped, self.config.cells)

    def predict(self, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(N, C) class probabilities and (N, E) embeddings of N cells, in one `run` call.

        C is 19, 20 with a notes class (``NOTES_CLASS``), 21 with a crossed-out class
        (``CROSSED_CLASS``, last).
        """
        return self._run(cells, self.config.embedding_output)

    def predict_notes(self, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(N, C) class probabilities of N cells and the base model's own (N, C) (a joined
        model's ``base_probs_output``; the same probabilities again for a model without
        one), in one `run` call: what ``notes.note_digits`` reads noted digits with."""
        base = self.config.base_probs_output
        if base is None:
            probs, _ = self.predict(cells)
            return probs, probs
        return self._run(cells, base)

    def _run(self, cells: np.ndarray, second: str) -> tuple[np.ndarray, np.ndarray]:
        """The probabilities and the output ``second`` of N checked cell images."""
        n = self.config.input_size
        if not isinstance(cells, np.ndarray):
            raise TypeError(f"cells must be a numpy array, got {type(cells).__name__}")
        if cells.ndim != 3 or cells.shape[1:] != (n, n):
            raise ValueError(f"cells must have shape (N, {n}, {n}), got {cells.shape}")
        x = ((cells.astype(np.float32) - self.config.mean) / self.config.std)[:, None]
        probs, other = self.session.run(
            [self.config.probs_output, second], {self.config.input_name: x}
        )
        return np.asarray(probs, dtype=np.float32), np.asarray(other, dtype=np.float32)

    def score_cells(
        self,
        cells: np.ndarray,
        warped: np.ndarray | None = None,
        config: ReadConfig = DEFAULT_READ_CONFIG,
    ) -> CellScores:
        """The class probabilities of 81 cell images (one `run`), with the images.

        ``warped``: the grid they were cut from, where notes cells' digits are read finer.
        """
        if cells.shape[0] != 81:
            raise ValueError(f"cells must hold 81 cells, got {cells.shape[0]}")
        probs, _ = self.predict(cells)
        return self._scores(probs, cells, warped, config)

    def _scores(
        self, probs: np.ndarray, cells: np.ndarray, warped: np.ndarray | None, config: ReadConfig
    ) -> CellScores:
        """CellScores of the model's output: the 19 digit classes, and notes where known.

        A model with a notes class gives each cell's probability of holding notes; its 19
        digit classes are renormalised to what the cell holds if it is not notes. A digit
        crossed out is no entry: its probability counts as empty. Cells holding ink but no
        legible digit are read again centred first (``_recentred``).
        """
        model_probs = probs
        probs, cells, unreadable = self._recentred(probs, cells, config)
        probs, cells, faint = self._faint_read(probs, cells, config)
        unreadable = unreadable | faint
        if not self.config.has_notes:
            return CellScores(probs, cells, unreadable=unreadable, model_probs=model_probs)
        notes = probs[:, NOTES_CLASS].astype(np.float64)
        crossed = None
        if self.config.has_crossed_out:
            crossed = probs[:, CROSSED_CLASS].astype(np.float64)
        scores = CellScores(
            self.digit_probs(probs),
            cells,
            notes_probability=notes,
            crossed_out_probability=crossed,
            unreadable=unreadable,
            model_probs=model_probs,
        )
        return self.with_note_digits(scores, warped, config)

    def digit_probs(self, probs: np.ndarray) -> np.ndarray:
        """(N, 19) digit probabilities of the model's (N, C) output: what a cell holds if it
        is not notes (a digit crossed out counts as empty), renormalised."""
        if not self.config.has_notes:
            return probs
        digit = probs[:, :NOTES_CLASS].copy()
        if self.config.has_crossed_out:
            digit[:, 0] += probs[:, CROSSED_CLASS]
        return np.asarray(digit / np.maximum(digit.sum(axis=1, keepdims=True), LOG_FLOOR))

    def _recentred(
        self, probs: np.ndarray, cells: np.ndarray, config: ReadConfig
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The output and cell images with every cell holding a digit's size of ink but no
        legible digit read again centred where that reads surely (``recentre.py``), and
        which cells (bool) hold such ink that reads as no digit even centred.

        Such a cell is less likely empty than ``kinds.empty_below``, not notes and not
        legible (``kinds.legible_from``).
        """
        digit, kinds = self.digit_probs(probs), config.kind_decision
        notes = probs[:, NOTES_CLASS] if self.config.has_notes else np.zeros(len(probs))
        todo = (digit[:, 0] < kinds.empty_below) & (notes < kinds.notes_from)
        todo &= digit_share(digit) < kinds.legible_from
        unreadable = np.zeros(len(probs), dtype=bool)
        if not todo.any():
            return probs, cells, unreadable
        again = reread_centred(cells, todo, self.predict, self.digit_probs, config.recentre)
        unreadable[again.unreadable] = True
        if not again.cells.size:
            return probs, cells, unreadable
        probs, cells = probs.copy(), cells.copy()
        probs[again.cells], cells[again.cells] = again.probs, again.images
        return probs, cells, unreadable

    def _faint_read(
        self, probs: np.ndarray, cells: np.ndarray, config: ReadConfig
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The output and cell images with every cell read as empty whose ink is as dark as
        the page's written entries read again at its own contrast, where that reads as a
        sure written digit (``faint.py``: pencil so faint it is nearly invisible), and
        which cells (bool) read again hold a written digit too unsure to take."""
        other = np.zeros(len(probs))
        if self.config.has_notes:
            other = other + probs[:, NOTES_CLASS]
        if self.config.has_crossed_out:
            other = other + probs[:, CROSSED_CLASS]
        faint, digit = config.faint, self.digit_probs(probs)
        ink = cell_ink(cells, faint)
        level = writing_ink(digit, ink, faint)
        if level is None:
            level = faint_page_ink(cells, digit, other, self.predict, self.digit_probs, faint)
        todo = faint_candidates(digit, other, ink, faint, level)
        again = reread_faint(cells, todo, self.predict, self.digit_probs, faint)
        unsure = np.zeros(len(probs), dtype=bool)
        unsure[again.unsure] = True
        if not again.cells.size:
            return probs, cells, unsure
        probs, cells = probs.copy(), cells.copy()
        probs[again.cells], cells[again.cells] = again.probs, again.images
        return probs, cells, unsure

    def with_note_digits(
        self, scores: CellScores, warped: np.ndarray | None, config: ReadConfig, n: int = 9
    ) -> CellScores:
        """The scores with the digits noted in every cell taken for notes.

        The notes cells are cut again from ``warped`` (a grid of ``n`` cells a side) at
        ``NotesConfig.detail`` times the model's cell size (without it, the model's own
        cell images are read).
        """
        cells, notes = scores.cells, scores.notes_probability
        if cells is None or notes is None:
            return scores
        taken = np.flatnonzero(config.kind_decision.notes(notes))
        if not taken.size:
            return replace(scores, note_digits=("",) * len(cells), notes_sure=(False,) * len(cells))
        fine = cells if warped is None else self.fine_cells(warped, config.notes.detail, n)
        read = note_digits(fine[taken], self.predict_notes, self.config.input_size, config.notes)
        digits, sure = ["" for _ in range(len(cells))], [False] * len(cells)
        for cell, noted in zip(taken, read, strict=True):
            digits[int(cell)], sure[int(cell)] = noted.digits, noted.sure
        return replace(scores, note_digits=tuple(digits), notes_sure=tuple(sure))

    def fine_cells(self, warped: np.ndarray, detail: int, n: int = 9) -> np.ndarray:
        """The 81 cell ink images (n² of a grid of ``n`` cells a side) cut ``detail`` times
        finer than the model's."""
        cut = self.config.cells
        finer = replace(cut, cell_px=cut.cell_px * detail, inset_px=cut.inset_px * detail)
        return split_cells(warped, finer, n)

    def score(self, warped: np.ndarray, config: ReadConfig = DEFAULT_READ_CONFIG) -> CellScores:
        """The class probabilities of every cell of a warped grid (one `run`)."""
        return self.score_cells(self.cells(warped), warped, config)

    def score_upright(
        self,
        warped: np.ndarray,
        config: ReadConfig = DEFAULT_READ_CONFIG,
        upright: CellScores | None = None,
    ) -> tuple[int, CellScores]:
        """Score a grid photographed in any of four quarter-turn orientations.

        The four rotations' 324 cells go through one `run`; the rotation whose cells are
        read most confidently wins. Returns k, the counter-clockwise quarter turns
        (``np.rot90(warped, k)``) that make the grid upright (equivalently, corners rolled
        by ``-k``), and the scores of the upright grid.

        ``upright``: the grid's scores as it lies (``score``), where known. When a few
        cells of each turn show that none can win (``orientation.turns_ruled_out``), k is
        0 and these scores come back, the turns never read whole.
        """
        if upright is not None and self.turns_ruled_out(warped, upright, config):
            return 0, upright
        turned = [np.ascontiguousarray(np.rot90(warped, k)) for k in range(4)]
        cells = np.concatenate([self.cells(t) for t in turned])
        probs, _ = self.predict(cells)
        scores = np.log(probs.max(axis=1) + LOG_FLOOR).reshape(4, 81).sum(axis=1)
        k = int(np.argmax(scores))
        rows = slice(81 * k, 81 * (k + 1))
        return k, self._scores(probs[rows], cells[rows], turned[k], config)

    def turns_ruled_out(self, warped: np.ndarray, upright: CellScores, config: ReadConfig) -> bool:
        """Whether no quarter turn of the grid can read more surely than ``upright`` (its
        scores as it lies, with the model's own output) does, judged on a few cells of
        each turn, the fullest first (``orientation.turns_ruled_out``)."""
        raw = upright.model_probs
        if raw is None or raw.shape[0] != 81:
            return False
        quarter: dict[int, np.ndarray] = {}

        def turned(asked: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
            for k in asked.keys() - quarter.keys():
                quarter[k] = self.cells(np.ascontiguousarray(np.rot90(warped, k)))
            probs, _ = self.predict(np.concatenate([quarter[k][at] for k, at in asked.items()]))
            terms = np.log(probs.max(axis=1) + LOG_FLOOR)
            bounds = np.cumsum([0, *(len(at) for at in asked.values())])
            return {k: terms[bounds[i] : bounds[i + 1]] for i, k in enumerate(asked)}

        fullest = np.argsort(raw[:, 0], kind="stable")  # least likely empty first
        terms = np.log(raw.max(axis=1) + LOG_FLOOR)
        most = float(np.log(np.float32(1.0) + LOG_FLOOR))
        return turns_ruled_out(terms, fullest, turned, most, config.orientation)

    def read_cells(
        self, cells: np.ndarray, config: ReadConfig = DEFAULT_READ_CONFIG
    ) -> CellReading:
        """Classify 81 cell images (one `run`) and settle their digits and kinds (no photo,
        no ink colour)."""
        return decide_kinds(self.score_cells(cells, config=config), config=config.kind_decision)

    def read(self, warped: np.ndarray, config: ReadConfig = DEFAULT_READ_CONFIG) -> CellReading:
        """Read every cell of a warped grid (one `run`), digits and kinds settled (no photo,
        no ink colour)."""
        return decide_kinds(self.score(warped, config), config=config.kind_decision)

    def read_upright(
        self, warped: np.ndarray, config: ReadConfig = DEFAULT_READ_CONFIG
    ) -> tuple[int, CellReading]:
        """Like ``score_upright``, with the upright grid's digits and kinds settled."""
        k, scores = self.score_upright(warped, config)
        return k, decide_kinds(scores, config=config.kind_decision)


@functools.cache
def default_classifier() -> DigitClassifier:
    """The shipped classifier, built once per process."""
    return DigitClassifier()
