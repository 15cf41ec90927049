"""Train the digit classifier (19 digit classes, then notes) and export it to ONNX (needs torch).

Reproduces the shipped model, models/digits_v4, from a fresh checkout plus ../shared: two
runs of this script (the base, digits_v3's recipe; the reader, trained on the real cells
weighted up and the Times train digits with their kinds) joined by ``join.py``:

    .venv/bin/python models/training/train.py --out /tmp/digits_base
    .venv/bin/python models/training/train.py --times-kinds /tmp/digits_base \
        --real-repeat 4 --progress-repeat 3 --out /tmp/digits_reader
    .venv/bin/python -m sudokucam.models.training.join --base /tmp/digits_base \
        --reader /tmp/digits_reader --out models/digits_v4
    .venv/bin/python models/training/train.py --evaluate models/digits_v4   # report only

Data: real cells of the shared photos except the validation ids (models/validation_ids.txt),
synthetic grids (models/training/synth.py) with printed fonts, MNIST and handwriting fonts.

Options not used by the shipped model (see its model card, "More hands and type"):
``--font-grids N`` adds N grids drawn in 53 @fontsource faces (fetch them first with
``python -m sudokucam.models.training.fontsource``), ``--held-out-fonts N`` reports on N
grids in the 9 held-out faces, ``--device cuda`` trains on a GPU (same cells, order and
augmentation; only the arithmetic differs from the CPU). ``--times-kinds TEACHER`` gives the
Times train digits their kind (``times_kinds.py``; the reader's run).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

from sudokucam.models.training import fontsource
from sudokucam.models.training.dataset import (
    cached_cells,
    held_out_ids,
    load_all,
    selection_ids,
)
from sudokucam.models.training.evaluate import (
    Report,
    evaluate_found_grids,
    evaluate_model,
    evaluate_photos,
    evaluate_progress,
    evaluate_synth,
    print_progress_report,
    print_report,
    print_synth_report,
    print_threshold_report,
    threshold_report,
)
from sudokucam.models.training.progress_cells import (
    EITHER,
    progress_training_cells,
    synthetic_notes_cells,
)
from sudokucam.models.training.rendered_cells import rendered_training_cells
from sudokucam.models.training.synth import SYNTH_VERSION, HandStyle, SynthConfig, synth_cells
from sudokucam.models.training.times_kinds import derive_split
from sudokucam.samples.dataset import SHARED, dataset_dir
from sudokucam.vision.read.cells import DEFAULT_CELL_CONFIG
from sudokucam.vision.read.classifier import CROSSED_CLASS_NAMES, DigitClassifier

VERSION = "digits_v3"  # the nets' recipe; join.py makes the shipped digits_v4 of two runs
MEAN, STD = 0.1, 0.25
EMBEDDING = 64


class DigitNet(nn.Module):
    """Small CNN: 32×32 ink image -> 20 class probabilities (notes last), a 64-d embedding."""

    def __init__(self) -> None:
        """Four conv blocks (16, 32, 64, 64 channels) and two dense layers."""
        super().__init__()

        def block(cin: int, cout: int) -> list[nn.Module]:
            return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

        self.features = nn.Sequential(
            *block(1, 16),
            nn.MaxPool2d(2),
            *block(16, 32),
            nn.MaxPool2d(2),
            *block(32, 64),
            nn.MaxPool2d(2),
            *block(64, 64),
            nn.Flatten(),
        )
        self.embed = nn.Sequential(nn.Dropout(0.2), nn.Linear(64 * 16, EMBEDDING), nn.ReLU())
        self.head = nn.Linear(EMBEDDING, len(CROSSED_CLASS_NAMES))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits and embedding."""
        e = self.embed(self.features(x))
        return self.head(e), e


class Exported(nn.Module):
    """The networks as shipped: the softmax of their mean logits, their joined embeddings.

    Averaging logits is a geometric mean of the nets' probabilities: where both nets are
    sure the result is as sure, so the kind log-odds keep one net's scale (the sure and
    ambiguous bands of ``vision/read/kinds.py``); an arithmetic mean would pull them in.
    """

    def __init__(self, nets: list[DigitNet]) -> None:
        """Wrap the trained nets (one or more, trained alike from different seeds)."""
        super().__init__()
        self.nets = nn.ModuleList(nets)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Probabilities and embedding."""
        outputs = [net(x) for net in self.nets]
        logits = torch.stack([logits for logits, _ in outputs]).mean(0)
        return torch.softmax(logits, dim=1), torch.cat([e for _, e in outputs], dim=1)


def augment(
    x: torch.Tensor, g: torch.Generator, strength: torch.Tensor | None = None
) -> torch.Tensor:
    """Random affine, stroke thickness, border lines, blur, gain and noise on (B,1,N,N) ink.

    `strength` (B,) scales each sample's geometric jitter, thickening and noise (None = full).
    """
    b, n = x.shape[0], x.shape[-1]

    def u(lo: float, hi: float, *shape: int) -> torch.Tensor:
        return lo + (hi - lo) * torch.rand(*(shape or (b,)), generator=g)

    angle, scale, stretch = u(-0.1, 0.1), u(0.8, 1.15), u(0.9, 1.1)
    if strength is not None:
        angle, scale = angle * strength, 1 + (scale - 1) * strength
        stretch = 1 + (stretch - 1) * strength
    sx, sy = scale * stretch, scale
    theta = torch.zeros(b, 2, 3)
    theta[:, 0, 0], theta[:, 0, 1] = torch.cos(angle) / sx, -torch.sin(angle) / sx
    theta[:, 1, 0], theta[:, 1, 1] = torch.sin(angle) / sy, torch.cos(angle) / sy
    theta[:, :, 2] = u(-0.16, 0.16, b, 2)
    if strength is not None:
        theta[:, :, 2] *= strength[:, None]
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x, grid, align_corners=False, padding_mode="zeros")
    pick = torch.rand(b, generator=g)
    if strength is not None:
        pick = pick / strength.clamp(min=0.1)
    dil = F.max_pool2d(x, 3, 1, 1)
    ero = -F.max_pool2d(-x, 3, 1, 1)
    x = torch.where((pick < 0.12)[:, None, None, None], dil, x)
    x = torch.where(((pick >= 0.12) & (pick < 0.2))[:, None, None, None], ero, x)
    x = x + border_lines(b, n, g)
    blur = torch.tensor([[0.25, 0.5, 0.25]])
    k = (blur.T @ blur)[None, None]
    blurred = F.conv2d(x, k, padding=1)
    x = torch.where((torch.rand(b, generator=g) < 0.3)[:, None, None, None], blurred, x)
    x = x * u(0.8, 1.15)[:, None, None, None]
    noise = torch.randn(x.shape, generator=g)
    level = u(0, 0.06) if strength is None else u(0, 0.06) * strength
    x = x + noise * level[:, None, None, None]
    return x.clamp(0, 1)


def border_lines(b: int, n: int, g: torch.Generator) -> torch.Tensor:
    """Grid-line fragments along random cell borders (about a third of the samples)."""
    lines = torch.zeros(b, 1, n, n)
    rows = torch.arange(n)
    for side in range(4):
        has = (torch.rand(b, generator=g) < 0.12).float()
        pos = torch.randint(0, 3, (b,), generator=g)
        where = pos if side < 2 else n - 1 - pos
        strength = has * (0.3 + 0.7 * torch.rand(b, generator=g))
        line = (rows[None, :] == where[:, None]).float() * strength[:, None]
        line = line[:, None, :, None] if side % 2 == 0 else line[:, None, None, :]
        lines = torch.maximum(lines, line.expand(b, 1, n, n))
    return lines


def real_training_cells(
    shared: Path, cache: Path, held_out: frozenset[int]
) -> tuple[np.ndarray, np.ndarray]:
    """uint8 cells and classes of every photo (both versions) except `held_out` ids."""
    photos = [p for p in load_all(shared, cache_dir=cache) if p.photo_id not in held_out]
    cells = np.concatenate([(p.cells * 255).round().astype(np.uint8) for p in photos])
    return cells, np.concatenate([p.labels for p in photos])


def synthetic_cells(args: argparse.Namespace) -> tuple[np.ndarray, np.ndarray]:
    """Synthetic cells (``args.synth_grids`` grids), cached under ``args.cache``."""
    smudges = f"_smudge{args.smudge_share:g}" if args.smudge_share > 0 else ""
    flags = f"_flag{args.flagged_ones:g}" if args.flagged_ones > 0 else ""
    sevens = f"_seven{args.short_sevens:g}" if args.short_sevens > 0 else ""
    name = f"synth_v{SYNTH_VERSION}_{args.synth_grids}_{args.seed}{smudges}{flags}{sevens}.npz"
    config = SynthConfig(
        smudge_share=args.smudge_share,
        flagged_one_share=args.flagged_ones,
        short_seven_share=args.short_sevens,
    )
    return cached_cells(args.cache / name, lambda: synth_cells(args.synth_grids, args.seed, config))


TIMES_KINDS_VERSION = 2  # bump when times_kinds.py changes (names the derived kinds' cache)
FONT_SYNTH_VERSION = 1  # bump when the fontsource grids' drawing changes (names the cache)
FONT_SEED_OFFSET = 1000  # the fontsource grids' seed: --seed + this (apart from synth's)


def font_synth_config(font_cache: Path, held_out: bool = False) -> SynthConfig:
    """Grids in the ``fontsource`` faces: training ones, or only the held-out ones."""
    return SynthConfig(
        printed_fonts=fontsource.fonts(fontsource.PRINT_FACES, font_cache, held_out),
        hand_fonts=fontsource.fonts(fontsource.HAND_FACES, font_cache, held_out),
        style=HandStyle(),
        mnist_share=0.25,
        smudge_share=0.1,
    )


def font_cells(args: argparse.Namespace) -> tuple[np.ndarray, np.ndarray]:
    """Cells of ``args.font_grids`` grids in the training fontsource faces (cached)."""
    seed = args.seed + FONT_SEED_OFFSET
    path = args.cache / f"fontsynth_v{FONT_SYNTH_VERSION}_{args.font_grids}_{seed}.npz"
    return cached_cells(
        path, lambda: synth_cells(args.font_grids, seed, font_synth_config(args.font_cache))
    )


def sample_weights(real_y: np.ndarray, n_synth: int, args: argparse.Namespace) -> torch.Tensor:
    """Sampling weight per cell: real cells (the target domain) up, real handwriting more."""
    real = np.where(real_y >= 10, args.real_weight * args.hand_weight, args.real_weight)
    return torch.from_numpy(np.concatenate([real, np.ones(n_synth)]))


def partial_cross_entropy(logits: torch.Tensor, y: torch.Tensor, smoothing: float) -> torch.Tensor:
    """Cross-entropy where class ``EITHER + d`` means "printed or written d" (either is right).

    The loss of a cell is -log of the summed probability of its allowed classes, mixed with
    ``smoothing`` of the mean -log probability over all classes (label smoothing).
    """
    allowed = allowed_classes(y, logits.shape[1])
    log_p = torch.log_softmax(logits, dim=1)
    partial = -torch.logsumexp(log_p.masked_fill(~allowed, float("-inf")), dim=1)
    return ((1 - smoothing) * partial - smoothing * log_p.mean(dim=1)).mean()


def allowed_classes(y: torch.Tensor, n_classes: int) -> torch.Tensor:
    """(B, n_classes) bool: the classes each target accepts (two for ``EITHER + d``)."""
    either = y >= EITHER
    digit = (y - EITHER).clamp(min=0)
    exact = torch.nn.functional.one_hot(torch.where(either, digit, y), n_classes).bool()
    written = torch.nn.functional.one_hot(torch.where(either, digit + 9, y), n_classes).bool()
    return exact | (written & either[:, None])


def times_kinds(args: argparse.Namespace) -> dict[str, np.ndarray] | None:
    """Derived printed cells of the Times train puzzles (``--times-kinds`` teacher), or None."""
    if args.times_kinds is None:
        return None
    path = args.cache / f"times_kinds_v{TIMES_KINDS_VERSION}_{args.times_kinds.name}.npz"
    if not path.exists():
        derived = derive_split(DigitClassifier(args.times_kinds), args.shared)
        arrays: dict[str, np.ndarray] = {
            "puzzles": np.array(sorted(derived)),
            "kept": np.array(sorted(k for k, v in derived.items() if v.printed is not None)),
        }
        for k, v in derived.items():
            arrays[f"digits_{k}"] = np.array(v.digits)
            if v.printed is not None:
                arrays[f"printed_{k}"] = v.printed
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, **arrays)  # type: ignore[arg-type]
    data = np.load(path)
    givens = {str(k): data[f"printed_{k}"] for k in data["kept"]}
    printed = sum(int(g.sum()) for g in givens.values())
    digits = sum(int(data[f"digits_{k}"]) for k in givens)
    print(
        f"Times kinds derived for {len(givens)} of {len(data['puzzles'])} puzzles: "
        f"{printed} printed, {digits - printed} written digit cells (each in 4 photos)"
    )
    return givens


def progress_data(args: argparse.Namespace) -> tuple[np.ndarray, np.ndarray]:
    """The Times train photos' cells (repeated), synthetic notes and rendered pages' cells."""
    tx, ty = progress_training_cells(args.shared, args.cache, times_kinds(args))
    nx, ny = synthetic_notes_cells(args.notes_grids, args.seed, args.cache)
    rx, ry = rendered_training_cells(args.rendered_pages, args.cache)
    print(
        f"progress cells: {len(ty)} Times (x{args.progress_repeat}), {len(ny)} synthetic "
        f"notes, {len(ry)} of rendered half-solved pages"
    )
    x = np.concatenate([np.repeat(tx, args.progress_repeat, 0), nx, rx])
    return x, np.concatenate([np.repeat(ty, args.progress_repeat, 0), ny, ry])


def training_data(
    args: argparse.Namespace, held_out: frozenset[int]
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None, torch.Tensor | None]:
    """Cells, classes, sampling weights and augmentation strengths (None: repeat mode)."""
    real_x, real_y = real_training_cells(args.shared, args.cache, held_out)
    syn_x, syn_y = synthetic_cells(args)
    if args.font_grids:
        font_x, font_y = font_cells(args)
        print(f"fontsource cells: {len(font_y)} of {args.font_grids} grids")
        syn_x, syn_y = np.concatenate([syn_x, font_x]), np.concatenate([syn_y, font_y])
    prog_x, prog_y = progress_data(args)
    if args.real_weight is None:
        x = np.concatenate([np.repeat(real_x, args.real_repeat, 0), prog_x, syn_x])
        y = np.concatenate([np.repeat(real_y, args.real_repeat, 0), prog_y, syn_y])
        print(f"training cells: {len(real_y)} real (x{args.real_repeat}), {len(syn_y)} synthetic")
        return torch.from_numpy(x), torch.from_numpy(y), None, None
    real_x, real_y = np.concatenate([real_x, prog_x]), np.concatenate([real_y, prog_y])
    weights = sample_weights(real_y, len(syn_y), args)
    strength = torch.cat([torch.full((len(real_y),), args.real_augment), torch.ones(len(syn_y))])
    print(
        f"training cells: {len(real_y)} real, {len(syn_y)} synthetic; "
        f"real share of samples {float(weights[: len(real_y)].sum() / weights.sum()):.2f}"
    )
    xt, yt = (
        torch.from_numpy(np.concatenate([real_x, syn_x])),
        torch.from_numpy(np.concatenate([real_y, syn_y])),
    )
    return xt, yt, weights, strength


def train_members(args: argparse.Namespace, held_out: frozenset[int]) -> list[DigitNet]:
    """``args.members`` nets trained on the same cells, from seeds ``args.seed`` onwards."""
    data = training_data(args, held_out)
    return [train(args, data, args.seed + member) for member in range(args.members)]


def train(
    args: argparse.Namespace,
    data: tuple[torch.Tensor, torch.Tensor, torch.Tensor | None, torch.Tensor | None],
    seed: int,
) -> DigitNet:
    """Train one net on real + synthetic cells: repeated and shuffled, or drawn by weight.

    ``seed`` sets the net's starting weights, the order of the cells and their augmentation.
    """
    xt, yt, weights, strength = data
    print(f"net of seed {seed}", flush=True)
    torch.manual_seed(seed)
    per_epoch = (len(yt) if weights is None else args.epoch_samples) // args.batch
    net = DigitNet().to(args.device)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * per_epoch
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, args.lr, total_steps=steps, pct_start=args.warmup
    )
    g = torch.Generator().manual_seed(seed)
    start = time.time()
    for epoch in range(args.epochs):
        net.train()
        if weights is None:
            order = torch.randperm(len(yt), generator=g)
        else:
            order = torch.multinomial(weights, per_epoch * args.batch, True, generator=g)
        total, correct = 0.0, 0
        for s in range(per_epoch):
            idx = order[s * args.batch : (s + 1) * args.batch]
            xb = augment(
                xt[idx, None].float() / 255, g, None if strength is None else strength[idx]
            )
            yb = yt[idx].to(args.device)
            logits, _ = net(((xb - MEAN) / STD).to(args.device))
            loss = partial_cross_entropy(logits, yb, smoothing=0.02)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            allowed = allowed_classes(yb, logits.shape[1])
            correct += int(allowed.gather(1, logits.argmax(1, keepdim=True)).sum())
        n = per_epoch * args.batch
        print(
            f"epoch {epoch + 1}/{args.epochs} loss {total / n:.4f} "
            f"train acc {correct / n:.4f} ({time.time() - start:.0f}s)",
            flush=True,
        )
    return net.cpu().eval()


def export(nets: list[DigitNet], out: Path) -> None:
    """Write model.onnx (dynamic batch) and config.json into `out`."""
    out.mkdir(parents=True, exist_ok=True)
    n = DEFAULT_CELL_CONFIG.output_size
    torch.onnx.export(
        Exported(nets),
        (torch.zeros(1, 1, n, n),),
        str(out / "model.onnx"),
        input_names=["cells"],
        output_names=["probs", "embedding"],
        dynamic_axes={"cells": {0: "batch"}, "probs": {0: "batch"}, "embedding": {0: "batch"}},
        opset_version=17,
        dynamo=False,
    )
    cfg = DEFAULT_CELL_CONFIG
    config = {
        "version": VERSION,
        "input_size": n,
        "input_name": "cells",
        "probs_output": "probs",
        "embedding_output": "embedding",
        "mean": MEAN,
        "std": STD,
        "class_names": list(CROSSED_CLASS_NAMES),
        "preprocessing": "vision.read.cells.split_cells: grid resampled to 9*cell_px, ink = "
        "(local paper brightness - gray) / paper brightness, divided by the grid's "
        "ink_scale_percentile ink (at least min_ink_scale), clipped to [0, 1]; inset_px cut "
        "from each cell side; model input = (ink - mean) / std, shape (N, 1, size, size)",
        "cells": {
            "cell_px": cfg.cell_px,
            "inset_px": cfg.inset_px,
            "background_kernel_cells": cfg.background_kernel_cells,
            "ink_scale_percentile": cfg.ink_scale_percentile,
            "min_ink_scale": cfg.min_ink_scale,
        },
    }
    (out / "config.json").write_text(json.dumps(config, indent=2) + "\n")


def evaluate_selection(model_dir: Path, args: argparse.Namespace, ids: frozenset[int]) -> Report:
    """Report of a model on the held-out training ids (annotated / registered corners)."""
    photos = [p for p in load_all(args.shared, cache_dir=args.cache) if p.photo_id in ids]
    return evaluate_photos(DigitClassifier(model_dir), photos)


def parse_args() -> argparse.Namespace:
    """Command-line options."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--out", type=Path, default=None, help="where to write the trained nets")
    p.add_argument("--shared", type=Path, default=SHARED)
    p.add_argument("--cache", type=Path, default=Path("/tmp/sudokucam_cache"))
    p.add_argument("--evaluate", type=Path, default=None, help="only evaluate this model dir")
    p.add_argument("--find-grid", action="store_true", help="also evaluate through find_grid")
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--members", type=int, default=2, help="nets averaged (seeds seed, seed+1…)")
    p.add_argument("--synth-grids", type=int, default=600)
    p.add_argument(
        "--smudge-share", type=float, default=0.0, help="synthetic empty cells with dirt"
    )
    p.add_argument("--real-repeat", type=int, default=2, help="repeat mode: copies of real cells")
    p.add_argument("--progress-repeat", type=int, default=2, help="copies of Times train cells")
    p.add_argument("--notes-grids", type=int, default=150, help="synthetic grids with notes")
    p.add_argument("--rendered-pages", type=int, default=150, help="rendered half-solved pages")
    p.add_argument(
        "--flagged-ones", type=float, default=0.0, help="share of synthetic pen 1s given a flag"
    )
    p.add_argument(
        "--short-sevens", type=float, default=0.0, help="share of MNIST 7s drawn with a short bar"
    )
    p.add_argument("--font-grids", type=int, default=0, help="synthetic grids in fontsource faces")
    p.add_argument("--font-cache", type=Path, default=fontsource.DEFAULT_CACHE)
    p.add_argument(
        "--times-kinds",
        type=Path,
        default=None,
        help="derive the Times train digits' kinds with this teacher model (times_kinds.py)",
    )
    p.add_argument(
        "--held-out-fonts", type=int, default=0, help="evaluate on N grids in held-out faces"
    )
    p.add_argument(
        "--real-weight",
        type=float,
        default=None,
        help="weighted mode: sampling weight of a real cell (synthetic = 1)",
    )
    p.add_argument("--hand-weight", type=float, default=2.0, help="weighted: x real handwriting")
    p.add_argument("--real-augment", type=float, default=0.5, help="weighted: real cells' aug.")
    p.add_argument("--epoch-samples", type=int, default=56000, help="weighted: cells per epoch")
    p.add_argument("--warmup", type=float, default=0.3, help="one-cycle LR warm-up fraction")
    p.add_argument("--holdout", type=int, default=0, help="training ids held out for selection")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--seed", type=int, default=20261122)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument(
        "--device",
        default="cpu",
        help="torch device of the nets (augmentation stays on the CPU, so the cells and their "
        "order are the same anywhere); the shipped model is trained on the CPU",
    )
    args = p.parse_args()
    if args.out is None and args.evaluate is None:
        p.error("give --out DIR (where to write the nets) or --evaluate MODEL_DIR")
    return args


def main() -> None:
    """Train, export and report validation accuracy (or only evaluate)."""
    args = parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    held_out = held_out_ids() | selection_ids(args.holdout, args.seed, dataset_dir(args.shared))
    if args.evaluate is None:
        export(train_members(args, held_out), args.out)
    model_dir = args.evaluate or args.out
    if args.holdout:
        print(f"== {args.holdout} held-out training ids (model selection)")
        print_report(evaluate_selection(model_dir, args, held_out - held_out_ids()))
    print("== validation cells cut with annotated (v2) / registered (mixed) corners")
    print_report(evaluate_model(model_dir, args.shared, args.cache))
    if args.find_grid:
        print("== validation photos warped by vision.grid.find (whole reading pipeline)")
        print_report(evaluate_found_grids(model_dir, args.shared))
    print("== Times progress val cells cut with the labelled corners (held out)")
    print_progress_report(evaluate_progress(model_dir, args.shared))
    print("== the reading's thresholds on training cells (where they were set)")
    print_thresholds(model_dir, args, held_out)
    if args.held_out_fonts:
        print_held_out_fonts(model_dir, args)


HELD_OUT_SEED = 777  # seed of the held-out-font grids (never a training seed)


def print_held_out_fonts(model_dir: Path, args: argparse.Namespace) -> None:
    """Reading of grids drawn in the held-out fontsource faces (never trained on)."""
    names = ", ".join(sorted(fontsource.HELD_OUT))
    print(f"== {args.held_out_fonts} grids in held-out fontsource faces ({names})")
    config = font_synth_config(args.font_cache, held_out=True)
    cells, labels = synth_cells(args.held_out_fonts, HELD_OUT_SEED, config)
    classifier = DigitClassifier(model_dir)
    print_synth_report("all", evaluate_synth(classifier, cells, labels))
    plain = SynthConfig(
        printed_fonts=config.printed_fonts, hand_fonts=config.hand_fonts, mnist_share=0.0
    )
    cells, labels = synth_cells(args.held_out_fonts, HELD_OUT_SEED + 1, plain)
    print_synth_report("fonts only, no MNIST, plain pen", evaluate_synth(classifier, cells, labels))


def print_thresholds(model_dir: Path, args: argparse.Namespace, held_out: frozenset[int]) -> None:
    """Where the notes, legibility and crossed-out thresholds (``KindDecisionConfig``'s
    defaults) fall on the training cells."""
    classifier = DigitClassifier(model_dir)
    sets = {
        "sudoku_dataset train": real_training_cells(args.shared, args.cache, held_out),
        "Times train": progress_training_cells(args.shared, args.cache),
        "rendered pages": rendered_training_cells(args.rendered_pages, args.cache),
    }
    for name, (cells, classes) in sets.items():
        print_threshold_report(name, threshold_report(classifier, cells, classes))


if __name__ == "__main__":
    main()
