"""The live page's frame reader: frames read one at a time in a thread of their own, the
stream never held longer than the reader's wait (streamlit-webrtc stops reading a stream
for good once one frame takes over 10 s)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, cast

import cv2
import numpy as np
import pytest

from sudokucam.ui.app.pages.live import FrameReader

WAIT_S = 0.2  # the reader's wait in these tests
DONE_S = 10.0  # the most a released reading may take to end


@dataclass(frozen=True)
class Read:
    """What a processor gives back: the frame drawn on."""

    image: np.ndarray


class HeldProcessor:
    """Reads a frame (adds one to it) once let go; counts the frames it was given."""

    def __init__(self, held: bool) -> None:
        """Hold every reading until ``release`` when ``held``."""
        self.calls = 0
        self.gate = threading.Event()
        if not held:
            self.gate.set()

    def process(self, image: np.ndarray, at: float | None = None) -> Read:
        """The frame plus one, once let go."""
        self.calls += 1
        self.gate.wait()
        return Read(image + 1)


def reader_for(processor: object) -> FrameReader:
    """A reader around a stand-in processor, waiting ``WAIT_S`` a frame."""
    return FrameReader(cast(Any, processor), wait_s=WAIT_S)


def frame(value: int) -> np.ndarray:
    """A tiny BGR frame filled with ``value``."""
    return np.full((4, 4, 3), value, np.uint8)


def wait_until_idle(reader: FrameReader) -> None:
    """Return once the reader has no frame in hand."""
    deadline = time.monotonic() + DONE_S
    while reader.busy:
        assert time.monotonic() < deadline, "the reading did not end"
        time.sleep(0.01)


def test_a_frame_read_in_time_comes_back_drawn() -> None:
    """A quick reading gives the processor's frame."""
    reader = reader_for(HeldProcessor(held=False))
    assert (reader.read(frame(5), at=0.0) == 6).all()
    assert not reader.busy


def test_a_slow_frame_is_let_through_and_the_next_ones_wait_for_it() -> None:
    """A reading past the wait lets its frame through as it came, and the frames after it
    pass unread until it ends; then the next frame is read."""
    processor = HeldProcessor(held=True)
    reader = reader_for(processor)
    started = time.monotonic()
    assert (reader.read(frame(5), at=0.0) == 5).all()
    assert WAIT_S <= time.monotonic() - started < DONE_S
    assert reader.busy
    assert (reader.read(frame(7), at=0.1) == 7).all()  # not handed over: one at a time
    assert processor.calls == 1
    processor.gate.set()
    wait_until_idle(reader)
    assert (reader.read(frame(9), at=0.2) == 10).all()
    assert processor.calls == 2


@pytest.mark.parametrize("error", [ValueError("frame must be a BGR image"), cv2.error("size")])
def test_a_bad_frame_comes_back_as_it_came(error: Exception) -> None:
    """A frame the processor refuses (a wrong shape, an OpenCV assertion) is shown as it
    came, and the next one is read."""

    class Refusing:
        def process(self, image: np.ndarray, at: float | None = None) -> Read:
            raise error

    reader = reader_for(Refusing())
    assert (reader.read(frame(3), at=0.0) == 3).all()
    assert not reader.busy
