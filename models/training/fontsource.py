"""Handwriting and print faces from the npm registry's ``@fontsource`` packages (training only).

The model meets far more hands and types than the two newspapers of its photos when its
synthetic grids are drawn in these faces. The packages are fetched once, at pinned versions,
with npm's own client (``npm pack``) into a cache folder outside the repository
(``--font-cache``, default ``~/.cache/sudokucam/fontsource``); only each face's Latin
``.woff`` files are kept. Nothing here is a runtime dependency and no font file is committed.

Some faces are held out of training (``HELD_OUT``) and used only to judge the model on hands
and types it has never met (``train.py --evaluate … --held-out-fonts``).

    .venv/bin/python -m sudokucam.models.training.fontsource   # fetch (needs npm, network)
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

DEFAULT_CACHE = Path.home() / ".cache" / "sudokucam" / "fontsource"


@dataclass(frozen=True)
class Face:
    """One ``@fontsource`` package at a pinned version and the styles of it that are used.

    styles: ``WEIGHT-normal`` or ``WEIGHT-italic``, as the package names its files.
    """

    name: str
    version: str
    styles: tuple[str, ...] = ("400-normal",)


# Faces whose digits look typeset (Delius, Itim, Mali were tried) are left out: a hand that
# looks printed would teach the model to take print for handwriting.
HAND_FACES = (
    Face("caveat", "5.3.0", ("400-normal", "700-normal")),
    Face("kalam", "5.3.0", ("300-normal", "700-normal")),
    Face("patrick-hand", "5.3.0"),
    Face("shadows-into-light", "5.3.0"),
    Face("indie-flower", "5.3.0"),
    Face("homemade-apple", "5.3.0"),
    Face("reenie-beanie", "5.3.0"),
    Face("nanum-pen-script", "5.3.0"),
    Face("gochi-hand", "5.3.0"),
    Face("covered-by-your-grace", "5.3.0"),
    Face("rock-salt", "5.3.0"),
    Face("architects-daughter", "5.3.0"),
    Face("just-another-hand", "5.3.0"),
    Face("permanent-marker", "5.3.0"),
    Face("nothing-you-could-do", "5.3.0"),
    Face("la-belle-aurore", "5.3.0"),
    Face("dancing-script", "5.3.0", ("400-normal", "700-normal")),
    Face("satisfy", "5.3.0"),
    Face("sacramento", "5.3.0"),
    Face("gloria-hallelujah", "5.3.0"),
    Face("schoolbell", "5.3.0"),
    Face("handlee", "5.3.0"),
    Face("coming-soon", "5.3.0"),
    Face("nanum-brush-script", "5.3.0"),
    Face("sriracha", "5.3.0"),
    Face("caveat-brush", "5.3.0"),
    Face("cedarville-cursive", "5.3.0"),
    Face("zeyada", "5.3.0"),
    Face("dawning-of-a-new-day", "5.3.0"),
    Face("over-the-rainbow", "5.3.0"),
    Face("waiting-for-the-sunrise", "5.3.0"),
    Face("mynerve", "5.3.0"),
)
PRINT_FACES = (
    Face("oswald", "5.3.0", ("300-normal", "500-normal", "700-normal")),
    Face("roboto-condensed", "5.3.0", ("300-normal", "400-italic", "700-normal", "900-normal")),
    Face("merriweather", "5.3.0", ("300-normal", "400-italic", "700-normal", "900-normal")),
    Face("playfair-display", "5.3.0", ("400-normal", "700-italic", "900-normal")),
    Face("libre-baskerville", "5.3.0", ("400-normal", "400-italic", "700-normal")),
    Face("bebas-neue", "5.3.0"),
    Face("archivo-black", "5.3.0"),
    Face("pt-serif", "5.3.0", ("400-normal", "700-italic")),
    Face("source-serif-4", "5.3.1", ("200-normal", "600-normal", "400-italic")),
    Face("crimson-text", "5.3.0", ("400-normal", "700-normal")),
    Face("eb-garamond", "5.3.0", ("400-normal", "600-italic")),
    Face("fira-sans-condensed", "5.3.0", ("200-normal", "500-normal", "800-normal")),
    Face("barlow-condensed", "5.3.0", ("300-normal", "600-normal", "500-italic")),
    Face("lora", "5.3.0", ("400-normal", "700-italic")),
    Face("zilla-slab", "5.3.0", ("400-normal", "700-normal")),
    Face("arvo", "5.3.0", ("400-normal", "700-normal")),
    Face("roboto-slab", "5.3.0", ("200-normal", "500-normal", "900-normal")),
    Face("anton", "5.3.0"),
    Face("alegreya", "5.3.0", ("400-normal", "800-normal")),
    Face("libre-franklin", "5.3.0", ("200-normal", "600-normal", "900-italic")),
    Face("noto-serif", "5.3.0", ("300-normal", "700-normal")),
    Face("bitter", "5.3.0", ("300-normal", "800-normal")),
    Face("josefin-sans", "5.3.0", ("300-normal", "700-normal")),
    Face("abril-fatface", "5.3.0"),
    Face("ibm-plex-sans-condensed", "5.3.0", ("200-normal", "600-normal")),
    Face("cormorant-garamond", "5.3.0", ("500-normal", "700-normal")),
    Face("spectral", "5.3.0", ("300-normal", "600-normal")),
    Face("pt-sans-narrow", "5.3.0", ("400-normal", "700-normal")),
    Face("fjalla-one", "5.3.0"),
    Face("domine", "5.3.0", ("400-normal", "700-normal")),
)
# Never trained on: used only to judge the model on unseen hands and types.
HELD_OUT = frozenset(
    {
        "caveat",
        "nothing-you-could-do",
        "just-another-hand",
        "gochi-hand",
        "mynerve",
        "merriweather",
        "oswald",
        "crimson-text",
        "fira-sans-condensed",
    }
)


def file_name(face: Face, style: str) -> str:
    """The package's Latin ``.woff`` file of one style."""
    return f"{face.name}-latin-{style}.woff"


def face_files(face: Face, cache: Path) -> list[Path]:
    """The cached font files of one face (empty if not fetched)."""
    paths = [cache / face.name / file_name(face, style) for style in face.styles]
    return [p for p in paths if p.is_file()]


def fetch_face(face: Face, cache: Path) -> None:
    """``npm pack`` one package at its pinned version and keep its Latin files of ``styles``."""
    folder = cache / face.name
    if all((folder / file_name(face, s)).is_file() for s in face.styles):
        return
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        spec = f"@fontsource/{face.name}@{face.version}"
        subprocess.run(
            ["npm", "pack", spec, "--pack-destination", tmp, "--silent"],
            check=True,
            capture_output=True,
        )
        (tgz,) = Path(tmp).glob("*.tgz")
        with tarfile.open(tgz) as tar:
            for style in face.styles:
                member = tar.extractfile(f"package/files/{file_name(face, style)}")
                if member is None:
                    raise FileNotFoundError(f"{spec} has no {file_name(face, style)}")
                (folder / file_name(face, style)).write_bytes(member.read())
            licence = tar.extractfile("package/LICENSE")
            if licence is not None:
                (folder / "LICENSE").write_bytes(licence.read())


def fetch_all(cache: Path = DEFAULT_CACHE) -> None:
    """Fetch every face (hand and print, held-out ones too) into ``cache``."""
    for face in (*HAND_FACES, *PRINT_FACES):
        fetch_face(face, cache)


def fonts(
    faces: tuple[Face, ...], cache: Path = DEFAULT_CACHE, held_out: bool = False
) -> tuple[Path, ...]:
    """Cached files of ``faces``: the training ones, or (``held_out``) only the held-out ones.

    Raises FileNotFoundError naming the fetch command when a face is not cached.
    """
    chosen = [f for f in faces if (f.name in HELD_OUT) == held_out]
    missing = [f.name for f in chosen if len(face_files(f, cache)) < len(f.styles)]
    if missing:
        raise FileNotFoundError(
            f"fontsource faces not cached in {cache}: {', '.join(missing)}; fetch them with "
            "python -m sudokucam.models.training.fontsource"
        )
    return tuple(p for f in chosen for p in face_files(f, cache))


def main() -> int:
    """Fetch every face into the cache folder given as the one argument (or the default)."""
    cache = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_CACHE
    try:
        fetch_all(cache)
    except (subprocess.CalledProcessError, FileNotFoundError, OSError) as exc:
        print(f"fetching fonts failed: {exc}", file=sys.stderr)
        return 1
    print(f"{len(HAND_FACES)} hand and {len(PRINT_FACES)} print faces in {cache}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
