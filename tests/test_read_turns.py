"""The server's turns to read photos: first come, first served, and always given back.

Streamlit stops a session's script by raising StopException or RerunException
(BaseExceptions, raised from inside whichever st call comes next) when its tab is closed
or its person switches page; those are simulated here with Streamlit's own exception
classes, raised where the app's code would meet them. tests/test_app_server.py does the
same with real tabs in Chromium.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
import streamlit as st
from streamlit.runtime.scriptrunner_utils.exceptions import RerunException, StopException
from streamlit.runtime.scriptrunner_utils.script_requests import RerunData

from sudokucam.ui.app.state.turns import (
    ReadTurns,
    TurnAbandonedError,
    TurnBusyError,
    TurnConfig,
)

FAST = TurnConfig(turns=1, wait_s=10.0, poll_s=0.02, hold_s=60.0, gone_hold_s=0.3)
PROMPT_S = 1.0  # the next in line gets its turn this soon after the last one left


def waiter(
    turns: ReadTurns, owner: str, got: list[str], waiting: Callable[[int], None] | None = None
) -> threading.Thread:
    """A thread that takes a turn as `owner`, notes it in `got`, and gives it back."""

    def run() -> None:
        try:
            with turns.turn(owner, waiting or (lambda _ahead: None)):
                got.append(owner)
        except (StopException, RerunException, TurnAbandonedError, TurnBusyError):
            got.append(f"{owner} left")

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def wait_for_line(turns: ReadTurns, held: int, waiting: int) -> None:
    """Wait until `held` turns are taken and `waiting` sessions are in line."""
    deadline = time.monotonic() + 5
    while turns.state() != (held, waiting):
        assert time.monotonic() < deadline, turns.state()
        time.sleep(0.01)


def test_a_turn_comes_back_when_streamlit_stops_the_script_while_it_is_held() -> None:
    turns = ReadTurns(FAST)
    for stop in (StopException(), RerunException(RerunData()), KeyboardInterrupt()):
        with pytest.raises(type(stop)), turns.turn("closed-tab"):
            raise stop
        assert turns.state() == (0, 0)
    started = time.monotonic()
    with turns.turn("next"):
        assert time.monotonic() - started < PROMPT_S


def test_a_tab_closed_or_switched_while_waiting_leaves_the_line() -> None:
    """One reads; three wait; two of them are stopped (a closed tab, another page); the
    last waiter gets the turn as soon as the reader is done, in its order of arrival."""
    turns = ReadTurns(FAST)
    got: list[str] = []
    release = threading.Event()
    stop_b, stop_c = threading.Event(), threading.Event()

    def stopped_when(event: threading.Event, error: BaseException) -> Callable[[int], None]:
        def waiting(_ahead: int) -> None:
            if event.is_set():
                raise error

        return waiting

    def reader() -> None:
        with turns.turn("a"):
            got.append("a")
            release.wait(5)

    first = threading.Thread(target=reader, daemon=True)
    first.start()
    wait_for_line(turns, 1, 0)
    threads = [waiter(turns, "b", got, stopped_when(stop_b, StopException()))]
    wait_for_line(turns, 1, 1)
    threads.append(waiter(turns, "c", got, stopped_when(stop_c, RerunException(RerunData()))))
    wait_for_line(turns, 1, 2)
    threads.append(waiter(turns, "d", got))
    wait_for_line(turns, 1, 3)
    stop_b.set()
    stop_c.set()
    wait_for_line(turns, 1, 1)
    started = time.monotonic()
    release.set()
    for thread in [first, *threads]:
        thread.join(5)
    assert time.monotonic() - started < PROMPT_S
    # b and c are stopped together: which of the two notices it first is up to the threads
    assert [got[0], sorted(got[1:3]), got[3:]] == ["a", ["b left", "c left"], ["d"]]
    assert turns.state() == (0, 0)


def test_a_waiter_whose_browser_has_gone_leaves_and_a_gone_holder_loses_its_turn() -> None:
    connected = {"holder": True, "ghost": True, "next": True}
    turns = ReadTurns(FAST, alive=lambda owner: connected[owner])
    got: list[str] = []
    stuck = threading.Event()

    def holder() -> None:
        with turns.turn("holder"):
            stuck.wait(10)  # a read that never ends

    threading.Thread(target=holder, daemon=True).start()
    wait_for_line(turns, 1, 0)
    ghost = waiter(turns, "ghost", got)
    wait_for_line(turns, 1, 1)
    connected["ghost"] = False
    ghost.join(2)
    assert got == ["ghost left"]
    late = waiter(turns, "next", got)
    time.sleep(FAST.gone_hold_s / 2)
    assert got == ["ghost left"]  # the holder's browser is still there: it keeps its turn
    connected["holder"] = False
    late.join(FAST.gone_hold_s + PROMPT_S)
    assert got == ["ghost left", "next"]
    stuck.set()


def test_a_turn_held_too_long_is_taken_back_and_the_wait_is_bounded() -> None:
    for config, outcome in (
        (TurnConfig(turns=1, wait_s=0.3, poll_s=0.02, hold_s=60), "left"),  # busy after wait_s
        (TurnConfig(turns=1, wait_s=5, poll_s=0.02, hold_s=0.5), "in"),  # the stuck turn back
    ):
        turns = ReadTurns(config)
        stuck = turns.turn("stuck")
        stuck.__enter__()  # taken, never given back (a thread stuck in a read)
        got: list[str] = []
        started = time.monotonic()
        waiter(turns, "next", got).join(5)
        took = time.monotonic() - started
        assert got == (["next left"] if outcome == "left" else ["next"])
        assert took < min(config.wait_s, config.hold_s) + PROMPT_S


def test_many_turns_and_the_places_in_line_told() -> None:
    turns = ReadTurns(TurnConfig(turns=2, wait_s=5, poll_s=0.02))
    told: list[int] = []
    release = threading.Event()
    holders = [
        threading.Thread(target=lambda o=o: _hold(turns, o, release), daemon=True)
        for o in ("a", "b")
    ]
    for thread in holders:
        thread.start()
    wait_for_line(turns, 2, 0)
    got: list[str] = []
    late = waiter(turns, "c", got, told.append)
    wait_for_line(turns, 2, 1)
    release.set()
    late.join(2)
    assert got == ["c"] and told and told[0] == 2  # two photos ahead of it while waiting


def _hold(turns: ReadTurns, owner: str, release: threading.Event) -> None:
    """Hold a turn until `release`."""
    with turns.turn(owner):
        release.wait(5)


def test_turn_config_is_checked() -> None:
    with pytest.raises(ValueError):
        TurnConfig(turns=0)
    with pytest.raises(ValueError):
        TurnConfig(poll_s=0)


def test_read_photo_gives_the_turn_back_when_its_tab_is_closed_mid_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The app's own read path: Streamlit stops the script inside the read (as a closed
    tab does at the next st call); the next session's read starts at once."""
    import io

    from PIL import Image

    from sudokucam.ui.app.state import backend
    from sudokucam.ui.app.widgets.photo_input import PhotoInput

    calls: list[str] = []

    class ClosedTabReader:
        def read(self, image: object, name: str) -> object:
            calls.append(name)
            if name == "closed.png":
                raise StopException()
            return name

    turns = ReadTurns(FAST)
    monkeypatch.setattr(backend, "shared_reader", ClosedTabReader)
    monkeypatch.setattr(backend, "read_turns", lambda: turns)
    monkeypatch.setattr(st, "session_state", {})
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(buffer, format="PNG")
    with pytest.raises(StopException):
        backend.read_photo(PhotoInput("closed.png", buffer.getvalue()), "a")
    assert turns.state() == (0, 0)
    started = time.monotonic()
    result: object = backend.read_photo(PhotoInput("next.png", buffer.getvalue()), "b")
    assert result == "next.png"
    assert time.monotonic() - started < PROMPT_S
    assert calls == ["closed.png", "next.png"]


class StoppingNotice:
    """A placeholder whose st calls raise StopException, as they do once the tab closed."""

    def __init__(self, log: list[str]) -> None:
        self.log = log

    def info(self, *_args: object, **_kwargs: object) -> None:
        self.log.append("waiting shown")
        raise StopException()

    def empty(self) -> None:
        self.log.append("cleared")
        raise StopException()


def test_read_turn_gives_back_a_turn_taken_as_the_tab_closes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bug of issue 30: the stop landed on the st call right after the turn was taken
    (the old spinner's exit), so the turn was never given back. Both while waiting and
    right after taking the turn, a stop now leaves the turns free."""
    from sudokucam.ui.app.state import backend

    turns = ReadTurns(FAST)
    log: list[str] = []
    monkeypatch.setattr(backend, "read_turns", lambda: turns)
    monkeypatch.setattr(st, "empty", lambda: StoppingNotice(log))
    with pytest.raises(StopException), backend.read_turn():  # free: stopped as it is taken
        pass
    assert log == ["cleared"] and turns.state() == (0, 0)
    release = threading.Event()
    holder = threading.Thread(target=_hold, args=(turns, "other", release), daemon=True)
    holder.start()
    wait_for_line(turns, 1, 0)
    with pytest.raises(StopException), backend.read_turn():  # busy: stopped while waiting
        pass
    assert log[-1] == "waiting shown" and turns.state() == (1, 0)
    release.set()
    holder.join(5)
    assert turns.state() == (0, 0)
