"""Load a photo from a path, bytes or array into a BGR uint8 array, or refuse it clearly.

Decoding goes through Pillow (with pi-heif registered for HEIC/HEIF), so the EXIF
orientation is applied exactly once (``ImageOps.exif_transpose``) and the pixel count is
checked from the header before any pixel is decoded. Every refusal is an
``ImageLoadError`` whose ``problem`` (a ``LoadProblem``) says what kind of failure it is,
so that the command line and the app can give advice that fits; warnings raised while
decoding are kept out of the person's terminal.
"""

from __future__ import annotations

import io
import logging
import re
import stat
import threading
import warnings
from enum import Enum
from functools import cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from ..errors import SudokucamError

DEFAULT_MAX_PIXELS = 50_000_000
# The largest photo file read: a 50-megapixel photo is 10-40 MB as JPEG or HEIC and at
# most 150 MB as uncompressed TIFF or BMP.
MAX_FILE_BYTES = 256 * 2**20
SUPPORTED = "JPEG, PNG, WebP, BMP, TIFF or HEIC"
ImageSource = str | Path | bytes | bytearray | memoryview | np.ndarray


log = logging.getLogger(__name__)


class LoadProblem(Enum):
    """What kind of input a photo load refused; the advice to give depends on it."""

    MISSING = "missing"  # no such file
    UNREADABLE = "unreadable"  # it exists but cannot be read (permissions, I/O error)
    NOT_A_FILE = "not a file"  # a folder, device, pipe or socket
    TOO_LARGE = "too large"  # more bytes or more pixels than the limit
    DAMAGED = "damaged"  # empty, cut short or corrupt
    NOT_AN_IMAGE = "not an image"  # text, a PDF, a format no decoder knows


# The phrase each kind of refusal carries in its message, so that a caller holding only
# the text (a PhotoResult's error) can tell the kind back with `problem_of`.
PROBLEM_PHRASES: dict[LoadProblem, tuple[str, ...]] = {
    LoadProblem.MISSING: (" does not exist",),
    LoadProblem.UNREADABLE: (" cannot be read",),
    LoadProblem.NOT_A_FILE: (" is a folder", " is not a regular file"),
    LoadProblem.TOO_LARGE: (" is too large",),
    LoadProblem.DAMAGED: (" is empty", " is corrupt", " has no pixels"),
}


class ImageLoadError(SudokucamError):
    """A file or buffer that cannot be used as a photo (missing, empty, not an image, ...).

    ``problem`` says which kind of failure it is; ``pixels`` is the pixel count of a photo
    refused for having too many (None otherwise).
    """

    def __init__(
        self,
        message: str,
        problem: LoadProblem = LoadProblem.NOT_AN_IMAGE,
        pixels: int | None = None,
    ) -> None:
        """A refusal with its message, kind and (for too many pixels) the pixel count."""
        super().__init__(message)
        self.problem = problem
        self.pixels = pixels


def problem_of(message: str) -> LoadProblem:
    """The kind of load failure a refusal message tells of (NOT_AN_IMAGE when none fits)."""
    for problem, phrases in PROBLEM_PHRASES.items():
        if any(phrase in message for phrase in phrases):
            return problem
    return LoadProblem.NOT_AN_IMAGE


@cache
def _register_heif() -> bool:
    """Teach Pillow to open HEIC/HEIF files (once); False when pi-heif is missing."""
    try:
        import pi_heif
    except ImportError:
        return False
    pi_heif.register_heif_opener()
    return True


def load_image(source: ImageSource, *, max_pixels: int = DEFAULT_MAX_PIXELS) -> np.ndarray:
    """A BGR uint8 (H, W, 3) array from a file path, encoded bytes or an image array."""
    if isinstance(max_pixels, bool) or not isinstance(max_pixels, int) or max_pixels < 1:
        raise ValueError(f"max_pixels must be a positive integer, got {max_pixels!r}")
    if isinstance(source, np.ndarray):
        return _from_array(source, max_pixels)
    if isinstance(source, (str, Path)):
        return decode_image(_read_file(Path(source)), Path(source).name, max_pixels=max_pixels)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return decode_image(bytes(source), "the image data", max_pixels=max_pixels)
    raise TypeError(f"source must be a path, bytes or a numpy array, got {type(source).__name__}")


def _read_file(path: Path, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``, or an ImageLoadError saying why not.

    Devices (``/dev/zero``), pipes and sockets are refused before they are opened, so a
    read can neither block nor run without end.
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        raise ImageLoadError(f"{path} does not exist", LoadProblem.MISSING) from None
    except OSError as error:
        raise _unreadable(path, error) from error
    if stat.S_ISDIR(info.st_mode):
        raise ImageLoadError(f"{path} is a folder, not an image file", LoadProblem.NOT_A_FILE)
    if not stat.S_ISREG(info.st_mode):
        raise ImageLoadError(
            f"{path} is not a regular file (a device, pipe or socket)", LoadProblem.NOT_A_FILE
        )
    if info.st_size > max_bytes:
        raise _too_many_bytes(path, info.st_size, max_bytes)
    try:
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except FileNotFoundError:  # removed between the look and the read
        raise ImageLoadError(f"{path} does not exist", LoadProblem.MISSING) from None
    except OSError as error:
        raise _unreadable(path, error) from error
    if len(data) > max_bytes:  # the file grew while it was read
        raise _too_many_bytes(path, len(data), max_bytes)
    return data


def _unreadable(path: Path, error: OSError) -> ImageLoadError:
    """The refusal of a file that is there but cannot be read (permissions, I/O error)."""
    return ImageLoadError(
        f"{path} cannot be read: {error.strerror or error}", LoadProblem.UNREADABLE
    )


def _too_many_bytes(path: Path, size: int, max_bytes: int) -> ImageLoadError:
    """The refusal of a file for its size in bytes, saying what to do."""
    return ImageLoadError(
        f"{path} is too large for a photo: {size / 2**20:.0f} MB "
        f"(limit {max_bytes / 2**20:.0f} MB); use a smaller photo",
        LoadProblem.TOO_LARGE,
    )


def decode_image(
    data: bytes, name: str, *, max_pixels: int = DEFAULT_MAX_PIXELS, page: int = 1
) -> np.ndarray:
    """Decode encoded image bytes (``name`` is used in messages) into BGR uint8.

    page: which 1-based page of a multi-page file (TIFF) to decode.

    Warnings raised while decoding (Pillow's, pi-heif's) are logged, never printed: what
    goes wrong becomes this module's own ImageLoadError.
    """
    if not data:
        raise ImageLoadError(f"{name} is empty", LoadProblem.DAMAGED)
    _register_heif()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            return _decode(data, name, max_pixels, page)
        finally:
            for warning in caught:
                log.debug("decoding %s: %s", name, warning.message)


def _decode(data: bytes, name: str, max_pixels: int, page: int = 1) -> np.ndarray:
    """Open, check the size from the header, turn upright and decode; refusals explained."""
    try:
        with _open_header(data) as opened:
            if page > 1:
                opened.seek(page - 1)  # a later page of a multi-page TIFF
            _check_size(opened.size, name, max_pixels)
            upright = ImageOps.exif_transpose(opened)
            upright.load()
            return _to_bgr(upright)
    except UnidentifiedImageError as error:
        raise ImageLoadError(_not_an_image(data, name)) from error
    except Image.DecompressionBombError as error:  # a later frame or tile of a huge image
        found = re.search(r"\((\d+) pixels\)", str(error))
        pixels = int(found.group(1)) if found else None
        size = f"{pixels / 1e6:.1f} megapixels" if pixels else "too many pixels"
        raise ImageLoadError(
            f"{name} is too large: {size} (limit {max_pixels / 1e6:.1f})",
            LoadProblem.TOO_LARGE,
            pixels,
        ) from error
    except (OSError, SyntaxError, ValueError, EOFError) as error:
        raise ImageLoadError(
            f"{name} is corrupt or truncated ({error})", LoadProblem.DAMAGED
        ) from error


# Pillow's own guard (Image.MAX_IMAGE_PIXELS) is lifted while a header is read, so that
# `_check_size` (which names the width and height, and honours a raised max_pixels)
# decides; the lock keeps two threads from restoring each other's value.
_PILLOW_GUARD_LOCK = threading.Lock()


def _open_header(data: bytes) -> Image.Image:
    """Pillow's lazy image for ``data`` (only the header is read), its pixel guard lifted."""
    with _PILLOW_GUARD_LOCK:
        saved = Image.MAX_IMAGE_PIXELS
        Image.MAX_IMAGE_PIXELS = None
        try:
            return Image.open(io.BytesIO(data))
        finally:
            Image.MAX_IMAGE_PIXELS = saved


def _check_size(size: tuple[int, int], name: str, max_pixels: int) -> None:
    """Refuse images whose header announces more than ``max_pixels`` pixels."""
    width, height = size
    if width < 1 or height < 1:
        raise ImageLoadError(f"{name} has no pixels ({width}×{height})", LoadProblem.DAMAGED)
    if width * height > max_pixels:
        raise ImageLoadError(
            f"{name} is too large: {width}×{height} = {width * height / 1e6:.1f} megapixels "
            f"(limit {max_pixels / 1e6:.1f})",
            LoadProblem.TOO_LARGE,
            width * height,
        )


def _not_an_image(data: bytes, name: str) -> str:
    """Why bytes that no decoder recognised are refused, guessing text when they look like it."""
    head = data[:4096]
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None and all(ch.isprintable() or ch in "\r\n\t\f" for ch in text):
        return f"{name} is not an image (looks like text)"
    if head.startswith(b"%PDF"):
        return f"{name} is not an image (looks like a PDF)"
    return f"{name} is not an image in a supported format ({SUPPORTED})"


def _to_bgr(image: Image.Image) -> np.ndarray:
    """BGR uint8 pixels of a decoded Pillow image; transparency is laid on white paper."""
    if image.mode in ("I;16", "I;16B", "I;16L", "I;16N"):
        wide = np.asarray(image, dtype=np.uint16)
        gray = (wide >> 8).astype(np.uint8)
        return np.ascontiguousarray(np.repeat(gray[:, :, None], 3, axis=2))
    if image.mode in ("I", "F"):
        values = np.asarray(image, dtype=np.float64)
        top = 65535.0 if values.max() > 255 else 255.0
        gray = np.clip(values / top * 255.0, 0, 255).astype(np.uint8)
        return np.ascontiguousarray(np.repeat(gray[:, :, None], 3, axis=2))
    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        rgba = image.convert("RGBA")
        paper = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        rgb = Image.alpha_composite(paper, rgba).convert("RGB")
    else:
        rgb = image.convert("RGB")
    return np.ascontiguousarray(np.asarray(rgb)[:, :, ::-1])


def _from_array(array: np.ndarray, max_pixels: int) -> np.ndarray:
    """Check an image array and return it as BGR uint8 (gray and BGRA converted)."""
    if array.dtype != np.uint8:
        raise TypeError(f"source array must have dtype uint8, got {array.dtype}")
    if array.ndim == 3 and array.shape[2] == 1:
        array = array[:, :, 0]
    if array.ndim == 2:
        bgr = np.repeat(array[:, :, None], 3, axis=2)
    elif array.ndim == 3 and array.shape[2] == 3:
        bgr = array
    elif array.ndim == 3 and array.shape[2] == 4:
        alpha = array[:, :, 3:4].astype(np.float32) / 255.0
        bgr = (array[:, :, :3] * alpha + 255.0 * (1.0 - alpha)).round().astype(np.uint8)
    else:
        raise ValueError(
            f"source array must have shape (H, W), (H, W, 3) or (H, W, 4), got {array.shape}"
        )
    if bgr.shape[0] == 0 or bgr.shape[1] == 0:
        raise ValueError(f"source array has no pixels: shape {array.shape}")
    if bgr.shape[0] * bgr.shape[1] > max_pixels:
        raise ValueError(
            f"source array has {bgr.shape[0] * bgr.shape[1]} pixels, above max_pixels={max_pixels}"
        )
    return np.ascontiguousarray(bgr)
