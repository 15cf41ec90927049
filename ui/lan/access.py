"""The access token of `sudokucam ui --lan`: made per run, handed to the server, checked;
and the key a browser that came with it keeps in a cookie."""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_ENV = "SUDOKUCAM_ACCESS_TOKEN"  # how the launcher hands the token to the server
TOKEN_PARAM = "token"  # the link's query parameter
HOSTS_ENV = "SUDOKUCAM_ALLOWED_HOSTS"  # the names the server answers, comma separated
COOKIE_NAME = "sudokucam_access"  # holds access_key(token) in a browser that came with it
TOKEN_BYTES = 24  # random bytes in a token (32 URL-safe characters)
CLOSED_TITLE = "sudokucam"
CLOSED_TEXT = (
    "This sudokucam is private. Open it with the link (or the QR code) shown in the "
    "terminal of whoever started it on this network."
)


def new_token() -> str:
    """A fresh random token, safe in a URL."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_ok(given: str | None, expected: str) -> bool:
    """True when `given` is the expected token (compared in constant time)."""
    if not given or not expected:
        return False
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def access_key(token: str) -> str:
    """The cookie's value for a token: derived from it, never the token itself."""
    return hmac.new(token.encode("utf-8"), b"sudokucam browser access", hashlib.sha256).hexdigest()
