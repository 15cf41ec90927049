"""The links to the app on the local network, and a QR code of one for a phone to scan."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlencode

import segno

from .access import TOKEN_PARAM
from .cert import IPAddress

QR_ERROR_LEVEL = "m"  # QR error correction: recovers about 15 % of the code
QUIET = 4  # light modules around the code, as the QR standard asks
QR_FILE_MODE = 0o600  # the saved code holds the token
PNG_SCALE = 10  # pixels per module in the saved PNG
UPPER_HALF = "▀"
# plain text, dark modules in ink: the character for a (top dark?, bottom dark?) pair
HALF_BLOCK = {(False, False): " ", (False, True): "▄", (True, False): "▀", (True, True): "█"}
# 256-colour palette entries that are pure black and white on every terminal (the 16 base
# colours follow the terminal's theme, which may make "white" grey or "black" blue)
FG = {True: "38;5;16", False: "38;5;231"}  # foreground: a dark module black, else white
BG = {True: "48;5;16", False: "48;5;231"}  # background, likewise
ANSI_RESET = "\x1b[0m"
CERT_HELP = (
    "The phone warns about the certificate the first time: it is sudokucam's own, made on "
    "this machine, not one the phone knows. To go on:",
    '  iPhone/iPad, Safari: "This Connection Is Not Private": tap Show Details, then '
    '"visit this website", then Visit Website.',
    '  Android, Chrome: "Your connection is not private": tap Advanced, then '
    '"Proceed to {host} (unsafe)".',
)


def access_url(host: IPAddress | str, port: int, token: str) -> str:
    """The HTTPS link to the app on `host`, token included."""
    name = str(host)
    if isinstance(host, ipaddress.IPv6Address):
        name = f"[{name}]"
    return f"https://{name}:{port}/?{urlencode({TOKEN_PARAM: token})}"


def qr_text(url: str, colour: bool = False) -> str:
    """The QR code of `url` as terminal text, two rows of modules per line, with the quiet
    zone the standard asks. With `colour`, every cell is painted explicitly black or
    white, so the code reads right on light and dark terminals alike; without (the text
    goes to a file), dark modules are drawn in ink, as on paper."""
    code = segno.make(url, error=QR_ERROR_LEVEL)
    rows = [[bool(dark) for dark in row] for row in code.matrix_iter(border=QUIET)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))  # a light row under the last
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        if colour:
            cells = (f"\x1b[{FG[t]};{BG[b]}m{UPPER_HALF}" for t, b in zip(top, bottom, strict=True))
            lines.append("".join(cells) + ANSI_RESET)
        else:
            lines.append("".join(HALF_BLOCK[t, b] for t, b in zip(top, bottom, strict=True)))
    return "\n".join(lines) + "\n"


def save_qr_png(url: str, path: Path) -> None:
    """The QR code of `url` as a black-on-white PNG, readable by its owner only (the link
    holds the token); OSError when it cannot be written."""
    part = path.with_name(f".{path.name}.part")
    part.unlink(missing_ok=True)
    descriptor = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, QR_FILE_MODE)
    try:
        with os.fdopen(descriptor, "wb") as out:
            segno.make(url, error=QR_ERROR_LEVEL).save(
                out, kind="png", scale=PNG_SCALE, border=QUIET, dark="black", light="white"
            )
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)


def certificate_help(host: str) -> str:
    """What the phone shows for the self-signed certificate and how to go past it."""
    return "\n".join(CERT_HELP).replace("{host}", host)


def announcement(
    addresses: Sequence[IPAddress], port: int, token: str, colour: bool = False
) -> str:
    """What the launcher prints: the links, and the QR code of the first one."""
    if not addresses:
        url = access_url("localhost", port, token)
        return (
            f"No network address found: only this machine can open it.\n  {url}\n(Ctrl+C to stop)"
        )
    urls = [access_url(ip, port, token) for ip in addresses]
    lines = [
        "sudokucam app on your local network. Open this link on your phone, "
        "or scan the code with its camera:",
        *(f"  {url}" for url in urls),
        qr_text(urls[0], colour),
        certificate_help(str(addresses[0])),
        "Only people with the link get in; a browser that came with it is remembered "
        "until sudokucam stops. (Ctrl+C to stop)",
    ]
    return "\n".join(lines)
