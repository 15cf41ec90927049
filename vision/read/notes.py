"""Candidate notes: which cells hold only small noted digits, and which digits they are.

A notes cell holds one or more small digits a person noted as candidates; it is never an
entry. ``NotesModel`` (the shipped ``models/notes_v1``, a small two-layer network run in
NumPy) gives each cell's probability of holding notes from what the digit classifier saw
(its 64-d embedding and 19 log-probabilities) and the cell's ink profile along its rows
and columns. ``note_digits`` reads the noted digits one by one: each blob of ink in the
cell is cut out, scaled to the size of an entry and read by the digit classifier.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ...errors import SudokucamError

NOTES_DIR = Path(__file__).resolve().parents[2] / "models" / "notes_v1"
LOG_FLOOR = 1e-6  # added to probabilities before their log
# (N, 32, 32) cell images -> (N, 19) probabilities and (N, E) embeddings
Predict = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class NotesConfig:
    """How notes cells are found and their digits read.

    profile_inset: pixels cut from each side of a cell image before its ink profiles
        (most of the grid line left by the cut).
    ink_threshold: ink level (0..1) counted as a note's stroke when cutting blobs.
    min_blob_area: blobs of fewer pixels are specks, not digits.
    blob_height: the height, as a share of the classifier's input, a noted digit is
        scaled to (an entry's size) before it is read.
    min_digit_probability: a blob is read as a digit only when the classifier gives
        its best digit at least this (printed + handwritten).
    """

    profile_inset: int = 3
    ink_threshold: float = 0.35
    min_blob_area: int = 6
    blob_height: float = 0.6
    min_digit_probability: float = 0.5


DEFAULT_NOTES_CONFIG = NotesConfig()


class NotesModelError(SudokucamError):
    """The notes model folder is missing, incomplete or inconsistent."""


def ink_profiles(cells: np.ndarray, inset: int) -> np.ndarray:
    """(N, 2 * (n - 2 * inset)) mean ink of each row, then each column, inside the inset."""
    inner = cells[:, inset : cells.shape[1] - inset, inset : cells.shape[2] - inset]
    return np.concatenate([inner.mean(axis=2), inner.mean(axis=1)], axis=1)


def notes_features(
    cells: np.ndarray,
    probs: np.ndarray,
    embedding: np.ndarray,
    config: NotesConfig = DEFAULT_NOTES_CONFIG,
) -> np.ndarray:
    """(N, F) float32 features of N cells: embedding, log-probabilities, ink profiles."""
    if not (len(cells) == len(probs) == len(embedding)):
        raise ValueError(
            f"cells, probs and embedding must be as many, got "
            f"{len(cells)}, {len(probs)}, {len(embedding)}"
        )
    parts = [embedding, np.log(probs + LOG_FLOOR), ink_profiles(cells, config.profile_inset)]
    return np.concatenate(parts, axis=1).astype(np.float32)


@dataclass(frozen=True)
class NotesModel:
    """A two-layer network giving p(notes) from ``notes_features``.

    p = sigmoid(relu(((x - mean) / std) @ w1 + b1) @ w2 + b2); ``threshold`` is the
    probability from which a cell is taken for notes.
    """

    version: str
    mean: np.ndarray
    std: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: float
    threshold: float

    def probability(self, features: np.ndarray) -> np.ndarray:
        """(N,) probability that each cell holds notes only."""
        if features.ndim != 2 or features.shape[1] != self.mean.shape[0]:
            raise ValueError(f"features must be (N, {self.mean.shape[0]}), got {features.shape}")
        hidden = np.maximum(((features - self.mean) / self.std) @ self.w1 + self.b1, 0.0)
        logits = np.clip(hidden @ self.w2 + self.b2, -60.0, 60.0)
        return np.asarray(1.0 / (1.0 + np.exp(-logits)), dtype=np.float64)

    def save(self, folder: Path) -> None:
        """Write ``weights.npz`` and ``config.json`` into ``folder``."""
        folder.mkdir(parents=True, exist_ok=True)
        np.savez(folder / "weights.npz", mean=self.mean, std=self.std, w1=self.w1,
                 b1=self.b1, w2=self.w2, b2=np.array([self.b2], dtype=np.float32))  # fmt: skip
        config = {"version": self.version, "features": int(self.mean.shape[0]),
                  "hidden": int(self.w1.shape[1]), "threshold": self.threshold}  # fmt: skip
        (folder / "config.json").write_text(json.dumps(config, indent=2) + "\n")


def load_notes_model(folder: Path = NOTES_DIR) -> NotesModel:
    """Load and check a notes model folder; raise NotesModelError naming what is wrong."""
    try:
        config = json.loads((folder / "config.json").read_text())
        with np.load(folder / "weights.npz", allow_pickle=False) as raw:
            arrays = {k: np.asarray(raw[k], dtype=np.float32) for k in raw.files}
        model = NotesModel(
            version=str(config["version"]),
            mean=arrays["mean"],
            std=arrays["std"],
            w1=arrays["w1"],
            b1=arrays["b1"],
            w2=arrays["w2"],
            b2=float(arrays["b2"][0]),
            threshold=float(config["threshold"]),
        )
    except (OSError, KeyError, TypeError, ValueError) as exc:
        raise NotesModelError(f"notes model {folder} cannot be loaded: {exc}") from exc
    if model.w1.shape != (int(config["features"]), int(config["hidden"])):
        raise NotesModelError(f"notes model {folder}: w1 is {model.w1.shape}, config disagrees")
    return model


def note_blobs(cell: np.ndarray, config: NotesConfig = DEFAULT_NOTES_CONFIG) -> list[np.ndarray]:
    """The ink blobs of one notes cell that may be digits, left to right, top to bottom.

    Each comes back as a square classifier-sized ink image with the blob scaled to an
    entry's height and centred; blobs touching the cell's edge (grid lines) are left out.
    """
    n = cell.shape[0]
    mask = (cell > config.ink_threshold).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    blobs = []
    order = sorted(range(1, count), key=lambda i: (stats[i, 1] // (n // 3), stats[i, 0]))
    for i in order:
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < config.min_blob_area or x == 0 or y == 0 or x + w >= n or y + h >= n:
            continue
        blobs.append(centred(np.where(labels == i, cell, 0.0)[y : y + h, x : x + w], n, config))
    return blobs


def centred(blob: np.ndarray, n: int, config: NotesConfig) -> np.ndarray:
    """``blob`` scaled to ``blob_height`` of an n × n image (width at most n - 2), centred."""
    h, w = blob.shape
    height = max(2, round(config.blob_height * n))
    width = max(1, min(n - 2, round(w * height / h)))
    scaled = cv2.resize(blob.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)
    out = np.zeros((n, n), dtype=np.float32)
    y0, x0 = (n - height) // 2, (n - width) // 2
    out[y0 : y0 + height, x0 : x0 + width] = scaled
    return out


def note_digits(
    cells: np.ndarray,
    predict: Predict,
    config: NotesConfig = DEFAULT_NOTES_CONFIG,
) -> tuple[str, ...]:
    """The digits noted in each of N notes cells, ascending ("" where none is legible).

    Every blob of every cell goes through ``predict`` in one call.
    """
    blobs = [note_blobs(c, config) for c in cells]
    flat = [b for cell_blobs in blobs for b in cell_blobs]
    if not flat:
        return ("",) * len(cells)
    probs, _ = predict(np.stack(flat))
    digit_probs = probs[:, 1:10] + probs[:, 10:19]
    legible = (digit_probs.max(axis=1) >= config.min_digit_probability) & (probs[:, 0] < 0.5)
    read = np.where(legible, np.argmax(digit_probs, axis=1) + 1, 0)
    out, start = [], 0
    for cell_blobs in blobs:
        found = {int(d) for d in read[start : start + len(cell_blobs)] if d}
        out.append("".join(str(d) for d in sorted(found)))
        start += len(cell_blobs)
    return tuple(out)
