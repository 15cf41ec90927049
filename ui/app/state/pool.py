"""Searches off the server's threads: a few worker processes, every answer time-limited.

Streamlit runs each session's script in a thread of one server process, and a
pure-Python search holds the GIL: one long solve would slow every other person's page.
So the app's searches (solving a typed puzzle, a hint, a new puzzle, opening a game,
checking corrected digits) run in worker processes, and the session's thread only waits.

A `SearchPool` keeps `workers` processes, each a fresh Python running this module
(`python -m sudokucam.ui.app.state.pool FD MODULES`: never a fork of the threaded
server, and never a re-run of the app script, which multiprocessing's spawn would do
since Streamlit installs the script as `__main__`), answering one job at a time over a
socket. `run(job, *args, limit_s=...)` takes a free worker (waiting at most `queue_s`:
`PoolBusyError` after that), sends the job, and waits for its answer at most
`limit_s + grace_s`. Jobs are given their own time limit and normally stop by
themselves; past the grace the parent kills the worker, starts a fresh one and raises
`SearchTimeoutError(limit_s)`, so no job holds a worker longer. A job is a module-level
function (sent by name); its arguments, result and exceptions travel pickled. A worker
whose server has gone (its socket closed) exits. With `workers=0` jobs run in the
calling thread instead.

This module never imports Streamlit, so a worker imports only the solver.
"""

from __future__ import annotations

import importlib
import logging
import queue
import random
import signal
import socket
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from ....errors import SudokucamError
from ....solver import SearchTimeoutError, shape_for_size
from ....solver.logic.generate import GenerateConfig, Generated, generate
from ....solver.logic.grade import Level

log = logging.getLogger(__name__)
T = TypeVar("T")

READY = "ready"  # a worker's first message, once its imports are done
PRELOAD = ("sudokucam.solver", "sudokucam.solver.logic", "sudokucam.ui.app.state.game")


class PoolBusyError(SudokucamError):
    """Every worker stayed busy with other people's searches for longer than allowed."""


class WorkerLostError(SudokucamError):
    """A worker process died in the middle of a job (killed from outside, out of memory)."""


@dataclass(frozen=True)
class PoolConfig:
    """How many workers, and how long to wait for them.

    workers: worker processes (0: run every job in the calling thread).
    grace_s: beyond a job's own time limit, before its worker is killed.
    start_s: allowed for a fresh worker to start and import the solver.
    queue_s: longest wait for a free worker.
    """

    workers: int = 2
    grace_s: float = 2.0
    start_s: float = 60.0
    queue_s: float = 30.0


def _serve(conn: Connection, preload: tuple[str, ...]) -> None:
    """A worker's life: import the solver, then answer jobs from the pipe until it closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C stops the server, which stops us
    for name in preload:
        importlib.import_module(name)
    conn.send(READY)
    while True:
        try:
            job, args = conn.recv()
        except (EOFError, OSError):
            return  # the server is gone
        try:
            answer: tuple[bool, Any] = (True, job(*args))
        except Exception as exc:  # every failure goes back to the page that asked
            answer = (False, exc)
        try:
            conn.send(answer)
        except OSError:
            return  # the server is gone
        except Exception as exc:  # an answer that does not pickle (nothing was sent yet)
            conn.send((False, SudokucamError(f"{type(exc).__name__}: {exc}")))


class _Stuck(Exception):  # noqa: N818 - internal signal, never leaves this module
    """A worker did not answer in time."""


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, preload: tuple[str, ...]) -> None:
        """Start the process; it says READY once its imports are done."""
        ours, theirs = socket.socketpair()
        with theirs:
            fd = theirs.fileno()
            command = [sys.executable, "-m", __name__, str(fd), ",".join(preload)]
            self.process = subprocess.Popen(command, pass_fds=(fd,), stdin=subprocess.DEVNULL)
        self.conn = Connection(ours.detach())
        self.ready = False

    def call(
        self, job: Callable[..., T], args: tuple[Any, ...], wait_s: float, start_s: float
    ) -> T:
        """The job's result (or its exception raised here); _Stuck past wait_s."""
        if not self.ready:
            if not self.conn.poll(start_s):
                raise _Stuck
            self.conn.recv()
            self.ready = True
        self.conn.send((job, args))
        if not self.conn.poll(wait_s):
            raise _Stuck
        ok, value = _answer(self.conn)
        if not ok:
            raise value
        return value

    def stop(self) -> None:
        """Kill the process and close the pipe."""
        self.process.kill()
        self.process.wait(timeout=10)
        self.conn.close()


def _answer(conn: Connection) -> tuple[bool, Any]:
    """A worker's answer; an exception that cannot be rebuilt here becomes a SudokucamError.

    EOFError and OSError (the worker died, the pipe broke) are left to the caller.
    """
    try:
        answer: tuple[bool, Any] = conn.recv()
    except (EOFError, OSError):
        raise
    except Exception as exc:
        return False, SudokucamError(f"the search failed ({type(exc).__name__}: {exc})")
    return answer


class SearchPool:
    """Worker processes for searches, shared by every session of a server (module doc)."""

    def __init__(self, config: PoolConfig | None = None, preload: tuple[str, ...] = PRELOAD):
        """Start the workers (each imports the solver in the background)."""
        self.config = config or PoolConfig()
        self._preload = preload
        self._free: queue.Queue[_Worker] = queue.Queue()
        for _ in range(self.config.workers):
            self._free.put(_Worker(preload))

    def run(self, job: Callable[..., T], *args: Any, limit_s: float) -> T:
        """job(*args) in a worker: its result, or its exception raised here.

        Raises SearchTimeoutError(limit_s) when the worker has not answered `grace_s`
        after limit_s (the worker is replaced), PoolBusyError when no worker came free
        within `queue_s`, WorkerLostError when the worker died.
        """
        if self.config.workers == 0:
            return job(*args)
        try:
            worker = self._free.get(timeout=self.config.queue_s)
        except queue.Empty:
            raise PoolBusyError(
                "the app is busy with other people's searches; try again in a moment"
            ) from None
        try:
            return worker.call(job, args, limit_s + self.config.grace_s, self.config.start_s)
        except _Stuck:
            worker = self._replace(worker, "did not answer in time")
            raise SearchTimeoutError(limit_s) from None
        except (EOFError, OSError) as exc:
            worker = self._replace(worker, f"died ({exc or type(exc).__name__})")
            raise WorkerLostError("the search stopped unexpectedly; try again") from None
        finally:
            self._free.put(worker)

    def _replace(self, worker: _Worker, why: str) -> _Worker:
        """Kill a worker that failed and start a fresh one in its place."""
        log.warning("search worker %s %s; starting a new one", worker.process.pid, why)
        worker.stop()
        return _Worker(self._preload)

    def close(self) -> None:
        """Stop every idle worker (those still busy stop when the server exits)."""
        while True:
            try:
                self._free.get_nowait().stop()
            except queue.Empty:
                return


# ----------------------------------------------------------------------------- jobs
# Module-level functions the app sends to workers, beside the solver's own functions.


def new_puzzle(level: Level, time_limit_s: float) -> Generated:
    """A fresh 9×9 puzzle at the level (GenerationTimeoutError past the time limit)."""
    config = GenerateConfig(time_limit_s=time_limit_s)
    return generate(shape_for_size(9), level, random.Random(), config=config)


if __name__ == "__main__":  # a worker: python -m sudokucam.ui.app.state.pool FD MODULES
    _serve(Connection(int(sys.argv[1])), tuple(m for m in sys.argv[2].split(",") if m))
