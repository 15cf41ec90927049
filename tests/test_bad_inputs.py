"""Files that are not photos are refused with one clear line, before anything is read.

Devices, pipes and files larger than any photo would make a reader block or run out of
memory (`sudokucam read /dev/zero` read 3.3 GB before; a FIFO named `f.jpg` hung).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sudokucam.ui.cli import app
from sudokucam.vision.load import MAX_FILE_BYTES, ImageLoadError, load_image

DEV_ZERO = Path("/dev/zero")
WAIT_S = 10.0


def load_in_thread(path: Path) -> BaseException | None:
    """What load_image raised for ``path``; fails the test if it has not returned in WAIT_S."""
    outcome: list[BaseException | None] = []

    def load() -> None:
        try:
            load_image(path)
            outcome.append(None)
        except BaseException as error:
            outcome.append(error)

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(WAIT_S)
    assert outcome, f"load_image({path}) did not return within {WAIT_S} s"
    return outcome[0]


@pytest.mark.skipif(not DEV_ZERO.exists(), reason="needs /dev/zero")
def test_a_device_is_refused_without_reading_it() -> None:
    error = load_in_thread(DEV_ZERO)
    assert isinstance(error, ImageLoadError)
    assert "not a regular file" in str(error)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "photo.jpg"
    os.mkfifo(fifo)
    error = load_in_thread(fifo)
    assert isinstance(error, ImageLoadError)
    assert "not a regular file" in str(error)


def test_a_file_larger_than_any_photo_is_refused_by_its_size(tmp_path: Path) -> None:
    huge = tmp_path / "huge.jpg"
    with huge.open("wb") as handle:  # sparse: no disk is used
        handle.truncate(MAX_FILE_BYTES + 1)
    error = load_in_thread(huge)
    assert isinstance(error, ImageLoadError)
    assert "too large for a photo" in str(error) and "use a smaller photo" in str(error)


@pytest.mark.skipif(not DEV_ZERO.exists(), reason="needs /dev/zero")
def test_cli_refuses_a_device_in_one_line() -> None:
    result = CliRunner().invoke(app, ["read", str(DEV_ZERO)])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "is not a regular file (a device, pipe or socket)" in lines[0]
