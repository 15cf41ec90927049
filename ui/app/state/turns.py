"""Turns to read a photo, shared by every session of a server: first come, first served.

A photo decodes to up to `AppConfig.max_pixels` × 3 bytes and its reading needs several
times that, so the server reads only `turns` photos at once and the rest wait in line.
A turn belongs to the session that took it (its owner) and comes back however that
session's script ends: normally, with an error, or stopped by Streamlit (a closed tab, a
rerun, another page) — Streamlit's StopException and RerunException are raised from
inside st calls, so a turn is only ever taken where nothing can leave between taking it
and the `finally` that gives it back. A waiting session looks every `poll_s` seconds
whether it is still wanted (`still_wanted` raises Streamlit's exceptions when it is not)
and whether its browser is still connected (`alive`); one that has gone leaves the line.
A turn held past `hold_s` (a thread stuck in a read), or past `gone_hold_s` by a
session whose browser has gone, is taken back so that the line moves on.
This module never imports Streamlit.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ....errors import SudokucamError

log = logging.getLogger(__name__)


class TurnBusyError(SudokucamError):
    """No turn came free within the longest wait."""


class TurnAbandonedError(SudokucamError):
    """The session waiting for a turn has gone (its browser disconnected)."""


@dataclass(frozen=True)
class TurnConfig:
    """How many turns, and how long anyone waits for or holds one.

    turns: photos read at the same time.
    wait_s: longest wait in line before the page says the app is busy.
    poll_s: how often a waiting session checks it is still wanted and its place in line.
    hold_s: a turn held longer than this is taken back (no read takes nearly as long).
    gone_hold_s: a turn held this long by a session whose browser has gone is taken back.
    """

    turns: int = 1
    wait_s: float = 300.0
    poll_s: float = 0.25
    hold_s: float = 180.0
    gone_hold_s: float = 30.0

    def __post_init__(self) -> None:
        """Check the numbers make sense."""
        times = (self.wait_s, self.poll_s, self.hold_s, self.gone_hold_s)
        if self.turns < 1 or min(times) <= 0:
            raise ValueError("turns must be at least 1 and every time positive")


@dataclass(frozen=True)
class _Held:
    """A turn taken: by whom, when (time.monotonic)."""

    owner: str
    since: float


def _always_alive(_owner: str) -> bool:
    """The default liveness check: every owner counts as connected."""
    return True


class ReadTurns:
    """The server's turns to read photos and the line of sessions waiting for one."""

    def __init__(
        self, config: TurnConfig | None = None, alive: Callable[[str], bool] = _always_alive
    ) -> None:
        """No turn taken yet; `alive(owner)` says whether a session is still connected."""
        self.config = config or TurnConfig()
        self._alive = alive
        self._lock = threading.Condition()
        self._held: dict[int, _Held] = {}  # ticket -> holder
        self._line: deque[int] = deque()  # tickets waiting, first in line first
        self._tickets = itertools.count(1)

    @contextmanager
    def turn(
        self, owner: str, waiting: Callable[[int], None] = lambda _ahead: None
    ) -> Iterator[None]:
        """Hold a turn for the block; `waiting(ahead)` is called while in line.

        `waiting` may raise (Streamlit stopping the script): the session then leaves
        the line. Raises TurnBusyError after `wait_s`, TurnAbandonedError when `alive`
        says the owner has gone before its turn came.
        """
        ticket = next(self._tickets)
        try:
            self._wait_for(ticket, owner, waiting)
            yield
        finally:
            self._give_back(ticket)

    def _wait_for(self, ticket: int, owner: str, waiting: Callable[[int], None]) -> None:
        """Queue the ticket and return once it holds a turn (see `turn`)."""
        deadline = time.monotonic() + self.config.wait_s
        with self._lock:
            self._line.append(ticket)
        while True:
            with self._lock:
                self._take_back_lost()
                if self._line[0] == ticket and len(self._held) < self.config.turns:
                    self._line.popleft()
                    self._held[ticket] = _Held(owner, time.monotonic())
                    self._lock.notify_all()
                    return
                ahead = self._line.index(ticket) + len(self._held)
                if time.monotonic() >= deadline:
                    raise TurnBusyError("the app is busy reading other photos; try again soon")
                if not self._alive(owner):
                    raise TurnAbandonedError(f"session {owner} left while waiting for a turn")
            waiting(ahead)
            with self._lock:
                if self._line[0] != ticket or len(self._held) >= self.config.turns:
                    self._lock.wait(self.config.poll_s)

    def _give_back(self, ticket: int) -> None:
        """Free the ticket's turn, or its place in line."""
        with self._lock:
            self._held.pop(ticket, None)
            if ticket in self._line:
                self._line.remove(ticket)
            self._lock.notify_all()

    def _take_back_lost(self) -> None:
        """Free turns held past `hold_s`, or past `gone_hold_s` by owners that have gone
        (call with the lock held)."""
        now = time.monotonic()
        for ticket, held in list(self._held.items()):
            overdue = now - held.since > self.config.hold_s
            gone = now - held.since > self.config.gone_hold_s and not self._alive(held.owner)
            if overdue or gone:
                why = "held too long" if overdue else "its session has gone"
                log.warning("a photo-reading turn of %s was taken back: %s", held.owner, why)
                del self._held[ticket]

    def state(self) -> tuple[int, int]:
        """(turns held, sessions waiting) now."""
        with self._lock:
            return len(self._held), len(self._line)
