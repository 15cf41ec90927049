"""What the last full run of the app's script drew, counted by the script itself.

A component whose browser side holds a state of its own (the live camera's WebRTC stream)
is mounted afresh by the browser once a full run ends without drawing it (another tab was
open): its server side must then start afresh too. streamlit-webrtc guesses this from the
session's count of finished runs, but Streamlit raises that count on its event loop when
it sends a run's end to the browser, which on a busy server comes after the next run has
started: a run can read a count one behind, and the run after it then takes the stream for
one left out and stops it while the camera plays (``ui/app/pages/live.py``). These marks
are set by the script's own thread, in order, so they cannot lag.

A full run calls ``run_started`` first and ``run_ended`` last (``layout.run_app``); a run
cut short for a rerun never reaches ``run_ended``, so the browser keeps what the last run
that ended drew, as Streamlit's browser side does. Fragment runs call neither.
"""

from __future__ import annotations

import streamlit as st

DRAWING_KEY = "drawn_this_run"  # the names drawn so far by the full run going on
DRAWN_KEY = "drawn_last_run"  # the names drawn by the last full run that ran to its end


def run_started() -> None:
    """Note that a full run of the app's script starts: nothing drawn yet."""
    st.session_state[DRAWING_KEY] = frozenset()


def drew(name: str) -> None:
    """Note that this full run drew the component ``name``."""
    st.session_state[DRAWING_KEY] = st.session_state.get(DRAWING_KEY, frozenset()) | {name}


def run_ended() -> None:
    """Note that this full run ran to its end: what it drew is what the browser shows."""
    st.session_state[DRAWN_KEY] = st.session_state.get(DRAWING_KEY, frozenset())


def drawn_last_run(name: str) -> bool:
    """Whether the last full run that ran to its end drew the component ``name`` (its
    browser side is still the one the server knows)."""
    return name in st.session_state.get(DRAWN_KEY, frozenset())
