"""The app script's own check under `sudokucam ui --lan`: without the token, only a short page.

The server's front door (`door.py`) already keeps out every browser without the token or
its cookie; this is the second lock, in the script. The launcher hands the token to the
server in the environment (`TOKEN_ENV`); without it (plain `sudokucam ui`, on 127.0.0.1
only) every session is let in. A session is let in when its browser holds the cookie the
door gave it (`COOKIE_NAME`) or its address has the token; the session is remembered and
the token is taken out of the address, so it is never sent on in a Referer.
"""

from __future__ import annotations

import hmac
import os

import streamlit as st

from .access import (
    CLOSED_TEXT,
    CLOSED_TITLE,
    COOKIE_NAME,
    TOKEN_ENV,
    TOKEN_PARAM,
    access_key,
    token_ok,
)

__all__ = ["CLOSED_TEXT", "closed_page", "require_access"]
GRANTED_KEY = "lan_access_granted"


def require_access() -> None:
    """Let the session in when the server wants no token or it was given; else stop."""
    expected = os.environ.get(TOKEN_ENV, "")
    if not expected:
        return
    if not st.session_state.get(GRANTED_KEY, False):
        if not (token_ok(_given_token(), expected) or _has_cookie(expected)):
            closed_page()
            st.stop()
        st.session_state[GRANTED_KEY] = True
    if TOKEN_PARAM in st.query_params:
        del st.query_params[TOKEN_PARAM]


def _has_cookie(expected: str) -> bool:
    """True when the browser sent the cookie the door gives with the token."""
    try:
        value = st.context.cookies.get(COOKIE_NAME)
    except Exception:  # no request behind this run (a test): no cookie
        return False
    return isinstance(value, str) and hmac.compare_digest(value, access_key(expected))


def _given_token() -> str | None:
    """The token in the address's query, if any."""
    value = st.query_params.get(TOKEN_PARAM)
    return value if isinstance(value, str) else None


def closed_page() -> None:
    """The short page a browser without the token sees."""
    st.set_page_config(page_title=CLOSED_TITLE, page_icon="🔒", layout="centered")
    st.title(CLOSED_TITLE)
    st.info(CLOSED_TEXT, icon="🔒")
