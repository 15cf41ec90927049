"""What the page says when something fails: what happened and what to try, never a traceback."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import streamlit as st

from ....errors import SudokucamError

if TYPE_CHECKING:
    from ....vision.load import LoadProblem

log = logging.getLogger(__name__)

RETAKE_TIPS = (
    "Take the photo from straight above, close enough that the grid fills most of the frame.",
    "Flatten the page and avoid shadows or glare across the grid.",
    "Make sure the whole grid, with its outer border, is in the picture.",
)
UNREADABLE_TIPS = (
    "Use a JPEG, PNG, WebP or HEIC photo, or a PDF or TIFF scan.",
    "If it came from a phone, export or share it as a photo rather than a document.",
)
TOO_LARGE_TIPS = (
    "Use a smaller photo: a phone's medium or large size (about 12 megapixels) is plenty.",
    "Or crop the photo to the puzzle before uploading it.",
)
SLOW_SEARCH_TIPS = (
    "Check the digits: a puzzle this slow to solve most likely has a wrong digit, or none.",
    "On the command line, `sudokucam grid PUZZLE --time-limit 120` allows more time.",
)
DAMAGED_TIPS = (
    "The file may be cut short or damaged: copy, download or export it again.",
    *UNREADABLE_TIPS,
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


def load_tips(problem: LoadProblem) -> tuple[str, ...]:
    """The advice for a photo refused on loading, by kind: never a format tip for a size."""
    from ....vision.load import LoadProblem

    if problem is LoadProblem.TOO_LARGE:
        return TOO_LARGE_TIPS
    if problem is LoadProblem.DAMAGED:
        return DAMAGED_TIPS
    return UNREADABLE_TIPS


def _tips_for(exc: Exception) -> tuple[str, ...]:
    """The advice that fits a project error: `load_tips` for a refused photo, a check of
    the digits for a search out of time, else a retake."""
    from ....solver import SearchTimeoutError
    from ....vision.load import ImageLoadError

    if isinstance(exc, ImageLoadError):
        return load_tips(exc.problem)
    if isinstance(exc, SearchTimeoutError):
        return SLOW_SEARCH_TIPS
    return RETAKE_TIPS
