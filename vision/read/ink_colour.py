"""Printed vs handwritten by ink colour: one pen, one printing ink per puzzle.

The classifier reads grey cells, so a red or blue pen digit that happens to look neat
can pass for print. The photo still has its colours: each cell is white-balanced on its
own paper (so a yellow lamp or a shadow leaves black print neutral) and its ink's Lab
tint is taken per unit of darkness, so that a faint stroke and a bold one of one pen
agree. The cells the classifier is sure about give the puzzle's printed and handwritten
tints; when the two lie clearly apart (a coloured pen), an unsure cell's tint votes for
the nearer one, as log-odds added to the classifier's. With a black pen the two tints
overlap and nothing changes.

A neat pen (a print-like hand) can leave the classifier sure of no handwritten cell at
all. Then, if the sure printed ink is neutral (black print), the filled cells whose tint
lies clearly off it stand in for the pen's.

``decide.decide_kinds`` applies this step last, after the classifier and ink shape.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..grid.warp import remap_lattice

MAD_TO_SIGMA = 1.4826  # a normal spread's standard deviation per median absolute deviation


@dataclass(frozen=True)
class InkColourConfig:
    """How ink colour settles the kind of unsure cells.

    Each cell is resampled to ``cell_px`` pixels, ``inset_fraction`` of it cut from every
    side (grid lines). Its darkest ``ink_share`` of pixels are ink and its brightest
    ``paper_share`` paper; the tint is the ink's Lab a*, b* on white-balanced paper, divided
    by the ink's darkness (at least ``min_darkness`` L* units). Cells with kind log-odds beyond
    ``sure_log_odds`` (``min_sure_cells`` of each kind) give the two tints; the evidence
    counts only when they lie ``min_separation`` spreads apart (the spread is at least
    ``tint_noise``), reaches cells within ``ambiguous_log_odds`` of 0 and those read as
    printed up to ``print_reach_log_odds``, towards pen only (a hand's digit the classifier
    took for another printed one, sure in grey alone; pen read as pen stays within the
    narrower reach, as a dark pen's tint can pass for print's), is capped at
    ``max_log_odds`` and scaled by ``weight`` (0 turns the step off). With fewer sure
    handwritten cells, and at least ``min_inferred_pen_cells`` sure printed ones whose
    median tint is within ``neutral_print`` of neutral, the filled cells lying
    ``min_separation`` spreads off the printed tint stand in for the handwritten ones when
    there are ``min_inferred_pen_cells`` of them. Only cells whose ink is at least
    ``min_reference_darkness`` L* units dark give the tints (sure or stand-ins): the tint
    of fainter ink is mostly what the paper's balance leaves (pencil so faint it is
    nearly invisible, ΔL* 4-9 on cream paper, shows a* +3 to +5 per cell; a darker stroke
    of the same pencil 0.6).
    """

    cell_px: int = 32
    inset_fraction: float = 0.2
    ink_share: float = 0.1
    paper_share: float = 0.5
    min_darkness: float = 5.0
    sure_log_odds: float = 4.0
    min_sure_cells: int = 3
    ambiguous_log_odds: float = 4.0
    # A written digit the classifier takes for another printed one (a hand's 7 for a
    # printed 1) can be read as print at log-odds 5 to 6: its ink colour reaches it.
    print_reach_log_odds: float = 9.0
    tint_noise: float = 0.1
    min_separation: float = 3.0
    max_log_odds: float = 10.0
    weight: float = 1.0
    neutral_print: float = 0.3
    min_inferred_pen_cells: int = 5
    min_reference_darkness: float = 10.0

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if self.cell_px < 8:
            raise ValueError(f"cell_px must be at least 8, got {self.cell_px}")
        if not 0.0 <= self.inset_fraction < 0.4:
            raise ValueError(f"inset_fraction must be in [0, 0.4), got {self.inset_fraction}")
        if not 0.0 < self.ink_share < self.paper_share < 1.0:
            raise ValueError("need 0 < ink_share < paper_share < 1")
        if self.min_darkness <= 0 or self.tint_noise <= 0:
            raise ValueError("min_darkness and tint_noise must be positive")


DEFAULT_INK_COLOUR_CONFIG = InkColourConfig()


def cell_ink_colours(
    image: np.ndarray, lattice: np.ndarray, config: InkColourConfig = DEFAULT_INK_COLOUR_CONFIG
) -> np.ndarray:
    """(n², 3) Lab colour of each cell's ink seen on white paper (ΔL* from white, a*, b*),
    for a grid of n cells a side (``lattice``: (n + 1, n + 1, 2); 81 cells on a 9×9).

    Each cell is white-balanced on its own paper (channel by channel, as the eye adapts to
    the light), so a yellow lamp or a grey shadow leaves black print neutral.
    """
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError(f"image must be BGR uint8 (H, W, 3), got {image.shape} {image.dtype}")
    lines = lattice.shape[0]
    if lattice.ndim != 3 or lattice.shape != (lines, lines, 2) or lines < 2:
        raise ValueError(f"lattice must have shape (n + 1, n + 1, 2), got {lattice.shape}")
    n, c = lines - 1, config.cell_px
    grid = remap_lattice(image, lattice, c)
    cut = round(config.inset_fraction * c)
    tiles = grid.reshape(n, c, n, c, 3).transpose(0, 2, 1, 3, 4)[:, :, cut : c - cut, cut : c - cut]
    pixels = tiles.reshape(n * n, -1, 3).astype(np.float32) / 255.0
    order = np.argsort(pixels.sum(axis=2), axis=1)  # darkest first
    ranked = np.take_along_axis(pixels, order[:, :, None], axis=1)
    count = ranked.shape[1]
    paper = np.median(ranked[:, int(count * (1 - config.paper_share)) :], axis=1)
    ink = np.median(ranked[:, : max(1, int(count * config.ink_share))], axis=1)
    balanced = np.clip(ink / np.maximum(paper, 1e-3), 0.0, 1.0)  # paper becomes white
    lab = cv2.cvtColor(balanced[None].astype(np.float32), cv2.COLOR_BGR2Lab)[0]
    return np.asarray(lab - np.array([100.0, 0.0, 0.0]), dtype=np.float64)


def ink_tints(
    colours: np.ndarray, config: InkColourConfig = DEFAULT_INK_COLOUR_CONFIG
) -> np.ndarray:
    """(N, 2) tint per unit darkness: (Δa*, Δb*) / max(|ΔL*|, min_darkness)."""
    darkness = np.maximum(np.abs(colours[:, :1]), config.min_darkness)
    return np.asarray(colours[:, 1:3] / darkness, dtype=np.float64)


def colour_evidence(
    log_odds: np.ndarray,
    filled: np.ndarray,
    tints: np.ndarray,
    config: InkColourConfig = DEFAULT_INK_COLOUR_CONFIG,
    trusted: np.ndarray | None = None,
    printed: np.ndarray | None = None,
) -> np.ndarray:
    """(N,) log-odds printed-vs-handwritten to add: unsure cells lean to the nearer tint.

    A linear discriminant between the sure printed and the sure handwritten cells'
    median tints, with a robust common spread; zero when either kind has too few sure
    cells or the tints do not separate. ``trusted``: (N,) bool, the cells whose tint may
    be one of those (default all; ``trusted_tints``). ``printed``: (N,) bool, empty cells
    whose ink is print all the same (a Killer's sums), sure printed references too.
    """
    known = filled if trusted is None else filled & trusted
    sure_p = known & (log_odds > config.sure_log_odds)
    if printed is not None:
        sure_p |= printed & ~filled & (True if trusted is None else trusted)
    sure_h = known & (log_odds < -config.sure_log_odds)
    if int(sure_h.sum()) < config.min_sure_cells:
        sure_h = inferred_pen_cells(known, sure_p, tints, config)
    none = np.zeros(log_odds.shape, dtype=np.float64)
    if min(int(sure_p.sum()), int(sure_h.sum())) < config.min_sure_cells or config.weight == 0:
        return none
    printed, handwritten = np.median(tints[sure_p], axis=0), np.median(tints[sure_h], axis=0)
    separation = float(np.linalg.norm(handwritten - printed))
    if separation == 0.0:
        return none
    axis = (handwritten - printed) / separation
    residuals = np.concatenate(
        [(tints[sure_p] - printed) @ axis, (tints[sure_h] - handwritten) @ axis]
    )
    spread = max(MAD_TO_SIGMA * float(np.median(np.abs(residuals))), config.tint_noise)
    if separation / spread < config.min_separation:
        return none
    towards_pen = (tints - (printed + handwritten) / 2) @ axis * separation / spread**2
    evidence = -config.weight * np.clip(towards_pen, -config.max_log_odds, config.max_log_odds)
    unsure = filled & (np.abs(log_odds) < config.ambiguous_log_odds)
    towards_written = reached(log_odds, filled, config) & ~unsure
    return np.where(unsure, evidence, np.where(towards_written, np.minimum(evidence, 0.0), 0.0))


def trusted_tints(colours: np.ndarray, config: InkColourConfig) -> np.ndarray:
    """(N,) bool: the cells whose ink (``cell_ink_colours``) is dark enough for its tint
    to be its own (``min_reference_darkness``)."""
    return np.asarray(np.abs(colours[:, 0]) >= config.min_reference_darkness)


def reached(log_odds: np.ndarray, filled: np.ndarray, config: InkColourConfig) -> np.ndarray:
    """(N,) bool: the filled cells colour may move, within ``ambiguous_log_odds`` of 0
    (either way), or read as printed below ``print_reach_log_odds`` (towards pen only)."""
    reach = np.where(log_odds > 0, config.print_reach_log_odds, config.ambiguous_log_odds)
    return np.asarray(filled & (np.abs(log_odds) < np.maximum(reach, config.ambiguous_log_odds)))


def inferred_pen_cells(
    filled: np.ndarray, sure_p: np.ndarray, tints: np.ndarray, config: InkColourConfig
) -> np.ndarray:
    """(N,) bool: filled cells whose ink lies clearly off neutral printed ink.

    Stand-ins for the sure handwritten cells when the classifier is sure of too few (a
    neat hand); none unless the sure printed ink is itself near neutral, since under a
    colour cast print and pen drift apart for no reason of their own.
    """
    none = np.zeros(filled.shape, dtype=bool)
    if int(sure_p.sum()) < config.min_inferred_pen_cells:
        return none
    printed = np.median(tints[sure_p], axis=0)
    if float(np.linalg.norm(printed)) > config.neutral_print:
        return none
    off = np.linalg.norm(tints - printed, axis=1)
    spread = max(MAD_TO_SIGMA * float(np.median(off[sure_p])), config.tint_noise)
    pen = filled & ~sure_p & (off >= config.min_separation * spread)
    return pen if int(pen.sum()) >= config.min_inferred_pen_cells else none
