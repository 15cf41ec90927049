"""The access token of `sudokucam ui --lan`: made per run, handed to the server, checked."""

from __future__ import annotations

import hmac
import secrets

TOKEN_ENV = "SUDOKUCAM_ACCESS_TOKEN"  # how the launcher hands the token to the server
TOKEN_PARAM = "token"  # the link's query parameter
TOKEN_BYTES = 24  # random bytes in a token (32 URL-safe characters)


def new_token() -> str:
    """A fresh random token, safe in a URL."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_ok(given: str | None, expected: str) -> bool:
    """True when `given` is the expected token (compared in constant time)."""
    if not given or not expected:
        return False
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))
