"""Check my progress: the marked photo first, questions on unsure entries, the board, a hint.

Printed digits and the person's own entries are told apart; wrong entries are ringed
red and right ones green. An entry the reading is not sure of is asked about ("is this
a 3 or an 8?") rather than called wrong, and so is writing no digit could be read in
("which digit did you write here?"); the answer corrects the board. A small grid (4×4,
6×6, 8×8) and a 16×16 are checked alike, on a board of their size, with the hint *Type a
puzzle* gives them (``show_variant_hint``: singles in its rows, columns and boxes); values
past 9 travel as A-G (``VALUE_CHARS``) and are named as the page prints them (12, or the
page's own symbol: ``GridResult.value_word``), as ``sudokucam check`` names them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import streamlit as st

from ....vision.draw import CheckMarks, draw_check_marks
from ....vision.types import VALUE_CHARS, digit_values, digits_of
from ..state.backend import grid_region, resolve
from ..widgets.board import (
    NO_NOTES,
    BoardLayout,
    BoardView,
    Look,
    board,
    latest_edit,
    legend_of,
    push_edit,
)
from ..widgets.hints import HintMarks, hint_marks, hint_revealed, show_hint
from ..widgets.images import shrink, to_rgb
from ..widgets.photo_input import PhotoInput
from ..widgets.photo_page import PhotoPage, photo_page
from ..widgets.photo_status import (
    choose_puzzle,
    failure_caption,
    show_grid_status,
    show_solution_grids,
)
from ..widgets.variant_hints import show_variant_hint

if TYPE_CHECKING:
    from ....vision.results import GridResult, PhotoResult, UnsureEntry

PREFIX = "progress"
CROP_MARGIN = 0.15  # a question's cell picture takes this share of a cell more on each side
CROP_WIDTH_PX = 72  # width a question's cell picture is shown at
PICTURE_SHARE = 3  # the marked photo's column is this many times ...
COUNTS_SHARE = 2  # ... as wide as this, the counts' (side by side on a wide screen)


def board_key(photo: PhotoInput) -> str:
    """The checked board's key: one board per puzzle of a photo."""
    index = st.session_state.get(which_key(photo)) or 0
    return f"{PREFIX}_board_{photo.digest}" + (f"_{index + 1}" if index else "")


def which_key(photo: PhotoInput) -> str:
    """The key of the switcher between the puzzles of a photo."""
    return f"{PREFIX}_which_{photo.digest}"


def answered_key(photo: PhotoInput) -> str:
    """Where the cells whose question was answered are kept (per puzzle of a photo)."""
    return board_key(photo).replace("_board_", "_answered_")


def changed_cells(read: GridResult, grid: GridResult) -> set[int]:
    """Cells whose digit or kind the person changed from the first reading."""
    return {
        c
        for c in range(len(read.givens))
        if (grid.givens[c], grid.handwritten[c]) != (read.givens[c], read.handwritten[c])
    }


def answered_cells(read: GridResult, grid: GridResult, photo: PhotoInput) -> set[int]:
    """Cells the person has settled: a question answered, or the cell changed on the board."""
    answered: set[int] = st.session_state.setdefault(answered_key(photo), set())
    return answered | changed_cells(read, grid)


def reading_lines(read: GridResult, key: str) -> tuple[str, str]:
    """The printed digits and the pen entries, as read or as corrected on the board."""
    edit = latest_edit(key)
    if edit is None:
        return read.givens, read.handwritten
    printed, pen = edit.split()
    return digits_of(printed), digits_of(pen)


def unsure_of(grid: GridResult) -> tuple[UnsureEntry, ...]:
    """The entries the reading is not sure of (none when the reader does not say)."""
    found = getattr(grid, "unsure_entries", None)
    return tuple(found()) if callable(found) else ()


def unreadable_of(grid: GridResult) -> tuple[int, ...]:
    """The cells left holding writing no digit was read in (none when the reader does not say)."""
    return tuple(getattr(grid, "unreadable_cells", ()))


def board_values(grid: GridResult) -> list[int]:
    """What is on the paper: printed digits and pen entries together (10-16 as numbers)."""
    printed, pen = digit_values(grid.givens), digit_values(grid.handwritten)
    return [g or h for g, h in zip(printed, pen, strict=True)]


def check_looks(read: GridResult, grid: GridResult, asked: set[int]) -> dict[int, Look]:
    """How each cell of the checked board is drawn.

    read: the grid as first read; grid: as checked with the corrections; asked: cells
    whose question is still open.
    """
    looks = {c: Look.GIVEN for c, d in enumerate(grid.givens) if d != "0"}
    looks |= {c: Look.ENTRY for c in grid.pen_cells}
    looks |= {c: Look.RIGHT for c in grid.right_entries}
    looks |= {c: Look.WRONG for c in grid.wrong_entries}
    looks |= dict.fromkeys(grid.wrong_notes(), Look.WRONG)  # notes that rule out the answer
    looks |= {c: Look.UNSURE for c in asked}
    looks |= dict.fromkeys(changed_cells(read, grid), Look.EDITED)
    if grid.solution is None:
        looks |= dict.fromkeys(grid.conflict_cells, Look.CONFLICT)
    return looks


PAGE = PhotoPage(
    PREFIX,
    "Check my progress",
    "Photograph a puzzle you have started in pen or pencil. Printed digits and your own "
    "entries are told apart; wrong entries are ringed red, right ones green.",
    sample_kinds=("progress",),
)


def render() -> None:
    """The 'Check my progress' page: the marked photo on top, its source folded below."""
    photo_page(PAGE, _check)


def _check(result: PhotoResult, image: np.ndarray, photo: PhotoInput) -> None:
    """The chosen puzzle of the photo checked: marked photo, questions, hint and board."""
    first = result.grids[choose_puzzle(result, which_key(photo))]
    givens, pen = reading_lines(first, board_key(photo))
    grid = resolve(first, list(digit_values(givens)), list(digit_values(pen)))
    done = answered_cells(first, grid, photo)
    open_ones = [u for u in unsure_of(grid) if u.cell not in done]
    unread = [c for c in unreadable_of(grid) if c not in done]
    wrong = confirmed_wrong(grid, done)
    asked = {u.cell for u in open_ones} | set(unread)
    _marked(image, grid, wrong, asked, check_looks(first, grid, asked))
    show_solution_grids(result)
    _questions(first, open_ones, unread, photo)
    slot = st.container()  # the board, drawn once the hint below is known
    marks = _hint(grid, photo)
    with slot:
        _board(first, grid, photo, asked, marks, wrong)


def _hint(grid: GridResult, photo: PhotoInput) -> HintMarks:
    """The hint button under a solved grid and the board marks of its hint: a 9×9's
    (the person's notes used), or a small grid's as *Type a puzzle* gives one
    (``show_variant_hint``: singles in rows, columns and boxes)."""
    if grid.solution is None:
        return HintMarks()
    hint_key = f"{PREFIX}_hint_{photo.digest}_{hash((grid.givens, grid.handwritten))}"
    if grid.structure.size != 9:
        puzzle = grid.structure.puzzle(digit_values(grid.givens))
        entries = digit_values(grid.kept_entries)
        return show_variant_hint(puzzle, entries, digit_values(grid.solution), hint_key)
    found = show_hint(
        digit_values(grid.givens),
        digit_values(grid.kept_entries),
        hint_key,
        notes=grid.complete_notes,
    )
    return hint_marks(found, hint_revealed(hint_key))


def _marked(
    image: np.ndarray,
    grid: GridResult,
    wrong: tuple[int, ...],
    asked: set[int],
    looks: dict[int, Look],
) -> None:
    """The photo cropped to the grid, entries ringed (or the broken rules), and the counts
    beside it (below it on a phone); ``looks``: the board's, for the colours named."""
    picture, counts = st.columns([PICTURE_SHARE, COUNTS_SHARE], gap="medium")
    if grid.solution is None:
        drawn = grid_region(grid.draw(image, "solution"), grid)
        picture.image(to_rgb(shrink(drawn)), caption=failure_caption(grid), width="stretch")
        with counts:
            show_grid_status(grid, edited=True, looks=looks, puzzle_only=False)
        return
    marks = CheckMarks(  # the person's answers decide: an entry answered is asked no more
        wrong=wrong,
        unsure=tuple(sorted(asked - set(wrong))),
        right=tuple(c for c in grid.right_entries if c not in asked and c not in wrong),
    )
    checked = draw_check_marks(image, grid.detection.lattice, marks)
    picture.image(
        to_rgb(shrink(grid_region(checked, grid))),
        caption="Red rings: wrong entries · amber: to check · green: right",
        width="stretch",
    )
    with counts:
        _summary(grid, wrong, len(asked))


def _board(
    read: GridResult,
    grid: GridResult,
    photo: PhotoInput,
    asked: set[int],
    marks: HintMarks,
    wrong: tuple[int, ...],
) -> None:
    """The checked grid on the board, where a misread digit is corrected by tapping."""
    looks = check_looks(read, grid, asked) | dict.fromkeys(marks.cells, Look.HINT)
    looks |= dict.fromkeys(wrong, Look.WRONG)
    legend = legend_of(looks, always=(Look.GIVEN, Look.RIGHT, Look.WRONG))
    notes = getattr(grid, "notes", NO_NOTES)
    view = BoardView(
        digits_of(board_values(grid)),
        looks,
        printed=frozenset(c for c, d in enumerate(grid.givens) if d != "0"),
        notes=tuple(notes),
        removed=marks.removed,
        editable=True,
        can_swap=True,
        legend=legend,
        label="Your grid, checked",
        layout=BoardLayout.of_structure(grid.structure),
    )
    st.markdown(
        "**Your grid.** A digit misread? Tap it, then the right digit; *Printed / pen* "
        "moves a digit between the printed ones and yours."
    )
    board(view, key=board_key(photo))


def _questions(
    read: GridResult, open_ones: list[UnsureEntry], unread: list[int], photo: PhotoInput
) -> None:
    """One question per unsure entry and per unreadable cell still open, each answered
    with one tap."""
    if not open_ones and not unread:
        return
    st.markdown("**A few entries are hard to read.** Which digit did you write?")
    for entry in open_ones:
        _question(read, entry, photo)
    for cell in unread:
        _unreadable_question(read, cell, photo)


def _question(read: GridResult, entry: UnsureEntry, photo: PhotoInput) -> None:
    """'r3c5: is this a 3 or an 8?', the cell's picture, and one button per digit, the
    buttons on one line of their own under the question (on a phone a 16×16's "10"
    would otherwise wrap under it, apart from its "14")."""
    row = st.container(horizontal=True, vertical_alignment="center")
    with row:
        st.image(cell_crop(read, entry.cell), width=CROP_WIDTH_PX)
        with st.container(width="stretch"):
            st.markdown(
                f"{read.cell_name(entry.cell)}: is this a **{read.value_word(entry.reading)}** "
                f"or a **{read.value_word(entry.other)}**?"
            )
            answers = f"{PREFIX}_answers_{photo.digest}_{entry.cell}"
            with st.container(horizontal=True, gap="small", key=answers):
                for digit in (entry.reading, entry.other):
                    st.button(
                        read.value_word(digit),
                        key=f"{PREFIX}_ask_{photo.digest}_{entry.cell}_{digit}",
                        on_click=answer_question,
                        args=(read, board_key(photo), answered_key(photo), entry.cell, digit),
                    )


def _unreadable_question(read: GridResult, cell: int, photo: PhotoInput) -> None:
    """'r3c5: which digit did you write here?', the cell's picture, a button per digit and
    one for no digit."""
    row = st.container(horizontal=True, vertical_alignment="center")
    with row:
        st.image(cell_crop(read, cell), width=CROP_WIDTH_PX)
        st.markdown(f"{read.cell_name(cell)}: which digit did you write here?")
        args = (read, board_key(photo), answered_key(photo), cell)
        for digit in range(1, read.structure.size + 1):
            st.button(
                read.value_word(digit),
                key=f"{PREFIX}_read_{photo.digest}_{cell}_{digit}",
                on_click=answer_question,
                args=(*args, digit),
            )
        st.button(
            "None",
            key=f"{PREFIX}_read_{photo.digest}_{cell}_none",
            help="No digit here: a mark, or something rubbed out",
            on_click=answer_question,
            args=(*args, 0),
        )


def answer_question(read: GridResult, key: str, answered: str, cell: int, digit: int) -> None:
    """Write the person's answer into the board as their entry (0: none), and close the
    question."""
    givens, pen = reading_lines(read, key)
    digits = "".join(g if g != "0" else h for g, h in zip(givens, pen, strict=True))
    digits = digits[:cell] + VALUE_CHARS[digit] + digits[cell + 1 :]
    printed = "".join("1" if g != "0" and c != cell else "0" for c, g in enumerate(givens))
    edit = latest_edit(key)
    push_edit(key, digits, printed, edit.notes if edit is not None else ("",) * len(digits))
    st.session_state.setdefault(answered, set()).add(cell)


def cell_crop(grid: GridResult, cell: int) -> np.ndarray:
    """The picture of one cell of the grid straightened, with a little of its neighbours."""
    warped, n = grid.detection.warped, grid.structure.size
    side = warped.shape[0] / n
    margin = side * CROP_MARGIN
    r, c = divmod(cell, n)
    y0, x0 = max(0, round(r * side - margin)), max(0, round(c * side - margin))
    y1 = min(warped.shape[0], round((r + 1) * side + margin))
    x1 = min(warped.shape[1], round((c + 1) * side + margin))
    return np.ascontiguousarray(warped[y0:y1, x0:x1])


def confirmed_wrong(grid: GridResult, answered: set[int]) -> tuple[int, ...]:
    """Wrong entries: those read surely wrong, and those the person confirmed by answering."""
    if grid.solution is None:
        return ()
    sure = set(grid.wrong_entries)
    told = {c for c in answered if grid.handwritten[c] not in ("0", grid.solution[c])}
    return tuple(sorted(sure | told))


def _summary(grid: GridResult, wrong: tuple[int, ...], asked: int) -> None:
    """The counts (as ``sudokucam check`` gives them), and one sentence on how it goes."""
    counts = grid.entry_counts
    row = st.container(horizontal=True)
    with row:
        st.metric("Cells left", counts.empty)
        st.metric("Entries wrong", len(wrong))
        st.metric("To check", asked)
        st.metric("Entries right", counts.right)
    if asked == len(unsure_of(grid)) + len(unreadable_of(grid)) and wrong == tuple(
        grid.wrong_entries
    ):
        st.caption(grid.check_message)  # the line `sudokucam check` prints, until answered
    if wrong:
        names = ", ".join(grid.cell_name(c) for c in wrong)
        st.warning(
            f"{len(wrong)} of your entries {'is' if len(wrong) == 1 else 'are'} wrong: "
            f"{names}. Rub {'it' if len(wrong) == 1 else 'them'} out before going on."
        )
    elif asked:
        st.info("No entry is surely wrong; answer the questions below to check the rest.")
    elif counts.empty == 0:
        st.success("Complete and correct. Well done!")
    else:
        st.success("Every entry so far is right. Keep going!")
