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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from enum import Enum
from functools import cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from ..errors import SudokucamError
from ..limits import DEFAULT_MAX_PIXELS as DEFAULT_MAX_PIXELS  # re-exported: the loader's
from ..limits import (
    MAX_ASPECT_RATIO,
    MAX_PDF_BYTES,
    MIN_PHOTO_SIDE,
    pixel_limit_text,
    pixels_text,
)
from ..limits import MAX_FILE_BYTES as MAX_FILE_BYTES  # limits, as before limits.py

SUPPORTED = "JPEG, PNG, WebP, BMP, TIFF, HEIC or PDF"
MAGIC_BYTES = 8  # first bytes read to tell a PDF from a photo
DETAIL_CHARS = 160  # the most of a decoder's own words quoted in a refusal


log = logging.getLogger(__name__)


class LoadProblem(Enum):
    """What kind of input a photo load refused; the advice to give depends on it."""

    MISSING = "missing"  # no such file
    UNREADABLE = "unreadable"  # it exists but cannot be read (permissions, I/O error)
    NOT_A_FILE = "not a file"  # a folder, device, pipe or socket
    TOO_LARGE = "too large"  # more bytes or more pixels than the limit
    DAMAGED = "damaged"  # empty, cut short or corrupt
    NOT_AN_IMAGE = "not an image"  # text, a format no decoder knows
    TOO_SMALL = "too small"  # too few pixels, or too narrow, to hold a Sudoku grid
    NO_PAGE = "no page"  # a PDF without pages, or a page number it does not have


# The phrase each kind of refusal carries in its message, so that a caller holding only
# the text (a PhotoResult's error) can tell the kind back with `problem_of`.
PROBLEM_PHRASES: dict[LoadProblem, tuple[str, ...]] = {
    LoadProblem.MISSING: (" does not exist",),
    LoadProblem.UNREADABLE: (" cannot be read",),
    LoadProblem.NOT_A_FILE: (" is a folder", " is not a regular file"),
    LoadProblem.TOO_LARGE: (" is too large",),
    LoadProblem.DAMAGED: (" is empty", " is corrupt", " has no pixels", " cannot be rendered"),
    LoadProblem.TOO_SMALL: (" to hold a Sudoku grid",),
    LoadProblem.NO_PAGE: (" has no pages", " has no page "),
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


# The factors a photo can be decoded smaller by: a JPEG's DCT scaling makes 1/2, 1/4 or 1/8
# of its pixels directly, at a fraction of the time and memory of the full picture.
REDUCTIONS = (1, 2, 4, 8)
DCT_SCALED_FORMATS = ("JPEG", "MPO")  # MPO: a phone's JPEG with a second picture after it
EXIF_ORIENTATION_TAG = 0x0112


@dataclass(frozen=True)
class DecodeConfig:
    """How finely the reader decodes a photo: no finer than finding and reading its grids need.

    reduce: decode a JPEG at 1/2, 1/4 or 1/8 of its resolution where that is enough
    (other formats are shrunk after decoding); False reads every photo at full resolution.
    grid_detail: a grid must span at least this many times the warped grid's side
    (``GridConfig.warp_size``) in the pixels it is read from; a grid found smaller is
    traced again in a finer decode.
    """

    reduce: bool = True
    grid_detail: float = 1.0

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if self.grid_detail <= 0:
            raise ValueError(f"grid_detail must be positive, got {self.grid_detail}")


DEFAULT_DECODE_CONFIG = DecodeConfig()


@dataclass(frozen=True)
class Orientation:
    """How a photo's stored pixels are turned upright (its EXIF orientation).

    The stored pixels are flipped left to right (``flip_x``), top to bottom (``flip_y``),
    then transposed (``transpose``); every EXIF orientation is one such combination.
    """

    flip_x: bool = False
    flip_y: bool = False
    transpose: bool = False

    @classmethod
    def of(cls, image: Image.Image) -> Orientation:
        """The orientation an opened image's EXIF (or XMP) names; upright when it names none."""
        code = image.getexif().get(EXIF_ORIENTATION_TAG, 1)
        flips = {2: (1, 0, 0), 3: (1, 1, 0), 4: (0, 1, 0), 5: (0, 0, 1), 6: (0, 1, 1),
                 7: (1, 1, 1), 8: (1, 0, 1)}.get(code, (0, 0, 0))  # fmt: skip
        return cls(*(bool(flag) for flag in flips))

    def apply(self, pixels: np.ndarray) -> np.ndarray:
        """The stored pixels (H, W[, C]) turned upright.

        OpenCV's turns, flips and transpose move the same pixels as numpy's views copied,
        many times faster for colour pixels (a transposed copy of 3-byte pixels is slow).
        """
        if self.upright:
            return np.ascontiguousarray(pixels)
        shape_ok = pixels.ndim == 2 or (pixels.ndim == 3 and pixels.shape[2] in (3, 4))
        if pixels.dtype != np.uint8 or not shape_ok:  # OpenCV would drop a single channel
            turned = pixels[:: -1 if self.flip_y else 1, :: -1 if self.flip_x else 1]
            return np.ascontiguousarray(turned.swapaxes(0, 1) if self.transpose else turned)
        import cv2  # not at the top: the command line's start imports this module without it

        turn = {
            (False, True, True): cv2.ROTATE_90_CLOCKWISE,
            (True, False, True): cv2.ROTATE_90_COUNTERCLOCKWISE,
            (True, True, False): cv2.ROTATE_180,
        }.get((self.flip_x, self.flip_y, self.transpose))
        if turn is not None:
            return np.asarray(cv2.rotate(pixels, turn), dtype=np.uint8)
        flips = {(True, False): 1, (False, True): 0, (True, True): -1}  # cv2.flip's codes
        flip = flips.get((self.flip_x, self.flip_y))
        turned = pixels if flip is None else cv2.flip(pixels, flip)
        return np.asarray(cv2.transpose(turned) if self.transpose else turned, dtype=np.uint8)

    @property
    def upright(self) -> bool:
        """True when the stored pixels are upright already."""
        return not (self.flip_x or self.flip_y or self.transpose)

    def offsets(self, stored: tuple[int, int], factor: int) -> tuple[float, float]:
        """(x, y) where pixel (0, 0) of the upright photo decoded at 1/``factor`` lies, in
        upright full-resolution pixels (centres at integers), for stored (width, height).

        A reduced pixel covers ``factor`` × ``factor`` full pixels, the last one of a row or
        column fewer when the side is no multiple of ``factor``, which a flip brings first.
        """
        centre = (factor - 1) / 2
        along = []
        for side, flipped in zip(stored, (self.flip_x, self.flip_y), strict=True):
            count = -(-side // factor)  # reduced pixels on this side (rounded up)
            along.append(side - 1 - centre - factor * (count - 1) if flipped else centre)
        x, y = along
        return (y, x) if self.transpose else (x, y)


@dataclass(frozen=True)
class ScaledImage:
    """A photo's pixels at 1/``factor`` of full resolution (upright BGR uint8).

    A point p in these pixels lies at ``factor * p + offset`` in the full photo (pixel
    centres at integers).
    """

    pixels: np.ndarray
    factor: int
    offset: tuple[float, float] = (0.0, 0.0)

    def to_full(self, points: np.ndarray) -> np.ndarray:
        """(..., 2) points in these pixels, in full-resolution pixels."""
        return np.asarray(points, dtype=np.float64) * self.factor + np.asarray(self.offset)

    def from_full(self, points: np.ndarray) -> np.ndarray:
        """(..., 2) points in full-resolution pixels, in these pixels."""
        return (np.asarray(points, dtype=np.float64) - np.asarray(self.offset)) / self.factor


class Photo:
    """A photo whose header was read and pixel count checked, decoded when its pixels are asked.

    ``image`` is the photo at full resolution; ``scaled(factor)`` the photo at 1/factor of
    it (a factor of ``REDUCTIONS``), which a JPEG decodes at that scale and any other
    photo shrinks from its full-resolution pixels (each a mean of factor × factor). Both
    are upright (EXIF orientation applied) BGR uint8, decoded once and kept.

    name: used in messages. size: the upright (width, height) at full resolution.
    """

    def __init__(
        self,
        name: str,
        size: tuple[int, int],
        *,
        jpeg: bytes | None = None,
        orientation: Orientation = Orientation(),
        image: np.ndarray | None = None,
        inverted: bool = False,
    ) -> None:
        """A photo of ``size``: encoded ``jpeg`` bytes stored in ``orientation``, or ``image``.

        ``inverted``: the photo is its pixels' negative (255 - every value), made as each
        scale is asked for.
        """
        if (jpeg is None) == (image is None):
            raise ValueError("a Photo needs exactly one of jpeg and image")
        self.name = name
        self.size = size
        self._jpeg = jpeg
        self._orientation = orientation
        self._image = image  # the pixels given (never inverted), or None for a JPEG
        self._inverted = inverted
        self._scaled: dict[int, ScaledImage] = {}

    @property
    def image(self) -> np.ndarray:
        """The upright photo at full resolution, BGR uint8 (H, W, 3)."""
        return self.scaled(1).pixels

    def negative(self) -> Photo:
        """The photo with every value inverted: light lines on a dark ground become dark on light.

        A screen in dark mode shows its grid so; read as its negative, it looks like paper.
        Reduced pixels already decoded are inverted, not decoded again; the negative at
        full resolution is made only when asked for (a 50-megapixel page's would be 150 MB).
        """
        negative = Photo(self.name, self.size, jpeg=self._jpeg, orientation=self._orientation,
                         image=self._image, inverted=not self._inverted)  # fmt: skip
        for factor, scaled in self._scaled.items():
            if factor > 1 or self._jpeg is not None:  # a JPEG's full decode is slow to redo
                negative._scaled[factor] = replace(scaled, pixels=255 - scaled.pixels)
        return negative

    def reduction_for(self, long_side: int) -> int:
        """The largest factor of ``REDUCTIONS`` that leaves the longer side ``long_side`` px."""
        longer, shorter = max(self.size), min(self.size)
        return max(
            r
            for r in REDUCTIONS
            if r == 1 or (-(-longer // r) >= long_side and shorter // r >= MIN_PHOTO_SIDE)
        )

    def scaled(self, factor: int) -> ScaledImage:
        """The photo at 1/``factor`` of full resolution (``factor`` one of ``REDUCTIONS``)."""
        if factor not in REDUCTIONS:
            raise ValueError(f"factor must be one of {REDUCTIONS}, got {factor!r}")
        if factor not in self._scaled:
            self._scaled[factor] = self._decode(factor)
        return self._scaled[factor]

    def _decode(self, factor: int) -> ScaledImage:
        """Decode the JPEG at 1/``factor`` (DCT scaling), or shrink the decoded image."""
        if self._jpeg is None:
            assert self._image is not None  # one of the two is always set
            shrunk = box_shrink(self._image, factor)
            pixels = 255 - shrunk if self._inverted else shrunk
            return ScaledImage(pixels, factor, ((factor - 1) / 2,) * 2)
        pixel_count = self.size[0] * self.size[1]
        with _decoding(self._jpeg, self.name, pixel_count), _open_header(self._jpeg) as opened:
            stored = opened.size
            if factor > 1:
                opened.draft("RGB", (stored[0] // factor, stored[1] // factor))
            opened.load()
            pixels = self._orientation.apply(_to_bgr(opened))
        if self._inverted:
            pixels = 255 - pixels
        return ScaledImage(pixels, factor, self._orientation.offsets(stored, factor))


ImageSource = str | Path | bytes | bytearray | memoryview | np.ndarray | Photo


def box_shrink(image: np.ndarray, factor: int) -> np.ndarray:
    """``image`` at 1/``factor``: each pixel the mean of a factor × factor block (a part
    block at the right and bottom edges is left out)."""
    if factor == 1:
        return image
    height, width = image.shape[0] // factor, image.shape[1] // factor
    if min(height, width) < 1:
        raise ValueError(f"an image of {image.shape[:2]} cannot be shrunk {factor} times")
    import cv2  # not at the top: the command line's start imports this module without it

    block = image[: height * factor, : width * factor]
    return cv2.resize(block, (width, height), interpolation=cv2.INTER_AREA)


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
    return open_photo(source, max_pixels=max_pixels).image


def open_photo(source: ImageSource, *, max_pixels: int = DEFAULT_MAX_PIXELS) -> Photo:
    """The photo of a file path, encoded bytes or an image array, its pixel count checked.

    Only the header of a JPEG is read here: its pixels are decoded when first asked for,
    at the scale asked for (``Photo.scaled``); other formats are decoded now.
    """
    if isinstance(max_pixels, bool) or not isinstance(max_pixels, int) or max_pixels < 1:
        raise ValueError(f"max_pixels must be a positive integer, got {max_pixels!r}")
    if isinstance(source, Photo):
        return source
    if isinstance(source, np.ndarray):
        image = _from_array(source, max_pixels)
        return Photo(describe_array(source), (image.shape[1], image.shape[0]), image=image)
    if isinstance(source, (str, Path)):
        return open_encoded(_read_file(Path(source)), Path(source).name, max_pixels=max_pixels)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return open_encoded(bytes(source), "the image data", max_pixels=max_pixels)
    raise TypeError(
        f"source must be a path, bytes, a numpy array or a Photo, got {type(source).__name__}"
    )


def describe_array(array: np.ndarray) -> str:
    """How an image array is named in messages: ``<array 480x640x3>``."""
    return f"<array {'x'.join(map(str, array.shape))}>"


def read_input(path: Path) -> bytes:
    """The bytes of a photo or PDF file: at most MAX_FILE_BYTES for a photo, MAX_PDF_BYTES
    for a PDF (by its first bytes), or an ImageLoadError saying why not."""
    return _read_file(path, MAX_PDF_BYTES, head_limit=_limit_by_head)


def _limit_by_head(head: bytes) -> int:
    """The byte limit of a file that starts with ``head``: a PDF's, else a photo's."""
    return MAX_PDF_BYTES if head.startswith(b"%PDF") else MAX_FILE_BYTES


def _read_file(
    path: Path,
    max_bytes: int = MAX_FILE_BYTES,
    head_limit: Callable[[bytes], int] | None = None,
) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``, or an ImageLoadError saying why not.

    ``head_limit``, given the file's first bytes, lowers the limit by what the file is.
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
            if head_limit is not None:
                head = handle.read(MAGIC_BYTES)
                max_bytes = min(max_bytes, head_limit(head))
                if info.st_size > max_bytes:
                    raise _too_many_bytes(path, info.st_size, max_bytes)
                data = head + handle.read(max_bytes + 1 - len(head))
            else:
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
    what, advice = (
        ("PDF", "split it") if max_bytes == MAX_PDF_BYTES else ("photo", "use a smaller photo")
    )
    return ImageLoadError(
        f"{path} is too large for a {what}: {size / 2**20:.0f} MB "
        f"(limit {max_bytes / 2**20:.0f} MB); {advice}",
        LoadProblem.TOO_LARGE,
    )


def decode_image(
    data: bytes, name: str, *, max_pixels: int = DEFAULT_MAX_PIXELS, page: int = 1
) -> np.ndarray:
    """Decode encoded image bytes (``name`` is used in messages) into BGR uint8.

    page: which 1-based page of a multi-page file (TIFF) to decode.
    """
    return open_encoded(data, name, max_pixels=max_pixels, page=page).image


def open_encoded(
    data: bytes, name: str, *, max_pixels: int = DEFAULT_MAX_PIXELS, page: int = 1
) -> Photo:
    """The photo in encoded image bytes (``name`` is used in messages), its size checked.

    page: which 1-based page of a multi-page file (TIFF) to open. A JPEG stays encoded
    until its pixels are asked for; any other format is decoded now.
    """
    if not data:
        raise ImageLoadError(f"{name} is empty", LoadProblem.DAMAGED)
    _register_heif()
    with _decoding(data, name, max_pixels), _open_header(data) as opened:
        if page > 1:
            opened.seek(page - 1)  # a later page of a multi-page TIFF
        _check_size(opened.size, name, max_pixels)
        if opened.format in DCT_SCALED_FORMATS and page == 1:
            orientation = Orientation.of(opened)
            width, height = opened.size
            size = (height, width) if orientation.transpose else (width, height)
            return Photo(name, size, jpeg=data, orientation=orientation)
        upright = ImageOps.exif_transpose(opened)
        upright.load()
        image = _to_bgr(upright)
    return Photo(name, (image.shape[1], image.shape[0]), image=image)


@contextmanager
def _decoding(data: bytes, name: str, max_pixels: int) -> Iterator[None]:
    """Decoder warnings (Pillow's, pi-heif's) logged, never printed; failures explained.

    Whatever goes wrong while decoding becomes this module's own ImageLoadError.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield
        except UnidentifiedImageError as error:
            raise ImageLoadError(_not_an_image(data, name)) from error
        except Image.DecompressionBombError as error:  # a later frame or tile of a huge image
            found = re.search(r"\((\d+) pixels\)", str(error))
            pixels = int(found.group(1)) if found else None
            size = pixels_text(pixels) if pixels else "too many pixels"
            raise ImageLoadError(
                f"{name} is too large: {size} (limit {pixel_limit_text(max_pixels)})",
                LoadProblem.TOO_LARGE,
                pixels,
            ) from error
        except (OSError, SyntaxError, ValueError, EOFError) as error:
            raise ImageLoadError(
                f"{name} is corrupt or truncated ({one_line(str(error))})", LoadProblem.DAMAGED
            ) from error
        finally:
            for warning in caught:
                log.debug("decoding %s: %s", name, warning.message)


def one_line(text: str, limit: int = DETAIL_CHARS) -> str:
    """A decoder's message on one line (pi-heif's end in a line break), cut to ``limit``."""
    words = " ".join(text.split())
    return words if len(words) <= limit else words[: limit - 1].rstrip() + "…"


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
            f"{name} is too large: {width}×{height} = {pixels_text(width * height)} "
            f"(limit {pixel_limit_text(max_pixels)})",
            LoadProblem.TOO_LARGE,
            width * height,
        )


def check_room(size: tuple[int, int], name: str) -> None:
    """Refuse a photo of (width, height) that cannot hold a Sudoku grid: a side under
    ``MIN_PHOTO_SIDE`` pixels, or one side over ``MAX_ASPECT_RATIO`` times the other."""
    width, height = size
    shape = f"{width}×{height}"
    if max(width, height) > MAX_ASPECT_RATIO * min(width, height):
        raise ImageLoadError(
            f"{name} ({shape}) is too narrow to hold a Sudoku grid", LoadProblem.TOO_SMALL
        )
    if min(width, height) < MIN_PHOTO_SIDE:
        raise ImageLoadError(
            f"{name} ({shape}) is too small to hold a Sudoku grid", LoadProblem.TOO_SMALL
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
    elif image.mode in ("RGB", "L"):
        return _bgr_of(np.asarray(image))
    else:
        rgb = image.convert("RGB")
    return _bgr_of(np.asarray(rgb))


def _bgr_of(pixels: np.ndarray) -> np.ndarray:
    """BGR uint8 (H, W, 3) of RGB (H, W, 3) or gray (H, W) uint8 pixels."""
    import cv2  # not at the top: the command line's start imports this module without it

    code = cv2.COLOR_GRAY2BGR if pixels.ndim == 2 else cv2.COLOR_RGB2BGR
    return np.asarray(cv2.cvtColor(pixels, code), dtype=np.uint8)


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
