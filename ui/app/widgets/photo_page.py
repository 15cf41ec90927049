"""The frame of the pages that read one photo (*Solve a photo*, *Check my progress*).

The page's title, then what the page makes of the photo, then the photo's source in a
panel that folds away once a photo is given (so that the answer is the first thing on a
phone's screen). A PDF or multi-page TIFF is read one page at a time: a picker, at
page 1 first, names the page and how many there are; a file of one page is just read.
Every limit of the photo line holds: the pixel limit, the page limit
(`AppConfig.max_pages_per_file`) and the server's one-at-a-time reading turns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
import streamlit as st

from ....vision.load import ImageLoadError
from ....vision.results import PhotoResult
from ..state.backend import count_pages, page_note, read_photo
from .photo_input import PhotoInput, chosen_photo
from .photo_status import show_photo_failure

if TYPE_CHECKING:
    from ....vision.pages import PageCount

# What a page does with a photo read and showing a grid: the result, its image, the photo.
ShowPhoto = Callable[[PhotoResult, np.ndarray, PhotoInput], None]


@dataclass(frozen=True)
class PhotoPage:
    """A page that reads one photo.

    prefix: its widgets' keys start with this. title: its heading. intro: what it says
    before a photo is given. sample_kinds: the sample photos it offers first.
    """

    prefix: str
    title: str
    intro: str
    sample_kinds: tuple[str, ...] = ()


def photo_page(page: PhotoPage, show: ShowPhoto) -> None:
    """The page: its title, the photo read and ``show``n above the folded photo panel.

    A photo that cannot be read or shows no grid is said instead (what to try, and the
    photo as received); ``show`` is called only with a photo showing a grid.
    """
    st.subheader(page.title)
    top = st.container()  # the answer, drawn above the photo panel below
    given = chosen_photo(page.prefix, sample_kinds=page.sample_kinds)
    with top:
        if given is None:
            st.info(page.intro)
            return
        photo = chosen_page(given, page.prefix)
        if photo is None:
            return
        result = read_photo(photo, page.prefix)
        note = page_note(page.prefix)
        if note is not None and result.image is not None:
            st.caption(f"{photo.label}: {note}.")
        if show_photo_failure(result) or result.image is None:
            return
        show(result, result.image, photo)


def chosen_page(photo: PhotoInput, prefix: str) -> PhotoInput | None:
    """The photo, or the page of a PDF or multi-page TIFF picked to read (page 1 first);
    None when the file is refused (too many pages, none, damaged: said on the page)."""
    try:
        counted = count_pages(photo, prefix)
    except ImageLoadError as exc:
        show_photo_failure(PhotoResult(photo.name, None, (), str(exc)))
        return None
    damaged = counted.broken_message(photo.name)
    if damaged is not None:
        st.warning(f"{damaged}.")
    readable = counted.readable
    if counted.pages == 1:
        return photo
    if len(readable) == 1:
        return replace(photo, page=readable[0], pages=counted.pages)
    chosen = st.selectbox(
        page_label(photo.name, counted),
        readable,
        format_func=lambda number: f"Page {number} of {counted.pages}",
        key=f"{prefix}_page_{photo.digest}",
        help="Each page is read on its own: pick the one with the puzzle.",
    )
    return replace(photo, page=int(chosen or readable[0]), pages=counted.pages)


def page_label(name: str, counted: PageCount) -> str:
    """The page picker's label: the file and how many pages it has."""
    return f"{name} has {counted.pages} pages: which one to read?"
