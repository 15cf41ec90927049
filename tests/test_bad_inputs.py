"""Inputs the command line must survive: each refused with one clear line, nothing lost.

Devices, pipes and files larger than any photo would make a reader block or run out of
memory (`sudokucam read /dev/zero` read 3.3 GB before; a FIFO named `f.jpg` hung). An
output that is the input photo (by any path or link) is refused unless --force; a missing
or unreadable photo is an input failure (exit 1), never a usage box; a photo with too many
pixels says its size and what to do; warnings of OpenCV, onnxruntime and Pillow never
reach the terminal.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import struct
import subprocess
import sys
import threading
import warnings
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from sudokucam.ui.cli import app
from sudokucam.ui.cli import photo as cli_photo
from sudokucam.vision import load as vision_load
from sudokucam.vision.load import (
    MAX_FILE_BYTES,
    ImageLoadError,
    LoadProblem,
    load_image,
    problem_of,
)

DEV_ZERO = Path("/dev/zero")
WAIT_S = 10.0
REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "samples" / "printed" / "demo.jpg"
runner = CliRunner()


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


def only_line(output: str) -> str:
    """The one non-empty line of ``output`` (fails the test if there are more or none)."""
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, output
    return lines[0]


def digest(path: Path) -> str:
    """The SHA-256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def blank_photo(path: Path, width: int = 640, height: int = 480) -> Path:
    """A blank light-grey PNG of ``width`` × ``height`` at ``path``."""
    assert cv2.imwrite(str(path), np.full((height, width, 3), 235, np.uint8))
    return path


def jpeg_claiming(width: int, height: int) -> bytes:
    """A 16×16 JPEG whose frame header announces ``width`` × ``height`` (a few hundred bytes)."""
    ok, encoded = cv2.imencode(".jpg", np.full((16, 16, 3), 200, np.uint8))
    assert ok
    data = bytearray(encoded.tobytes())
    frame = data.find(b"\xff\xc0")  # SOF0: marker, length, precision, height, width
    data[frame + 5 : frame + 9] = struct.pack(">HH", height, width)
    return bytes(data)


# ------------------------------------------------------------ never write over an input


def overwrite_cases(tmp_path: Path) -> dict[str, tuple[Path, Path]]:
    """Photo and output pairs that are one file: same path, another spelling, links."""
    photo = blank_photo(tmp_path / "p.png")
    (tmp_path / "sub").mkdir()
    (tmp_path / "link.png").symlink_to(photo)
    os.link(photo, tmp_path / "hard.png")
    return {
        "same path": (photo, photo),
        "another spelling": (photo, tmp_path / "sub" / ".." / "p.png"),
        "output is a symlink to the photo": (photo, tmp_path / "link.png"),
        "photo is a symlink to the output": (tmp_path / "link.png", photo),
        "hard link": (photo, tmp_path / "hard.png"),
    }


@pytest.mark.parametrize("command", ["solve", "check"])
def test_writing_over_the_input_photo_is_refused(command: str, tmp_path: Path) -> None:
    for case, (photo, output) in overwrite_cases(tmp_path).items():
        before = digest(photo)
        result = runner.invoke(app, [command, str(photo), "-o", str(output)])
        assert result.exit_code == 2, (case, result.output)
        line = only_line(result.output)
        assert line.startswith("error: --output ") and "is the input photo" in line, case
        assert "--force" in line, case
        assert digest(photo) == before, case


def test_force_writes_over_the_input_photo(tmp_path: Path) -> None:
    photo = tmp_path / "demo.jpg"
    shutil.copyfile(DEMO, photo)
    before = digest(photo)
    result = runner.invoke(app, ["solve", str(photo), "-o", str(photo), "--force"])
    assert result.exit_code == 0, result.output
    assert digest(photo) != before


@pytest.mark.parametrize("command", ["solve", "check"])
def test_force_is_in_the_help(command: str) -> None:
    result = runner.invoke(app, [command, "--help"])
    assert "--force" in result.stdout and "--max-pixels N" in result.stdout


# ------------------------------------------------- missing and unreadable: exit 1, one line


@pytest.fixture()
def unreadable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A photo that cannot be read: chmod 000, and where that does not stop reads (root,
    as in CI) the refusal simulated where it is felt: os.access and opening the file."""
    photo = blank_photo(tmp_path / "locked.png")
    photo.chmod(0)
    if os.access(photo, os.R_OK):  # root reads anything: simulate what chmod 000 does
        real_access, real_open = os.access, Path.open

        def access(path: object, mode: int, *args: object, **kwargs: object) -> bool:
            if Path(str(path)) == photo and mode & os.R_OK:
                return False
            return real_access(path, mode, *args, **kwargs)  # type: ignore[arg-type]

        def open_(self: Path, *args: object, **kwargs: object) -> object:
            if self == photo:
                raise PermissionError(13, "Permission denied", str(self))
            return real_open(self, *args, **kwargs)  # type: ignore[call-overload]

        monkeypatch.setattr(os, "access", access)
        monkeypatch.setattr(Path, "open", open_)
    return photo


def photo_args(command: str, photo: Path, tmp_path: Path) -> list[str]:
    """The command line of ``command`` on ``photo`` (with an output for solve and check)."""
    return [command, str(photo)] + ([] if command == "read" else ["-o", str(tmp_path / "o.png")])


@pytest.mark.parametrize("command", ["read", "solve", "check"])
def test_an_unreadable_photo_is_an_input_failure(
    command: str, unreadable: Path, tmp_path: Path
) -> None:
    result = runner.invoke(app, photo_args(command, unreadable, tmp_path))
    assert result.exit_code == 1, result.output
    assert only_line(result.output) == f"error: {unreadable} cannot be read: Permission denied"


@pytest.mark.parametrize("command", ["read", "solve", "check"])
def test_a_path_through_a_file_is_an_input_failure(command: str, tmp_path: Path) -> None:
    photo = blank_photo(tmp_path / "p.png") / "inside.png"  # a file inside a file
    result = runner.invoke(app, photo_args(command, photo, tmp_path))
    assert result.exit_code == 1, result.output
    assert only_line(result.output) == f"error: {photo} cannot be read: Not a directory"


@pytest.mark.parametrize("command", ["read", "solve", "check"])
def test_a_missing_photo_is_named_once(command: str, tmp_path: Path) -> None:
    photo = tmp_path / "missing.jpg"
    result = runner.invoke(app, photo_args(command, photo, tmp_path))
    assert result.exit_code == 1, result.output
    assert only_line(result.output) == f"error: {photo} does not exist"


def test_a_photo_refused_on_decoding_is_named_once_by_its_path(tmp_path: Path) -> None:
    photo = tmp_path / "notes.jpg"
    photo.write_text("not a photo\n")
    result = runner.invoke(app, ["read", str(photo)])
    assert result.exit_code == 1
    line = only_line(result.output)
    assert line.startswith(f"error: {photo} is not an image") and line.count("notes.jpg") == 1


def test_an_unreadable_puzzle_file_is_named_once(unreadable: Path) -> None:
    """`grid` takes a puzzle or a file: one it cannot read is a usage error, path said once."""
    result = runner.invoke(app, ["grid", str(unreadable)])
    assert result.exit_code == 2, result.output
    assert only_line(result.output) == f"error: cannot read {unreadable}: Permission denied"


# ------------------------------------------------------------------ too many pixels


def test_a_photo_with_too_many_pixels_says_its_size_and_what_to_do(tmp_path: Path) -> None:
    photo = tmp_path / "x.jpg"
    photo.write_bytes(jpeg_claiming(12000, 9000))
    for command in ("read", "solve", "check"):
        result = runner.invoke(app, photo_args(command, photo, tmp_path))
        assert result.exit_code == 1, result.output
        assert only_line(result.output) == (
            f"error: {photo} is too large: 12000×9000 = 108.0 megapixels (limit 50.0): "
            "use a smaller photo, or --max-pixels 120000000"
        )
        assert "JPEG, PNG" not in result.output


def test_max_pixels_sets_the_limit(tmp_path: Path) -> None:
    photo = blank_photo(tmp_path / "blank.png")  # 640 × 480 = 307,200 pixels
    small = runner.invoke(app, ["read", "--max-pixels", "300000", str(photo)])
    assert small.exit_code == 1
    assert only_line(small.output).endswith(
        "= 0.3 megapixels (limit 0.3): use a smaller photo, or --max-pixels 340000"
    )
    roomy = runner.invoke(app, ["read", "--max-pixels", "340000", str(photo)])
    assert "too large" not in roomy.output and "no Sudoku grid" in roomy.output


@pytest.mark.parametrize("command", ["read", "solve", "check"])
def test_max_pixels_below_one_is_a_usage_error(command: str, tmp_path: Path) -> None:
    result = runner.invoke(
        app, [*photo_args(command, tmp_path / "x.jpg", tmp_path), "--max-pixels", "0"]
    )
    assert result.exit_code == 2
    assert only_line(result.output) == "error: --max-pixels must be at least 1, got 0"


def test_the_cli_default_pixel_limit_is_the_loaders() -> None:
    assert cli_photo.DEFAULT_MAX_PIXELS == vision_load.DEFAULT_MAX_PIXELS


def test_every_refusal_tells_its_kind_by_its_message(tmp_path: Path) -> None:
    """problem_of(message) gives back the kind a refusal was raised with."""
    text = tmp_path / "notes.jpg"
    text.write_text("hello\n")
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(DEMO.read_bytes()[:20000])
    huge = tmp_path / "huge.jpg"
    huge.write_bytes(jpeg_claiming(12000, 9000))
    cases = {
        tmp_path / "missing.jpg": LoadProblem.MISSING,
        blank_photo(tmp_path / "p.png") / "inside.png": LoadProblem.UNREADABLE,
        tmp_path: LoadProblem.NOT_A_FILE,
        text: LoadProblem.NOT_AN_IMAGE,
        cut: LoadProblem.DAMAGED,
        huge: LoadProblem.TOO_LARGE,
    }
    for path, kind in cases.items():
        with pytest.raises(ImageLoadError) as caught:
            load_image(path)
        assert caught.value.problem is kind, path
        assert problem_of(str(caught.value)) is kind, path
    assert caught.value.pixels == 108_000_000


def test_pillows_own_pixel_guard_is_left_as_it_was(tmp_path: Path) -> None:
    guard = Image.MAX_IMAGE_PIXELS
    with pytest.raises(ImageLoadError, match="20000×20000"):  # over Pillow's guard too
        load_image(jpeg_claiming(20000, 20000))
    assert guard == Image.MAX_IMAGE_PIXELS


# ------------------------------------------------- warnings never reach the terminal


def cli_stderr(*args: str) -> str:
    """The stderr of the console script run in a fresh process (fresh warning registry)."""
    done = subprocess.run(
        [sys.executable, "-m", "sudokucam", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={k: v for k, v in os.environ.items() if k != "OPENCV_LOG_LEVEL"},
    )
    return done.stderr


def assert_only_our_lines(stderr: str) -> None:
    """Every stderr line is one of sudokucam's own ("error: ..."); no library warning."""
    for line in stderr.splitlines():
        assert line.startswith("error: "), stderr
    for foreign in ("[ WARN", "onnxruntime", "Warning:", "warnings.warn"):
        assert foreign not in stderr, stderr


def exif_warning_jpeg(path: Path) -> Path:
    """A JPEG whose EXIF block names a tag larger than the file: Pillow warns on reading it."""
    ok, encoded = cv2.imencode(".jpg", np.full((480, 640, 3), 235, np.uint8))
    assert ok
    tiff = b"II*\x00" + struct.pack("<IH", 8, 1) + struct.pack("<HHII", 0x010E, 2, 1000, 26)
    app1 = b"Exif\x00\x00" + tiff + struct.pack("<I", 0)
    jpeg = encoded.tobytes()
    path.write_bytes(jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + jpeg[2:])
    return path


@pytest.mark.slow
def test_reading_prints_no_library_warnings(tmp_path: Path) -> None:
    truncated = tmp_path / "cut.jpg"
    truncated.write_bytes(DEMO.read_bytes()[:20000])
    bad_exif = exif_warning_jpeg(tmp_path / "exif.jpg")
    stderr = cli_stderr("read", str(DEMO), str(truncated), str(bad_exif))
    assert_only_our_lines(stderr)
    assert len(stderr.splitlines()) == 2  # the cut photo, and the blank one: no grid


def test_opencv_warnings_are_off_once_sudokucam_is_imported() -> None:
    code = "import sudokucam, cv2; cv2.imread('/no/such/photo.jpg')"
    env = {k: v for k, v in os.environ.items() if k != "OPENCV_LOG_LEVEL"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 0 and "WARN" not in done.stderr, done.stderr


def test_a_pillow_warning_while_decoding_stays_quiet(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning that escaped would fail the load
        image = load_image(exif_warning_jpeg(tmp_path / "exif.jpg"))
    assert image.shape == (480, 640, 3)


def test_onnxruntime_logs_errors_only() -> None:
    from sudokucam.vision.read.classifier import ORT_LOG_SEVERITY, DigitClassifier

    options = DigitClassifier().session.get_session_options()
    assert options.log_severity_level == ORT_LOG_SEVERITY == 3
