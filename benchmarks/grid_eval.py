"""Measure the grid finder on the shared newspaper photos.

Corner error of a photo = the largest distance between a found corner and the annotated
one, divided by the mean side length of the annotated grid (so 0.05 = 5 % of a side,
about half a cell). A grid counts as found when that error is at most ``--tolerance``.

    .venv/bin/python benchmarks/grid_eval.py                 # v2: all annotated photos
    .venv/bin/python benchmarks/grid_eval.py --ids validation
    .venv/bin/python benchmarks/grid_eval.py --set mixed --debug-dir /tmp/grids
    .venv/bin/python benchmarks/grid_eval.py --set samples          # samples/*/*.jpg
    .venv/bin/python benchmarks/grid_eval.py --set bent --count 20  # rendered bent pages
    .venv/bin/python benchmarks/grid_eval.py --set composite --count 40   # several grids

``samples`` and ``bent`` have exact truth (the lattice of line crossings): they also
report the lattice error in cells (distance of each found crossing from the true one
over the mean cell side), and corner error against the true corners. Those are the
centres of the border lines while ``GridDetection.corners`` are its outer corners, so
a perfect finder is off there by half the border's thickness (about 0.5 %).
``bent`` renders ``--count`` pages with ``samples/render.py`` (seeds from ``--seed``,
kind ``bent``: waved and curled pages) and saves them as JPEG first, like a camera.

``composite`` pastes annotated v2 photos on a white page (drawn with ``--seed`` from the
training and the validation ids, reported apart; ``--ids`` picks one): ``--count`` pairs
side by side at one height, half as many 2 × 3 sheets of six photos each scaled to fit a
640 × 480 place, and half as many pages of one photo at full size beside two at half
size. ``find_grids`` and ``find_all_grids`` (the command line's) look for up to 9 grids
on each; a grid counts as found within ``--tolerance`` of its annotated corners. Then
the false positives: validation photos given more than one grid, and ``--pages``
rendered newspaper pages (crosswords, tables) read with max_grids 8 (the batch's default
when the figures were recorded; 9 since it is one default with ``solve``).

The v2 annotations (``outlines_train.csv``, paths ``./images/imageN.jpg``) are in the
pixels of the upright photo, i.e. after its EXIF orientation is applied, which is what
``load_image`` returns.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from sudokucam.benchmarks.common import script_parser
from sudokucam.samples import render
from sudokucam.samples.dataset import (
    DATASET,
    photo_path,
    read_outlines,
    split_ids,
    validation_ids,
)
from sudokucam.vision.grid.config import GridConfig, with_setting
from sudokucam.vision.grid.find import find_all_grids, find_grid, find_grids
from sudokucam.vision.load import load_image
from sudokucam.vision.types import GridDetection

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class GridFinding:
    """One photo's result (lattice errors in cells, when the truth has a lattice)."""

    name: str
    seconds: float
    cpu: float
    score: float | None
    error: float | None
    lattice_mean: float | None = None
    lattice_max: float | None = None


@dataclass(frozen=True)
class Truth:
    """A photo with exactly known grid: corners (4, 2) and lattice (10, 10, 2)."""

    name: str
    image: np.ndarray
    lattice: np.ndarray

    @property
    def corners(self) -> np.ndarray:
        """Centres of the border lines' crossings, TL, TR, BR, BL."""
        return self.lattice[[0, 0, 9, 9], [0, 9, 9, 0]]


def sample_truths() -> list[Truth]:
    """The committed sample photos with one grid and a .json truth."""
    truths = []
    for path in sorted((REPO / "samples").glob("*/*.jpg")):
        meta = path.with_suffix(".json")
        if meta.is_file() and "lattice" in (data := json.loads(meta.read_text())):
            name = f"{path.parent.name}/{path.name}"
            truths.append(Truth(name, load_image(path), np.array(data["lattice"], np.float64)))
    return truths


def rendered_truths(kind: str, count: int, seed: int) -> list[Truth]:
    """``count`` photos rendered by samples/render.py, passed through JPEG like a camera's."""
    truths = []
    for index in range(seed, seed + count):
        photo = render.render_photo(index, kind)
        params = [cv2.IMWRITE_JPEG_QUALITY, photo.jpeg_quality]
        ok, data = cv2.imencode(".jpg", photo.image, params)
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        image = photo.image if decoded is None else decoded
        bend = photo.truth.effects.get("bend", "none")
        truths.append(Truth(f"{kind}{index}-{bend}", image, photo.truth.lattice))
    return truths


def lattice_errors(found: np.ndarray, truth: np.ndarray) -> tuple[float, float]:
    """Mean and largest distance of found crossings from the true ones, in cells."""
    cell = float(np.linalg.norm(truth[9, 9] - truth[0, 0]) / np.sqrt(2.0) / 9.0)
    distances = np.linalg.norm(found - truth, axis=-1) / cell
    return float(distances.mean()), float(distances.max())


def evaluate_truths(truths: list[Truth], config: GridConfig) -> list[GridFinding]:
    """Run the finder on photos with exact truth, timing find_grid alone."""
    outcomes = []
    for truth in truths:
        start, cpu_start = time.perf_counter(), time.process_time()
        found = find_grid(truth.image, config=config)
        seconds = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        if found is None:
            outcomes.append(GridFinding(truth.name, seconds, cpu, None, None))
            continue
        mean, largest = lattice_errors(found.lattice, truth.lattice)
        error = worst_corner_over_side(found.corners, truth.corners)
        outcomes.append(GridFinding(truth.name, seconds, cpu, found.score, error, mean, largest))
    return outcomes


def report_lattice(outcomes: list[GridFinding]) -> None:
    """Print each photo's lattice error and the summary over all."""
    measured = [o for o in outcomes if o.lattice_mean is not None and o.lattice_max is not None]
    for o in measured:
        print(f"  {o.name:24s} lattice mean {o.lattice_mean:.3f}  max {o.lattice_max:.3f} cells")
    if measured:
        means = [o.lattice_mean for o in measured if o.lattice_mean is not None]
        maxes = [o.lattice_max for o in measured if o.lattice_max is not None]
        print(f"lattice error mean      {statistics.mean(means):.4f} cells")
        print(
            f"lattice error max       {max(maxes):.4f} cells (mean of per-photo max "
            f"{statistics.mean(maxes):.4f})"
        )


def outlines_by_name() -> dict[str, np.ndarray]:
    """Annotated v2 corners (TL, TR, BR, BL as the photo lies) by image file name."""
    return {f"image{photo_id}.jpg": corners for photo_id, corners in read_outlines().items()}


def worst_corner_over_side(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance over the mean side of the annotated grid."""
    sides = np.linalg.norm(np.roll(truth, -1, axis=0) - truth, axis=1)
    return float(np.linalg.norm(found - truth, axis=1).max() / sides.mean())


def validation_names() -> set[str]:
    """Photo names of the validation split (models/validation_ids.txt)."""
    return {f"image{photo_id}.jpg" for photo_id in validation_ids()}


def draw_debug(
    image: np.ndarray, found: GridDetection | None, truth: np.ndarray | None
) -> np.ndarray:
    """The photo with the found lattice (green) and the annotated outline (red)."""
    out = image.copy()
    if truth is not None:
        cv2.polylines(out, [truth.astype(np.int32)], True, (0, 0, 255), 2)
    if found is not None:
        for i in range(10):
            cv2.polylines(out, [found.lattice[i].astype(np.int32)], False, (0, 200, 0), 1)
            cv2.polylines(out, [found.lattice[:, i].astype(np.int32)], False, (0, 200, 0), 1)
        cv2.putText(out, f"{found.score:.2f}", (10, 30), 0, 1.0, (0, 160, 0), 2)
    return out


def evaluate(
    paths: list[Path],
    outlines: dict[str, np.ndarray],
    debug_dir: Path | None,
    config: GridConfig,
) -> list[GridFinding]:
    """Run the finder on every photo, timing find_grid alone."""
    outcomes = []
    for path in paths:
        image = load_image(path)
        start, cpu_start = time.perf_counter(), time.process_time()
        found = find_grid(image, config=config)
        seconds = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        truth = outlines.get(path.name)
        error = (
            None if found is None or truth is None else worst_corner_over_side(found.corners, truth)
        )
        outcomes.append(
            GridFinding(path.name, seconds, cpu, None if found is None else found.score, error)
        )
        if debug_dir is not None:
            cv2.imwrite(str(debug_dir / path.name), draw_debug(image, found, truth))
    return outcomes


def report(outcomes: list[GridFinding], tolerance: float, annotated: bool) -> None:
    """Print the summary table and the failures."""
    seconds = [o.seconds for o in outcomes]
    found = [o for o in outcomes if o.score is not None]
    print(f"photos                  {len(outcomes)}")
    print(f"grid returned           {len(found)} ({len(found) / max(1, len(outcomes)):.1%})")
    if annotated:
        errors = [o.error for o in outcomes if o.error is not None]
        for limit in sorted({0.03, tolerance, 0.10}):
            good = [e for e in errors if e <= limit]
            share = len(good) / max(1, len(outcomes))
            print(f"within {limit:.0%} corner error  {len(good)} ({share:.1%})")
        if errors:
            print(f"corner error mean       {statistics.mean(errors):.4f}")
            print(f"corner error median     {statistics.median(errors):.4f}")
    print(f"median s / photo        {statistics.median(seconds):.4f}")
    print(f"max s / photo           {max(seconds):.4f}")
    print(f"median CPU s / photo    {statistics.median(o.cpu for o in outcomes):.4f}")
    scores = [o.score for o in found if o.score is not None]
    if scores:
        print(f"grid score min/median   {min(scores):.3f} / {statistics.median(scores):.3f}")
    failures = [
        o
        for o in outcomes
        if o.score is None or (annotated and (o.error is None or o.error > tolerance))
    ]
    if failures:
        print("failures:")
        for o in failures:
            error = "-" if o.error is None else f"{o.error:.3f}"
            score = "none" if o.score is None else f"{o.score:.3f}"
            print(f"  {o.name:16s} score {score:>6s}  error {error}")


# --- several grids on a page (--set composite) ---------------------------------------

PAPER = 255  # the sheet the photos of a composite page are pasted on: white
SHEET_PLACE = (640, 480)  # (width, height) of each photo's place on a six-photo sheet
PAGE_GRIDS = 9  # grids looked for on a composite page: the CLI's --max-grids default


@dataclass(frozen=True)
class Annotated:
    """A v2 photo and the annotated corners of its grid."""

    name: str
    image: np.ndarray
    outline: np.ndarray


@dataclass(frozen=True)
class Composite:
    """A page made of annotated photos, each grid's corners moved into its pixels."""

    name: str
    image: np.ndarray
    outlines: tuple[np.ndarray, ...]


def paste(canvas: np.ndarray, photo: Annotated, box: tuple[int, int, int, int]) -> np.ndarray:
    """Paste ``photo`` scaled to fit ``box`` (left, top, width, height), centred in it.

    Returns its grid's corners in the canvas's pixels.
    """
    left, top, width, height = box
    scale = min(width / photo.image.shape[1], height / photo.image.shape[0])
    w, h = round(photo.image.shape[1] * scale), round(photo.image.shape[0] * scale)
    x, y = left + (width - w) // 2, top + (height - h) // 2
    canvas[y : y + h, x : x + w] = cv2.resize(photo.image, (w, h), interpolation=cv2.INTER_AREA)
    return photo.outline * [w / photo.image.shape[1], h / photo.image.shape[0]] + [x, y]


def pair_page(photos: list[Annotated]) -> Composite:
    """Two photos side by side, the taller scaled down to the other's height."""
    height = min(p.image.shape[0] for p in photos)
    widths = [round(p.image.shape[1] * height / p.image.shape[0]) for p in photos]
    canvas = np.full((height, sum(widths), 3), PAPER, np.uint8)
    first = paste(canvas, photos[0], (0, 0, widths[0], height))
    second = paste(canvas, photos[1], (widths[0], 0, widths[1], height))
    return Composite("+".join(p.name for p in photos), canvas, (first, second))


def sheet_page(photos: list[Annotated]) -> Composite:
    """Six photos on a 2 × 3 sheet, each scaled to fit its place (``SHEET_PLACE``)."""
    width, height = SHEET_PLACE
    canvas = np.full((2 * height, 3 * width, 3), PAPER, np.uint8)
    outlines = tuple(
        paste(canvas, photo, ((k % 3) * width, (k // 3) * height, width, height))
        for k, photo in enumerate(photos)
    )
    return Composite("+".join(p.name for p in photos), canvas, outlines)


def mixed_page(photos: list[Annotated]) -> Composite:
    """One photo at full size, two at half its size stacked on its right."""
    height, width = photos[0].image.shape[:2]
    canvas = np.full((height, width + width // 2, 3), PAPER, np.uint8)
    outlines = [paste(canvas, photos[0], (0, 0, width, height))]
    for row, photo in enumerate(photos[1:]):
        outlines.append(paste(canvas, photo, (width, row * (height // 2), width // 2, height // 2)))
    return Composite("+".join(p.name for p in photos), canvas, tuple(outlines))


# kind: (photos per page, builder, share of --count pages)
COMPOSITES = {
    "pair": (2, pair_page, 1.0),
    "six-sheet": (6, sheet_page, 0.5),
    "mixed scales": (3, mixed_page, 0.5),
}


@dataclass(frozen=True)
class PageCount:
    """Grids on one composite page: annotated, found within tolerance, found but further
    off than that (imprecise), found away from every annotated grid (extra), seconds."""

    total: int
    found: int
    imprecise: int
    extra: int
    seconds: float


def count_grids(
    grids: list[GridDetection], outlines: tuple[np.ndarray, ...], tolerance: float
) -> tuple[int, int, int]:
    """(found, imprecise, extra): annotated grids found within ``tolerance``, grids on an
    annotated one but further off, grids on none."""
    errors = [[worst_corner_over_side(g.corners, o) for o in outlines] for g in grids]
    found = sum(any(row[k] <= tolerance for row in errors) for k in range(len(outlines)))
    centres = [tuple(map(float, g.corners.mean(axis=0))) for g in grids]
    on_one = [
        any(cv2.pointPolygonTest(o.astype(np.float32), c, False) >= 0 for o in outlines)
        for c in centres
    ]
    off = [min(row) > tolerance for row in errors]
    imprecise = sum(o and a for o, a in zip(off, on_one, strict=True))
    extra = sum(not a for a in on_one)
    return found, imprecise, extra


def composite_pages(kind: str, count: int, ids: list[int], seed: int) -> list[Composite]:
    """``count`` pages of one kind, photos drawn from ``ids`` without repeats on a page."""
    per_page, build, _ = COMPOSITES[kind]
    outlines = read_outlines()
    ids = [i for i in ids if i in outlines]
    rng = np.random.default_rng(seed)
    pages = []
    for _ in range(count):
        chosen = [int(i) for i in rng.choice(ids, per_page, replace=False)]
        photos = [
            Annotated(f"image{i}", load_image(photo_path(i, "v2")), outlines[i]) for i in chosen
        ]
        pages.append(build(photos))
    return pages


def evaluate_pages(
    pages: list[Composite],
    finder: Callable[..., list[GridDetection]],
    tolerance: float,
    config: GridConfig,
) -> list[PageCount]:
    """Run ``finder`` (max_grids = ``PAGE_GRIDS``) on each page and count its grids."""
    counts = []
    for page in pages:
        start = time.perf_counter()
        grids = finder(page.image, config=config, max_grids=PAGE_GRIDS)
        seconds = time.perf_counter() - start
        found, imprecise, extra = count_grids(grids, page.outlines, tolerance)
        counts.append(PageCount(len(page.outlines), found, imprecise, extra, seconds))
        if found < len(page.outlines) or extra:
            print(
                f"    {page.name}: {found}/{len(page.outlines)} found, "
                f"{imprecise} imprecise, {extra} extra"
            )
    return counts


def composite_row(split: str, kind: str, finder: str, counts: list[PageCount]) -> str:
    """One Markdown table row of the composite report."""
    total, found = sum(c.total for c in counts), sum(c.found for c in counts)
    imprecise, extra = sum(c.imprecise for c in counts), sum(c.extra for c in counts)
    seconds = statistics.median(c.seconds for c in counts)
    return (
        f"| {split} | {kind} | {len(counts)} | {finder} | {found}/{total} "
        f"({found / total:.1%}) | {imprecise} | {extra} | {seconds:.2f} |"
    )


def evaluate_composites(args: argparse.Namespace, config: GridConfig) -> list[str]:
    """Every composite kind on the asked splits with both finders, as table rows."""
    splits = (
        ["training", "validation"]
        if args.ids == "all"
        else ["validation" if args.ids == "validation" else "training"]
    )
    finders = {"find_grids": find_grids, "find_all_grids": find_all_grids}
    rows = []
    for split in splits:
        for kind, (_, _, share) in COMPOSITES.items():
            pages = composite_pages(
                kind, max(1, round(args.count * share)), split_ids(split), args.seed
            )
            for name, finder in finders.items():
                print(f"  {split} {kind} {name}")
                counts = evaluate_pages(pages, finder, args.tolerance, config)
                rows.append(composite_row(split, kind, name, counts))
    return rows


def single_photo_extras(config: GridConfig) -> str:
    """Validation photos (printed and pen-filled) given more than one grid, max_grids 9."""
    photos = [photo_path(i, v) for i in validation_ids() for v in ("v2", "mixed")]
    photos = [p for p in photos if p.is_file()]
    counts = {"find_grids": 0, "find_all_grids": 0}
    for path in photos:
        image = load_image(path)
        counts["find_grids"] += len(find_grids(image, config=config, max_grids=PAGE_GRIDS)) > 1
        more = len(find_all_grids(image, config=config, max_grids=PAGE_GRIDS)) > 1
        counts["find_all_grids"] += more
    return (
        f"single validation photos with more than one grid: {counts['find_grids']}/"
        f"{len(photos)} (find_grids), {counts['find_all_grids']}/{len(photos)} "
        "(find_all_grids)"
    )


def rendered_page_extras(count: int, seed: int, config: GridConfig) -> str:
    """Rendered newspaper pages (Sudokus among crosswords, tables, articles): puzzles
    found and other grids returned, by ``find_grids`` with max_grids 8 (the batch's default
    when the figures were recorded)."""
    found = total = others = 0
    for index in range(seed, seed + count):
        puzzles, dpi = 2 + index % 5, (150, 200, 300)[index % 3]
        image, truths = render.render_page(index, puzzles, dpi)
        grids = find_grids(image, config=config, max_grids=8)
        near = [
            [np.abs(g.corners - t.corners).max() < 0.2 * cell_side(t.corners) for t in truths]
            for g in grids
        ]
        found += sum(any(row[k] for row in near) for k in range(len(truths)))
        others += sum(not any(row) for row in near)
        total += len(truths)
    return (
        f"rendered pages ({count}, 150-300 dpi): {found}/{total} puzzles found, "
        f"{others} crosswords, tables or other grids returned"
    )


def cell_side(corners: np.ndarray) -> float:
    """Mean side of a grid's cells from its corners (TL, TR, BR, BL)."""
    return float(np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1).mean()) / 9


def composite_main(args: argparse.Namespace, config: GridConfig) -> int:
    """``--set composite``: grids found on composite pages, then the false-positive checks."""
    rows = evaluate_composites(args, config)
    print("| ids | page | pages | finder | grids found | imprecise | extra | median s / page |")
    print("|---|---|---:|---|---:|---:|---:|---:|")
    print("\n".join(rows))
    print(single_photo_extras(config))
    print(rendered_page_extras(args.pages, args.seed, config))
    return 0


def parse_override(item: str) -> tuple[str, Any]:
    """``section.name=value`` into a GridConfig setting and a number of the setting's type."""
    name, _, value = item.partition("=")
    default: Any = GridConfig()
    for part in name.split("."):
        default = getattr(default, part, None)
    if not isinstance(default, int | float):
        raise SystemExit(f"unknown GridConfig setting {name!r}")
    return name, type(default)(value)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = script_parser(__doc__)
    parser.add_argument(
        "--set", choices=("v2", "mixed", "samples", "bent", "composite"), default="v2"
    )
    parser.add_argument(
        "--count", type=int, default=20, help="pages for --set bent; pairs for --set composite"
    )
    parser.add_argument("--seed", type=int, default=1000, help="first seed (bent, composite)")
    parser.add_argument(
        "--pages", type=int, default=30, help="rendered pages checked by --set composite"
    )
    parser.add_argument("--ids", choices=("all", "validation", "train"), default="all")
    parser.add_argument("--tolerance", type=float, default=0.05)
    parser.add_argument("--debug-dir", type=Path, default=None)
    parser.add_argument("--only", nargs="*", default=None, help="image names, e.g. image12.jpg")
    parser.add_argument(
        "--config", nargs="*", default=[], help="GridConfig overrides, e.g. select.min_score=0.6"
    )
    args = parser.parse_args(argv)
    config = GridConfig()
    for name, value in map(parse_override, args.config):
        config = with_setting(config, name, value)
    if args.set in ("samples", "bent"):
        truths = sample_truths() if args.set == "samples" else []
        if args.set == "bent":
            truths = rendered_truths("bent", args.count, args.seed)
        outcomes = evaluate_truths(truths, config)
        report(outcomes, args.tolerance, annotated=True)
        report_lattice(outcomes)
        return 0
    if not DATASET.is_dir():
        print(f"no dataset at {DATASET}", file=sys.stderr)
        return 2
    if args.set == "composite":
        return composite_main(args, config)
    outlines = outlines_by_name() if args.set == "v2" else {}
    paths = sorted((DATASET / args.set / "train").glob("*.jpg"), key=lambda p: int(p.stem[5:]))
    if args.set == "v2":
        paths = [p for p in paths if p.name in outlines]
    held_out = validation_names()
    if args.ids == "validation":
        paths = [p for p in paths if p.name in held_out]
    elif args.ids == "train":
        paths = [p for p in paths if p.name not in held_out]
    if args.only:
        paths = [p for p in paths if p.name in set(args.only)]
    if args.debug_dir is not None:
        args.debug_dir.mkdir(parents=True, exist_ok=True)
    outcomes = evaluate(paths, outlines, args.debug_dir, config)
    report(outcomes, args.tolerance, annotated=args.set == "v2")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
