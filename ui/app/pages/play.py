"""Play: a new puzzle, a saved game or a photo; digits, pencil marks, undo, check, hints."""

from __future__ import annotations

import streamlit as st

from ....solver import Outcome
from ....solver.geometry import cell_name
from ....solver.logic.solving import Hint
from ....solver.variant import Variant
from ..state.game import Game
from ..state.variants import layout_words
from ..widgets.hints import HintMarks, hint_marks, hint_revealed, show_hint
from ..widgets.variant_hints import show_variant_hint
from .play_board import clashing_cells, game_view, show_board, take_move
from .play_help import show_help
from .play_start import fold_start_section, start_section

GAME_KEY = "play_game"
CHECKED_KEY = "play_checked"
CLASHES_KEY = "play_clashes"  # the setting: show a clash as soon as it is written
WANTED_KEY = "play_hint_wanted"  # the game whose hint waits for a mistake to be corrected
CLASH_HELP = "A digit already in its row, column or box is outlined in red as you write it."
SIZED_CLASH_HELP = (
    "A digit already in its row, column or box (of the grid's size) is outlined in red as "
    "you write it."
)
VARIANT_CLASH_HELP = (
    "A digit already in its row, column, region, diagonal or cage, or a full cage whose "
    "digits miss its sum, is outlined in red as you write it."
)


def render() -> None:
    """The 'Play' page: while a game runs its board and number pad come first."""
    game: Game | None = st.session_state.get(GAME_KEY)
    if game is None:
        st.subheader("Play")
    started = start_section(playing=game is not None)
    if started is not None:
        st.session_state[GAME_KEY] = started
        st.session_state.pop(CHECKED_KEY, None)
        fold_start_section()
        st.rerun()  # drawn again with the start panel folded away
    if game is None:
        return
    moved = take_move(game.board, game.game_id)
    if moved is not None and not game.paused:
        game.play(moved)
    if game.solved and not game.paused:
        game.pause()  # the clock stops on the last digit
        st.balloons()
    top = st.container()  # how the game goes: solved, or the wrong entries after Check
    _toolbar(game)
    if game.paused and not game.solved:
        st.info("Paused. Press Resume to see the board and start the clock again.")
        return
    with top:
        wrong = _feedback(game)
    slot = st.container()  # the board, drawn once the hint below is known
    marks = HintMarks()
    if not game.solved:
        _check_and_save(game)
        marks = _hint(game)
        st.toggle(
            "Show clashes at once",
            value=True,
            key=CLASHES_KEY,
            help=clash_help(game),
        )
    shown = st.session_state.get(CLASHES_KEY, True)
    clashes = clashing_cells(game.board, game.puzzle) if shown else frozenset()
    with slot:
        view = game_view(game.board, wrong, marks, not game.solved, clashes, game.puzzle)
        show_board(view, game.game_id)
    if game.puzzle is not None:
        st.caption(layout_words(game.puzzle))
    show_help(game.puzzle.variant if game.puzzle is not None else Variant.CLASSIC,
              game.board.size)  # fmt: skip


def clash_help(game: Game) -> str:
    """What *Show clashes at once* does in this game."""
    if game.puzzle is None:
        return CLASH_HELP
    variant = game.puzzle.variant is not Variant.CLASSIC
    return VARIANT_CLASH_HELP if variant else SIZED_CLASH_HELP


def _hint(game: Game) -> HintMarks:
    """The hint button and what the hint marks on the board (a variant's own hints)."""
    hint_key = f"play_hint_{hash(game.board)}"
    if game.puzzle is not None:
        return show_variant_hint(game.puzzle, game.board.entries, game.solution, hint_key)
    keep_asking(game, hint_key)
    found = show_hint(game.board.givens, game.board.entries, key=hint_key)
    remember_asking(game, found)
    return hint_marks(found, hint_revealed(hint_key))


def keep_asking(game: Game, hint_key: str) -> None:
    """Show the hint the person asked for before a mistake blocked it, once it is corrected."""
    if st.session_state.get(WANTED_KEY) == game.game_id:
        st.session_state[f"{hint_key}_asked"] = True


def remember_asking(game: Game, found: Hint | None) -> None:
    """Remember a hint asked for while entries are wrong; forget it once a hint is given."""
    if found is None:
        return
    if found.status is Outcome.WRONG_ENTRIES:
        st.session_state[WANTED_KEY] = game.game_id
    else:
        st.session_state.pop(WANTED_KEY, None)


def _toolbar(game: Game) -> None:
    """Clock, pause, undo and redo in one row above the board (one row on a phone too);
    only the time once the game is solved."""
    row = st.container(horizontal=True, vertical_alignment="center", key="play_toolbar")
    with row:
        _clock(game)
        if game.solved:
            return
        if st.button("Resume" if game.paused else "Pause", key="play_pause"):
            game.resume() if game.paused else game.pause()
            st.rerun()
        if st.button("Undo", key="play_undo", disabled=not game.undo_stack):
            game.undo()
            st.rerun()
        if st.button("Redo", key="play_redo", disabled=not game.redo_stack):
            game.redo()
            st.rerun()


def _check_and_save(game: Game) -> None:
    """Check and Save, under the board: the board and its pad come first on a phone."""
    row = st.container(horizontal=True, vertical_alignment="center")
    with row:
        st.button("Check", key="play_check", on_click=_checked, args=(game,))
        st.download_button(
            "Save",
            data=game.to_text(),
            file_name="sudokucam-game.txt",
            mime="text/plain",
            key="play_save",
            on_click="ignore",
        )


def _checked(game: Game) -> None:
    """Check pressed: the board as it is now is checked (said above the board)."""
    st.session_state[CHECKED_KEY] = game.board


@st.fragment(run_every=1.0)
def _clock(game: Game) -> None:
    """The playing time, ticking once a second while the clock runs."""
    seconds = round(game.seconds())
    st.markdown(f"Time **{seconds // 60:02d}:{seconds % 60:02d}**")


def _feedback(game: Game) -> list[int]:
    """How the game goes: solved, or the wrong entries after Check (returned, to mark them)."""
    checked = st.session_state.get(CHECKED_KEY) == game.board
    wrong = game.wrong_cells() if checked else []
    if game.solved:
        seconds = round(game.seconds())
        st.success(f"**Solved in {seconds // 60} min {seconds % 60:02d} s. Well done!**")
    elif checked and wrong:
        names = ", ".join(cell_name(c, game.board.size) for c in wrong)
        st.error(f"{len(wrong)} wrong: {names} (in red). Correct them, or use Undo.")
    elif checked:
        left = game.board.values.count(0)
        st.success(f"No mistakes so far. {left} cells to go.")
    return wrong
