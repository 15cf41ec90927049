"""Which way round a grid is drawn: dark lines on light paper, or light on a dark screen.

A screen in dark mode shows its grid as light lines and digits on a near-black ground.
Its negative looks like paper, so it is searched (and read) there. The negative is
searched only when the photo itself gives a reason: no grid found in it, a dark ground,
or a grid that is not surely one (a dark-mode page's text columns can look a little
grid-like). The negative's grids are kept only when one of them is surely a grid and
scores higher than any in the photo itself (a paper photo's negative can hold a
misplaced, half grid-like quad).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from ..types import GridDetection

Negative = TypeVar("Negative")  # what a search of the negative was made in (an image, a photo)


@dataclass(frozen=True)
class PolarityConfig:
    """When a photo's negative is searched for a grid too.

    on: search it at all. dark_below: a photo whose median grey (0-255) is below this has a
    dark ground. sure_score: a grid found with at least this grid-likeness needs no second
    look, and a grid found in the negative needs at least this to be kept. Where both
    were set: ``benchmarks/README.md`` (screens in dark mode).
    """

    on: bool = True
    dark_below: float = 64.0
    sure_score: float = 0.8
    sample_step: int = 4  # the median grey is taken over every this-many-th pixel

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if not 0.0 <= self.dark_below <= 255.0:
            raise ValueError(f"dark_below must be in [0, 255], got {self.dark_below}")
        if self.sample_step < 1:
            raise ValueError(f"sample_step must be at least 1, got {self.sample_step}")


DEFAULT_POLARITY_CONFIG = PolarityConfig()


def best_score(found: Sequence[GridDetection | None]) -> float:
    """The highest grid-likeness among ``found`` (-1 when there is none)."""
    return max((d.score for d in found if d is not None), default=-1.0)


def dark_ground(image: np.ndarray, config: PolarityConfig = DEFAULT_POLARITY_CONFIG) -> bool:
    """True when the photo's median grey is below ``config.dark_below``."""
    step = config.sample_step
    sample = image[::step, ::step]
    return median_grey(sample) < config.dark_below


def median_grey(pixels: np.ndarray) -> float:
    """``np.median(pixels.mean(axis=2))`` of (H, W, C) uint8 pixels (``np.median(pixels)``
    of (H, W) ones), the same number, from a count of each pixel's channel total: the
    totals are whole numbers below 2**16, so the two middle ones are found without a
    sort, and the mean and median taken of them as numpy takes them."""
    if pixels.size == 0:
        raise ValueError("pixels must hold at least one pixel")
    layers = [pixels[:, :, c] for c in range(pixels.shape[2])] if pixels.ndim == 3 else [pixels]
    channels = len(layers)
    totals = layers[0].astype(np.uint16)
    for layer in layers[1:]:  # channel by channel: numpy sums a short last axis slowly
        totals += layer
    below = np.cumsum(np.bincount(totals.ravel()))  # pixels with a total at most each value
    middle = (totals.size - 1) // 2, totals.size // 2  # ranks of the two middle totals
    low, high = (int(np.searchsorted(below, rank, side="right")) for rank in middle)
    return float(np.mean(np.array([low, high], dtype=np.float64) / channels))


def worth_a_look(
    image: np.ndarray,
    found: Sequence[GridDetection | None],
    config: PolarityConfig = DEFAULT_POLARITY_CONFIG,
    when_unsure: bool = True,
) -> bool:
    """Whether the negative of ``image``, where ``found`` was found, is searched as well:
    on a dark ground, or (``when_unsure``) where no sure grid was found."""
    if not config.on:
        return False
    unsure = when_unsure and best_score(found) < config.sure_score
    return unsure or dark_ground(image, config)


def negative_wins(
    found: Sequence[GridDetection | None],
    in_negative: Sequence[GridDetection | None],
    config: PolarityConfig = DEFAULT_POLARITY_CONFIG,
) -> bool:
    """Whether the grids found in the negative are kept instead of those found in the photo."""
    best = best_score(in_negative)
    return best >= config.sure_score and best > best_score(found)


def kept_negative(
    image: np.ndarray,
    found: Sequence[GridDetection | None],
    search_negative: Callable[[], tuple[Negative, list[GridDetection]]],
    config: PolarityConfig = DEFAULT_POLARITY_CONFIG,
    when_unsure: bool = True,
) -> tuple[Negative, list[GridDetection]] | None:
    """The polarity step: the negative and its grids when they are kept instead of
    ``found`` (the grids of ``image``), else None.

    ``search_negative`` (the negative and the grids found in it) is called only where the
    photo is worth a look (``worth_a_look``, ``when_unsure`` passed on); photos and live
    video both decide here.
    """
    if not worth_a_look(image, found, config, when_unsure):
        return None
    negative, in_negative = search_negative()
    return (negative, in_negative) if negative_wins(found, in_negative, config) else None
