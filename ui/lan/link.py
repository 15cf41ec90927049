"""The links to the app on the local network, and a QR code of one for a phone to scan."""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from urllib.parse import urlencode

import segno

from .access import TOKEN_PARAM
from .cert import IPAddress

QR_ERROR_LEVEL = "m"  # QR error correction: recovers about 15 % of the code
QUIET = 2  # light modules around the code (scanners read 2 well; the standard asks 4)
UPPER_HALF = "▀"
# plain text: the character for a (top dark?, bottom dark?) pair of modules, light as ink
HALF_BLOCK = {(False, False): "█", (False, True): "▀", (True, False): "▄", (True, True): " "}
FG = {True: 30, False: 97}  # ANSI foreground: black for a dark module, bright white else
BG = {True: 40, False: 107}  # ANSI background, likewise
ANSI_RESET = "\x1b[0m"


def access_url(host: IPAddress | str, port: int, token: str) -> str:
    """The HTTPS link to the app on `host`, token included."""
    name = str(host)
    if isinstance(host, ipaddress.IPv6Address):
        name = f"[{name}]"
    return f"https://{name}:{port}/?{urlencode({TOKEN_PARAM: token})}"


def qr_text(url: str, colour: bool = False) -> str:
    """The QR code of `url` as terminal text, two rows of modules per line: in explicit
    black and white (ANSI colours) when `colour`, else in block characters for light
    modules, which reads right on a terminal with light text on a dark background."""
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
        "The browser warns about the certificate the first time (it is sudokucam's own, "
        "made on this machine): accept it to go on. Only people with the link get in. "
        "(Ctrl+C to stop)",
    ]
    return "\n".join(lines)
