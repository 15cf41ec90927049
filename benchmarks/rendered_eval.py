"""Read rendered photos of one kind end to end against their exact truth.

Photos come from ``samples/render.py`` (seeds ``--seed`` onwards), pass through JPEG at
their own quality like a camera's, and are read by ``Reader.check``: grid found, givens
and pen digits exactly as drawn, digits right but print taken for pen or the reverse, the
answer right, median milliseconds. ``--compare-polarity`` also reads them without the
search in the photo's negative (``PipelineConfig.polarity`` off), in the same run.
``--held-out-fonts`` prints the givens in each of four faces the renderer never uses (so
the model never trained on them: bold serif, bold monospace, bold italic, condensed, as
magazines and books print), ``count`` photos each; ``--pencil`` fills in with pencil.
``--held-out-hands`` writes the pen entries (``--kind progress``) in each style of the five
handwriting faces the digit model never trained on (``models/training/fontsource.py``
``HELD_OUT``: caveat, nothing-you-could-do, just-another-hand, gochi-hand, mynerve; fetch
them once with ``python -m sudokucam.models.training.fontsource``).
``--pen-colour`` writes every pen entry in one of the renderer's pen inks (``PEN_COLOURS``:
blue, navy or black; by default each photo draws one at random): black pen shows whether
entries are told from print without the ink's colour.

    .venv/bin/python benchmarks/rendered_eval.py --kind screen --count 30
    .venv/bin/python benchmarks/rendered_eval.py --kind screen --compare-polarity
    .venv/bin/python benchmarks/rendered_eval.py --kind webcam --count 20 --seed 500
    .venv/bin/python benchmarks/rendered_eval.py --kind progress --count 8 --held-out-fonts
    .venv/bin/python benchmarks/rendered_eval.py --kind progress --count 10 --held-out-hands
    .venv/bin/python benchmarks/rendered_eval.py --kind progress --held-out-hands --pen-colour black
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from sudokucam.benchmarks.common import script_parser
from sudokucam.samples import render
from sudokucam.samples.synth.pen import PEN_INKS
from sudokucam.vision.grid.polarity import PolarityConfig
from sudokucam.vision.pipeline import PipelineConfig, Reader
from sudokucam.vision.read.classifier import DigitClassifier

# Print faces the renderer's PRINT_FONTS leave out (fonts-urw-base35)
HELD_OUT_PRINT_FONTS = {
    "URW Bookman Demi": "opentype/urw-base35/URWBookman-Demi.otf",
    "Nimbus Mono PS Bold": "opentype/urw-base35/NimbusMonoPS-Bold.otf",
    "Nimbus Sans Bold Italic": "opentype/urw-base35/NimbusSans-BoldItalic.otf",
    "Nimbus Sans Narrow": "opentype/urw-base35/NimbusSansNarrow-Regular.otf",
}

# The renderer's pen inks by name (``samples/synth/pen.py`` PEN_INKS, in its order)
PEN_COLOURS = dict(zip(("blue", "navy", "black"), PEN_INKS, strict=True))


@dataclass(frozen=True)
class RenderedRecord:
    """How one rendered photo was read."""

    found: bool
    exact: bool
    swapped: int  # cells whose digit is right but print was taken for pen or the reverse
    solved: bool
    seconds: float


def camera_jpeg(photo: render.Photo) -> np.ndarray:
    """The rendered photo after a round trip through JPEG at its own quality."""
    ok, data = cv2.imencode(".jpg", photo.image, [cv2.IMWRITE_JPEG_QUALITY, photo.jpeg_quality])
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
    return photo.image if decoded is None else decoded


def digits(grid: np.ndarray) -> str:
    """A 9 × 9 digit array as 81 characters."""
    return "".join(str(int(d)) for d in np.asarray(grid).ravel())


def read_one(reader: Reader, photo: render.Photo) -> RenderedRecord:
    """Read one photo and compare it with its truth."""
    image = camera_jpeg(photo)
    started = time.perf_counter()
    result = reader.read(image, name="rendered")
    seconds = time.perf_counter() - started
    if not result.grids:
        return RenderedRecord(False, False, 0, False, seconds)
    grid, truth = result.grids[0], photo.truth
    givens, pen = digits(truth.givens), digits(truth.pen)
    exact = (grid.givens, grid.handwritten) == (givens, pen)
    read = zip(grid.givens, grid.handwritten, givens, pen, strict=True)
    swapped = sum(1 for g, h, tg, tp in read if g == tp != "0" or h == tg != "0")
    return RenderedRecord(True, exact, swapped, grid.solution == digits(truth.solution), seconds)


def row(label: str, outcomes: list[RenderedRecord]) -> str:
    """One Markdown table row."""
    n = len(outcomes)
    return (
        f"| {label} | {n} | {sum(o.found for o in outcomes) / n:.1%} "
        f"| {sum(o.exact for o in outcomes) / n:.1%} | {sum(o.swapped for o in outcomes)} "
        f"| {sum(o.solved for o in outcomes) / n:.1%} "
        f"| {statistics.median(o.seconds for o in outcomes) * 1000:.0f} |"
    )


def held_out_fonts() -> list[str]:
    """The held-out print faces, made known to the renderer for this run."""
    render.PRINT_FONTS.update(HELD_OUT_PRINT_FONTS)
    render.ALL_FONTS.update(HELD_OUT_PRINT_FONTS)
    return sorted(HELD_OUT_PRINT_FONTS)


def held_out_hands() -> list[str]:
    """The held-out handwriting faces' files, made known to the renderer for this run."""
    from sudokucam.models.training import fontsource

    files = fontsource.fonts(fontsource.HAND_FACES, held_out=True)
    table = {path.stem.replace("-latin-", " "): str(path) for path in files}
    render.PEN_FONTS.update(table)
    render.ALL_FONTS.update(table)
    return sorted(table)


def faces_to_read(args: argparse.Namespace) -> list[dict[str, object]]:
    """The renderer's fixed face of each run (none, each held-out print or hand face),
    with the pen's ink where ``--pen-colour`` names one."""
    fixed: list[dict[str, object]] = []
    if args.held_out_fonts:
        fixed += [{"print_font": face} for face in held_out_fonts()]
    if args.held_out_hands:
        fixed += [{"pen_font": face} for face in held_out_hands()]
    ink = {} if args.pen_colour is None else {"pen_ink": PEN_COLOURS[args.pen_colour]}
    return [face | ink for face in fixed or [{}]]


def main() -> None:
    """Render, read and print the table."""
    parser = script_parser(__doc__)
    parser.add_argument("--kind", choices=sorted(render.KINDS), default="screen")
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument(
        "--compare-polarity", action="store_true", help="also read without the negative's search"
    )
    parser.add_argument(
        "--held-out-fonts", action="store_true", help="givens in faces the renderer never uses"
    )
    parser.add_argument(
        "--held-out-hands", action="store_true", help="pen entries in hands never trained on"
    )
    parser.add_argument("--pencil", action="store_true", help="fill in with pencil")
    parser.add_argument(
        "--pen-colour", choices=sorted(PEN_COLOURS), help="one pen ink for every photo"
    )
    parser.add_argument(
        "--model-dir", type=Path, default=None, help="a model folder other than the shipped one"
    )
    args = parser.parse_args()
    readers = {
        "default": Reader(None if args.model_dir is None else DigitClassifier(args.model_dir))
    }
    if args.compare_polarity:
        off = PipelineConfig(polarity=PolarityConfig(on=False))
        readers["no negative"] = Reader(readers["default"].classifier, off)
    marks = render.Marks(pencil=True) if args.pencil else None
    faces = faces_to_read(args)
    seeds = range(args.seed, args.seed + args.count)
    print(f"kind {args.kind}{' in pencil' if marks else ''}, seeds {seeds[0]}-{seeds[-1]}")
    print("| reader | photos | grid found | read exactly | print/pen swapped | solved right "
          "| median ms |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for fixed in faces:
        photos = [render.render_photo(s, args.kind, marks=marks, **fixed) for s in seeds]
        for label, reader in readers.items():
            face = [str(v) for k, v in fixed.items() if k != "pen_ink"]
            ink = [f"{args.pen_colour} pen"] if args.pen_colour else []
            name = ", ".join([label, *face, *ink])
            print(row(name, [read_one(reader, photo) for photo in photos]), flush=True)


if __name__ == "__main__":
    main()
