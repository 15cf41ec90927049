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
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .common import error_line, fail, say, usage_error

if TYPE_CHECKING:
    import numpy as np

    from ...vision.load import ImageLoadError
    from ...vision.pipeline import Reader
    from ...vision.results import GridResult, PhotoResult

OUTPUT_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp", ".tif", ".tiff")
MAX_GRIDS_LIMIT = 9  # the most grids --max-grids may ask for on one photo
# vision.load.DEFAULT_MAX_PIXELS, not imported here (it loads numpy and Pillow; --help
# stays fast); tests/test_bad_inputs.py checks the two agree.
DEFAULT_MAX_PIXELS = 50_000_000
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
) -> None:
    """Read the digits of Sudoku photos (printed givens and pen entries) and solve them.

    Every puzzle on a photo is read. With --json, prints one list with an object per
    photo, in input order; with --jsonl, one compact object per line as each photo is
    read. Exit status: 0 when every puzzle was solved, 1 when one failed (a photo missing,
    unreadable or refused included), 2 for bad usage.
    """
    if as_json and as_jsonl:
        usage_error("--json and --jsonl do not go together: pick one")
    _check_max_grids(max_grids)
    _check_max_pixels(max_pixels)
    session = _Session(max_grids, no_repair, max_pixels)
    results = []
    for path in images:
        result = session.read(path)
        results.append(result)
        if as_jsonl:
            typer.echo(json.dumps(result.to_dict(), separators=(",", ":")))
        elif not as_json:
            _print_read(result)
        _report_errors([result])
    if as_json:
        typer.echo(json.dumps([r.to_dict() for r in results], indent=2))
    raise typer.Exit(0 if all(r.ok for r in results) else 1)


def solve_command(
    image: ImageArg,
    output: OutputOpt,
    as_json: JsonOpt = False,
    max_grids: MaxGridsOpt = MAX_GRIDS_LIMIT,
    no_repair: NoRepairOpt = False,
    max_pixels: MaxPixelsOpt = DEFAULT_MAX_PIXELS,
    force: ForceOpt = False,
) -> None:
    """Read a Sudoku photo, solve every puzzle on it and write the photo with the answers.

    The missing digits are written in blue in each empty cell, in the grid's own
    perspective; the output has the size of the input. Cells that break the rules are
    ringed in red when there is no solution. An output that is the input photo itself is
    refused unless --force. Exit status 0 when every puzzle was solved, 1 otherwise.
    """
    session = _Session(max_grids, no_repair, max_pixels)
    _run_drawing(image, output, "solution", as_json, session, force=force)


def check_command(
    image: ImageArg,
    output: OutputOpt,
    as_json: JsonOpt = False,
    max_grids: MaxGridsOpt = MAX_GRIDS_LIMIT,
    no_repair: NoRepairOpt = False,
    next_step: HintOpt = False,
    max_pixels: MaxPixelsOpt = DEFAULT_MAX_PIXELS,
    force: ForceOpt = False,
) -> None:
    """Check the entries (pen or pencil) and notes of a half-filled paper Sudoku.

    An entry is called wrong only when it is read surely; one that disagrees with the
    answer but may be misread is "unsure", with the two likeliest readings, for you to
    look at. Wrong entries are ringed in red, unsure ones in amber and right ones in green
    on the written photo; the text says how many cells are left (cells with candidate
    notes included), which entries are wrong or unsure, and which cells' notes rule out
    the answer. With --hint it also gives the next step from where you are: your right
    entries and your notes (a cell whose notes leave out its answer first), as
    "next: ..." in the text and "next" in each grid's JSON. An output that is the input
    photo itself is refused unless --force. Exit status 0 when every puzzle could be
    solved (whatever the entries), 1 otherwise.
    """
    session = _Session(max_grids, no_repair, max_pixels)
    _run_drawing(image, output, "check", as_json, session, next_step=next_step, force=force)


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

    def read(self, path: Path) -> PhotoResult:
        """Load one photo (refusing bad files before the model loads) and read it.

        The photo is decoded only as finely as the reader needs (``Reader.search_reduction``).
        """
        from ...vision.load import ImageLoadError, check_room, open_photo
        from ...vision.results import PhotoResult

        try:
            photo = open_photo(path, max_pixels=self.max_pixels)
            check_room(photo.size, path.name)
            photo.scaled(self.reader().search_reduction(photo))  # damaged pixels refused here
        except ImageLoadError as error:
            return PhotoResult(str(path), None, (), refusal(path, error))
        return self.reader().read(photo, name=str(path))


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
) -> None:
    """Read one photo, draw it in ``mode``, write it to ``output`` and report."""
    _check_max_grids(session.max_grids)
    _check_max_pixels(session.max_pixels)
    _check_output(output)
    if not force and same_file(image, output):
        usage_error(
            f"--output {output} is the input photo; give another file name, "
            "or --force to write over it"
        )
    result = session.read(image)
    written = None
    if result.grids:
        written = _write(result.draw(mode=mode, config=session.reader().config.draw), output)
    if as_json:
        doc = result.to_dict() | {"output": str(output) if written else None}
        if next_step:
            doc["grids"] = [g.to_dict() | {"next": _next_dict(g)} for g in result.grids]
        typer.echo(json.dumps(doc, indent=2))
    else:
        _print_drawing(result, mode, output if written else None, next_step)
    _report_errors([result])
    raise typer.Exit(0 if result.ok else 1)


def _write(picture: np.ndarray, output: Path) -> bool:
    """Write the annotated photo; on failure say so on stderr and exit 1."""
    import cv2

    try:
        ok = cv2.imwrite(str(output), picture)
    except cv2.error as error:
        fail(f"cannot write {output}: {error.msg if hasattr(error, 'msg') else error}")
    if not ok:
        fail(f"cannot write {output}")
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
        label = result.source + puzzle_label(i, len(result.grids), ", {}")
        typer.echo(f"{label}: {grid.status.replace('_', ' ')}")
        typer.echo(pretty_grid(grid))
        if grid.pen_cells:
            typer.echo("(' marks a handwritten digit)")
        typer.echo(grid.message)


def _next_dict(grid: GridResult) -> dict[str, object] | None:
    """The next step from a checked grid as JSON; None when the grid has no solution."""
    from ...solver.geometry import cell_name, shape_for_size
    from ...solver.outcome import Wording

    found = grid.next_hint()
    if found is None:
        return None
    step = found.step.to_dict(shape_for_size(9)) if found.step is not None else None
    status = found.status.spelled(Wording.HINT)
    cells = [cell_name(c) for c in found.wrong]
    return {"status": status, "message": found.message, "step": step, "cells": cells}


def _next_line(grid: GridResult) -> str:
    """One line on what comes next, for the text of `sudokucam check --hint`."""
    from ...solver.geometry import cell_name

    found = grid.next_hint()
    if found is None:
        return "next: no hint without a solution"
    if found.step is None:
        return f"next: {found.message}"
    unsure = {u.cell for u in grid.unsure_entries()}
    fixes = [
        f"{cell_name(c)} holds your {grid.handwritten[c]}, which "
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
            typer.echo(label + grid.message)
            if grid.solution is not None:
                typer.echo(pretty_grid(grid, grid.solution))
    if output is not None:
        say(f"wrote {output}", err=False)


def puzzle_label(index: int, count: int, form: str) -> str:
    """``form`` filled with "puzzle 2 of 3" when a photo holds several puzzles, else ""."""
    return form.format(f"puzzle {index} of {count}") if count > 1 else ""


def pretty_grid(grid: GridResult, digits: str | None = None) -> str:
    """The grid on paper: printed digits plain, pen digits marked ', answers plain too."""
    shown = digits or "".join(
        h if g == "0" else g for g, h in zip(grid.givens, grid.handwritten, strict=True)
    )
    cells = []
    for c, d in enumerate(shown):
        mark = "'" if grid.handwritten[c] != "0" and digits is None else " "
        cells.append(("." if d == "0" else d) + mark)
    rule = "+" + "+".join(["-" * 7] * 3) + "+"
    lines = [rule]
    for r in range(9):
        row = cells[r * 9 : r * 9 + 9]
        lines.append("| " + "| ".join("".join(row[b : b + 3]) for b in (0, 3, 6)) + "|")
        if r % 3 == 2:
            lines.append(rule)
    return "\n".join(lines)
