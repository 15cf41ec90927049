"""The `sudokucam` console script: one Typer app, one module per command group.

Each command module defines ``register(app)``; `common` holds what they share (the
one-line errors and their exit status, common options). Heavy imports (OpenCV,
onnxruntime) happen inside the commands so that ``--help`` and flag checks stay fast.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    name="sudokucam",
    help="Photograph a Sudoku: find the grid, read every cell, solve it, draw the answer back.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Command modules register themselves here, one line each.
COMMAND_MODULES: tuple[str, ...] = ("serve", "grid", "photo", "batch", "logic")


def _register_commands() -> None:
    """Import every command module and let it add its commands to the app."""
    import importlib

    for name in COMMAND_MODULES:
        importlib.import_module(f"{__package__}.{name}").register(app)


_register_commands()


def main() -> None:
    """Entry point of the console script."""
    app()
