"""`sudokucam read`, `solve` and `check`: read Sudoku photos, draw the answer, check pen entries.

Every flag and the output path are checked before the model is loaded (an output that is
the input photo itself, by any path or link, is refused unless --force); each photo is
loaded (and refused with one clear line naming it once) before the model is needed. A
missing or unreadable photo is an input failure (exit 1), like a corrupt one.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ...limits import DEFAULT_DPI, MAX_GRIDS_PER_PHOTO
from ...limits import DEFAULT_MAX_PIXELS as DEFAULT_MAX_PIXELS  # the default of --max-pixels
from ..words import solve_sentence
from .common import error_line, fail, printable, say, usage_error

if TYPE_CHECKING:
    import numpy as np

    from ...vision.load import ImageLoadError
    from ...vision.pipeline import Reader
    from ...vision.results import GridResult, PhotoResult

OUTPUT_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp", ".tif", ".tiff")
MAX_GRIDS_LIMIT = MAX_GRIDS_PER_PHOTO  # the most grids --max-grids may ask for on one photo
DOUBTFUL_RINGED = 3  # an unsolved grid without a broken rule: its least sure digits ringed
# A too-large photo's advice names a --max-pixels with this much room above its pixel
# count, rounded up to two significant digits (108 megapixels: --max-pixels 120000000).
PIXELS_HEADROOM = 1.1

# Paths are not checked by click (readable=False): a photo that is missing or unreadable is
# an input failure, refused by vision.load in one line with exit status 1, never a usage error.
ImagesArg = Annotated[
    list[Path],
    typer.Argument(
        metavar="PHOTO", help="Photos of Sudoku puzzles.", show_default=False, readable=False
    ),
]
ImageArg = Annotated[
    Path,
    typer.Argument(
        metavar="PHOTO", help="A photo of a Sudoku puzzle.", show_default=False, readable=False
    ),
]
OutputOpt = Annotated[
    Path,
    typer.Option("--output", "-o", metavar="FILE", show_default=False, readable=False,
                 help="Where to write the annotated photo (.png, .jpg, ...)."),
]  # fmt: skip
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
MaxGridsOpt = Annotated[
    int,
    typer.Option(
        "--max-grids",
        metavar="N",
        show_default=False,
        help="Read at most N puzzles per photo (default: all, up to 9).",
    ),
]
MaxPixelsOpt = Annotated[
    int,
    typer.Option(
        "--max-pixels",
        metavar="N",
        show_default=False,
        help="Refuse photos of more than N pixels (default: 50000000, 50 megapixels).",
    ),
]
PageOpt = Annotated[
    int | None,
    typer.Option(
        "--page",
        metavar="N",
        min=1,
        show_default=False,
        help="Read only page N of a PDF or multi-page TIFF (default: every page).",
    ),
]
ForceOpt = Annotated[
    bool,
    typer.Option("--force", help="Write the output even when it is the input photo itself."),
]
JsonlOpt = Annotated[
    bool,
    typer.Option("--jsonl", help="Print one JSON line per photo as each is read (long runs)."),
]
NoRepairOpt = Annotated[
    bool,
    typer.Option("--no-repair", help="Take the digits as read; never let the solver fix them."),
]
HintOpt = Annotated[
    bool,
    typer.Option(
        "--hint",
        help="Also say what comes next: one step from your right entries and notes, and why.",
    ),
]


def register(app: typer.Typer) -> None:
    """Add the `read`, `solve` and `check` commands to the app."""
    app.command("read")(read_command)
    app.command("solve")(solve_command)
    app.command("check")(check_command)


def read_command(
    images: ImagesArg,
    as_json: JsonOpt = False,
    as_jsonl: JsonlOpt = False,
    max_grids: MaxGridsOpt = MAX_GRIDS_LIMIT,
    no_repair: NoRepairOpt = False,
    max_pixels: MaxPixelsOpt = DEFAULT_MAX_PIXELS,
    page: PageOpt = None,
) -> None:
    """Read the digits of Sudoku photos (printed givens and pen entries) and solve them.

    Every puzzle on a photo is read, and every page of a PDF or multi-page TIFF (or only
    --page N). With --json, prints one list with an object per photo or page, in input
    order; with --jsonl, one compact object per line as each is read. Exit status: 0 when
    every puzzle was solved, 1 when one failed (a photo missing, unreadable or refused
    included), 2 for bad usage.
    """
    if as_json and as_jsonl:
        usage_error("--json and --jsonl do not go together: pick one")
    _check_max_grids(max_grids)
    _check_max_pixels(max_pixels)
    session = _Session(max_grids, no_repair, max_pixels)
    results = []
    for path in images:
        for read in session.read(path, page):
            result = read.result
            results.append(read)
            if as_jsonl:
                typer.echo(json.dumps(read.to_dict(), separators=(",", ":")))
            elif not as_json:
                _print_read(result)
            _report_errors([result])
    if as_json:
        typer.echo(json.dumps([r.to_dict() for r in results], indent=2))
    raise typer.Exit(0 if all(r.result.ok for r in results) else 1)


def solve_command(
    image: ImageArg,
    output: OutputOpt,
    as_json: JsonOpt = False,
    max_grids: MaxGridsOpt = MAX_GRIDS_LIMIT,
    no_repair: NoRepairOpt = False,
    max_pixels: MaxPixelsOpt = DEFAULT_MAX_PIXELS,
    force: ForceOpt = False,
    page: PageOpt = None,
) -> None:
    """Read a Sudoku photo, solve every puzzle on it and write the photo with the answers.

    The missing digits are written in blue in each empty cell, in the grid's own
    perspective; the output has the size of the input. A puzzle that could not be solved
    is written too, its doubtful cells ringed (in red the cells that break the rules,
    else in amber the digits read least surely), and says so (exit 1). Every page of a
    PDF or multi-page TIFF is solved (OUT_p1.png, OUT_p2.png, ...), or only --page N
    (written to OUT). An output that is the input photo itself is refused unless --force.
    The output is written to a temporary file beside it, then renamed: a full disk leaves
    an existing file as it was. Exit status 0 when every puzzle was solved, 1 otherwise.
    """
    session = _Session(max_grids, no_repair, max_pixels)
    _run_drawing(image, output, "solution", as_json, session, force=force, page=page)


def check_command(
    image: ImageArg,
    output: OutputOpt,
    as_json: JsonOpt = False,
    max_grids: MaxGridsOpt = MAX_GRIDS_LIMIT,
    no_repair: NoRepairOpt = False,
    next_step: HintOpt = False,
    max_pixels: MaxPixelsOpt = DEFAULT_MAX_PIXELS,
    force: ForceOpt = False,
    page: PageOpt = None,
) -> None:
    """Check the entries (pen or pencil) and notes of a half-filled paper Sudoku.

    An entry is called wrong only when it is read surely; one that disagrees with the
    answer but may be misread is "unsure", with the two likeliest readings, for you to
    look at. Wrong entries are ringed in red, unsure ones in amber and right ones in green
    on the written photo; the text says how many cells are left (cells with candidate
    notes included), which entries are wrong or unsure, and which cells' notes rule out
    the answer. With --hint it also gives the next step from where you are: your right
    entries and your notes (a cell whose notes leave out its answer first), as
    "next: ..." in the text and "next" in each grid's JSON; on a Sudoku X, jigsaw or
    Killer it is one of the variant's steps (singles, a cage's combinations, the 45 rule),
    on a 4×4 to 8×8 or 16×16 grid a single (10-16 named as numbers).
    An output that is the input photo itself is refused unless --force. Every page of a
    PDF or multi-page TIFF is checked (OUT_p1.png, ...), or only --page N. Exit status 0
    when every puzzle could be solved (whatever the entries), 1 otherwise.
    """
    session = _Session(max_grids, no_repair, max_pixels)
    _run_drawing(image, output, "check", as_json, session, next_step=next_step, force=force,
                 page=page)  # fmt: skip


class _Session:
    """Loads photos and builds the Reader (model) only when a photo needs it."""

    def __init__(
        self, max_grids: int, no_repair: bool, max_pixels: int = DEFAULT_MAX_PIXELS
    ) -> None:
        self.max_grids = max_grids
        self.no_repair = no_repair
        self.max_pixels = max_pixels
        self._reader: Reader | None = None

    def reader(self) -> Reader:
        """The Reader, built on first use."""
        if self._reader is None:
            from ...vision.pipeline import PipelineConfig, Reader

            config = PipelineConfig(
                max_grids=self.max_grids,
                more_when_seen=True,
                use_repair=not self.no_repair,
                max_pixels=self.max_pixels,
            )
            self._reader = Reader(config=config)
        return self._reader

    def read(self, path: Path, page: int | None = None) -> list[PageRead]:
        """Every page of a photo, PDF or multi-page TIFF (or only ``page``) read, each a
        PageRead; a file refused (missing, damaged, no such page) is one refused PageRead.

        A PDF whose page tree lists pages it does not hold gives one more refused PageRead
        naming them. Each page is decoded only as finely as the reader needs.
        """
        from ...vision.load import ImageLoadError, read_input
        from ...vision.pages import page_count

        try:
            data = read_input(path)
            counted = page_count(data, path.name)
            wanted = counted.readable if page is None else (page,)
            if page is not None and page > counted.pages:
                raise _no_such_page(path, page, counted.pages)
        except ImageLoadError as error:
            return [PageRead(path, 0, False, self._refused(str(path), path, error))]
        paged = counted.pages > 1
        reads = [PageRead(path, n, paged, self._read_page(data, path, n, paged)) for n in wanted]
        damaged = counted.broken_message(path.name) if page is None else None
        if damaged is not None:
            reads.append(PageRead(path, 0, False, self._refused(str(path), path, damaged)))
        return reads

    def _read_page(self, data: bytes, path: Path, page: int, paged: bool) -> PhotoResult:
        """One page of a file read (its refusal, when it cannot be loaded)."""
        from ...vision.load import ImageLoadError, check_room
        from ...vision.pages import open_page

        label = f"{path} p{page}" if paged else str(path)
        try:
            opened = open_page(data, path.name, page, dpi=DEFAULT_DPI, max_pixels=self.max_pixels)
            check_room(opened.photo.size, label)
            photo = opened.photo
            photo.scaled(self.reader().search_reduction(photo))  # damaged pixels refused here
        except ImageLoadError as error:
            return self._refused(label, path, error)
        if opened.note is not None:
            say(f"{label}: {opened.note}")
        return self.reader().read(photo, name=label)

    @staticmethod
    def _refused(label: str, path: Path, error: ImageLoadError | str) -> PhotoResult:
        """The result of a page or file that could not be loaded."""
        from ...vision.results import PhotoResult

        message = error if isinstance(error, str) else refusal(path, error)
        return PhotoResult(label, None, (), message)


@dataclass(frozen=True)
class PageRead:
    """One page of an input as read: its file, its 1-based page (0 for the whole file)
    and whether the file has several pages."""

    path: Path
    page: int
    paged: bool
    result: PhotoResult

    def to_dict(self) -> dict[str, object]:
        """The page's JSON: the photo's, with "page" for a page of a multi-page file."""
        doc = self.result.to_dict()
        return doc | {"page": self.page} if self.paged else doc

    def output(self, output: Path) -> Path:
        """Where this page's drawing goes when several pages are drawn: OUT_p2.png for
        page 2 of a multi-page file."""
        if not self.paged:
            return output
        return output.with_name(f"{output.stem}_p{self.page}{output.suffix}")


def _no_such_page(path: Path, page: int, pages: int) -> ImageLoadError:
    """The refusal of a --page beyond the file's last page."""
    from ...vision.load import ImageLoadError, LoadProblem

    what = "page" if pages == 1 else "pages"
    return ImageLoadError(f"{path} has no page {page} (it has {pages} {what})", LoadProblem.NO_PAGE)


def refusal(path: Path, error: ImageLoadError) -> str:
    """A load refusal naming the photo once, by the path given; too large says what to do."""
    from ...vision.load import LoadProblem

    message = str(error)
    if not message.startswith(str(path)) and message.startswith(path.name):
        message = str(path) + message[len(path.name) :]
    if error.problem is LoadProblem.TOO_LARGE and error.pixels is not None:
        message += f": use a smaller photo, or --max-pixels {roomier_limit(error.pixels)}"
    return message


def roomier_limit(pixels: int) -> int:
    """A --max-pixels that lets a photo of ``pixels`` through, with room, in round figures."""
    wanted = pixels * PIXELS_HEADROOM
    step = 10 ** max(0, math.floor(math.log10(wanted)) - 1)
    return math.ceil(wanted / step) * step


def _run_drawing(
    image: Path,
    output: Path,
    mode: str,
    as_json: bool,
    session: _Session,
    *,
    next_step: bool = False,
    force: bool = False,
    page: int | None = None,
) -> None:
    """Read one photo (each page of a PDF or TIFF), draw it in ``mode``, write it to
    ``output`` (OUT_pN for a page of many) and report."""
    _check_max_grids(session.max_grids)
    _check_max_pixels(session.max_pixels)
    _check_output(output)
    if not force and same_file(image, output):
        usage_error(
            f"--output {output} is the input photo; give another file name, "
            "or --force to write over it"
        )
    reads = session.read(image, page)
    several = sum(read.page > 0 for read in reads) > 1
    docs = []
    for read in reads:
        result, target = read.result, read.output(output) if several else output
        written = None
        if result.grids:
            written = _write(_drawing(result, mode, session), target)
        if as_json:
            doc = read.to_dict() | {"output": str(target) if written else None}
            if next_step:
                doc["grids"] = [g.to_dict() | {"next": _next_dict(g)} for g in result.grids]
            docs.append(doc)
        else:
            if read.paged and result.grids:
                typer.echo(f"{printable(result.source)}:")
            _print_drawing(result, mode, target if written else None, next_step)
        _report_errors([result])
    if as_json:
        typer.echo(json.dumps(docs[0] if len(docs) == 1 else docs, indent=2))
    raise typer.Exit(0 if all(r.result.ok for r in reads) else 1)


def _drawing(result: PhotoResult, mode: str, session: _Session) -> np.ndarray:
    """The photo drawn in ``mode``; in "solution" mode an unsolved grid without a broken
    rule also has its least sure digits ringed in amber (the cells to look at)."""
    from ...vision.draw import CheckMarks, draw_check_marks

    config = session.reader().config.draw
    picture = result.draw(mode=mode, config=config)
    if mode != "solution":
        return picture
    for grid in result.grids:
        if grid.solution is None and not grid.conflict_cells:
            marks = CheckMarks(unsure=doubtful_cells(grid))
            picture = draw_check_marks(picture, grid.detection.lattice, marks, config)
    return picture


def doubtful_cells(grid: GridResult) -> tuple[int, ...]:
    """The cells to look at on a grid that could not be solved: those that break the rules,
    else the DOUBTFUL_RINGED digits read least surely."""
    if grid.conflict_cells:
        return grid.conflict_cells
    filled = [c for c in range(81) if grid.givens[c] != "0" or grid.handwritten[c] != "0"]
    sureness = grid.reading.probs.max(axis=1)
    return tuple(sorted(sorted(filled, key=lambda c: float(sureness[c]))[:DOUBTFUL_RINGED]))


def _write(picture: np.ndarray, output: Path) -> bool:
    """Write the annotated photo through a temporary file beside it, renamed over
    ``output`` only once whole (a full disk leaves an existing file as it was); on
    failure say so in one line and exit 1."""
    import cv2

    from ...files import WriteError, atomic_write

    try:
        ok, encoded = cv2.imencode(output.suffix.lower(), picture)
    except cv2.error as error:
        fail(f"cannot write {output}: {error.msg if hasattr(error, 'msg') else error}")
    if not ok:
        fail(f"cannot write {output}: the picture could not be encoded")
    existed = output.exists()
    try:
        atomic_write(output, encoded.tobytes())
    except WriteError as error:
        kept = f"; {output} was left as it was" if existed else ""
        fail(f"cannot write {output}: {error.reason}{kept}")
    return True


def _check_max_grids(max_grids: int) -> None:
    """Refuse a --max-grids below 1 or above MAX_GRIDS_LIMIT (usage error)."""
    if not 1 <= max_grids <= MAX_GRIDS_LIMIT:
        usage_error(f"--max-grids must be 1-{MAX_GRIDS_LIMIT}, got {max_grids}")


def _check_max_pixels(max_pixels: int) -> None:
    """Refuse a --max-pixels below 1 (usage error)."""
    if max_pixels < 1:
        usage_error(f"--max-pixels must be at least 1, got {max_pixels}")


def same_file(first: Path, second: Path) -> bool:
    """True when two paths name one file: the same once links are followed, or one on disk.

    The second test catches hard links and bind mounts; a path that does not exist yet is
    never the same file as another.
    """
    try:
        if first.resolve() == second.resolve():
            return True
    except (OSError, RuntimeError):  # a link loop: compare what is on disk instead
        pass
    try:
        return os.path.samefile(first, second)
    except OSError:  # one of them does not exist (yet)
        return False


def _check_output(output: Path) -> None:
    """Refuse an output path with an unknown suffix or a missing folder (usage error)."""
    if output.suffix.lower() not in OUTPUT_SUFFIXES:
        usage_error(
            f"--output must end in one of {', '.join(OUTPUT_SUFFIXES)}, got {output.name!r}"
        )
    if output.is_dir():
        usage_error(f"--output {output} is a folder; give a file name")
    if not output.parent.resolve().is_dir():
        usage_error(f"--output folder {output.parent} does not exist")


def _report_errors(results: list[PhotoResult]) -> None:
    """One line on stderr for each photo that could not be read, naming the photo once."""
    for result in results:
        if result.error is not None:
            named = result.error.startswith(result.source)
            error_line(result.error if named else f"{result.source}: {result.error}")


def _print_read(result: PhotoResult) -> None:
    """A person's view of one photo: each grid as read and its status."""
    for i, grid in enumerate(result.grids, start=1):
        label = printable(result.source) + puzzle_label(i, len(result.grids), ", {}")
        typer.echo(f"{label}: {grid.status.replace('_', ' ')}")
        typer.echo(pretty_grid(grid))
        if grid.pen_cells:
            typer.echo("(' marks a handwritten digit)")
        typer.echo(grid.message)
    if result.solutions:
        typer.echo(solution_grids_line(result))


def _next_dict(grid: GridResult) -> dict[str, object] | None:
    """The next step from a checked grid as JSON; None when the grid has no solution."""
    from ...solver.geometry import cell_name, shape_for_size
    from ...solver.logic.variant_hint import VariantStep
    from ...solver.outcome import Wording

    found = grid.next_hint()
    if found is None:
        return None
    step = found.step
    shown: dict[str, object] | None = None
    if isinstance(step, VariantStep):
        shown = step.to_dict(grid.structure.size)
    elif step is not None:
        shown = step.to_dict(shape_for_size(9))
    status = found.status.spelled(Wording.HINT)
    cells = [cell_name(c, grid.structure.size) for c in found.wrong]
    return {"status": status, "message": found.message, "step": shown, "cells": cells}


def _next_line(grid: GridResult) -> str:
    """One line on what comes next, for the text of `sudokucam check --hint`."""
    from ...solver.geometry import cell_name
    from ...vision.types import VALUE_CHARS

    found = grid.next_hint()
    if found is None:
        return "next: no hint without a solution"
    if found.step is None:
        return f"next: {found.message}"
    unsure = {u.cell for u in grid.unsure_entries()}
    fixes = [
        f"{cell_name(c, grid.structure.size)} holds your "
        f"{grid.value_word(VALUE_CHARS.index(grid.handwritten[c]))}, which "
        + ("is wrong" if c in grid.wrong_entries else "looks wrong: look again")
        for c, _ in found.step.placements
        if c in grid.wrong_entries or c in unsure
    ]
    return f"next: {found.step}" + (f" ({'; '.join(fixes)})" if fixes else "")


def _print_drawing(
    result: PhotoResult, mode: str, output: Path | None, next_step: bool = False
) -> None:
    """A person's view of a solve or check: the message, the answer, where it was written.

    On a photo of several puzzles each one's lines start "puzzle 1 of 3: ...".
    """
    for i, grid in enumerate(result.grids, start=1):
        label = puzzle_label(i, len(result.grids), "{}: ")
        if mode == "check":
            typer.echo(label + grid.check_message)
            if next_step and grid.solution is not None:
                typer.echo(_next_line(grid))
        else:
            typer.echo(label + solve_sentence(grid))
            if grid.solution is not None:
                typer.echo(pretty_grid(grid, grid.solution))
    if result.solutions:
        typer.echo(solution_grids_line(result))
    if output is not None:
        say(f"wrote {output}{_unsolved_note(result, mode)}", err=False)


def _unsolved_note(result: PhotoResult, mode: str) -> str:
    """What the written photo shows of puzzles that were not solved ("" when all were)."""
    unsolved = [g for g in result.grids if g.solution is None]
    if mode != "solution" or not unsolved:
        return ""
    ringed = sum(len(doubtful_cells(g)) for g in unsolved)
    what = "the puzzle was" if len(result.grids) == 1 else f"{len(unsolved)} puzzles were"
    return (
        f" ({what} not solved: its {ringed} doubtful cells are ringed, look at those digits)"
        if len(unsolved) == 1
        else f" ({what} not solved: their {ringed} doubtful cells are ringed)"
    )


def solution_grids_line(result: PhotoResult) -> str:
    """The line naming the grids printed full beside the puzzles: answers, not puzzles."""
    count = len(result.solutions)
    grids = "a solution grid" if count == 1 else f"{count} solution grids"
    return f"also on this photo: {grids}, printed full (an earlier answer): nothing to solve"


def puzzle_label(index: int, count: int, form: str) -> str:
    """``form`` filled with "puzzle 2 of 3" when a photo holds several puzzles, else ""."""
    return form.format(f"puzzle {index} of {count}") if count > 1 else ""


def pretty_grid(grid: GridResult, digits: str | None = None) -> str:
    """The grid on paper: printed digits plain, pen digits marked ', answers plain too; a
    jigsaw's rows with their region labels beside them."""
    shown = digits or "".join(
        h if g == "0" else g for g, h in zip(grid.givens, grid.handwritten, strict=True)
    )
    cells = []
    for c, d in enumerate(shown):
        mark = "'" if grid.handwritten[c] != "0" and digits is None else " "
        cells.append(cell_text(d, grid.structure.size, grid.structure.glyphs) + mark)
    if grid.structure.regions:  # a jigsaw: no boxes to rule, its regions beside each row
        regions = grid.structure.region_rows()
        return "\n".join("".join(cells[r * 9 : r * 9 + 9]) + "   " + regions[r] for r in range(9))
    return ruled(cells, grid.structure.size)


def cell_text(digit: str, n: int, glyphs: str = "") -> str:
    """A cell's value as printed: '.' when empty; where the grid prints its own symbols
    (``glyphs``: a 16×16's 0-9 and A-F, or A-P) its symbol; on a grid past 9 cells a side
    (16×16) of numbers, the number 1-16 two characters wide (the strings write 10-16 as
    A-G)."""
    if n <= 9 and not glyphs:
        return "." if digit == "0" else digit
    from ...vision.types import VALUE_CHARS

    value = VALUE_CHARS.index(digit.upper())
    if glyphs:
        return "." if value == 0 else glyphs[value - 1]
    return " ." if value == 0 else f"{value:>2}"


def ruled(cells: list[str], n: int) -> str:
    """The cells (each as wide as the first) of a grid of ``n`` cells a side, its boxes
    ruled (3 × 3 on a 9×9, 2 rows × 3 columns on a 6×6: ``BOX_SHAPES``)."""
    from ...solver.geometry import BOX_SHAPES

    box_rows, box_cols = BOX_SHAPES[n]
    width = len(cells[0]) if cells else 2
    rule = "+" + "+".join(["-" * (width * box_cols + 1)] * (n // box_cols)) + "+"
    lines = [rule]
    for r in range(n):
        row = cells[r * n : r * n + n]
        parts = ("".join(row[b : b + box_cols]) for b in range(0, n, box_cols))
        lines.append("| " + "| ".join(parts) + "|")
        if r % box_rows == box_rows - 1:
            lines.append(rule)
    return "\n".join(lines)
