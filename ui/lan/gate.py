"""The app's door under `sudokucam ui --lan`: without the run's token, only a short page.

The launcher hands the token to the server in the environment (`TOKEN_ENV`); without it
(plain `sudokucam ui`, on 127.0.0.1 only) every request is let in. A session that once
showed the token is remembered, and the token is kept in the address bar so that a
reload or a bookmark keeps working.
"""

from __future__ import annotations

import os

import streamlit as st

from .access import TOKEN_ENV, TOKEN_PARAM, token_ok

GRANTED_KEY = "lan_access_granted"
CLOSED_TITLE = "sudokucam"
CLOSED_TEXT = (
    "This sudokucam is private. Open it with the link (or the QR code) shown in the "
    "terminal of whoever started it on this network."
)


def require_access() -> None:
    """Let the session in when the server wants no token or it was given; else stop."""
    expected = os.environ.get(TOKEN_ENV, "")
    if not expected:
        return
    if not st.session_state.get(GRANTED_KEY, False):
        if not token_ok(_given_token(), expected):
            closed_page()
            st.stop()
        st.session_state[GRANTED_KEY] = True
    if st.query_params.get(TOKEN_PARAM) != expected:
        st.query_params[TOKEN_PARAM] = expected


def _given_token() -> str | None:
    """The token in the address's query, if any."""
    value = st.query_params.get(TOKEN_PARAM)
    return value if isinstance(value, str) else None


def closed_page() -> None:
    """The short page a browser without the token sees."""
    st.set_page_config(page_title=CLOSED_TITLE, page_icon="🔒", layout="centered")
    st.title(CLOSED_TITLE)
    st.info(CLOSED_TEXT, icon="🔒")
