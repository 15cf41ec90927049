"""Run the command line with ``python -m sudokucam``."""

from .ui.cli import main

main()
