"""How a game starts: a new puzzle at a chosen level, a saved file, or a photo.

A new puzzle is a classic one at a level, or a Sudoku X or jigsaw (with as many givens
as chosen) or a Killer (cages, no givens), made by solver/variant_sample.py; or a
classic 4×4, 6×6, 8×8, 12×12 or 16×16 with as many givens as chosen (the solver's
boxes; not graded by level).

Making a puzzle and checking an opened one are searches: they run in the server's search
pool, within `APP_CONFIG.generate_time_limit_s` and `search_time_limit_s`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import streamlit as st

from ....solver import PuzzleError, SearchTimeoutError
from ....solver.logic.generate import GenerationTimeoutError
from ....solver.logic.grade import Level
from ....vision.types import digit_values
from ..state.backend import read_photo, run_search
from ..state.game import Board, Game, load_game
from ..state.pool import new_puzzle
from ..state.settings import APP_CONFIG
from ..state.variants import KINDS, SIZES, VARIANT_GAMES, Kind, classic_of, new_variant
from ..widgets.messages import show_failure
from ..widgets.photo_input import photo_input
from ..widgets.photo_status import show_photo_failure

if TYPE_CHECKING:
    from ....vision.results import GridResult

NEW, OPEN, PHOTO = "New puzzle", "Open a file", "From a photo"
LEVELS = [level.label for level in Level]
SIZE_LABELS = {f"{n}×{n}": n for n in SIZES}
SIZE_HELP = (
    "A 9×9 comes at a level or as a variant; the other sizes are classic Sudokus with "
    "the boxes a puzzle book prints (6×6: 2 rows × 3 columns), digits 1 to the size."
)
SIXTEEN_WORDS = (
    "A 16×16 is cut down while it keeps one answer, stopping at the givens chosen: "
    "cutting one down as far as it goes takes longer than the time limit, so there is "
    "no Fewest."
)
OPEN_TIP = (
    "Save a game from this page, or use 81 characters (1-9 and . for empty), or a "
    "puzzle's JSON of any size the board shows (see Type a puzzle)."
)
PHOTO_TIP = "Solve it on the 'Solve a photo' tab first, correcting the digits."
OPEN_KEY = "play_start_open"  # session_state: whether the start panel is open
FOLD_KEY = "play_start_fold"  # session_state: fold the start panel on the next run
SLOW_TIP = "A puzzle this slow to solve most likely has a wrong digit, or no solution."


def fold_start_section() -> None:
    """Fold the start panel away on the next run (a game has just started)."""
    st.session_state[FOLD_KEY] = True


def start_section(playing: bool) -> Game | None:
    """The 'start a game' controls; returns a new game when the person starts one.

    Open while no game runs; folded away once one starts (``fold_start_section``), one
    tap opens it again for another game.
    """
    if st.session_state.pop(FOLD_KEY, False):
        st.session_state[OPEN_KEY] = False
    label = "Another game" if playing else "Start a game"
    with st.expander(label, expanded=not playing, key=OPEN_KEY, on_change="rerun"):
        how = st.radio("Start from", [NEW, OPEN, PHOTO], key="play_start_from", horizontal=True)
        if how == NEW:
            return _new_puzzle()
        if how == OPEN:
            return _open_file()
        return _from_photo()


def _new_puzzle() -> Game | None:
    """A freshly generated puzzle of the chosen size, kind and level."""
    labels = list(SIZE_LABELS)
    label = st.selectbox("Size", labels, index=SIZES.index(9), key="play_size", help=SIZE_HELP)
    size = SIZE_LABELS[label or "9×9"]
    if size != 9:
        return _new_variant(Kind.CLASSIC, size)
    kind = Kind(st.selectbox("Kind of puzzle", KINDS, index=0, key="play_kind") or Kind.CLASSIC)
    if kind is not Kind.CLASSIC:
        return _new_variant(kind)
    label = st.selectbox("Level", LEVELS, index=0, key="play_level")
    if not st.button("New puzzle", type="primary", key="play_new"):
        return None
    level = Level.parse(label or LEVELS[0])
    limit = APP_CONFIG.generate_time_limit_s
    try:
        with st.spinner(f"Making a new {level.label} puzzle…"):
            made = run_search(new_puzzle, level, limit, limit_s=limit)
    except (GenerationTimeoutError, SearchTimeoutError):
        show_failure(
            f"No {level.label} puzzle was found in {limit:g} s.",
            ("Press New puzzle again: each try starts afresh.", "Or choose another level."),
        )
        return None
    st.toast(f"New {level.label} puzzle: {made.clues} givens.")
    return Game.start(Board(made.puzzle))


def _new_variant(kind: Kind, size: int = 9) -> Game | None:
    """A freshly made Sudoku X, jigsaw (with the givens chosen) or Killer puzzle, or a
    classic one of another size than 9×9 (with the givens chosen)."""
    min_givens = 0
    if kind is Kind.KILLER:
        st.caption("A Killer starts empty: its dashed cages and their sums are the clues.")
    else:
        givens = VARIANT_GAMES.givens_for(size)
        choices = list(givens)
        choice = st.selectbox("Givens", choices, index=0, key=f"play_givens_{size}")
        min_givens = givens[choice or choices[0]]
    if size in VARIANT_GAMES.no_fewest:
        st.caption(SIXTEEN_WORDS)
    if not st.button("New puzzle", type="primary", key="play_new"):
        return None
    limit = APP_CONFIG.generate_time_limit_s
    name = str(kind) if size == 9 else f"{size}×{size}"
    try:
        with st.spinner(f"Making a new {name} puzzle…"):
            puzzle, solution = run_search(new_variant, kind, min_givens,
                                          random.randrange(2**31), size, limit_s=limit)  # fmt: skip
    except (GenerationTimeoutError, SearchTimeoutError, ValueError):
        show_failure(f"No {name} puzzle was found in {limit:g} s.",
                     ("Press New puzzle again: each try starts afresh.",))  # fmt: skip
        return None
    clues = sum(1 for v in puzzle.givens if v)
    st.toast(f"New {name} puzzle: {len(puzzle.cages)} cages." if puzzle.cages
             else f"New {name} puzzle: {clues} givens.")  # fmt: skip
    return Game.begin(Board(puzzle.givens), solution, puzzle=puzzle)


def _open_file() -> Game | None:
    """A game saved earlier, or any puzzle as text (81 characters or 9 rows)."""
    upload = st.file_uploader("Saved game or puzzle (.txt)", type=["txt", "sdk", "sdm", "json"],
                              key="play_file")  # fmt: skip
    if upload is None or not st.button("Open", type="primary", key="play_open"):
        return None
    text = upload.getvalue().decode("utf-8", errors="replace")
    try:
        with st.spinner("Checking the puzzle…"):
            return run_search(load_game, text)  # the puzzle is solved to check it has one answer
    except SearchTimeoutError as exc:
        show_failure(f"That puzzle could not be checked: the solver {exc}.", (SLOW_TIP, OPEN_TIP))
    except (PuzzleError, ValueError) as exc:
        show_failure(f"That file does not hold a playable puzzle: {exc}.", (OPEN_TIP,))
    return None


def _from_photo() -> Game | None:
    """The printed digits of a photographed puzzle, and any right pen entries."""
    photo = photo_input("play_photo", sample_kinds=("printed",))
    if photo is None:
        return None
    result = read_photo(photo, "play_photo")
    if show_photo_failure(result):
        return None
    grid = result.grids[0]
    if grid.solution is None:
        show_failure(f"This puzzle cannot be played as read: {grid.message}.", (PHOTO_TIP,))
        return None
    if not st.button("Play this puzzle", type="primary", key="play_from_photo"):
        return None
    board = photo_board(grid)
    size = grid.structure.size
    return Game.start(board, puzzle=None if size == 9 else classic_of(size, board.givens))


def photo_board(grid: GridResult) -> Board:
    """The board of a photographed puzzle: its printed digits, the right pen entries, and
    the candidate notes of the cells left empty."""
    givens, entries = digit_values(grid.givens), digit_values(grid.kept_entries)
    marks = tuple(
        frozenset() if givens[c] or entries[c] else frozenset(int(d) for d in noted)
        for c, noted in enumerate(grid.notes)
    )
    return Board(givens, entries, marks)
