"""The `sudokucam live` command: the answer drawn onto a video or a camera's live picture."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .common import fail, say, usage_error

if TYPE_CHECKING:
    import cv2
    import numpy as np

    from ...vision.live import FrameResult, LiveProcessor

WRITERS = {".mp4": "mp4v", ".avi": "MJPG"}  # output suffix → OpenCV fourcc
FALLBACK_FPS = 30.0  # when a video or camera does not say its frame rate
WINDOW = "sudokucam live (q or Esc to stop)"
QUIT_KEYS = {ord("q"), 27}
FFMPEG_QUIET = -8  # FFmpeg's AV_LOG_QUIET: a broken file gets our one line, not FFmpeg's


@dataclass
class Tally:
    """What happened to the frames: how many were read, tracked and drawn, which answers."""

    read: int = 0
    tracked: int = 0
    drawn: int = 0
    first_drawn: int | None = None
    answers: int = 0
    _last: str | None = None

    def add(self, result: FrameResult) -> None:
        """Count one processed frame."""
        self.read += 1
        self.tracked += int(result.lattice is not None)
        if result.drawn and result.grid is not None:
            self.drawn += 1
            self.first_drawn = result.index if self.first_drawn is None else self.first_drawn
            if result.grid.solution != self._last:
                self.answers, self._last = self.answers + 1, result.grid.solution

    def line(self) -> str:
        """The summary printed at the end."""
        first = "" if self.first_drawn is None else f" (first at frame {self.first_drawn + 1})"
        puzzles = "puzzle" if self.answers == 1 else "puzzles"
        return (f"{self.read} frames read, {self.tracked} tracked, {self.drawn} drawn with the "
                f"answer{first}; {self.answers} {puzzles} solved")  # fmt: skip


def frames_of(capture: cv2.VideoCapture) -> Iterator[np.ndarray]:
    """Every frame an open cv2.VideoCapture gives, until it ends."""
    while True:
        ok, frame = capture.read()
        if not ok:
            return
        yield frame


def open_video(path: Path) -> cv2.VideoCapture:
    """An open cv2.VideoCapture of a video file whose first frame decodes, else one error line."""
    import cv2

    if not path.exists():
        fail(f"{path} does not exist")
    if not path.is_file():
        fail(f"{path} is not a regular file")
    if not os.access(path, os.R_OK):
        fail(f"{path} cannot be read: Permission denied")
    capture = cv2.VideoCapture(str(path), cv2.CAP_FFMPEG)
    if not capture.isOpened() or not capture.grab():
        fail(f"{path} cannot be decoded as a video")
    capture.release()
    return cv2.VideoCapture(str(path), cv2.CAP_FFMPEG)


def open_camera(index: int) -> cv2.VideoCapture:
    """An open cv2.VideoCapture of camera ``index``, else one error line."""
    import cv2

    capture = cv2.VideoCapture(index)
    if not capture.isOpened() or not capture.grab():
        fail(f"no camera {index} can be opened (none connected, or permission refused)")
    return capture


def make_writer(out: Path, fps: float, size: tuple[int, int]) -> cv2.VideoWriter:
    """An open cv2.VideoWriter for ``out``, else one error line."""
    import cv2

    writer = cv2.VideoWriter(str(out), cv2.VideoWriter.fourcc(*WRITERS[out.suffix.lower()]),
                             fps, size)  # fmt: skip
    if not writer.isOpened():
        fail(f"cannot write the video {out}")
    return writer


def written(writer: cv2.VideoWriter) -> Callable[[np.ndarray], bool]:
    """A function writing a frame into the video (always True: go on)."""

    def write(image: np.ndarray) -> bool:
        writer.write(image)
        return True

    return write


def show_window() -> Callable[[np.ndarray], bool]:
    """A function showing a frame in a window (False once q or Esc is pressed)."""
    import cv2

    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        usage_error("no display to show the video on: write it with -o OUT.mp4 instead")
    try:
        cv2.namedWindow(WINDOW)
    except cv2.error:
        usage_error("this OpenCV build cannot open windows: write the video with -o OUT.mp4")

    def show(image: np.ndarray) -> bool:
        cv2.imshow(WINDOW, image)
        return (cv2.waitKey(1) & 0xFF) not in QUIT_KEYS

    return show


def run_frames(
    capture: cv2.VideoCapture,
    processor: LiveProcessor,
    sink: Callable[[np.ndarray], bool],
    fps: float | None = None,
) -> Tally:
    """Feed every frame to the processor and its drawn image to ``sink`` (False stops).

    fps: a video file's frame rate (frame n was taken at n / fps); None: a camera, whose
    frames are timed by the clock as they arrive.
    """
    tally = Tally()
    try:
        for index, frame in enumerate(frames_of(capture)):
            at = index / fps if fps else time.monotonic()
            result = processor.process(frame, at=at)
            tally.add(result)
            if not sink(result.image):
                break
    except KeyboardInterrupt:
        pass
    return tally


def check_options(video: Path | None, camera: int | None, out: Path | None) -> None:
    """Refuse options that cannot go together (usage errors), before anything is opened."""
    if (video is None) == (camera is None):
        usage_error("give one of --video CLIP or --camera N")
    if out is not None and out.suffix.lower() not in WRITERS:
        usage_error(f"-o must end in {' or '.join(WRITERS)}, got {out.name}")
    if video is None and camera is not None and camera < 0:
        usage_error(f"--camera must be 0 or more, got {camera}")
    if out is not None and video is not None and out.exists() and out.resolve() == video.resolve():
        usage_error(f"-o {out} is the input video: choose another file")


def live(
    video: Annotated[
        Path | None, typer.Option("--video", metavar="CLIP", help="A video file to process.")
    ] = None,
    camera: Annotated[
        int | None, typer.Option("--camera", metavar="N", help="A camera to process (0: first).")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("-o", "--out", metavar="OUT.mp4", help="Write the video with the answer."),
    ] = None,
) -> None:
    """Draw the answer onto a video (--video CLIP -o OUT.mp4) or a camera's picture (--camera 0)."""
    check_options(video, camera, out)
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", str(FFMPEG_QUIET))
    import cv2

    from ...vision.live import LiveProcessor

    capture = open_video(video) if video is not None else open_camera(camera or 0)
    fps = capture.get(cv2.CAP_PROP_FPS) or FALLBACK_FPS
    size = (int(capture.get(cv2.CAP_PROP_FRAME_WIDTH)),
            int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT)))  # fmt: skip
    writer = make_writer(out, fps, size) if out is not None else None
    sink = show_window() if writer is None else written(writer)
    tally = run_frames(capture, LiveProcessor(), sink, fps if video is not None else None)
    capture.release()
    if writer is not None:
        writer.release()
        say(f"wrote {out}")
    typer.echo(tally.line())
    if tally.drawn == 0:
        fail(f"no puzzle was solved in {video if video is not None else f'camera {camera}'}")


def register(app: typer.Typer) -> None:
    """Add the `live` command to the console script."""
    app.command("live")(live)
