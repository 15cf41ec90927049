"""`sudokucam live`: the answer drawn into a video, and one clear line for bad input."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from sudokucam.samples.clips import clip_frames, frame_lattices, load_truth
from sudokucam.ui.cli import app

REPO = Path(__file__).resolve().parent.parent
CLIP = REPO / "samples" / "video" / "pan.mp4"
runner = CliRunner()
INK_CHANGE = 25.0  # mean grey-level change in a cell's middle that means something was drawn


def cell_change(before: np.ndarray, after: np.ndarray, lattice: np.ndarray) -> np.ndarray:
    """(81,) mean absolute grey change in the middle half of each cell."""
    diff = cv2.absdiff(cv2.cvtColor(before, cv2.COLOR_BGR2GRAY),
                       cv2.cvtColor(after, cv2.COLOR_BGR2GRAY)).astype(np.float64)  # fmt: skip
    change = np.zeros(81)
    for cell in range(81):
        r, c = divmod(cell, 9)
        quad = np.array(
            [lattice[r, c], lattice[r, c + 1], lattice[r + 1, c + 1], lattice[r + 1, c]]
        )
        middle = (quad - quad.mean(axis=0)) * 0.5 + quad.mean(axis=0)
        mask = np.zeros(diff.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(middle).astype(np.int32), 1)
        change[cell] = diff[mask == 1].mean()
    return change


def test_live_video_draws_the_answer_in_the_empty_cells(tmp_path: Path) -> None:
    """Same frame count and size; on drawn frames only the empty cells change, all of them."""
    out = tmp_path / "out.mp4"
    result = runner.invoke(app, ["live", "--video", str(CLIP), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "34 frames read" in result.output and "2 puzzles solved" in result.output
    before, after = clip_frames(CLIP), clip_frames(out)
    assert len(after) == len(before) and after[0].shape == before[0].shape
    truth = load_truth(CLIP.with_suffix(".json"))
    lattices, frames, puzzles = frame_lattices(truth), truth["frames"], truth["puzzles"]
    assert isinstance(frames, list) and isinstance(puzzles, list)
    drawn = 0
    for i, lattice in enumerate(lattices):
        change = cell_change(before[i], after[i], lattice) if lattice is not None else None
        if change is None or change.max() < INK_CHANGE:
            continue
        drawn += 1
        empty = np.array([g == "0" for g in puzzles[frames[i]["page"]]["givens"]])
        assert change[empty].min() > INK_CHANGE, f"frame {i}: an empty cell left blank"
        assert change[~empty].max() < INK_CHANGE, f"frame {i}: a printed digit drawn over"
    assert drawn >= 15


def test_live_missing_video_is_one_line(tmp_path: Path) -> None:
    """A video that is not there: one line naming it, exit 1."""
    result = runner.invoke(app, ["live", "--video", str(tmp_path / "no.mp4"), "-o", "x.mp4"])
    assert result.exit_code == 1
    assert result.output.strip() == f"error: {tmp_path / 'no.mp4'} does not exist"


def test_live_undecodable_video_is_one_line(tmp_path: Path) -> None:
    """A text file named .mp4: one line saying it cannot be decoded, exit 1."""
    bad = tmp_path / "bad.mp4"
    bad.write_text("not a video\n")
    result = runner.invoke(app, ["live", "--video", str(bad), "-o", str(tmp_path / "o.mp4")])
    assert result.exit_code == 1
    assert result.output.strip() == f"error: {bad} cannot be decoded as a video"


def test_live_clip_without_a_puzzle_fails_after_writing(tmp_path: Path) -> None:
    """Frames of a bare desk: the video is still written, then one line and exit 1."""
    clip, out = tmp_path / "desk.avi", tmp_path / "out.avi"
    writer = cv2.VideoWriter(str(clip), cv2.VideoWriter.fourcc(*"MJPG"), 10, (320, 240))
    for k in range(5):
        writer.write(np.full((240, 320, 3), 60 + 10 * k, np.uint8))
    writer.release()
    result = runner.invoke(app, ["live", "--video", str(clip), "-o", str(out)])
    assert result.exit_code == 1
    assert "5 frames read, 0 tracked, 0 drawn" in result.output
    assert result.output.strip().splitlines()[-1] == f"error: no puzzle was solved in {clip}"
    assert len(clip_frames(out)) == 5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "error: give one of --video CLIP or --camera N"),
        (["--video", "a.mp4", "--camera", "0"], "error: give one of --video CLIP or --camera N"),
        (["--video", "a.mp4", "-o", "b.gif"], "error: -o must end in .mp4 or .avi, got b.gif"),
    ],
)
def test_live_usage_errors(args: list[str], message: str) -> None:
    """Options that cannot go together: one line, exit 2, before anything is opened."""
    result = runner.invoke(app, ["live", *args])
    assert result.exit_code == 2
    assert result.output.strip() == message


def test_live_refuses_to_write_over_its_input(tmp_path: Path) -> None:
    """-o naming the input video: refused, exit 2."""
    clip = tmp_path / "in.mp4"
    clip.write_bytes(CLIP.read_bytes())
    result = runner.invoke(app, ["live", "--video", str(clip), "-o", str(clip)])
    assert result.exit_code == 2
    assert "is the input video" in result.output


def test_live_camera_that_is_not_there_is_one_line() -> None:
    """A camera index with no camera behind it: one line, exit 1."""
    result = runner.invoke(app, ["live", "--camera", "63"])
    assert result.exit_code == 1
    assert result.output.strip() == (
        "error: no camera 63 can be opened (none connected, or permission refused)"
    )
