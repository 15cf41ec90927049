"""Live video: the tracker against rendered truth, the frame processor on the committed clip."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from sudokucam.samples.clips import (
    SHORT_SHOTS,
    ClipRenderer,
    ClipSpec,
    Pose,
    Shot,
    clip_frames,
    frame_lattices,
    load_truth,
)
from sudokucam.vision.grid.polarity import PolarityConfig
from sudokucam.vision.live import FrameState, LiveConfig, LiveProcessor
from sudokucam.vision.live.tracker import GridTracker, lattice_of
from sudokucam.vision.live.votes import ReadingVotes
from sudokucam.vision.pipeline import PipelineConfig, Reader
from sudokucam.vision.types import CellScores

REPO = Path(__file__).resolve().parent.parent
CLIP = REPO / "samples" / "video" / "pan.mp4"


def cell_width(lattice: np.ndarray) -> float:
    """The mean width of a cell of a (10, 10, 2) lattice."""
    return float(np.linalg.norm(lattice[:, 9] - lattice[:, 0], axis=-1).mean()) / 9


def test_tracker_follows_a_moving_tilting_camera() -> None:
    """Started on the true lattice, the tracked grid stays within 0.1 cell of the truth."""
    moves = (
        Shot(0, 0.6, Pose(size=0.7), Pose(cx=0.15, cy=-0.1, size=0.8, pitch=12, roll=6)),
        Shot(0, 0.6, Pose(cx=0.15, cy=-0.1, size=0.8, pitch=12, roll=6), Pose(size=0.65, yaw=-15)),
    )
    renderer = ClipRenderer(ClipSpec(fps=15, seed=3, shots=moves))
    frames = list(renderer)
    tracker = GridTracker(LiveConfig().track)
    tracker.start(frames[0][0], frames[0][1].lattice)
    errors = []
    for frame, truth in frames[1:]:
        assert tracker.step(frame)
        assert tracker.homography is not None
        error = np.linalg.norm(lattice_of(tracker.homography) - truth.lattice, axis=-1).max()
        errors.append(error / cell_width(truth.lattice))
    assert len(errors) == 17
    assert max(errors) < 0.1


def test_tracker_is_lost_when_the_page_is_gone() -> None:
    """A frame of bare desk after the grid: the track is lost, not invented."""
    renderer = ClipRenderer(ClipSpec(fps=15, seed=3, shots=(Shot(0, 0.2, Pose(), Pose()),)))
    frame, truth = next(iter(renderer))
    tracker = GridTracker(LiveConfig().track)
    tracker.start(frame, truth.lattice)
    assert not tracker.step(np.full_like(frame, 90))
    assert tracker.homography is None


def test_tracker_is_lost_when_the_stream_changes_size() -> None:
    """A WebRTC sender short of CPU sends smaller frames mid-stream: the track is lost (the
    grid is searched again), not an OpenCV error that stops the stream being read."""
    renderer = ClipRenderer(ClipSpec(fps=15, seed=3, shots=(Shot(0, 0.2, Pose(), Pose()),)))
    frame, truth = next(iter(renderer))
    tracker = GridTracker(LiveConfig().track)
    tracker.start(frame, truth.lattice)
    smaller = cv2.resize(frame, (frame.shape[1] * 3 // 4, frame.shape[0] * 3 // 4))
    assert not tracker.step(smaller)
    assert tracker.homography is None


def test_votes_pick_the_most_probable_class_across_frames() -> None:
    """Two sure frames outvote one unsure one; steady once the best classes repeat."""
    votes = ReadingVotes()
    sure, unsure = np.full((81, 19), 0.01, np.float32), np.full((81, 19), 0.04, np.float32)
    sure[:, 3], unsure[:, 5] = 0.82, 0.3
    for probs in (unsure, sure, sure):
        votes.add(CellScores(probs / probs.sum(axis=1, keepdims=True)))
    assert votes.frames == 3 and votes.steady
    assert np.all(np.argmax(votes.scores().probs, axis=1) == 3)
    assert np.allclose(votes.scores().probs.sum(axis=1), 1.0, atol=1e-5)


def test_committed_clip_matches_its_truth() -> None:
    """The committed clip has the frames, size and truth that clips.py makes for it."""
    truth = load_truth(CLIP.with_suffix(".json"))
    frames = clip_frames(CLIP)
    committed = truth["frames"]
    assert isinstance(committed, list)
    assert len(frames) == truth["frame_count"] == len(committed)
    assert frames[0].shape == (480, 640, 3)
    assert CLIP.stat().st_size < 1_000_000
    renderer = ClipRenderer(ClipSpec(size=(640, 480), fps=10, seed=0, shots=SHORT_SHOTS))
    again = [renderer.truth(i).to_json() for i in (0, 12, 30)]
    assert again == [committed[i] for i in (0, 12, 30)]


def test_processor_draws_each_page_answer_on_the_committed_clip() -> None:
    """Both pages are read and solved; drawn frames sit on their grid and are never wrong."""
    truth = load_truth(CLIP.with_suffix(".json"))
    lattices = frame_lattices(truth)
    puzzles, pages = truth["puzzles"], truth["frames"]
    assert isinstance(puzzles, list) and isinstance(pages, list)
    processor = LiveProcessor()
    results = [processor.process(frame) for frame in clip_frames(CLIP)]
    drawn = [r for r in results if r.drawn]
    assert {r.grid.solution for r in drawn if r.grid} == {p["solution"] for p in puzzles}
    for r in drawn:
        expected = lattices[r.index]
        assert expected is not None and r.lattice is not None and r.grid is not None
        assert r.grid.solution == puzzles[pages[r.index]["page"]]["solution"]
        error = np.linalg.norm(r.lattice - expected, axis=-1).max() / cell_width(expected)
        assert error < 0.15
    assert results[0].state is FrameState.SEARCHING
    assert any(r.state is FrameState.LOST for r in results)  # the whip to the second page
    assert processor.counts["drawn"] == len(drawn) >= len(results) // 2


def test_a_slow_machine_reading_every_third_frame_still_shows_the_answer() -> None:
    """Frames given with their times and only every third one processed (as a browser's
    stream arrives at a busy server): the page's speed is judged over the time between
    them, so the panning page is still read, and the answer drawn is right."""
    truth = load_truth(CLIP.with_suffix(".json"))
    puzzles = truth["puzzles"]
    assert isinstance(puzzles, list)
    fps = cv2.VideoCapture(str(CLIP)).get(cv2.CAP_PROP_FPS)
    processor = LiveProcessor()
    frames = list(clip_frames(CLIP))
    results = [processor.process(frames[i], at=i / fps) for i in range(0, len(frames), 3)]
    drawn = [r for r in results if r.drawn and r.grid is not None]
    assert drawn
    assert {r.grid.solution for r in drawn if r.grid} <= {p["solution"] for p in puzzles}


@pytest.mark.parametrize(
    ("sample", "variant"),
    [("killer/dashed", "killer"), ("variants/x_shaded", "x"), ("variants/jigsaw_thick", "jigsaw")],
)
def test_a_variant_held_before_the_camera_is_solved_under_its_rules(
    sample: str, variant: str
) -> None:
    """The committed Killer, Sudoku X and jigsaw samples, held (a pixel or two of drift)
    before a 640-pixel camera: each is read under the rules its drawing sets (cages and
    sums, diagonals, regions) and its own answer drawn."""
    photo = cv2.imread(str(REPO / "samples" / f"{sample}.jpg"))
    truth = json.loads((REPO / "samples" / f"{sample}.json").read_text())
    assert photo is not None
    scale = 640 / max(photo.shape[:2])
    page = cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    height, width = page.shape[:2]
    processor = LiveProcessor()
    results = []
    for i in range(8):
        shift = np.array([[1, 0, (i % 5) * 1.5], [0, 1, i % 3]], np.float32)
        frame = cv2.warpAffine(page, shift, (width, height), borderValue=(200, 200, 200))
        results.append(processor.process(frame))
    drawn = [r.grid for r in results if r.drawn and r.grid is not None]
    assert drawn
    answer = "".join(str(d) for row in truth["solution"] for d in row)
    assert all(g.structure.variant == variant and g.solution == answer for g in drawn)


def test_pen_progress_is_marked_live() -> None:
    """A half-filled page held before the camera: once tracked, its pen entries are judged
    (right ones ringed green, wrong ones red or, when doubtful, amber) on every drawn frame."""
    photo = cv2.imread(str(REPO / "samples" / "progress" / "half_blue.jpg"))
    assert photo is not None
    scale = 640 / max(photo.shape[:2])
    page = cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    processor = LiveProcessor()
    results = []
    for i in range(12):  # a hand holding the camera: a pixel or two of drift
        shift = np.array([[1, 0, (i % 5) * 1.5], [0, 1, i % 3]], np.float32)
        frame = cv2.warpAffine(page, shift, (640, 480), borderValue=(200, 200, 200))
        results.append(processor.process(frame))
    drawn = [r for r in results if r.drawn and r.grid is not None]
    assert drawn and drawn[-1].state is FrameState.TRACKING
    grid = drawn[-1].grid
    assert grid is not None and len(grid.right_entries) >= 20
    judged = set(grid.wrong_entries) | {u.cell for u in grid.unsure_entries()}
    assert judged == {0, 12}  # the two mistakes on this sample (r1c1, r2c4), never called right
    assert not judged & set(grid.right_entries)
    draw = processor.reader.config.draw
    for cells, color in ((grid.wrong_entries, draw.wrong_color),
                         ([u.cell for u in grid.unsure_entries()], draw.unsure_color)):  # fmt: skip
        ring = np.array(color, np.int16)
        near = np.all(np.abs(drawn[-1].image.astype(np.int16) - ring) < 40, axis=-1)
        assert (near.sum() > 50) == bool(cells)  # the rings (the page has neither colour)
        assert not np.all(np.abs(page.astype(np.int16) - ring) < 40, axis=-1).any()


def test_a_screen_in_dark_mode_is_found_read_and_answered_live() -> None:
    """The committed dark-mode screen sample held before the camera: the search finds it in
    a frame's negative, the cells are read from negatives, and the answer is drawn on the
    frames as filmed (dark); with the polarity step off nothing is found."""
    photo = cv2.imread(str(REPO / "samples" / "screen" / "dark_mode.jpg"))
    assert photo is not None
    frame = cv2.resize(photo, (640, 480), interpolation=cv2.INTER_AREA)
    truth = json.loads((REPO / "samples" / "screen" / "dark_mode.json").read_text())
    processor = LiveProcessor()
    results = [processor.process(frame) for _ in range(8)]
    drawn = [r for r in results if r.drawn and r.grid is not None]
    assert results[0].state is not FrameState.SEARCHING  # found at the first look
    assert drawn and drawn[-1].grid is not None
    assert drawn[-1].grid.solution == "".join(str(d) for row in truth["solution"] for d in row)
    image = drawn[-1].image
    assert float(image.mean()) < 80  # drawn on the dark frame, not on its negative
    assert np.abs(image.astype(np.int16) - frame).max() > 100  # the answer's digits
    off = LiveProcessor(Reader(config=PipelineConfig(polarity=PolarityConfig(on=False))))
    assert not any(off.process(frame).drawn for _ in range(8))


def test_a_page_held_sideways_is_turned_upright_live() -> None:
    """The reader's orientation step runs on the first frame: a page held a quarter turn
    round is read upright, so its answer is the page's and is drawn the right way up."""
    photo = cv2.imread(str(REPO / "samples" / "printed" / "demo.jpg"))
    assert photo is not None
    truth = json.loads((REPO / "samples" / "printed" / "demo.json").read_text())
    solution = "".join(str(d) for row in truth["solution"] for d in row)
    sideways = cv2.rotate(photo, cv2.ROTATE_90_CLOCKWISE)
    scale = 460 / max(sideways.shape[:2])
    page = cv2.resize(sideways, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    frame = np.full((480, 640, 3), 200, np.uint8)
    frame[10 : 10 + page.shape[0], 10 : 10 + page.shape[1]] = page
    processor = LiveProcessor()
    drawn = [r for r in (processor.process(frame) for _ in range(8)) if r.drawn and r.grid]
    assert drawn and drawn[-1].grid is not None and drawn[-1].lattice is not None
    assert drawn[-1].grid.solution == solution
    across, down = drawn[-1].lattice[0, 9] - drawn[-1].lattice[0, 0]
    assert down > 4 * abs(across)  # row 1 runs down the frame (its right side), not across


def test_status_line_follows_the_frames_even_without_a_full_rerun() -> None:
    """A stream that started after the page's last full run still gets a live status line."""
    from sudokucam.ui.app.pages.live import FRESH_S, PRESS_START, WAITING, status_line

    processor = LiveProcessor()
    assert status_line(processor, playing=False, now=100.0) == PRESS_START
    assert status_line(processor, playing=True, now=100.0) == WAITING
    frame = next(iter(clip_frames(CLIP)))
    processor.process(frame)
    assert processor.processed_at is not None
    now = processor.processed_at + 0.5
    line = status_line(processor, playing=False, now=now)  # the page still thinks: stopped
    assert line.startswith("Looking for a Sudoku grid") and "1 frames" in line
    assert status_line(processor, playing=False, now=now + FRESH_S) == PRESS_START  # stopped


def test_status_line_says_what_to_do_when_the_frames_stop_being_read() -> None:
    """A playing stream whose frames stopped being read (streamlit-webrtc gave up on it)
    says to stop and start again, not the last frame's words forever; a frame still being
    read (a busy server) is not a stop."""
    from sudokucam.ui.app.pages import live as live_page
    from sudokucam.ui.app.pages.live import STALLED, STALLED_S, status_line

    processor = LiveProcessor()
    processor.process(next(iter(clip_frames(CLIP))))
    assert processor.processed_at is not None
    late = processor.processed_at + STALLED_S
    assert status_line(processor, playing=True, now=late - 1).startswith("Looking")
    assert status_line(processor, playing=True, now=late) == STALLED
    assert status_line(processor, playing=True, now=late, reading=True).startswith("Looking")
    assert status_line(processor, playing=False, now=late) == live_page.PRESS_START
    assert "Stop, then Start" in STALLED
