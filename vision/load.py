"""Load a photo from a path, bytes or array into a BGR uint8 array, or refuse it clearly.

Decoding goes through Pillow (with pi-heif registered for HEIC/HEIF), so the EXIF
orientation is applied exactly once (``ImageOps.exif_transpose``) and the pixel count is
checked from the header before any pixel is decoded.
"""

from __future__ import annotations

import io
import re
import stat
import warnings
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


class ImageLoadError(SudokucamError):
    """A file or buffer that cannot be used as a photo (missing, empty, not an image, ...)."""


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
        raise ImageLoadError(f"{path} does not exist") from None
    except OSError as error:
        raise ImageLoadError(f"{path} cannot be read: {error.strerror or error}") from error
    if stat.S_ISDIR(info.st_mode):
        raise ImageLoadError(f"{path} is a folder, not an image file")
    if not stat.S_ISREG(info.st_mode):
        raise ImageLoadError(f"{path} is not a regular file (a device, pipe or socket)")
    if info.st_size > max_bytes:
        raise ImageLoadError(_too_many_bytes(path, info.st_size, max_bytes))
    try:
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as error:
        raise ImageLoadError(f"{path} cannot be read: {error.strerror or error}") from error
    if len(data) > max_bytes:  # the file grew while it was read
        raise ImageLoadError(_too_many_bytes(path, len(data), max_bytes))
    return data


def _too_many_bytes(path: Path, size: int, max_bytes: int) -> str:
    """Why a file is refused for its size, and what to do."""
    return (
        f"{path} is too large for a photo: {size / 2**20:.0f} MB "
        f"(limit {max_bytes / 2**20:.0f} MB); use a smaller photo"
    )


def decode_image(data: bytes, name: str, *, max_pixels: int = DEFAULT_MAX_PIXELS) -> np.ndarray:
    """Decode encoded image bytes (``name`` is used in messages) into BGR uint8."""
    if not data:
        raise ImageLoadError(f"{name} is empty")
    _register_heif()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as opened:
                _check_size(opened.size, name, max_pixels)
                upright = ImageOps.exif_transpose(opened)
                upright.load()
                return _to_bgr(upright)
    except UnidentifiedImageError as error:
        raise ImageLoadError(_not_an_image(data, name)) from error
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        found = re.search(r"\((\d+) pixels\)", str(error))
        size = f"{int(found.group(1)) / 1e6:.1f} megapixels" if found else "too many pixels"
        raise ImageLoadError(
            f"{name} is too large: {size} (limit {max_pixels / 1e6:.1f})"
        ) from error
    except (OSError, SyntaxError, ValueError) as error:
        raise ImageLoadError(f"{name} is corrupt or truncated ({error})") from error


def _check_size(size: tuple[int, int], name: str, max_pixels: int) -> None:
    """Refuse images whose header announces more than ``max_pixels`` pixels."""
    width, height = size
    if width < 1 or height < 1:
        raise ImageLoadError(f"{name} has no pixels ({width}×{height})")
    if width * height > max_pixels:
        raise ImageLoadError(
            f"{name} is too large: {width}×{height} = {width * height / 1e6:.1f} megapixels "
            f"(limit {max_pixels / 1e6:.1f})"
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
