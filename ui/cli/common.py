"""What the command modules share: one-line errors, --quiet, NO_COLOR, common options.

Every refusal is one line on stderr starting with "error: ". Bad usage (a puzzle
argument that is neither a puzzle nor a readable file included) exits with status 2
(`usage_error`); a failed input (a photo missing, unreadable or refused) or a failure of
the work itself exits with status 1 (`fail`). Chatter (progress, "wrote ...", summary
lines) goes through `say`, which stays silent under `--quiet`; results and errors never do.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from importlib import metadata
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from typer._click.globals import get_current_context  # Typer 0.29 carries its own click

from ...limits import MAX_PUZZLE_TEXT_BYTES
from ...solver import BOX_SHAPES

USAGE_STATUS = 2  # exit status for bad usage
FAILURE_STATUS = 1  # exit status when an input (a photo) or the work failed
# Unicode categories never printed as they are: controls (ESC, BEL, CR), format characters
# (bidirectional overrides that reorder what a terminal shows), unassigned and surrogates
# (a file name that is not valid UTF-8 reaches Python as lone surrogates).
CONTROL_CATEGORIES = frozenset({"Cc", "Cf", "Cn", "Cs"})

QUIET_KEY = "sudokucam.quiet"  # Context.meta key (shared by a command and its parents)


def remember_quiet(ctx: typer.Context, value: bool) -> None:
    """Callback of --quiet: note it in the invocation's context, seen by every command."""
    if value:
        ctx.meta[QUIET_KEY] = True


QuietOpt = Annotated[
    bool,
    typer.Option(
        "--quiet",
        "-q",
        expose_value=False,
        callback=remember_quiet,
        help="Print only results and errors: no progress, no summaries.",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def is_quiet() -> bool:
    """True when this invocation was given --quiet (before or after the command name)."""
    ctx = get_current_context(silent=True)
    return ctx is not None and bool(ctx.meta.get(QUIET_KEY, False))


def printable(text: str, keep: str = "") -> str:
    """``text`` with every control character but those in ``keep`` written as an escape
    (``\x1b``, ``\n``): a file name holding a terminal escape sequence is shown, never
    run by the terminal, and cannot fake a line of output."""
    return "".join(
        ch if ch in keep or unicodedata.category(ch) not in CONTROL_CATEGORIES
        else ch.encode("unicode_escape").decode("ascii")
        for ch in text
    )  # fmt: skip


def say(message: str, *, err: bool = True) -> None:
    """Print chatter (progress, summaries, "wrote ...") unless --quiet; stderr by default.

    Control characters (a file name's escape sequences) are shown escaped; lines are kept.
    """
    if not is_quiet():
        typer.echo(printable(message, keep="\n"), err=err)


def no_color() -> bool:
    """True when the NO_COLOR environment variable is set to anything but empty."""
    return bool(os.environ.get("NO_COLOR"))


def package_version() -> str:
    """The installed sudokucam version (package metadata, else the package's own)."""
    try:
        return metadata.version("sudokucam")
    except metadata.PackageNotFoundError:
        from ... import __version__

        return __version__


def error_line(message: str) -> None:
    """Print "error: message" on stderr."""
    typer.echo(f"error: {printable(message)}", err=True)


def usage_error(message: str) -> NoReturn:
    """Print one error line on stderr and exit with status 2 (bad usage or input)."""
    error_line(message)
    raise typer.Exit(USAGE_STATUS)


def fail(message: str) -> NoReturn:
    """Print one error line on stderr and exit with status 1 (the work failed)."""
    error_line(message)
    raise typer.Exit(FAILURE_STATUS)


def check_size(size: int | None) -> None:
    """Refuse a --size that is not a supported grid size (usage error)."""
    if size is not None and size not in BOX_SHAPES:
        usage_error(f"--size must be one of {', '.join(map(str, BOX_SHAPES))}; got {size}")


def read_stdin(limit: int = MAX_PUZZLE_TEXT_BYTES) -> str:
    """Standard input as UTF-8 text, read up to ``limit`` bytes: more (``grid - </dev/zero``)
    is a usage error, said before memory runs out."""
    data = sys.stdin.buffer.read(limit + 1)
    if len(data) > limit:
        usage_error(f"stdin holds more than {limit // 2**20} MB: no file of puzzles is that large")
    try:
        return data.decode("utf-8-sig")  # a byte-order mark (Windows editors) is skipped
    except UnicodeDecodeError as exc:
        usage_error(f"cannot read stdin: not UTF-8 text ({exc.reason} at byte {exc.start})")


def read_text_file(path: str) -> str:
    """The text of a UTF-8 file (a byte-order mark skipped); a usage error naming the file
    once when it cannot be read."""
    try:
        if Path(path).stat().st_size > MAX_PUZZLE_TEXT_BYTES:
            usage_error(f"cannot read {path}: larger than {MAX_PUZZLE_TEXT_BYTES // 2**20} MB")
        return Path(path).read_text(encoding="utf-8-sig")
    except OSError as exc:
        usage_error(f"cannot read {path}: {exc.strerror or exc}")
    except UnicodeDecodeError as exc:
        usage_error(f"cannot read {path}: not UTF-8 text ({exc.reason} at byte {exc.start})")
