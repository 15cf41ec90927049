"""Font tables (Debian packages), fallback between faces of a role, and sizing by digit height."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
from PIL import ImageFont

FONT_ROOT = Path("/usr/share/fonts")
FONT_PACKAGES = {
    "urw-base35": "fonts-urw-base35",
    "liberation2": "fonts-liberation2",
    "dejavu": "fonts-dejavu-core",
    "fifthhorseman": "fonts-dkg-handwriting",
    "breip": "fonts-breip",
    "comic-neue": "fonts-comic-neue",
}
_URW = "opentype/urw-base35/"
PRINT_FONTS = {  # givens and titles: newspaper faces
    "Nimbus Sans": _URW + "NimbusSans-Regular.otf",
    "Nimbus Sans Bold": _URW + "NimbusSans-Bold.otf",
    "Nimbus Sans Narrow Bold": _URW + "NimbusSansNarrow-Bold.otf",
    "Nimbus Roman": _URW + "NimbusRoman-Regular.otf",
    "Nimbus Roman Bold": _URW + "NimbusRoman-Bold.otf",
    "C059": _URW + "C059-Roman.otf",
    "C059 Bold": _URW + "C059-Bold.otf",
    "URW Gothic": _URW + "URWGothic-Book.otf",
    "URW Gothic Demi": _URW + "URWGothic-Demi.otf",
    "P052 Bold": _URW + "P052-Bold.otf",
    "Liberation Sans": "truetype/liberation2/LiberationSans-Regular.ttf",
    "Liberation Sans Bold": "truetype/liberation2/LiberationSans-Bold.ttf",
    "Liberation Serif": "truetype/liberation2/LiberationSerif-Regular.ttf",
    "DejaVu Sans": "truetype/dejavu/DejaVuSans.ttf",
    "DejaVu Sans Bold": "truetype/dejavu/DejaVuSans-Bold.ttf",
}
TEXT_FONTS = {  # body text of the articles around the puzzle
    "Nimbus Roman": PRINT_FONTS["Nimbus Roman"],
    "Liberation Serif": PRINT_FONTS["Liberation Serif"],
    "C059": PRINT_FONTS["C059"],
    "Nimbus Sans": PRINT_FONTS["Nimbus Sans"],
    "Liberation Sans": PRINT_FONTS["Liberation Sans"],
}
TITLE_FONTS = {
    "Nimbus Sans Bold": PRINT_FONTS["Nimbus Sans Bold"],
    "Liberation Sans Bold": PRINT_FONTS["Liberation Sans Bold"],
    "C059 Bold": PRINT_FONTS["C059 Bold"],
    "URW Gothic Demi": PRINT_FONTS["URW Gothic Demi"],
    "Nimbus Sans Narrow Bold": PRINT_FONTS["Nimbus Sans Narrow Bold"],
}
PEN_FONTS = {  # handwriting faces for the pen fill-ins
    "dkg": "truetype/fifthhorseman/dkg.ttf",
    "dkg Bold": "truetype/fifthhorseman/dkgBd.ttf",
    "Breip": "truetype/breip/Breip.ttf",
    "Comic Neue": "opentype/comic-neue/ComicNeue-Regular.otf",
    "Comic Neue Italic": "opentype/comic-neue/ComicNeue-Italic.otf",
}
PEN_STROKE = {"Breip": 0.022, "dkg": 0.006, "Comic Neue": 0.004}  # extra stroke / cell
ALL_FONTS = {**PRINT_FONTS, **PEN_FONTS}


class FontMissingError(FileNotFoundError):
    """A font the renderer needs is not installed."""


def _package_of(relative: str) -> str:
    """The Debian package that installs a font file."""
    return next((pkg for key, pkg in FONT_PACKAGES.items() if key in relative), "a font package")


def resolve_font(name: str, table: dict[str, str], root: Path | None = None) -> str:
    """The font itself if installed, else the first installed one of the same table."""
    root = FONT_ROOT if root is None else root
    if (root / table[name]).is_file():
        return name
    for other in sorted(table):
        if (root / table[other]).is_file():
            return other
    packages = sorted({_package_of(rel) for rel in table.values()})
    raise FontMissingError(
        f"no font of {sorted(table)} found under {root} (missing {table[name]}); "
        f"install the Debian package(s): {', '.join(packages)}"
    )


def pick_font(rng: np.random.Generator, table: dict[str, str]) -> str:
    """A random installed font of a table (the draw does not depend on what is installed)."""
    names = sorted(table)
    return resolve_font(names[int(rng.integers(len(names)))], table)


@cache
def load_font(name: str, size: int) -> ImageFont.FreeTypeFont:
    """A font by name at a pixel size."""
    path = FONT_ROOT / ALL_FONTS[name]
    if not path.is_file():
        raise FontMissingError(f"font {name!r} missing: install {_package_of(ALL_FONTS[name])}")
    return ImageFont.truetype(str(path), max(size, 4))


@cache
def _digit_height_ratio(name: str) -> float:
    """Ink height of the digit 8 per pixel of font size."""
    _, top, _, bottom = load_font(name, 200).getbbox("8")
    return (bottom - top) / 200.0


def font_for_height(name: str, height: float) -> ImageFont.FreeTypeFont:
    """The font sized so that its digits are `height` pixels tall."""
    return load_font(name, round(height / _digit_height_ratio(name)))
