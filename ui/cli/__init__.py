"""The `sudokucam` console script: one Typer app, one module per command group.

Each command module defines ``register(app)``; `common` holds what they share (the
one-line errors and their exit status, `say` for chatter that --quiet silences, common
options) and `core` the click classes that give every command its plain help and
one-line usage errors. Heavy imports (OpenCV, onnxruntime) happen inside the commands
so that ``--help``, ``--version`` and flag checks stay fast.
"""

from __future__ import annotations

from typing import Annotated

import typer
from typer.core import TyperCommand

from .common import QuietOpt, package_version
from .core import Command, Group

app = typer.Typer(
    name="sudokucam",
    cls=Group,
    no_args_is_help=True,
    add_completion=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

# Command modules register themselves here, one line each.
COMMAND_MODULES: tuple[str, ...] = ("serve", "grid", "photo", "batch", "logic", "live")


def show_version(value: bool) -> None:
    """Callback of --version: print "sudokucam X.Y.Z" and exit 0."""
    if value:
        typer.echo(f"sudokucam {package_version()}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            "-V",
            is_eager=True,
            expose_value=False,
            callback=show_version,
            help="Print the version and exit.",
        ),
    ] = False,
    quiet: QuietOpt = False,
) -> None:
    """Photograph a Sudoku: find the grid, read every cell, solve it, draw the answer back."""


def _register_commands() -> None:
    """Import every command module, let it add its commands, give each the plain help."""
    import importlib

    for name in COMMAND_MODULES:
        importlib.import_module(f"{__package__}.{name}").register(app)
    for info in app.registered_commands:
        if info.cls in (None, TyperCommand):
            info.cls = Command


_register_commands()


def main() -> None:
    """Entry point of the console script."""
    app()
