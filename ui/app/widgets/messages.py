"""What the page says when something fails: what happened and what to try, never a traceback."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from ....errors import SudokucamError

log = logging.getLogger(__name__)

RETAKE_TIPS = (
    "Take the photo from straight above, close enough that the grid fills most of the frame.",
    "Flatten the page and avoid shadows or glare across the grid.",
    "Make sure the whole grid, with its outer border, is in the picture.",
)
UNREADABLE_TIPS = (
    "Use a JPEG, PNG, WebP or HEIC photo.",
    "If it came from a phone, export or share it as a photo rather than a document.",
)


def tips_markdown(tips: tuple[str, ...]) -> str:
    """Tips as a short Markdown list."""
    return "\n".join(f"- {t}" for t in tips)


def show_failure(headline: str, tips: tuple[str, ...] = ()) -> None:
    """An error box: one line saying what happened, then what to try."""
    body = f"**{headline}**"
    if tips:
        body += "\n\nWhat to try:\n" + tips_markdown(tips)
    st.error(body)


@contextmanager
def friendly_errors(action: str) -> Iterator[None]:
    """Turn any error raised while doing `action` into a clear message on the page."""
    try:
        yield
    except SudokucamError as exc:
        show_failure(f"Could not {action}: {exc}", _tips_for(exc))
    except Exception as exc:  # the page must never show a traceback
        log.exception("unexpected error while trying to %s", action)
        show_failure(
            f"Something went wrong while trying to {action} ({type(exc).__name__}: {exc}).",
            (*RETAKE_TIPS[:1], "If it keeps happening, try another photo or type the puzzle."),
        )


def _tips_for(exc: Exception) -> tuple[str, ...]:
    """The advice that fits a project error: another file for an unreadable one, else a retake."""
    from ....vision.load import ImageLoadError  # imports OpenCV: only when a page failed

    if isinstance(exc, ImageLoadError):
        return UNREADABLE_TIPS
    return RETAKE_TIPS
