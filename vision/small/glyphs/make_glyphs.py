"""Render the reference glyphs of the 16×16 symbol reader (``vision/small/symbols.py``)
into ``glyphs.npz`` beside this script: 0-9 and A-P in a few print faces, each as the
reader sees a printed glyph (``symbols.glyph_feature``: cut to its ink, scaled to a
square, blurred, zero mean and unit length) with its width / height.

The faces are Debian fonts (DejaVu, URW Bookman, Liberation Mono), chosen apart from the
faces the renderer prints 16×16 pages in (Nimbus, Liberation Sans, C059, P052, URW
Gothic), so the benchmark's pages are faces the reader never saw. Run once at build time
(the fonts are not needed at run time):

    .venv/bin/python vision/small/glyphs/make_glyphs.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from sudokucam.vision.small.sixteen_config import DEFAULT_SYMBOL_CONFIG
from sudokucam.vision.small.symbols import GLYPHS_FILE, REFERENCE_SYMBOLS, glyph_feature

FONT_DIRS = (Path("/usr/share/fonts/truetype"), Path("/usr/share/fonts/opentype"))
FACES = (
    "DejaVuSans.ttf",
    "DejaVuSans-Bold.ttf",
    "DejaVuSansCondensed-Bold.ttf",
    "DejaVuSerif.ttf",
    "DejaVuSerif-Bold.ttf",
    "DejaVuSerifCondensed.ttf",
    "DejaVuSansMono.ttf",
    "URWBookman-Light.otf",
    "URWBookman-Demi.otf",
    "LiberationMono-Bold.ttf",
)
HEIGHT_PX = 64  # a glyph's height as rendered, before it is scaled to the reader's square


def face_path(name: str) -> Path:
    """The installed font file of this name (searched under FONT_DIRS)."""
    for root in FONT_DIRS:
        found = sorted(root.rglob(name))
        if found:
            return found[0]
    raise FileNotFoundError(f"font {name} is not installed (Debian fonts-dejavu, fonts-urw-base35)")


def rendered(font: ImageFont.FreeTypeFont, symbol: str) -> np.ndarray:
    """One symbol as a float ink image (1 = ink), a margin of paper around it."""
    side = HEIGHT_PX * 3
    canvas = Image.new("L", (side, side), 0)
    ImageDraw.Draw(canvas).text((HEIGHT_PX, HEIGHT_PX // 2), symbol, font=font, fill=255)
    return np.asarray(canvas, dtype=np.float32) / 255.0


def main() -> None:
    """Render every face's symbols and write the features, aspects and names."""
    config = DEFAULT_SYMBOL_CONFIG
    features, aspects = [], []
    for name in FACES:
        font = ImageFont.truetype(str(face_path(name)), HEIGHT_PX)
        made = [glyph_feature(rendered(font, s), config) for s in REFERENCE_SYMBOLS]
        features.append(np.stack([f for f, _ in made]))
        aspects.append(np.array([a for _, a in made]))
    np.savez_compressed(
        GLYPHS_FILE,
        features=np.stack(features).astype(np.float16),  # a small package file
        aspects=np.stack(aspects).astype(np.float32),
        faces=np.array(FACES),
        symbols=np.array(REFERENCE_SYMBOLS),
        side=np.array(config.side),
    )
    print(f"wrote {GLYPHS_FILE} ({len(FACES)} faces × {len(REFERENCE_SYMBOLS)} symbols)")


if __name__ == "__main__":
    main()
