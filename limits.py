"""Every limit and default on what sudokucam reads, written once.

The loader, the batch, the command line and the app take their numbers from here, so a
limit said in a message, in ``--help`` and in the README is the one enforced. This module
imports nothing (``sudokucam --help`` stays fast).
"""

from __future__ import annotations

# -- photos -----------------------------------------------------------------------------
DEFAULT_MAX_PIXELS = 50_000_000  # a photo with more pixels is refused from its header
# The largest photo file read: a 50-megapixel photo is 10-40 MB as JPEG or HEIC and at
# most 150 MB as uncompressed TIFF or BMP.
MAX_FILE_BYTES = 256 * 2**20
MIN_PHOTO_SIDE = 16  # px: a photo narrower than this cannot hold a Sudoku grid
# A photo longer than this many times its width (or wider than its height) is refused:
# shrunk for the grid search (640 px), its short side would be under 32 px.
MAX_ASPECT_RATIO = 20
# The most grids `read`, `solve` and `check` look for on a photo, and `batch` (--max-grids)
# on a page unless told otherwise: one default for every command.
MAX_GRIDS_PER_PHOTO = 9

# -- PDFs and multi-page files -----------------------------------------------------------
DEFAULT_DPI = 200  # resolution PDF pages are rendered at (dots per inch)
MIN_DPI = 36.0
MAX_DPI = 1200.0
MAX_PDF_BYTES = 1 << 30  # a PDF larger than this is refused (scanned books fit well under it)
MAX_PAGES = 2000  # a PDF or TIFF with more pages than this is refused: split it

# -- batch -------------------------------------------------------------------------------
BATCH_MAX_GRIDS_LIMIT = 64  # the most --max-grids of `batch` may ask for
MAX_WORKERS = 64  # the most local worker processes (each holds a model: about 150 MB)

# -- puzzles as text ---------------------------------------------------------------------
MAX_PUZZLE_TEXT_BYTES = 64 * 2**20  # `grid -`, `hint -`, `grade -`: stdin read up to this
MAX_TIME_LIMIT_S = 86_400.0  # the longest --time-limit (a day): beyond it, say so


def pixels_text(pixels: int) -> str:
    """A pixel count as people say it: "50.0 megapixels", or "800 pixels" below 0.1 megapixel
    (which would round to "0.0")."""
    if pixels >= 100_000:
        return f"{pixels / 1e6:.1f} megapixels"
    return f"{pixels:,} pixel{'s' if pixels != 1 else ''}".replace(",", " ")


def pixel_limit_text(max_pixels: int) -> str:
    """A pixel limit in a refusal: "50.0" (megapixels, as the size beside it) from 100 000
    pixels up, else the exact count ("1 pixel"), never a limit rounded to "0.0"."""
    if max_pixels >= 100_000:
        return f"{max_pixels / 1e6:.1f}"
    return pixels_text(max_pixels)


def round_pixels_text(pixels: int) -> str:
    """A round pixel limit in words: "50 megapixels", "4 megapixels", or "800 pixels"."""
    if pixels >= 100_000:
        return f"{pixels / 1e6:g} megapixels"
    return pixels_text(pixels)
