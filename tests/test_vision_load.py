"""load_image: every accepted format, EXIF orientation, and every refusal with its message."""

from __future__ import annotations

import io
import itertools
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageOps

from sudokucam.errors import SudokucamError
from sudokucam.vision.grid.warp import map_points
from sudokucam.vision.load import (
    DecodeConfig,
    ImageLoadError,
    LoadProblem,
    Orientation,
    Photo,
    _register_heif,
    load_image,
    open_encoded,
    open_photo,
)
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.read.config import ReadConfig
from sudokucam.vision.types import CellScores

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
CORNER_AGREEMENT = 0.002  # corners read reduced and whole agree to this share of the grid's side


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


@pytest.mark.parametrize("shape", [(7, 5), (7, 5, 3), (6, 9, 4), (5, 4, 1)])
@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_every_orientation_moves_the_pixels_as_numpy_views_would(
    shape: tuple[int, ...], dtype: type
) -> None:
    """Orientation.apply (OpenCV's turns where it can) gives exactly the flipped, then
    transposed pixels, as a writable contiguous array of the same shape and type."""
    pixels: np.ndarray = np.random.default_rng(0).integers(0, 256, shape).astype(dtype)
    for flip_x, flip_y, transpose in itertools.product((False, True), repeat=3):
        expected = pixels[:: -1 if flip_y else 1, :: -1 if flip_x else 1]
        expected = expected.swapaxes(0, 1) if transpose else expected
        turned = Orientation(flip_x, flip_y, transpose).apply(pixels)
        assert turned.dtype == pixels.dtype and turned.shape == expected.shape
        assert np.array_equal(turned, expected), (flip_x, flip_y, transpose)
        assert turned.flags.c_contiguous and turned.flags.writeable


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


# ------------------------------------------ reduced decoding: only the pixels needed


def square_photo(width: int = 403, height: int = 261) -> np.ndarray:
    """A white RGB picture with one black 32 × 32 square, its centre at (315.5, 55.5)."""
    rgb = np.full((height, width, 3), 255, np.uint8)
    rgb[40:72, 300:332] = 0
    return rgb


def turned_jpeg(rgb: np.ndarray, orientation: int, quality: int = 95) -> bytes:
    """``rgb`` saved as a JPEG whose EXIF names ``orientation`` (the pixels stored as given)."""
    exif = Image.Exif()
    exif[0x0112] = orientation
    return encode(rgb, "JPEG", quality=quality, exif=exif.tobytes())


def ink_centre(bgr: np.ndarray) -> np.ndarray:
    """(x, y) centre of the dark ink of a picture, pixel centres at integers."""
    ink = 255.0 - bgr[:, :, 0].astype(np.float64)
    ys, xs = np.mgrid[0 : bgr.shape[0], 0 : bgr.shape[1]]
    return np.array([(ink * xs).sum(), (ink * ys).sum()]) / ink.sum()


@pytest.mark.parametrize("orientation", range(1, 9))
def test_reduced_jpeg_is_upright_and_maps_back_to_full_pixels(orientation: int) -> None:
    """At 1/2, 1/4 and 1/8 a JPEG is decoded upright (as at full size, turned once), and
    a point found there maps back onto the same point of the full-resolution photo."""
    data = turned_jpeg(square_photo(), orientation)
    photo = open_encoded(data, "turned.jpg")
    full = photo.image
    upright = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(data))))[:, :, ::-1]
    assert np.array_equal(full, upright)
    assert photo.size == (full.shape[1], full.shape[0])
    for factor in (2, 4, 8):
        scaled = photo.scaled(factor)
        height, width = full.shape[:2]
        assert scaled.pixels.shape == (-(-height // factor), -(-width // factor), 3)
        found = scaled.to_full(ink_centre(scaled.pixels))
        assert np.abs(found - ink_centre(full)).max() < 0.1
        assert np.allclose(scaled.from_full(found), ink_centre(scaled.pixels))


def test_other_formats_and_arrays_are_shrunk_by_block_means() -> None:
    """A PNG or an array is decoded whole and shrunk (means of factor × factor blocks),
    with the same mapping back to full pixels."""
    rgb = square_photo()
    for photo in (open_encoded(encode(rgb, "PNG"), "p.png"), open_photo(rgb[:, :, ::-1].copy())):
        assert np.array_equal(photo.image, rgb[:, :, ::-1])
        scaled = photo.scaled(4)
        assert scaled.pixels.shape == (261 // 4, 403 // 4, 3)
        assert np.abs(scaled.to_full(ink_centre(scaled.pixels)) - (315.5, 55.5)).max() < 0.1


@pytest.mark.parametrize("orientation", [1, 6])
def test_a_photos_negative_inverts_every_scale_and_keeps_the_geometry(orientation: int) -> None:
    """The negative of a JPEG (decoded or not yet) and of an array holds 255 - each value
    at every scale, upright alike, and the photo itself is left as it was."""
    data = turned_jpeg(square_photo(), orientation)
    for photo in (open_encoded(data, "turned.jpg"), open_photo(square_photo()[:, :, ::-1].copy())):
        before = photo.scaled(4)  # decoded before the negative is made: inverted, not decoded
        negative = photo.negative()
        assert negative.size == photo.size and negative.name == photo.name
        for factor in (1, 2, 4):
            scaled, inverted = photo.scaled(factor), negative.scaled(factor)
            assert np.array_equal(inverted.pixels, 255 - scaled.pixels)
            assert inverted.factor == factor and inverted.offset == scaled.offset
        assert np.array_equal(negative.negative().scaled(2).pixels, photo.scaled(2).pixels)
        assert photo.scaled(4) is before and np.array_equal(negative.image, 255 - photo.image)


def test_the_photo_is_decoded_only_when_pixels_are_asked_for() -> None:
    """A JPEG is opened from its header: a body cut short is found (and refused as
    damaged) only when pixels are decoded, and the pixel limit is checked from the header."""
    data = encode(gradient_rgb(256, 256), "JPEG", quality=90)
    photo = open_encoded(data[: len(data) // 2], "cut.jpg")
    assert photo.size == (256, 256)
    with pytest.raises(ImageLoadError, match=r"cut\.jpg is corrupt or truncated") as caught:
        photo.scaled(4)
    assert caught.value.problem is LoadProblem.DAMAGED
    with pytest.raises(ImageLoadError, match=r"big\.jpg is too large: 256×256") as refused:
        open_encoded(data, "big.jpg", max_pixels=256 * 255)
    assert refused.value.problem is LoadProblem.TOO_LARGE and refused.value.pixels == 65536


def test_the_reader_refuses_too_many_pixels_from_the_header(tmp_path: Path) -> None:
    """A JPEG whose header announces 20000 × 20000 pixels (its body 16 × 16) is refused by
    the reader before any decoding, naming the size."""
    import struct as packing

    import cv2

    ok, encoded = cv2.imencode(".jpg", np.full((16, 16, 3), 200, np.uint8))
    assert ok
    data = bytearray(encoded.tobytes())
    frame = data.find(b"\xff\xc0")
    data[frame + 5 : frame + 9] = packing.pack(">HH", 20000, 20000)
    path = tmp_path / "huge.jpg"
    path.write_bytes(bytes(data))
    result = Reader(classifier=NeverCalled()).read(path)
    assert result.image is None and result.error is not None
    assert "huge.jpg is too large: 20000×20000 = 400.0 megapixels" in result.error


class NeverCalled:
    """A scorer that fails the test if a cell is ever read."""

    def score(self, warped: np.ndarray, config: ReadConfig) -> CellScores:
        """Never expected to run."""
        raise AssertionError("the photo should have been refused before reading")

    def score_upright(
        self, warped: np.ndarray, config: ReadConfig, upright: CellScores | None = None
    ) -> tuple[int, CellScores]:
        """Never expected to run."""
        raise AssertionError("the photo should have been refused before reading")


def test_reduction_is_the_coarsest_that_keeps_the_side_asked_for() -> None:
    """A 4000-pixel photo is decoded at 1/4 for a 640-pixel search; small ones whole."""
    big = Photo("big", (4000, 3000), image=np.zeros((1, 1, 3), np.uint8))
    assert big.reduction_for(640) == 4
    assert big.reduction_for(1920) == 2
    assert big.reduction_for(500) == 8  # 4000 / 8 = 500
    assert big.reduction_for(501) == 4
    assert Photo("small", (640, 480), image=np.zeros((1, 1, 3), np.uint8)).reduction_for(640) == 1


def test_moved_detection_maps_the_same_photo_points_to_the_same_grid_points() -> None:
    """A detection found in a reduced copy, moved to full pixels: its homography sends the
    full-pixel corners where the reduced one sent the reduced corners, and back."""
    from sudokucam.vision.grid.warp import moved_detection, warp_from_corners

    reduced = np.full((300, 400), 255, np.uint8)
    corners = np.array([[60.0, 40.0], [330.0, 55.0], [320.0, 270.0], [50.0, 260.0]])
    found = warp_from_corners(reduced, corners, score=1.0)
    moved = moved_detection(found, 4.0, (1.5, 1.5))
    full = corners * 4 + 1.5
    assert np.allclose(moved.corners, full)
    assert np.allclose(moved.lattice, found.lattice * 4 + 1.5)
    assert np.allclose(map_points(moved.homography, full), map_points(found.homography, corners))
    square = map_points(found.homography, corners)
    assert np.allclose(map_points(moved.inverse, square), full)


def test_reading_a_large_photo_reduced_gives_the_full_resolution_answer(tmp_path: Path) -> None:
    """A sample photo enlarged to 3200 pixels and stored turned (EXIF 6): read from 1/4 of
    its pixels, the digits are those read from the whole photo, and the corners (in
    full-resolution pixels) agree to ``CORNER_AGREEMENT`` of the grid's side."""
    import cv2

    from sudokucam.vision.pipeline import PipelineConfig

    small = load_image(SAMPLES / "printed" / "demo.jpg")
    big = cv2.resize(small, None, fx=3200 / 1024, fy=3200 / 1024, interpolation=cv2.INTER_CUBIC)
    path = tmp_path / "phone.jpg"
    path.write_bytes(turned_jpeg(np.rot90(big[:, :, ::-1], 1).copy(), 6, quality=90))
    reduced = Reader().read(path)
    whole = Reader(config=PipelineConfig(decode=DecodeConfig(reduce=False))).read(path)
    assert reduced.error is None and whole.error is None
    assert reduced.image is not None and reduced.image.shape == big.shape  # upright, full size
    a, b = reduced.grids[0], whole.grids[0]
    assert (a.givens, a.handwritten, a.solution) == (b.givens, b.handwritten, b.solution)
    side = float(np.linalg.norm(b.detection.corners[2] - b.detection.corners[0])) / np.sqrt(2)
    assert np.abs(a.detection.corners - b.detection.corners).max() < CORNER_AGREEMENT * side
