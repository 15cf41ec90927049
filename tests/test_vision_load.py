"""load_image: every accepted format, EXIF orientation, and every refusal with its message."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from sudokucam.errors import SudokucamError
from sudokucam.vision.load import ImageLoadError, _register_heif, load_image


def gradient_rgb(width: int = 64, height: int = 48) -> np.ndarray:
    """An RGB test picture whose corners all differ (so flips and turns show)."""
    ys, xs = np.mgrid[0:height, 0:width]
    red = (xs * 255 // (width - 1)).astype(np.uint8)
    green = (ys * 255 // (height - 1)).astype(np.uint8)
    blue = np.full((height, width), 90, np.uint8)
    return np.stack([red, green, blue], axis=-1)


def encode(array: np.ndarray, fmt: str, **options: object) -> bytes:
    """Encode an RGB/RGBA/L array with Pillow."""
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, format=fmt, **options)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("fmt", "suffix"), [("PNG", ".png"), ("BMP", ".bmp"), ("TIFF", ".tif"), ("WEBP", ".webp")]
)
def test_lossless_formats_load_exactly_as_bgr(tmp_path: Path, fmt: str, suffix: str) -> None:
    """PNG, BMP, TIFF and lossless WebP come back pixel for pixel, as BGR."""
    rgb = gradient_rgb()
    options = {"lossless": True} if fmt == "WEBP" else {}
    path = tmp_path / f"picture{suffix}"
    path.write_bytes(encode(rgb, fmt, **options))
    for source in (path, str(path), path.read_bytes()):
        bgr = load_image(source)
        assert bgr.dtype == np.uint8
        assert bgr.shape == (48, 64, 3)
        assert np.array_equal(bgr, rgb[:, :, ::-1])


def test_jpeg_loads_close_to_original(tmp_path: Path) -> None:
    """A JPEG decodes to nearly the same BGR picture."""
    rgb = gradient_rgb()
    path = tmp_path / "picture.jpg"
    path.write_bytes(encode(rgb, "JPEG", quality=95))
    bgr = load_image(path)
    assert bgr.shape == (48, 64, 3)
    assert np.abs(bgr.astype(int) - rgb[:, :, ::-1].astype(int)).mean() < 3


def test_gray_and_rgba_become_bgr(tmp_path: Path) -> None:
    """Grayscale repeats into three channels; transparent pixels become white paper."""
    gray = gradient_rgb()[:, :, 0]
    assert np.array_equal(load_image(encode(gray, "PNG")), np.repeat(gray[:, :, None], 3, axis=2))
    rgba = np.dstack([gradient_rgb(), np.full((48, 64), 255, np.uint8)])
    rgba[:10, :10, 3] = 0
    bgr = load_image(encode(rgba, "PNG"))
    assert bgr.shape == (48, 64, 3)
    assert np.all(bgr[:10, :10] == 255)
    assert np.array_equal(bgr[20:, 20:], rgba[20:, 20:, 2::-1])


def test_sixteen_bit_png_is_scaled_to_eight_bits() -> None:
    """A 16-bit grayscale PNG keeps its high byte."""
    wide = (np.arange(48 * 64, dtype=np.uint16).reshape(48, 64) * 21).astype(np.uint16)
    buffer = io.BytesIO()
    Image.fromarray(wide).save(buffer, format="PNG")
    bgr = load_image(buffer.getvalue())
    assert np.array_equal(bgr[:, :, 0], (wide >> 8).astype(np.uint8))


@pytest.mark.parametrize(
    ("orientation", "turn"),
    [
        (1, lambda a: a),
        (3, lambda a: np.rot90(a, 2)),
        (6, lambda a: np.rot90(a, -1)),
        (8, lambda a: np.rot90(a, 1)),
    ],
)
def test_exif_orientation_is_applied_once(tmp_path: Path, orientation: int, turn: object) -> None:
    """A JPEG with an EXIF orientation tag comes back upright (turned exactly once)."""
    rgb = np.zeros((40, 80, 3), np.uint8)
    rgb[:20, :40] = (255, 0, 0)  # a red block in the stored top-left corner
    exif = Image.Exif()
    exif[0x0112] = orientation
    path = tmp_path / "turned.jpg"
    image = Image.fromarray(rgb)
    image.save(path, format="JPEG", quality=95, exif=exif.tobytes())
    bgr = load_image(path)
    expected = turn(rgb[:, :, ::-1])  # type: ignore[operator]
    assert bgr.shape == expected.shape
    assert np.abs(bgr.astype(int) - expected.astype(int)).mean() < 4


def test_heif_opener_is_registered() -> None:
    """pi-heif teaches Pillow to open HEIF/HEIC files."""
    assert _register_heif()
    assert "HEIF" in Image.OPEN


def test_phone_heic_photo_decodes_like_the_photo_it_was_made_from() -> None:
    """samples/phone/nearly_done.heic is samples/progress/nearly_done.jpg saved as HEIC
    by libheif's encoder (samples/make_heic.py): same size, same picture up to HEVC loss."""
    samples = Path(__file__).resolve().parent.parent / "samples"
    heic = load_image(samples / "phone" / "nearly_done.heic")
    jpeg = load_image(samples / "progress" / "nearly_done.jpg")
    assert heic.shape == jpeg.shape and heic.dtype == np.uint8
    assert np.abs(heic.astype(int) - jpeg.astype(int)).mean() < 6
    data = (samples / "phone" / "nearly_done.heic").read_bytes()
    assert data[4:12] == b"ftypheic"  # a real HEIC container, not a renamed JPEG
    assert load_image(data).shape == jpeg.shape  # from bytes too (uploads)


def test_broken_heic_is_refused_clearly() -> None:
    """Bytes that start like a HEIC file but hold no picture are refused, not crashed on."""
    fake = struct.pack(">I", 24) + b"ftypheic" + b"\x00\x00\x00\x00mif1heic" + b"\x00" * 64
    with pytest.raises(ImageLoadError, match=r"photo\.heic"):
        load_image_bytes_named(fake, "photo.heic")


def load_image_bytes_named(data: bytes, name: str) -> np.ndarray:
    """Decode bytes under a file name (as a path would be reported)."""
    from sudokucam.vision.load import decode_image

    return decode_image(data, name)


def test_text_file_is_not_an_image(tmp_path: Path) -> None:
    """A text file is refused as text, naming the file."""
    path = tmp_path / "x.txt"
    path.write_text("530070000\n600195000\n")
    with pytest.raises(ImageLoadError, match=r"x\.txt is not an image \(looks like text\)"):
        load_image(path)


def test_binary_junk_is_not_an_image() -> None:
    """Random bytes are refused, listing the supported formats."""
    junk = bytes(np.random.default_rng(1).integers(0, 256, 500, dtype=np.uint8))
    with pytest.raises(ImageLoadError, match="supported format"):
        load_image(junk)


def test_empty_file_is_refused(tmp_path: Path) -> None:
    """An empty file is refused as empty."""
    path = tmp_path / "empty.jpg"
    path.write_bytes(b"")
    with pytest.raises(ImageLoadError, match=r"empty\.jpg is empty"):
        load_image(path)


def test_missing_file_and_folder_are_refused(tmp_path: Path) -> None:
    """A path that does not exist, or is a folder, is refused with the path."""
    with pytest.raises(ImageLoadError, match="does not exist"):
        load_image(tmp_path / "nothing.png")
    with pytest.raises(ImageLoadError, match="folder"):
        load_image(tmp_path)


def test_truncated_jpeg_is_refused(tmp_path: Path) -> None:
    """A JPEG cut in half is refused as corrupt or truncated."""
    data = encode(gradient_rgb(256, 256), "JPEG", quality=90)
    path = tmp_path / "cut.jpg"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ImageLoadError, match=r"cut\.jpg is corrupt or truncated"):
        load_image(path)


def huge_png(width: int, height: int) -> bytes:
    """A valid-header PNG announcing width × height gray pixels, with a tiny (bogus) body."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 100))
        + chunk(b"IEND", b"")
    )


def test_huge_image_is_refused_before_decoding(tmp_path: Path) -> None:
    """Huge PNG headers are refused from the header alone, naming the size."""
    path = tmp_path / "bomb.png"
    path.write_bytes(huge_png(20000, 20000))  # 400 Mpx: over Pillow's own bomb limit too
    with pytest.raises(ImageLoadError, match=r"bomb\.png is too large: 20000×20000 = 400\.0 m"):
        load_image(path)
    path.write_bytes(huge_png(8000, 8000))  # 64 Mpx: over our 50 Mpx limit
    with pytest.raises(ImageLoadError, match=r"bomb\.png is too large: 8000×8000"):
        load_image(path)
    with pytest.raises(ImageLoadError, match="too large"):
        load_image(encode(gradient_rgb(), "PNG"), max_pixels=1000)


def test_errors_are_project_errors() -> None:
    """ImageLoadError is a SudokucamError."""
    assert issubclass(ImageLoadError, SudokucamError)


def test_arrays_are_checked_and_converted() -> None:
    """uint8 gray/BGR/BGRA arrays are accepted; wrong dtype or shape names the parameter."""
    bgr = gradient_rgb()[:, :, ::-1].copy()
    assert np.array_equal(load_image(bgr), bgr)
    gray = bgr[:, :, 0].copy()
    assert load_image(gray).shape == (48, 64, 3)
    bgra = np.dstack([bgr, np.full((48, 64), 255, np.uint8)])
    assert np.array_equal(load_image(bgra), bgr)
    with pytest.raises(TypeError, match="source array must have dtype uint8"):
        load_image(bgr.astype(np.float32))
    with pytest.raises(ValueError, match="source array must have shape"):
        load_image(np.zeros((4, 4, 4, 4), np.uint8))
    with pytest.raises(TypeError, match="source must be"):
        load_image(12)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_pixels"):
        load_image(bgr, max_pixels=0)
