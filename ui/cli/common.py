"""What the command modules share: one-line errors with their exit status, and common options.

Every refusal is one line on stderr starting with "error: ". Bad usage or unreadable
input exits with status 2 (`usage_error`); a failure of the work itself exits with
status 1 (`fail`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn

import typer

from ...solver import BOX_SHAPES

USAGE_STATUS = 2  # exit status for bad usage or unreadable input
FAILURE_STATUS = 1  # exit status when the input was fine but the work failed

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def error_line(message: str) -> None:
    """Print "error: message" on stderr."""
    typer.echo(f"error: {message}", err=True)


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


def read_text_file(path: str) -> str:
    """The text of a UTF-8 file; a usage error when it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        usage_error(f"cannot read {path}: {exc}")
