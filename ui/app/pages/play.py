"""Play: a new puzzle, a saved game or a photo; digits, pencil marks, undo, check, hints."""

from __future__ import annotations

import streamlit as st

from ..state.game import Game
from ..widgets.hints import hint_marks, hint_revealed, show_hint
from .play_board import show_board, take_move
from .play_help import show_help
from .play_start import start_section

GAME_KEY = "play_game"
CHECKED_KEY = "play_checked"


def render() -> None:
    """The 'Play' page."""
    st.subheader("Play")
    game: Game | None = st.session_state.get(GAME_KEY)
    started = start_section(expanded=game is None)
    if started is not None:
        st.session_state[GAME_KEY] = game = started
        st.session_state.pop(CHECKED_KEY, None)
    if game is None:
        return
    moved = take_move(game.board, game.game_id)
    if moved is not None and not game.paused:
        game.play(moved)
    _toolbar(game)
    if game.paused and not game.solved:
        st.info("Paused. Press Resume to see the board and start the clock again.")
        return
    slot = st.container()  # the board, drawn once the hint below is known
    wrong = _feedback(game)
    hint_key = f"play_hint_{hash(game.board)}"
    found = show_hint(game.board.givens, game.board.entries, key=hint_key)
    with slot:
        marks = hint_marks(found, hint_revealed(hint_key))
        show_board(game.board, game.game_id, wrong, marks, playing=not game.solved)
    show_help()


def _toolbar(game: Game) -> None:
    """Clock, pause, undo, redo, check and save, in one row (it wraps on a phone)."""
    row = st.container(horizontal=True, vertical_alignment="center")
    with row:
        _clock(game)
        if st.button("Resume" if game.paused else "Pause", key="play_pause"):
            game.resume() if game.paused else game.pause()
            st.rerun()
        if st.button("Undo", key="play_undo", disabled=not game.undo_stack):
            game.undo()
            st.rerun()
        if st.button("Redo", key="play_redo", disabled=not game.redo_stack):
            game.redo()
            st.rerun()
        if st.button("Check", key="play_check"):
            st.session_state[CHECKED_KEY] = game.board
        st.download_button(
            "Save",
            data=game.to_text(),
            file_name="sudokucam-game.txt",
            mime="text/plain",
            key="play_save",
            on_click="ignore",
        )


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
        if not game.paused:
            game.pause()
            st.balloons()
        seconds = round(game.seconds())
        st.success(f"Solved in {seconds // 60} min {seconds % 60:02d} s. Well done!")
    elif checked and wrong:
        names = ", ".join(f"r{c // 9 + 1}c{c % 9 + 1}" for c in wrong)
        st.error(f"{len(wrong)} wrong: {names} (in red). Correct them, or use Undo.")
    elif checked:
        left = game.board.values.count(0)
        st.success(f"No mistakes so far. {left} cells to go.")
    return wrong
