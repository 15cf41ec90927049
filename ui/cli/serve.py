"""The `sudokucam ui` command: start the Streamlit app on this machine only."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import typer

from ..app.state.settings import APP_CONFIG
from .common import say, usage_error

APP_SCRIPT = Path(__file__).resolve().parent.parent / "streamlit_app.py"
HOST = "127.0.0.1"
DEFAULT_PORT = 8501


def streamlit_command(port: int, script: Path = APP_SCRIPT) -> list[str]:
    """The command line that serves the app on 127.0.0.1:port, headless and offline."""
    return [
        sys.executable, "-m", "streamlit", "run", str(script),
        "--server.address", HOST,
        "--server.port", str(port),
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
        "--global.developmentMode", "false",
        "--client.toolbarMode", "minimal",
        # the server itself refuses larger uploads, so no request can hold more in memory
        "--server.maxUploadSize", str(APP_CONFIG.max_upload_mb),
    ]  # fmt: skip


def streamlit_env() -> dict[str, str]:
    """The environment for the server: usage statistics off, whatever the user's config."""
    env = dict(os.environ)
    env["STREAMLIT_BROWSER_GATHER_USAGE_STATS"] = "false"
    return env


def ui(
    port: int = typer.Option(
        DEFAULT_PORT,
        "--port",
        "-p",
        min=1,
        max=65535,
        metavar="PORT",
        help="Port to serve on (127.0.0.1 only; 1-65535).",
    ),
) -> None:
    """Open the web app: solve a photo, check your progress, type a puzzle, play."""
    if not APP_SCRIPT.is_file():
        usage_error(f"the app script is missing: {APP_SCRIPT}")
    say(f"sudokucam app on http://{HOST}:{port}  (Ctrl+C to stop)")
    raise typer.Exit(serve(streamlit_command(port)))


def serve(command: list[str]) -> int:
    """Run the server until it stops; Ctrl+C or SIGTERM here stops it too."""
    server = subprocess.Popen(command, env=streamlit_env())
    signal.signal(signal.SIGTERM, lambda *_: server.terminate())
    try:
        return server.wait()
    except KeyboardInterrupt:
        server.terminate()
        server.wait()
        return 0


def register(app: typer.Typer) -> None:
    """Add the `ui` command to the console script."""
    app.command("ui")(ui)
