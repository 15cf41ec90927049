"""The frame of the app: page settings, style, and one tab per thing a person can do."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import streamlit as st

from .pages import typed
from .state import drawn
from .widgets.messages import friendly_errors

CSS_FILE = Path(__file__).resolve().parent / "app.css"
MODE_KEY = "mode"


@dataclass(frozen=True)
class Page:
    """One tab: its label, the action named in error messages, and what draws it."""

    label: str
    action: str
    render: Callable[[], None]


def pages() -> tuple[Page, ...]:
    """The tabs, in order."""
    from .pages import batch, live, photo, play, progress

    return (
        Page(PHOTO, "solve the photo", photo.render),
        Page(PROGRESS, "check the puzzle", progress.render),
        Page(TYPE, "solve the typed puzzle", typed.render),
        Page(BATCH, "read the photos", batch.render),
        Page(PLAY, "run the game", play.render),
        Page(LIVE, "run the live camera", live.render),
    )


PHOTO = "Solve a photo"
PROGRESS = "Check my progress"
TYPE = "Type a puzzle"
BATCH = "Many photos"
PLAY = "Play"
LIVE = "Live camera"
HOW_TO = (
    "Photograph a Sudoku, get the answer drawn on it: **1** take or upload a photo from "
    "straight above, **2** correct any digit it misread, **3** read the answer on your photo."
)


@cache
def css() -> str:
    """The app's style sheet."""
    return CSS_FILE.read_text(encoding="utf-8")


def run_app() -> None:
    """Draw the whole page; only the open tab runs."""
    drawn.run_started()
    st.set_page_config(page_title="sudokucam", page_icon="🔢", layout="wide")
    st.html(f"<style>{css()}</style>")
    st.title("sudokucam")
    st.caption(HOW_TO)
    all_pages = pages()
    tabs = st.tabs([p.label for p in all_pages], key=MODE_KEY, on_change="rerun")
    for page, tab in zip(all_pages, tabs, strict=True):
        if tab.open:
            with tab, friendly_errors(page.action):
                page.render()
    drawn.run_ended()  # not reached by a run cut short for a rerun
