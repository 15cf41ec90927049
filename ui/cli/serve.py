"""The `sudokucam ui` command: start the Streamlit app on this machine, or with `--lan`
over HTTPS on the local network behind a token in the link."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import typer

from ..app.state.settings import APP_CONFIG
from .common import fail, say, usage_error

APP_SCRIPT = Path(__file__).resolve().parent.parent / "streamlit_app.py"
# the st.App that serves APP_SCRIPT behind sudokucam's front door (ui/lan/door.py)
SERVER_SCRIPT = APP_SCRIPT.with_name("streamlit_server.py")
HOST = "127.0.0.1"
LAN_HOST = "0.0.0.0"  # every interface, so that phones on the network reach it
DEFAULT_PORT = 8501


@dataclass(frozen=True)
class LanServing:
    """What `--lan` adds to the server: its certificate, key, access token, and the
    addresses it is reached at (the only host names it answers besides loopback)."""

    cert: Path
    key: Path
    token: str
    addresses: tuple[str, ...] = ()


def streamlit_command(
    port: int, script: Path = SERVER_SCRIPT, lan: LanServing | None = None
) -> list[str]:
    """The command line that serves the app, headless and offline: on 127.0.0.1:port, or
    over HTTPS on every interface with `lan`."""
    command = [
        sys.executable, "-m", "streamlit", "run", str(script),
        "--server.address", LAN_HOST if lan else HOST,
        "--server.port", str(port),
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
        "--global.developmentMode", "false",
        "--client.toolbarMode", "minimal",
        # the server itself refuses larger uploads, so no request can hold more in memory
        "--server.maxUploadSize", str(APP_CONFIG.max_upload_mb),
    ]  # fmt: skip
    if lan is not None:
        command += [
            "--server.sslCertFile", str(lan.cert),
            "--server.sslKeyFile", str(lan.key),
            # Streamlit's own welcome would look up this machine's public address online
            "--logger.hideWelcomeMessage", "true",
        ]  # fmt: skip
    return command


def streamlit_env(token: str | None = None, hosts: tuple[str, ...] = ()) -> dict[str, str]:
    """The environment for the server: usage statistics off, whatever the user's config;
    the access token when there is one, and the host names it answers beside loopback."""
    from ..lan.access import HOSTS_ENV, TOKEN_ENV

    env = dict(os.environ)
    env["STREAMLIT_BROWSER_GATHER_USAGE_STATS"] = "false"
    env.pop(TOKEN_ENV, None)
    env[HOSTS_ENV] = ",".join(hosts)
    if token:
        env[TOKEN_ENV] = token
    return env


def ui(
    port: int = typer.Option(
        DEFAULT_PORT,
        "--port",
        "-p",
        min=1,
        max=65535,
        metavar="PORT",
        help="Port to serve on (1-65535).",
    ),
    lan: bool = typer.Option(
        False,
        "--lan",
        help="Serve over HTTPS on the local network (for a phone's camera), "
        "behind a secret link printed here with its QR code.",
    ),
    qr: Path | None = typer.Option(
        None,
        "--qr",
        metavar="FILE.png",
        dir_okay=False,
        help="With --lan: also save the link's QR code as a PNG image (it holds the "
        "secret link: readable by you only).",
    ),
) -> None:
    """Open the web app: solve a photo, check your progress, type a puzzle, play.

    Without --lan it listens on 127.0.0.1 only.
    """
    for script in (APP_SCRIPT, SERVER_SCRIPT):
        if not script.is_file():
            usage_error(f"the app script is missing: {script}")
    if not lan:
        if qr is not None:
            usage_error("--qr needs --lan (the QR code is of the link for your phone)")
        say(f"sudokucam app on http://{HOST}:{port}  (Ctrl+C to stop)")
        raise typer.Exit(serve(streamlit_command(port), streamlit_env()))
    serving = prepare_lan(port, qr)
    env = streamlit_env(serving.token, serving.addresses)
    raise typer.Exit(serve(streamlit_command(port, lan=serving), env))


def prepare_lan(port: int, qr: Path | None = None) -> LanServing:
    """Make or reuse the certificate, make the token, print the links and the QR code (on
    a terminal in explicit black and white, whatever its colours: the code is a picture
    that needs both, so NO_COLOR does not apply to it), save it to `qr`."""
    from ..lan.access import new_token
    from ..lan.cert import CertificateError, config_dir, ensure_certificate, lan_addresses
    from ..lan.link import access_url, announcement, save_qr_png

    addresses = lan_addresses()
    try:
        files = ensure_certificate(config_dir(), addresses)
    except CertificateError as exc:
        fail(str(exc))
    token = new_token()
    if qr is not None:
        url = access_url(addresses[0] if addresses else "localhost", port, token)
        try:
            save_qr_png(url, qr)
        except OSError as exc:
            fail(f"cannot write the QR code to {qr}: {exc.strerror or exc}")
    typer.echo(announcement(addresses, port, token, colour=sys.stdout.isatty()))
    if qr is not None:
        typer.echo(f"QR code saved to {qr}")
    return LanServing(files.cert, files.key, token, tuple(str(a) for a in addresses))


def serve(command: list[str], env: dict[str, str]) -> int:
    """Run the server until it stops; Ctrl+C or SIGTERM here stops it too."""
    server = subprocess.Popen(command, env=env)
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
