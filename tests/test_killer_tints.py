"""Killer cages told by their tint alone (no outline): found in colour, never in grey."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from sudokucam.samples import render
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.structure.cage_config import CageConfig, TintConfig
from sudokucam.vision.structure.cage_lines import group_cells
from sudokucam.vision.structure.cage_tints import tint_split, tinted_cages
from sudokucam.vision.structure.cages import summed

CONFIG = CageConfig()


def photo_of(seed: int, style: str) -> tuple[np.ndarray, np.ndarray, render.KillerTruth]:
    """A rendered Killer through JPEG at its quality, its true lattice and truth."""
    photo = render.render_killer(seed, style)
    quality = [cv2.IMWRITE_JPEG_QUALITY, photo.jpeg_quality]
    ok, data = cv2.imencode(".jpg", photo.image, quality)
    assert ok
    truth, image = photo.truth, cv2.imdecode(data, cv2.IMREAD_COLOR)
    assert isinstance(truth, render.KillerTruth) and image is not None
    return image, np.asarray(truth.lattice), truth


def test_a_tinted_killers_cages_are_grouped_by_their_colours() -> None:
    image, lattice, truth = photo_of(880000, render.TINTED)
    lines = tinted_cages(image, lattice, CONFIG.tint, CONFIG.open_share)
    assert lines is not None
    assert group_cells(lines.across, lines.down) == tuple(sorted(c.cells for c in truth.cages))
    assert lines.line_ink >= CONFIG.tint.min_step  # the least step between two cages' tints


def test_the_same_page_in_grey_shows_no_tinted_cages() -> None:
    image, lattice, _ = photo_of(880000, render.TINTED)
    grey = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    assert tinted_cages(grey, lattice, CONFIG.tint, CONFIG.open_share) is None
    assert tinted_cages(image[..., 0], lattice, CONFIG.tint, CONFIG.open_share) is None


def test_an_untinted_killer_or_classic_page_shows_no_tinted_cages(samples_dir: Path) -> None:
    image, lattice, _ = photo_of(880000, "dashed")
    assert tinted_cages(image, lattice, CONFIG.tint, CONFIG.open_share) is None
    demo = cv2.imread(str(samples_dir / "printed" / "demo.jpg"), cv2.IMREAD_COLOR)
    assert demo is not None
    (found,) = Reader().find(demo)
    assert tinted_cages(demo, found.lattice, CONFIG.tint, CONFIG.open_share) is None


def test_tints_off_finds_none() -> None:
    image, lattice, _ = photo_of(880000, render.TINTED)
    off = TintConfig(min_step=0.0)
    assert tinted_cages(image, lattice, off, CONFIG.open_share) is None


def test_the_split_falls_in_the_widest_gap_not_between_unlike_tints() -> None:
    """Steps between cages spread with their pairs of tints (10 to 30 here); inside a
    cage they are noise. The split is the widest ratio: at the noise's top, not inside
    the spread of the cages' steps as a split of least spread would put it."""
    inside = np.full(50, 0.2)
    between = np.concatenate([np.full(30, 10.0), np.full(30, 20.0), np.full(34, 30.0)])
    low, high, share = tint_split(np.concatenate([between, inside]), TintConfig())
    assert (low, high) == (1.0, 10.0)
    assert share == pytest.approx(50 / 144)
    noisy = np.concatenate([between, inside[:40], np.full(10, 4.0)])  # a mottle's steps
    assert tint_split(noisy, TintConfig())[:2] == (4.0, 10.0)  # not the wider 1 -> 4


def test_tinted_cages_are_kept_only_where_their_corners_show_sums() -> None:
    groups = tuple((r * 9 + c, r * 9 + c + 1) for r in range(9) for c in range(0, 8, 2))
    firsts = frozenset(g[0] for g in groups)
    assert summed(groups, firsts, 0.8)
    assert not summed(groups, frozenset(list(firsts)[:10]), 0.8)  # a classic's coloured boxes


def test_tint_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="cell_px"):
        TintConfig(cell_px=4)
    with pytest.raises(ValueError, match="margin"):
        TintConfig(margin=0.5)
    with pytest.raises(ValueError, match="min_ratio"):
        TintConfig(min_ratio=0.5)
    with pytest.raises(ValueError, match="window"):
        TintConfig(window=(0.6, 0.25))
    with pytest.raises(ValueError, match="min_summed"):
        CageConfig(min_summed=1.5)
