"""Live video of a small grid (6×6) and a 16×16: the committed samples held before a
640-pixel camera, as tests/test_live.py holds its variants (a pixel or two of drift a
frame); the grid is found where no 9×9 is, read, tracked, and its own answer drawn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from sudokucam.vision.live import FrameResult, FrameState, LiveConfig, LiveProcessor
from sudokucam.vision.live.config import TrackConfig
from sudokucam.vision.live.overlay import AnswerOverlay
from sudokucam.vision.live.tracker import GridTracker, grid_homography, lattice_of

REPO = Path(__file__).resolve().parent.parent
CAMERA_SIDE = 640  # the frames' longer side
FRAMES = 8


def held(sample: str) -> tuple[list[np.ndarray], dict[str, Any], float]:
    """Frames of a committed sample held before the camera (drifting a pixel or two), its
    truth, and the scale from the photo to the frames."""
    photo = cv2.imread(str(REPO / "samples" / f"{sample}.jpg"))
    assert photo is not None
    truth = json.loads((REPO / "samples" / f"{sample}.json").read_text(encoding="utf-8"))
    scale = CAMERA_SIDE / max(photo.shape[:2])
    page = cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    height, width = page.shape[:2]
    frames = []
    for i in range(FRAMES):
        shift = np.array([[1, 0, drift(i)[0]], [0, 1, drift(i)[1]]], np.float32)
        frames.append(cv2.warpAffine(page, shift, (width, height), borderValue=(200, 200, 200)))
    return frames, truth, scale


def drift(index: int) -> tuple[float, float]:
    """How far frame ``index`` is moved (x, y pixels): a hand holding the camera."""
    return (index % 5) * 1.5, float(index % 3)


def blue(image: np.ndarray) -> int:
    """How many pixels are in the answer's blue (much more blue than red)."""
    b, g, r = (image[..., k].astype(int) for k in range(3))
    return int(np.sum((b > 120) & (b - r > 60) & (b - g > 20)))


@pytest.mark.parametrize("sample", ["small/six_book", "sixteen/magazine"], ids=["6x6", "16x16"])
def test_a_small_grid_or_16x16_held_before_the_camera_is_solved_and_drawn(sample: str) -> None:
    frames, truth, scale = held(sample)
    n = int(truth["grid_size"])
    processor = LiveProcessor()
    results: list[FrameResult] = [processor.process(frame) for frame in frames]
    drawn = [(r, f) for r, f in zip(results, frames, strict=True) if r.drawn]
    assert results[-1].drawn and len(drawn) >= 2, [r.state for r in results]  # two looks agree
    for result, frame in drawn:
        assert result.state is FrameState.TRACKING and result.grid is not None
        assert result.grid.structure.size == n and result.grid.solution == truth["answer"]
        assert result.lattice is not None and result.lattice.shape == (n + 1, n + 1, 2)
        true_corners = np.asarray(truth["corners"]) * scale + drift(result.index)
        assert result.corners is not None
        assert np.abs(result.corners - true_corners).max() < 2.5  # a line's width
        assert blue(result.image) > blue(frame) + 50 * len(result.grid.answer)


def test_other_sizes_off_looks_for_9x9s_only() -> None:
    """The frames the test above reads its 6×6 from: never read without other sizes."""
    frames, _, _ = held("small/six_book")
    processor = LiveProcessor(config=LiveConfig(other_sizes=False))
    results = [processor.process(frame) for frame in frames]
    assert all(r.state is FrameState.SEARCHING and not r.drawn for r in results)


def test_the_tracker_and_overlay_take_a_grid_of_any_size() -> None:
    ticks = 40.0 + 50.0 * np.arange(7)
    lattice = np.stack(np.meshgrid(ticks, ticks), axis=-1)  # a 6×6 grid, cells 50 px
    h = grid_homography(lattice)
    assert np.abs(lattice_of(h, 6) - lattice).max() < 1e-6  # the lattice back
    page = np.full((400, 400, 3), 240, np.uint8)
    for t in ticks.astype(int):
        cv2.line(page, (40, int(t)), (340, int(t)), (20, 20, 20), 2)
        cv2.line(page, (int(t), 40), (int(t), 340), (20, 20, 20), 2)
    tracker = GridTracker(TrackConfig())
    tracker.start(page, lattice)
    assert tracker.size == 6 and tracker.step(page)
    assert tracker.homography is not None
    assert np.abs(lattice_of(tracker.homography, 6) - lattice).max() < 1.0
    overlay = AnswerOverlay(24, size=6)
    overlay.add_digits({35: 6})  # the last cell, r6c6
    out = overlay.draw(page, h)
    changed = np.argwhere(np.any(out != page, axis=-1))
    assert changed.size and changed.min() >= 290 and changed.max() <= 340  # inside r6c6
