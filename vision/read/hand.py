"""One writer per page: a written digit weighed against the page's own sure written digits.

On a half-solved page one person wrote every entry, so their 7s look like each other and
unlike their 1s, whatever the classifier thinks of their hand in general. So once the
kinds are settled, each written cell the classifier is not sure of is compared (the
normalised cross-correlation of their ink, as ``copies.py`` matches print: evidence the
classifier's own errors do not share) with the page's sure written cells of each digit
(the *examples*: written cells read with at least ``PageHandConfig.sure_share`` of their
digit probability). Where the digit read and at least one other digit both have
``min_examples`` examples, each such other digit's probability is scaled by
exp(``weight`` × (its examples' mean similarity − the read digit's, less ``min_margin``
either way)): ink much nearer the page's 7s than its 1s turns a 1 into a 7; ink much
nearer the page's 1s makes the 1 surer, so the answer prior (``pen.py``) no longer
overrules a written mistake the person really made. Mixed evidence changes nothing, and
the answer prior or the person (asked) settles the cell. No cell is made surer than
``max_share``, below the checker's "surely wrong" threshold
(``check.judge.CheckConfig.min_probability``): this step alone never makes an entry be
called wrong. Printed cells are never touched, and never examples.

How it was set (training hands only): ``benchmarks/README.md``, "One writer per page".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..types import Kind
from .copies import similarities

SHARE_FLOOR = 1e-12  # keeps the logs of the digit shares finite


@dataclass(frozen=True)
class PageHandConfig:
    """When a written digit is weighed against the page's own writing, and how much.

    shift_px: two cells' ink is compared by normalised cross-correlation, best over shifts
        of up to this (``copies.similarity``).
    sure_share: a written cell whose likeliest digit holds at least this share of its digit
        probability is an example of that digit; below it, the cell is weighed.
    min_examples: the examples (other than the cell) each digit compared needs.
    min_margin: a difference between two digits' mean similarities up to this says
        nothing ("much nearer" only); beyond it, the excess counts.
    weight: log-odds per unit of that excess.
    max_share: no weighed cell's likeliest digit is given more than this share.
    """

    shift_px: int = 3
    sure_share: float = 0.95
    min_examples: int = 2
    min_margin: float = 0.2
    weight: float = 10.0
    max_share: float = 0.98

    def __post_init__(self) -> None:
        """Check the shares are probabilities and the counts positive."""
        for name in ("sure_share", "max_share"):
            if not 0.0 < getattr(self, name) < 1.0:
                raise ValueError(f"{name} must be in (0, 1), got {getattr(self, name)}")
        if self.min_examples < 1:
            raise ValueError(f"min_examples must be at least 1, got {self.min_examples}")
        for name in ("min_margin", "weight"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be at least 0, got {getattr(self, name)}")


DEFAULT_PAGE_HAND_CONFIG = PageHandConfig()


@dataclass(frozen=True)
class PageHand:
    """What the page's own writing says of its written cells.

    probs: (N, 19) the probabilities with the weighed cells' digit probabilities scaled
    (empty and each digit's print-or-pen split kept). digits: (N,) the likeliest digits
    after it (0 where empty). changed: the cells whose digit it changed.
    """

    probs: np.ndarray
    digits: np.ndarray
    changed: tuple[int, ...]


def digit_shares(probs: np.ndarray) -> np.ndarray:
    """(N, 9) each digit's share of a cell's digit probability, printed and pen together."""
    by_digit = probs[:, 1:10].astype(np.float64) + probs[:, 10:19]
    return np.asarray(by_digit / np.maximum(by_digit.sum(axis=1, keepdims=True), SHARE_FLOOR))


def ink_likeness(cells: np.ndarray, written: np.ndarray, shift_px: int) -> np.ndarray:
    """(N, N) how alike the ink of each two ``written`` cells is (0 elsewhere)."""
    members = np.flatnonzero(written)
    sim = np.zeros((len(cells), len(cells)))
    sim[np.ix_(members, members)] = similarities(cells, members, shift_px)
    return sim


def example_similarity(
    cell: int, sim: np.ndarray, examples: np.ndarray, digits: np.ndarray, config: PageHandConfig
) -> dict[int, float]:
    """Per digit with ``min_examples`` examples other than ``cell``, the cell's mean
    similarity with them."""
    out: dict[int, float] = {}
    for digit in range(1, 10):
        others = np.flatnonzero(examples & (digits == digit))
        others = others[others != cell]
        if len(others) >= config.min_examples:
            out[digit] = float(sim[cell, others].mean())
    return out


def weighed_shares(
    shares: np.ndarray, read: int, like: dict[int, float], config: PageHandConfig
) -> np.ndarray:
    """(9,) one cell's digit shares after its likeness with the page's examples (``like``,
    which holds the digit ``read``), its likeliest share capped at ``max_share``."""
    log_share = np.log(np.maximum(shares, SHARE_FLOOR))
    for digit, similarity in like.items():
        margin = similarity - like[read]
        excess = np.sign(margin) * max(abs(margin) - config.min_margin, 0.0)
        log_share[digit - 1] += config.weight * excess
    weighed = np.exp(log_share - log_share.max())
    weighed /= weighed.sum()
    top = int(np.argmax(weighed))
    rest = 1.0 - float(weighed[top])
    if weighed[top] > config.max_share and rest > 0:
        weighed *= (1.0 - config.max_share) / rest
        weighed[top] = config.max_share
    return np.asarray(weighed)


def with_shares(cell_probs: np.ndarray, old: np.ndarray, new: np.ndarray) -> np.ndarray:
    """(19,) a cell's probabilities with its digit shares ``old`` turned into ``new``: each
    digit's printed and pen probabilities scaled alike, the digit mass and empty kept."""
    p = cell_probs.astype(np.float64).copy()
    mass = float(p[1:19].sum())
    pen_part = p[10:19] / np.maximum(p[1:10] + p[10:19], SHARE_FLOOR)
    pen_part = np.where(old > SHARE_FLOOR, pen_part, 1.0)  # a digit from nothing: pen
    p[10:19] = mass * new * pen_part
    p[1:10] = mass * new * (1.0 - pen_part)
    return p


def page_hand(
    probs: np.ndarray,
    digits: np.ndarray,
    kinds: np.ndarray,
    cells: np.ndarray,
    config: PageHandConfig = DEFAULT_PAGE_HAND_CONFIG,
) -> PageHand:
    """Weigh each unsure written cell against the page's sure written cells of each digit.

    ``cells``: (N, H, W) the cells' ink images. Only cells of kind HANDWRITTEN are weighed
    or examples.
    """
    if probs.ndim != 2 or probs.shape[1] != 19:
        raise ValueError(f"probs must have shape (N, 19), got {probs.shape}")
    if cells.ndim != 3 or cells.shape[0] != probs.shape[0]:
        raise ValueError(f"cells must have shape ({probs.shape[0]}, H, W), got {cells.shape}")
    shares = digit_shares(probs)
    written = (kinds == Kind.HANDWRITTEN) & (digits > 0)
    examples = written & (shares.max(axis=1) >= config.sure_share)
    out_probs, out_digits = probs.copy(), digits.copy()
    weighed = np.flatnonzero(written & ~examples)
    if config.weight == 0 or not weighed.size or examples.sum() < 2 * config.min_examples:
        return PageHand(out_probs, out_digits, ())
    sim = ink_likeness(cells, written, config.shift_px)
    for cell in weighed:
        like = example_similarity(int(cell), sim, examples, digits, config)
        read = int(digits[cell])
        if read not in like or len(like) < 2:
            continue
        new = weighed_shares(shares[cell], read, like, config)
        out_probs[cell] = with_shares(probs[cell], shares[cell], new)
        out_digits[cell] = int(np.argmax(new)) + 1
    changed = tuple(int(c) for c in np.flatnonzero(out_digits != digits))
    return PageHand(out_probs.astype(probs.dtype), out_digits, changed)
