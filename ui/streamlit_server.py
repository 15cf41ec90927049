"""The server `sudokucam ui` runs: the app script (`streamlit_app.py`) behind the front
door (`sudokucam.ui.lan.door`: host names, the `--lan` token, security headers).

`streamlit run` finds the `st.App` below and serves it; the door's settings come from
the environment the launcher sets (`DoorConfig.from_env`).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from starlette.middleware import Middleware

from sudokucam.ui.lan.door import Door, DoorConfig

app = st.App(
    Path(__file__).with_name("streamlit_app.py"),
    middleware=[Middleware(Door, config=DoorConfig.from_env())],
)
