#!/usr/bin/env python3
"""Render short video clips of a moving camera over a puzzle page, with truth per frame.

    python samples/clips.py --out samples/video --seed 0             # the committed clip
    python samples/clips.py --out /tmp/c --size 1280x720 --fps 30 --seed 4

A clip is a list of shots. In each the camera moves smoothly from one pose to another
over one of two scanned puzzle pages (``render.render_page``): it pans onto the grid,
tilts, zooms, rolls, whips away (motion blur) and comes back to a second page, "the page
turned". A hand shake (a smooth random walk of a pixel or two) moves every frame, and fast
motion is blurred by averaging the frame over its exposure. Every frame comes with its
truth: which page is in view, the page-to-frame homography at mid-exposure, the grid's
corners and whether the whole grid is inside the frame. The clip is written with OpenCV
(``mp4v`` in an .mp4) next to a ``.json`` holding the puzzles and the truth of each frame.

Like render.py this script is not part of the installed package; tests and benchmarks
import it as ``sudokucam.samples.clips``. Images are BGR uint8; points are (x, y) pixels.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from sudokucam.samples.render import render_page
from sudokucam.samples.synth.camera import rotation
from sudokucam.vision.grid.warp import map_points

FOCAL_FACTOR = 1.2  # focal length in pixels, as a multiple of the frame's longer side
TABLE_BGR = (52, 64, 84)  # the desk around the page
MAX_SUBFRAMES = 9  # the most sub-frames averaged for motion blur
BLUR_STEP_PX = 1.5  # one more sub-frame per this many pixels the grid moves in an exposure
SHAKE_SMOOTHING = 0.8  # how much of the shake's last step carries into the next (0..1)
PAGE_DPI = 150  # resolution of the rendered pages
CLIP_FOURCC = "mp4v"  # MPEG-4 part 2, which every OpenCV build writes and reads
COMMITTED_NAME = "pan"  # samples/video/pan.mp4 and pan.json


@dataclass(frozen=True)
class Pose:
    """Where the camera looks, in grid units from the grid's centre (grid side = 1).

    cx, cy: the page point at the frame's centre. size: the grid's side as a fraction of the
    frame's shorter side when seen square on. roll, pitch, yaw: camera turns in degrees.
    """

    cx: float = 0.0
    cy: float = 0.0
    size: float = 0.7
    roll: float = 0.0
    pitch: float = 0.0
    yaw: float = 0.0

    def towards(self, other: Pose, t: float) -> Pose:
        """The pose a share ``t`` (0..1) of the way to ``other``, eased in and out."""
        s = t * t * (3 - 2 * t)
        a, b = self.__dict__, other.__dict__
        return Pose(**{k: a[k] + s * (b[k] - a[k]) for k in a})


@dataclass(frozen=True)
class Shot:
    """A stretch of the clip: the camera moves from ``start`` to ``end`` over page ``page``."""

    page: int
    seconds: float
    start: Pose
    end: Pose


CENTRE = Pose()
DEFAULT_SHOTS: tuple[Shot, ...] = (
    Shot(0, 0.8, Pose(cx=1.1, cy=-0.5, size=0.55), CENTRE),  # pan onto the grid
    Shot(0, 1.2, CENTRE, Pose(size=0.72, pitch=16, yaw=6)),  # hold, tilting
    Shot(0, 1.0, Pose(size=0.72, pitch=16, yaw=6), Pose(size=0.9, roll=9, yaw=-14)),  # zoom
    Shot(0, 0.6, Pose(size=0.9, roll=9, yaw=-14), Pose(cx=-1.3, size=0.6)),  # whip away
    Shot(1, 0.5, Pose(cx=1.3, size=0.6), Pose(size=0.68, roll=-5)),  # the next page
    Shot(1, 1.5, Pose(size=0.68, roll=-5), Pose(cx=0.06, cy=0.05, size=0.74, pitch=-12)),
)
# The committed clip: the same story, shorter, so that it stays under COMMITTED_MAX_BYTES.
SHORT_SHOTS: tuple[Shot, ...] = (
    Shot(0, 0.6, Pose(cx=1.0, cy=-0.4, size=0.6), CENTRE),
    Shot(0, 1.2, CENTRE, Pose(size=0.8, roll=7, pitch=14, yaw=-8)),
    Shot(0, 0.4, Pose(size=0.8, roll=7, pitch=14, yaw=-8), Pose(cx=-1.3, size=0.6)),
    Shot(1, 0.4, Pose(cx=1.3, size=0.6), Pose(size=0.7, roll=-5)),
    Shot(1, 0.8, Pose(size=0.7, roll=-5), Pose(cx=0.05, size=0.74, pitch=-10)),
)
COMMITTED_FPS = 10
COMMITTED_MAX_BYTES = 1_000_000


@dataclass(frozen=True)
class ClipSpec:
    """A clip to render: frame size, frame rate, seed, shots and camera effects.

    exposure: the share of the frame interval the shutter is open (motion blur).
    shake_px: the hand shake's step size in pixels. noise_sigma: sensor noise (0-255).
    """

    size: tuple[int, int] = (640, 480)
    fps: int = 15
    seed: int = 0
    shots: tuple[Shot, ...] = DEFAULT_SHOTS
    exposure: float = 0.35
    shake_px: float = 0.6
    noise_sigma: float = 1.2

    @property
    def frame_count(self) -> int:
        """How many frames the shots fill."""
        return round(sum(s.seconds for s in self.shots) * self.fps)


@dataclass(frozen=True)
class Page:
    """A rendered puzzle page: its image and its one Sudoku (81-character strings)."""

    image: np.ndarray
    lattice: np.ndarray  # (10, 10, 2) grid-line crossings in page pixels
    givens: str
    solution: str

    def to_json(self) -> dict[str, object]:
        """Plain JSON-ready data: the puzzle, its answer, the lattice in page pixels."""
        lattice = np.round(self.lattice, 3).tolist()
        return {"givens": self.givens, "solution": self.solution, "lattice": lattice}


@dataclass(frozen=True)
class FrameTruth:
    """What one frame shows: the page, the page-to-frame homography, the grid's corners."""

    page: int
    homography: np.ndarray  # (3, 3) page pixels to frame pixels, at mid-exposure
    lattice: np.ndarray  # (10, 10, 2) grid-line crossings in frame pixels
    in_view: bool  # the whole grid is inside the frame

    @property
    def corners(self) -> np.ndarray:
        """(4, 2) TL, TR, BR, BL: where the centres of the border lines meet."""
        return self.lattice[[0, 0, 9, 9], [0, 9, 9, 0]]

    def to_json(self) -> dict[str, object]:
        """Plain JSON-ready data."""
        return {
            "page": self.page,
            "homography": np.round(self.homography / self.homography[2, 2], 8).tolist(),
            "corners": np.round(self.corners, 2).tolist(),
            "in_view": self.in_view,
        }


@dataclass(frozen=True)
class ClipTruth:
    """The truth of a whole clip: its spec, its pages' puzzles and every frame."""

    spec: ClipSpec
    pages: tuple[Page, ...]
    frames: tuple[FrameTruth, ...] = field(default=())

    def to_json(self) -> dict[str, object]:
        """Plain JSON-ready data (the .json next to a clip)."""
        return {
            "size": list(self.spec.size),
            "fps": self.spec.fps,
            "seed": self.spec.seed,
            "frame_count": len(self.frames),
            "puzzles": [p.to_json() for p in self.pages],
            "frames": [f.to_json() for f in self.frames],
        }


def clip_frames(path: Path) -> list[np.ndarray]:
    """Every frame of a video file."""
    capture = cv2.VideoCapture(str(path))
    frames: list[np.ndarray] = []
    while True:
        ok, frame = capture.read()
        if not ok:
            return frames
        frames.append(frame)


def load_truth(path: Path) -> dict[str, object]:
    """The truth JSON written next to a clip."""
    data: dict[str, object] = json.loads(Path(path).read_text())
    return data


def frame_lattices(truth: dict[str, object]) -> list[np.ndarray | None]:
    """Each frame's (10, 10, 2) grid lattice in frame pixels from a truth JSON (None: off)."""
    puzzles = truth["puzzles"]
    assert isinstance(puzzles, list)
    frames = truth["frames"]
    assert isinstance(frames, list)
    out: list[np.ndarray | None] = []
    for f in frames:
        page_lattice = np.asarray(puzzles[f["page"]]["lattice"], dtype=np.float64)
        lattice = map_points(np.asarray(f["homography"]), page_lattice.reshape(-1, 2))
        out.append(lattice.reshape(10, 10, 2) if f["in_view"] else None)
    return out


def render_pages(seed: int, count: int = 2) -> tuple[Page, ...]:
    """``count`` scanned puzzle pages of one Sudoku each (with crosswords, tables, text)."""
    pages = []
    for k in range(count):
        image, truths = render_page(seed * 1000 + 17 + k, n_puzzles=1, dpi=PAGE_DPI)
        t = truths[0]
        pages.append(
            Page(image, t.lattice, "".join(map(str, t.givens.ravel())),
                 "".join(map(str, t.solution.ravel())))
        )  # fmt: skip
    return tuple(pages)


def camera_homography(pose: Pose, lattice: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Page pixels to frame pixels for a pinhole camera in ``pose`` over the grid."""
    w, h = size
    corners = lattice[[0, 0, 9, 9], [0, 9, 9, 0]]
    centre = corners.mean(axis=0)
    side = float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)))
    to_unit = np.array(
        [[1 / side, 0, -centre[0] / side], [0, 1 / side, -centre[1] / side], [0, 0, 1]]
    )
    focal = FOCAL_FACTOR * max(w, h)
    distance = focal / (pose.size * min(w, h))
    rot = rotation(pose.roll, pose.pitch, pose.yaw)
    shift = -rot @ np.array([pose.cx, pose.cy, 0.0]) + np.array([0.0, 0.0, distance])
    k = np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1]])
    return k @ np.column_stack([rot[:, 0], rot[:, 1], shift]) @ to_unit


class ClipRenderer:
    """Renders the frames of a clip one by one, each with its truth (deterministic per seed)."""

    def __init__(self, spec: ClipSpec, pages: tuple[Page, ...] | None = None) -> None:
        """Render the pages (unless given) and draw the hand shake for every frame."""
        self.spec = spec
        needed = 1 + max(s.page for s in spec.shots)
        self.pages = pages if pages is not None else render_pages(spec.seed, needed)
        rng = np.random.default_rng(spec.seed)
        self.shake = self._shake(rng, spec.frame_count + 1)
        self.noise_rng = np.random.default_rng(spec.seed + 1)

    def _shake(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """(n, 2) pixel offsets of a smooth random walk that keeps near zero."""
        offsets, step = np.zeros((n, 2)), np.zeros(2)
        for i in range(1, n):
            step = SHAKE_SMOOTHING * step + rng.normal(0, self.spec.shake_px, 2)
            offsets[i] = 0.9 * offsets[i - 1] + step
        return offsets

    def pose_at(self, t: float) -> tuple[int, Pose]:
        """The page in view and the camera's pose at ``t`` seconds."""
        for shot in self.spec.shots:
            if t < shot.seconds:
                return shot.page, shot.start.towards(shot.end, max(t, 0.0) / shot.seconds)
            t -= shot.seconds
        last = self.spec.shots[-1]
        return last.page, last.end

    def homography_at(self, t: float) -> tuple[int, np.ndarray]:
        """The page in view and its page-to-frame homography (hand shake included) at ``t``."""
        page, pose = self.pose_at(t)
        h = camera_homography(pose, self.pages[page].lattice, self.spec.size)
        x = t * self.spec.fps
        i = min(int(x), len(self.shake) - 2)
        dx, dy = self.shake[i] + (x - i) * (self.shake[i + 1] - self.shake[i])
        return page, np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1.0]]) @ h

    def truth(self, index: int) -> FrameTruth:
        """The truth of frame ``index`` (at the middle of its exposure)."""
        page, h = self.homography_at(index / self.spec.fps)
        lattice = map_points(h, self.pages[page].lattice.reshape(-1, 2)).reshape(10, 10, 2)
        w, hgt = self.spec.size
        inside = bool(
            np.all(lattice >= 0) and np.all(lattice[..., 0] <= w - 1)
            and np.all(lattice[..., 1] <= hgt - 1)
        )  # fmt: skip
        return FrameTruth(page, h, lattice, inside)

    def frame(self, index: int) -> np.ndarray:
        """Frame ``index``: the page averaged over the exposure, with sensor noise."""
        times = self._exposure_times(index)
        acc = np.zeros((self.spec.size[1], self.spec.size[0], 3), np.float32)
        for t in times:
            page, h = self.homography_at(t)
            acc += cv2.warpPerspective(
                self.pages[page].image, h, self.spec.size, flags=cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_CONSTANT, borderValue=TABLE_BGR,
            ).astype(np.float32)  # fmt: skip
        acc /= len(times)
        acc += self.noise_rng.normal(0, self.spec.noise_sigma, acc.shape).astype(np.float32)
        return np.clip(acc + 0.5, 0, 255).astype(np.uint8)

    def _exposure_times(self, index: int) -> list[float]:
        """Sub-frame times spanning the exposure, more of them the faster the grid moves."""
        t0 = index / self.spec.fps
        half = 0.5 * self.spec.exposure / self.spec.fps
        page_a, ha = self.homography_at(t0 - half)
        page_b, hb = self.homography_at(t0 + half)
        corners = self.pages[page_a].lattice[[0, 0, 9, 9], [0, 9, 9, 0]]
        moved = np.max(np.linalg.norm(map_points(ha, corners) - map_points(hb, corners), axis=1))
        n = int(np.clip(math.ceil(moved / BLUR_STEP_PX), 1, MAX_SUBFRAMES))
        if page_a != page_b:
            n = 1  # a cut between pages is not blurred across
        return [t0] if n == 1 else list(np.linspace(t0 - half, t0 + half, n))

    def __iter__(self) -> Iterator[tuple[np.ndarray, FrameTruth]]:
        """Every frame of the clip with its truth."""
        for i in range(self.spec.frame_count):
            yield self.frame(i), self.truth(i)


def write_clip(spec: ClipSpec, path: Path) -> ClipTruth:
    """Render the clip into ``path`` (mp4v) and its truth into the .json beside it."""
    renderer = ClipRenderer(spec)
    path.parent.mkdir(parents=True, exist_ok=True)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*CLIP_FOURCC), spec.fps, spec.size)
    if not writer.isOpened():
        raise OSError(f"OpenCV cannot write {CLIP_FOURCC} video to {path}")
    frames = []
    try:
        for image, truth in renderer:
            writer.write(image)
            frames.append(truth)
    finally:
        writer.release()
    clip = ClipTruth(spec, renderer.pages, tuple(frames))
    path.with_suffix(".json").write_text(json.dumps(clip.to_json(), indent=1) + "\n")
    return clip


def _parser() -> argparse.ArgumentParser:
    """The command line's options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--name", default=COMMITTED_NAME, help="file name without suffix")
    parser.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    parser.add_argument("--size", default="640x480", help="frame size WxH (default 640x480)")
    parser.add_argument("--fps", type=int, default=COMMITTED_FPS, help="frames per second")
    parser.add_argument("--long", action="store_true", help="the longer story (DEFAULT_SHOTS)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: render one clip and its truth."""
    args = _parser().parse_args(argv)
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"error: --size must look like 640x480, got {args.size!r}", file=sys.stderr)
        return 2
    shots = DEFAULT_SHOTS if args.long else SHORT_SHOTS
    spec = ClipSpec(size=(width, height), fps=args.fps, seed=args.seed, shots=shots)
    path = args.out / f"{args.name}.mp4"
    clip = write_clip(spec, path)
    print(f"{path}  {len(clip.frames)} frames  {path.stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
