#!/usr/bin/env python3
"""Turn a photo into a short YUV4MPEG2 (C420) video for Chromium's fake camera.

    python samples/make_y4m.py samples/printed/demo.jpg /tmp/demo.y4m --size 640x480

Chromium plays it in a loop with
`--use-fake-device-for-media-stream --use-file-for-fake-video-capture=/tmp/demo.y4m`.
Frames are I420 in BT.601 video range (Y 16-235), what Chromium assumes for I420.
The photo is scaled to cover the frame and cropped at the centre; a small hand shake
(a few pixels, deterministic for a seed) moves it from frame to frame. This script is not
part of the sudokucam package.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np


def fit_frame(image: np.ndarray, width: int, height: int) -> np.ndarray:
    """Scale a BGR image to cover width×height and crop the centre."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"image must be a BGR array of shape (H, W, 3), got {image.shape}")
    scale = max(width / image.shape[1], height / image.shape[0])
    size = (max(width, round(image.shape[1] * scale)), max(height, round(image.shape[0] * scale)))
    resized = cv2.resize(
        image, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    )
    x0, y0 = (size[0] - width) // 2, (size[1] - height) // 2
    return np.ascontiguousarray(resized[y0 : y0 + height, x0 : x0 + width])


def shaken(frame: np.ndarray, dx: float, dy: float) -> np.ndarray:
    """The frame moved by a sub-pixel offset, edges repeated."""
    m = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]])
    h, w = frame.shape[:2]
    return cv2.warpAffine(frame, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def y4m_header(width: int, height: int, fps: int) -> bytes:
    """The stream header: size, frame rate, progressive, square pixels, 4:2:0 chroma."""
    return f"YUV4MPEG2 W{width} H{height} F{fps}:1 Ip A1:1 C420jpeg\n".encode("ascii")


def write_y4m(
    image: np.ndarray,
    path: Path,
    size: tuple[int, int] = (640, 480),
    frames: int = 20,
    fps: int = 15,
    shake_px: float = 1.5,
    seed: int = 0,
) -> Path:
    """Write `frames` frames of the image (BGR) as a Y4M file; returns the path."""
    width, height = size
    if width % 2 or height % 2 or width < 16 or height < 16:
        raise ValueError(f"size must be even and at least 16×16, got {width}x{height}")
    if not 1 <= frames <= 1000:
        raise ValueError(f"frames must be between 1 and 1000, got {frames}")
    if not 1 <= fps <= 120:
        raise ValueError(f"fps must be between 1 and 120, got {fps}")
    base = fit_frame(image, width, height)
    rng = np.random.default_rng(seed)
    offsets = np.cumsum(rng.normal(0, shake_px / 2, (frames, 2)), axis=0)
    offsets = np.clip(offsets - offsets[0], -3 * shake_px, 3 * shake_px)
    with open(path, "wb") as out:
        out.write(y4m_header(width, height, fps))
        for dx, dy in offsets:
            frame = shaken(base, float(dx), float(dy)) if shake_px > 0 else base
            out.write(b"FRAME\n")
            out.write(cv2.cvtColor(frame, cv2.COLOR_BGR2YUV_I420).tobytes())
    return path


def _size(text: str) -> tuple[int, int]:
    """Parse WIDTHxHEIGHT."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"size must look like 640x480, got {text!r}") from exc
    return w, h


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: photo in, Y4M video out."""
    parser = argparse.ArgumentParser(description="Turn a photo into a Y4M fake-camera video.")
    parser.add_argument("image", type=Path, help="input photo (JPEG, PNG)")
    parser.add_argument("out", type=Path, help="output .y4m file")
    parser.add_argument("--size", type=_size, default=(640, 480), help="frame size (640x480)")
    parser.add_argument("--frames", type=int, default=20, help="number of frames (20)")
    parser.add_argument("--fps", type=int, default=15, help="frames per second (15)")
    parser.add_argument("--shake", type=float, default=1.5, help="hand shake in pixels (1.5)")
    args = parser.parse_args(argv)
    image = cv2.imread(str(args.image), cv2.IMREAD_COLOR)
    if image is None:
        print(f"error: cannot read an image from {args.image}", file=sys.stderr)
        return 1
    try:
        write_y4m(image, args.out, args.size, args.frames, args.fps, args.shake)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{args.out}  {args.out.stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
