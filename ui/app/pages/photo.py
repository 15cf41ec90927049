"""Solve a photo: the answer drawn on the photo first, then the board to correct the reading.

A photo of several puzzles shows each of them, one at a time, with a switcher above the
answer; a grid printed full beside them (yesterday's answer) is named, not solved. A
small grid (4×4, 6×6, 8×8) or a 16×16 is shown on a board of its size (10-16 as
numbers), its regions, cages and diagonals drawn as read; the reading downloads as the
JSON of ``sudokucam read --json`` (with its "size" and "symbols").
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
import streamlit as st

from ....vision.types import VALUE_CHARS, digit_values
from ..state.backend import grid_region, outlined, resolve, unsure_cells
from ..widgets.board import BoardLayout, BoardView, Look, board, latest_edit, legend_of
from ..widgets.images import png_bytes, shrink, to_rgb
from ..widgets.photo_input import PhotoInput
from ..widgets.photo_page import PhotoPage, photo_page
from ..widgets.photo_status import (
    choose_puzzle,
    failure_caption,
    show_grid_status,
    show_solution_grids,
)

if TYPE_CHECKING:
    from ....vision.results import GridResult, PhotoResult

PREFIX = "photo"
ANSWER_SHARE = 3  # the answer's column is this many times ...
BOARD_SHARE = 2  # ... as wide as this, for the board's (side by side on a wide screen)


def board_key(photo: PhotoInput, index: int = 0) -> str:
    """The corrections board's key: one board per puzzle of a photo."""
    return f"{PREFIX}_grid_{photo.digest}" + (f"_{index + 1}" if index else "")


def reading_looks(read: GridResult, shown: GridResult, digits: str) -> dict[int, Look]:
    """How each cell of the corrections board is drawn.

    read: the grid as first read; shown: as solved with the corrections; digits: the
    board's digits now. Printed digits are GIVEN; unsure readings, the repair's changes,
    the person's corrections and the cells that break the rules stand out.
    """
    looks = {c: Look.GIVEN for c, d in enumerate(digits) if d != "0"}
    looks |= {c: Look.UNSURE for c in unsure_cells(read)}
    looks |= {r.cell: Look.REPAIRED for r in read.repairs}
    looks |= {c: Look.EDITED for c, d in enumerate(digits) if d != read.givens[c]}
    if shown.solution is None:
        looks |= {c: Look.CONFLICT for c in shown.conflict_cells}
    return looks


PAGE = PhotoPage(
    PREFIX,
    "Solve a photo",
    "Upload a photo of a Sudoku (or a scanned PDF page), take one with the camera, or "
    "pick a sample. Shoot from straight above with the whole grid in the frame.",
    sample_kinds=("printed",),
)


def render() -> None:
    """The 'Solve a photo' page: the answer on top, the photo's source folded below it."""
    photo_page(PAGE, _solve)


def _solve(result: PhotoResult, image: np.ndarray, photo: PhotoInput) -> None:
    """The chosen puzzle of the photo: its answer, its status and the board to correct it."""
    index = choose_puzzle(result, f"{PREFIX}_which_{photo.digest}")
    read = result.grids[index]
    key = board_key(photo, index)
    edit = latest_edit(key)
    digits = edit.digits if edit is not None else read.givens
    if len(digits) != len(read.givens):  # an edit of another grid kept under this key
        digits = read.givens
    grid = resolve(read, list(digit_values(digits)))
    looks = reading_looks(read, grid, digits)
    answer, side = st.columns([ANSWER_SHARE, BOARD_SHARE], gap="medium")
    with answer:
        _show_answer(_others_drawn(result, image, index), grid, photo)
        show_grid_status(grid, edited=grid is not read, looks=looks)
        show_solution_grids(result)
    with side:
        _corrections(digits, looks, key, BoardLayout.of_structure(read.structure))
    _details(image, read, grid)
    _download_json(result, index, grid, photo)


def _others_drawn(result: PhotoResult, image: np.ndarray, index: int) -> np.ndarray:
    """The photo with the answers of its other puzzles written in (shown on the whole photo)."""
    out = image
    for i, grid in enumerate(result.grids):
        if i != index:
            out = grid.draw(out, "solution")
    return out


def _show_answer(image: np.ndarray, grid: GridResult, photo: PhotoInput) -> None:
    """The answer written on the photo, cropped to the grid (or all of it), and a download."""
    drawn = grid.draw(image, "solution")
    whole = bool(st.session_state.get(f"{PREFIX}_whole"))
    shown = drawn if whole else grid_region(drawn, grid)
    if grid.solution is None:
        st.image(to_rgb(shrink(shown)), caption=failure_caption(grid), width="stretch")
    else:
        st.image(to_rgb(shrink(shown)), caption="Solved: the answer drawn in blue",
                 width="stretch")  # fmt: skip
        st.download_button(
            "Download the solved photo",
            data=lambda: png_bytes(drawn),  # encoded only when clicked
            file_name=f"{photo.stem}-solved.png",
            mime="image/png",
            type="primary",
            key=f"{PREFIX}_download",
        )
    st.toggle("Show the whole photo", key=f"{PREFIX}_whole")


def _corrections(digits: str, looks: dict[int, Look], key: str, layout: BoardLayout) -> None:
    """The board of the printed digits read (of the grid's size and rules), to correct a
    misreading by tapping."""
    n = layout.size
    if n == 9:
        st.markdown("**Digits read.** Tap a cell, then its digit: the answer updates at once.")
    else:
        st.markdown(
            f"**Digits read** ({n}×{n} Sudoku, numbers 1-{n}). Tap a cell, then its "
            "number: the answer updates at once."
        )
    view = BoardView(
        digits,
        looks,
        printed=frozenset(c for c, d in enumerate(digits) if d != "0"),
        editable=True,
        typed_printed=True,
        legend=legend_of(looks),
        label="Digits read from the photo",
        layout=layout,
    )
    board(view, key=key)


def _details(image: np.ndarray, read: GridResult, grid: GridResult) -> None:
    """How the grid was found (and what the reading did), and the answer as text."""
    with st.expander("How it was read"):
        st.image(
            to_rgb(shrink(outlined(image, read))),
            caption="The grid found (amber rings: digits read unsurely)",
        )
        st.caption(f"As the command line says it: {read.message}.")
    if grid.solution is not None:
        with st.expander("The answer as text"):
            st.code(answer_text(grid), language=None)


def answer_text(grid: GridResult) -> str:
    """The answer as text: a 9×9's one line of 81 digits (as the command line writes it);
    another size one line a row, a 16×16's numbers 10-16 written out, space apart (a
    16×16 printed with symbols: its own symbols, space apart)."""
    solution = grid.solution or ""
    n = grid.structure.size
    if n == 9:
        return solution  # a solution has no empty cell to write as "."
    if grid.structure.glyphs:
        written = grid.structure.written(solution)
        return "\n".join(" ".join(written[r * n : (r + 1) * n]) for r in range(n))
    width = len(str(n))
    numbers = [str(VALUE_CHARS.index(ch)).rjust(width) for ch in solution]
    gap = " " if n > 9 else ""
    return "\n".join(gap.join(numbers[r * n : (r + 1) * n]) for r in range(n))


def reading_json(result: PhotoResult, index: int, grid: GridResult) -> str:
    """The photo's reading as ``sudokucam read --json`` writes it, its puzzle ``index``
    as ``grid`` (solved with the person's corrections)."""
    grids = tuple(grid if i == index else g for i, g in enumerate(result.grids))
    return json.dumps(replace(result, grids=grids).to_dict(), indent=1)


def _download_json(result: PhotoResult, index: int, grid: GridResult, photo: PhotoInput) -> None:
    """The photo's reading as JSON (``reading_json``), to download."""
    st.download_button(
        "Download the reading (JSON)",
        data=lambda: reading_json(result, index, grid),  # encoded only when clicked
        file_name=f"{photo.stem}-reading.json",
        mime="application/json",
        key=f"{PREFIX}_json",
    )
