#!/usr/bin/env python3
"""Turn a rendered sample photo into a HEIC file, the way phones save photos.

    python samples/make_heic.py samples/progress/nearly_done.jpg samples/phone/nearly_done.heic

The picture is encoded with libheif's ``heif-enc`` (Debian package ``libheif-examples``;
HEVC through x265), at a phone-like quality. The sample's ground truth (``.dat``,
``.pen.dat``, ``.json``) is copied next to the new file under its name, so the tests read
the HEIC exactly like the JPEG it came from. sudokucam itself only decodes HEIC (pi-heif);
this script is not part of the package. The picture is stored upright: a HEIF file turns
its picture with its own ``irot`` box, which libheif applies when decoding.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

TRUTH_SUFFIXES = (".dat", ".pen.dat", ".json")


def encode_heic(source: Path, target: Path, quality: int) -> None:
    """Encode ``source`` (JPEG or PNG) as HEIC with heif-enc; raise naming what went wrong."""
    encoder = shutil.which("heif-enc")
    if encoder is None:
        raise RuntimeError("heif-enc not found: apt-get install libheif-examples")
    target.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [encoder, "--quality", str(quality), "--output", str(target), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0 or not target.is_file():
        raise RuntimeError(f"heif-enc failed on {source}: {done.stderr.strip() or done.stdout}")


def copy_truth(source: Path, target: Path) -> list[Path]:
    """Copy the sample's ground-truth files to ``target``'s name; the copies made.

    The ``.dat`` file's second line names the image format, so it says HEIC in the copy.
    """
    copies = []
    for suffix in TRUTH_SUFFIXES:
        truth = source.with_name(source.stem + suffix)
        if truth.is_file():
            copy = target.with_name(target.stem + suffix)
            shutil.copyfile(truth, copy)
            if suffix == ".dat":
                lines = copy.read_text(encoding="utf-8").splitlines(keepends=True)
                lines[1] = lines[1].replace(" JPG", " HEIC")
                copy.write_text("".join(lines), encoding="utf-8")
            copies.append(copy)
    return copies


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: source photo, target .heic, quality."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="a rendered sample photo (.jpg)")
    parser.add_argument("target", type=Path, help="where the .heic goes")
    parser.add_argument("--quality", type=int, default=40, help="HEVC quality 0-100")
    args = parser.parse_args(argv)
    if not args.source.is_file():
        parser.error(f"{args.source} does not exist")
    if args.target.suffix.lower() not in (".heic", ".heif"):
        parser.error("the target must end in .heic or .heif")
    try:
        encode_heic(args.source, args.target, args.quality)
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    copies = copy_truth(args.source, args.target)
    size = args.target.stat().st_size
    print(f"{args.target}: {size / 1024:.0f} KiB, truth: {', '.join(p.name for p in copies)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
