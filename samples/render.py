#!/usr/bin/env python3
"""Render realistic synthetic photos of newspaper Sudoku puzzles, with exact ground truth.

    python samples/render.py --out samples --seed 0          # the committed sample set
    python samples/render.py --out /tmp/s --kind progress --count 50 --seed 7
    python samples/render.py --out /tmp/p --pages 5 --n-puzzles 4 --dpi 200 --seed 3
    python samples/render.py --out /tmp/k --kind killer --count 8     # Killer Sudoku photos
    python samples/render.py --out /tmp/k --kind killer --killer-style tinted  # no outlines
    python samples/render.py --out samples --variants      # Sudoku X, jigsaw, look-alikes
    python samples/render.py --out /tmp/6 --kind small --count 20   # 6×6 Sudokus (2×3 boxes)
    python samples/render.py --out /tmp/4 --kind small --grid-size 4   # 4×4 (8×8: 2×4 boxes)
    python samples/render.py --out /tmp/12 --kind small --grid-size 12  # 12×12, numbers 1-12
    python samples/render.py --out /tmp/16 --kind sixteen --count 20   # 16×16, numbers 1-16
    python samples/render.py --out /tmp/16 --kind sixteen --symbols letters   # A-P (hex: 0-F)

A page is printed (paper, text columns, a crossword, the Sudoku grid and its givens in one
of several fonts), optionally filled in with a pen (including deliberate mistakes), bent,
photographed through a perspective camera, lit unevenly, blurred, made noisy and
JPEG-compressed. Every photo comes with the printed givens (`.dat`, the format of the
shared photo dataset), the pen entries (`.pen.dat`) and a `.json` with everything else:
solution, mistakes, the grid corners and all 100 grid-line crossings in output pixels,
fonts and effects.

This script and the `synth` package next to it (one module per step: puzzles, fonts,
sheet, paper, grid_drawing, pen, newspaper_page, bend, camera, sensor, puzzle_page, truth,
files, committed) are not part of the installed sudokucam package and are never imported
by it. This file is the command line and the stable import surface: tests and benchmarks
import it as ``sudokucam.samples.render`` (the editable install maps ``sudokucam`` to the
repository, so ``samples/synth`` is the subpackage ``sudokucam.samples.synth``). It needs
numpy, OpenCV, Pillow and the Debian font packages listed in FONT_PACKAGES. Images are
BGR uint8 arrays (OpenCV's order); all points are (x, y) pixels with pixel centres at
integer coordinates.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from sudokucam.samples.synth import fonts
from sudokucam.samples.synth.batches import render_batch, render_pages
from sudokucam.samples.synth.boxed_grids import SmallPhoto
from sudokucam.samples.synth.committed import (
    SAMPLE_MAX_BYTES,
    SAMPLES,
    SampleSpec,
    fit_quality,
    render_samples,
)
from sudokucam.samples.synth.files import (
    PAGE_JPEG_QUALITY,
    dat_text,
    encode_jpeg,
    grid_text,
    write_page,
    write_photo,
)
from sudokucam.samples.synth.fonts import (
    ALL_FONTS,
    FONT_PACKAGES,
    PEN_FONTS,
    PRINT_FONTS,
    TEXT_FONTS,
    TITLE_FONTS,
    FontMissingError,
    font_for_height,
    load_font,
    pick_font,
)
from sudokucam.samples.synth.killer_drawing import (
    KILLER_STYLES,
    TINTED,
    KillerStyle,
    KillerTruth,
    render_killer,
    render_killer_batch,
    write_killer_sample,
)
from sudokucam.samples.synth.lookalikes import LOOKALIKES, render_lookalike, write_lookalike_samples
from sudokucam.samples.synth.marks import Marks
from sudokucam.samples.synth.params import KINDS, KindRanges, PhotoParams, sample_params
from sudokucam.samples.synth.pen import choose_pen_entries
from sudokucam.samples.synth.photo import render_photo
from sudokucam.samples.synth.puzzle_page import render_page
from sudokucam.samples.synth.puzzles import count_solutions, make_puzzle, solved_grid
from sudokucam.samples.synth.sixteen_drawing import (
    SIXTEEN_SAMPLE_MAX_BYTES,
    SIXTEEN_STYLES,
    SIXTEEN_SYMBOLS,
    render_sixteen_batch,
    render_sixteen_photo,
    write_sixteen_sample,
)
from sudokucam.samples.synth.small_drawing import (
    SMALL_SAMPLE_MAX_BYTES,
    SMALL_SIZES,
    SMALL_STYLES,
    TWELVE,
    render_small_batch,
    render_small_photo,
    write_small_sample,
)
from sudokucam.samples.synth.truth import GridTruth, Photo, PhotoTruth
from sudokucam.samples.synth.variant_drawing import (
    VARIANT_STYLES,
    VariantPhoto,
    render_variant_photo,
    write_variant_samples,
)

__all__ = [
    "ALL_FONTS",
    "FONT_PACKAGES",
    "FONT_ROOT",
    "KILLER_STYLES",
    "KINDS",
    "LOOKALIKES",
    "PAGE_JPEG_QUALITY",
    "PEN_FONTS",
    "PRINT_FONTS",
    "SAMPLES",
    "SAMPLE_MAX_BYTES",
    "SIXTEEN_SAMPLE_MAX_BYTES",
    "SIXTEEN_STYLES",
    "SIXTEEN_SYMBOLS",
    "SMALL_SAMPLE_MAX_BYTES",
    "SMALL_SIZES",
    "SMALL_STYLES",
    "TEXT_FONTS",
    "TINTED",
    "TITLE_FONTS",
    "TWELVE",
    "VARIANT_STYLES",
    "FontMissingError",
    "GridTruth",
    "KillerStyle",
    "KillerTruth",
    "KindRanges",
    "Marks",
    "Photo",
    "PhotoParams",
    "PhotoTruth",
    "SampleSpec",
    "SmallPhoto",
    "VariantPhoto",
    "choose_pen_entries",
    "count_solutions",
    "dat_text",
    "encode_jpeg",
    "fit_quality",
    "font_for_height",
    "grid_text",
    "load_font",
    "main",
    "make_puzzle",
    "pick_font",
    "render_batch",
    "render_killer",
    "render_killer_batch",
    "render_lookalike",
    "render_page",
    "render_pages",
    "render_photo",
    "render_samples",
    "render_sixteen_batch",
    "render_sixteen_photo",
    "render_small_batch",
    "render_small_photo",
    "render_variant_photo",
    "resolve_font",
    "sample_params",
    "solved_grid",
    "write_killer_sample",
    "write_lookalike_samples",
    "write_page",
    "write_photo",
    "write_sixteen_sample",
    "write_small_sample",
    "write_variant_samples",
]

VARIANT_SAMPLE_MAX_BYTES = 160_000  # the variant and look-alike samples stay smaller still
FONT_ROOT = fonts.FONT_ROOT  # where resolve_font below looks (tests point it elsewhere)


def resolve_font(name: str, table: dict[str, str]) -> str:
    """The font itself if installed under FONT_ROOT, else an installed one of the same table."""
    return fonts.resolve_font(name, table, FONT_ROOT)


def _parser() -> argparse.ArgumentParser:
    """The command line's options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    kinds = sorted([*KINDS, "killer", "small", "sixteen"])
    parser.add_argument("--kind", choices=kinds, help="render a batch of this kind")
    parser.add_argument("--count", type=int, default=10, help="batch size with --kind")
    parser.add_argument(
        "--grid-size",
        type=int,
        choices=(*SMALL_SIZES, TWELVE),
        default=6,
        help="cells a side of --kind small (6: 2×3 boxes, 4: 2×2, 8: 2×4, 12: 3×4; default 6)",
    )
    parser.add_argument(
        "--symbols",
        choices=(*SIXTEEN_SYMBOLS, "mixed"),
        default="numbers",
        help="what --kind sixteen prints: numbers 1-16, hex 0-9 and A-F, letters A-P, or "
        "mixed (the three in turn; default numbers)",
    )
    parser.add_argument(
        "--killer-style",
        choices=(*KILLER_STYLES, TINTED),
        help="the cages of --kind killer: one style (tinted: told by colour alone, no "
        "outline); default the four newspaper styles in turn",
    )
    parser.add_argument("--pages", type=int, default=0, help="render this many puzzle pages")
    parser.add_argument("--n-puzzles", type=int, default=4, help="Sudokus per page (1-6)")
    parser.add_argument("--dpi", type=int, default=200, help="page resolution (72-600)")
    parser.add_argument(
        "--variants",
        action="store_true",
        help="render the Sudoku X and jigsaw samples (variants/), the Killer (killer/), the "
        "6×6 and 12×12 (small/), the 16×16 (sixteen/) and the look-alikes sudokucam refuses "
        "(lookalikes/: Samurai, Kakuro, KenKen, crossword)",
    )
    return parser


def _render(args: argparse.Namespace) -> list[Path]:
    """Render what the options ask for: puzzle pages, a batch of one kind, or the sample set."""
    if args.pages:
        return render_pages(args.out, args.seed, args.pages, args.n_puzzles, args.dpi)
    if args.kind == "killer":
        styles = (args.killer_style,) if args.killer_style else KILLER_STYLES
        return render_killer_batch(args.out, args.seed, args.count, styles)
    if args.kind == "small":
        return render_small_batch(args.out, args.seed, args.count, args.grid_size)
    if args.kind == "sixteen":
        return render_sixteen_batch(args.out, args.seed, args.count, args.symbols)
    if args.kind:
        return render_batch(args.out, args.seed, args.kind, args.count)
    if args.variants:
        variants = write_variant_samples(args.out / "variants", VARIANT_SAMPLE_MAX_BYTES)
        variants += write_killer_sample(args.out / "killer")
        variants += write_small_sample(args.out / "small", SMALL_SAMPLE_MAX_BYTES)
        variants += write_sixteen_sample(args.out / "sixteen", SIXTEEN_SAMPLE_MAX_BYTES)
        return variants + write_lookalike_samples(args.out / "lookalikes", VARIANT_SAMPLE_MAX_BYTES)
    return render_samples(args.out, args.seed)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: render the sample set, a batch of one kind, or puzzle pages."""
    args = _parser().parse_args(argv)
    try:
        written = _render(args)
    except (FontMissingError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, ValueError) else 1
    for path in written:
        print(f"{path}  {path.stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
