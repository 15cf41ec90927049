"""Generated puzzles have exactly one solution and grade at the level asked, every size."""

from __future__ import annotations

import importlib
import random
import signal
import sys
import threading
import time

import pytest

from sudokucam.solver import Grid, count_solutions, shape_for_size
from sudokucam.solver.logic import (
    GenerateConfig,
    GenerationTimeoutError,
    Level,
    generate,
    grade_puzzle,
    random_solution,
)
from sudokucam.solver.validate import check_complete


@pytest.mark.parametrize("size", [4, 6, 8, 9, 12, 16])
def test_random_solution_is_a_valid_full_grid(size: int) -> None:
    shape = shape_for_size(size)
    grid = Grid(shape, random_solution(shape, random.Random(size)))
    assert grid.is_complete and not check_complete(grid)


def _check(size: int, level: Level, seed: int, symmetric: bool = False) -> None:
    shape = shape_for_size(size)
    made = generate(shape, level, random.Random(seed), symmetric=symmetric)
    puzzle = Grid(shape, made.puzzle)
    assert count_solutions(puzzle, limit=2) == 1
    assert all(p in (0, s) for p, s in zip(made.puzzle, made.solution, strict=True))
    assert made.grade.level is level
    regraded, _ = grade_puzzle(puzzle)
    assert regraded is not None and regraded.level is level
    if symmetric:
        n2 = shape.ncells
        assert all(bool(made.puzzle[c]) == bool(made.puzzle[n2 - 1 - c]) for c in range(n2))


@pytest.mark.parametrize("level", list(Level))
def test_generate_9x9_each_level(level: Level) -> None:
    _check(9, level, seed=11)


@pytest.mark.parametrize(
    "size, level", [(4, Level.EASY), (6, Level.MEDIUM), (8, Level.DIFFICULT), (12, Level.EASY)]
)
def test_generate_other_sizes(size: int, level: Level) -> None:
    _check(size, level, seed=3)


def test_generate_symmetric() -> None:
    _check(9, Level.MEDIUM, seed=5, symmetric=True)


@pytest.mark.slow
def test_generate_16x16_easy() -> None:
    _check(16, Level.EASY, seed=1)


def test_four_by_four_cannot_be_hard() -> None:
    with pytest.raises(ValueError, match="no harder than Easy"):
        generate(shape_for_size(4), Level.MEDIUM, random.Random(0))


def test_generation_time_limit_is_a_clear_error() -> None:
    cfg = GenerateConfig(time_limit_s=0.0)
    with pytest.raises(GenerationTimeoutError, match="no Extremely Difficult 6×6 puzzle found"):
        # 6×6 extremely difficult puzzles are rare: the first try almost never is one.
        for seed in range(20):
            generate(shape_for_size(6), Level.EXTREMELY_DIFFICULT, random.Random(seed), config=cfg)


def _time_out(size: int, level: Level, limit: float) -> float:
    """Seconds until generate gives up on a search that takes far longer than ``limit``."""
    start = time.monotonic()
    with pytest.raises(GenerationTimeoutError, match=f"in {limit:g} s"):
        generate(shape_for_size(size), level, random.Random(2), config=GenerateConfig(limit))
    return time.monotonic() - start


def test_time_limit_stops_a_long_step_on_time() -> None:
    """A 16×16 Extremely Difficult try takes seconds (long uniqueness proofs and forcing
    nets): the limit stops it inside a step, and the timer and handler are put back."""
    handler = signal.getsignal(signal.SIGALRM)
    for limit in (0.05, 0.3):
        assert _time_out(16, Level.EXTREMELY_DIFFICULT, limit) < limit + 0.15
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is handler


def test_time_limit_off_the_main_thread_stops_between_steps() -> None:
    """Without the timer (another thread, as in the app) the stages' own checks stop it."""
    elapsed: list[float] = []
    # a 16×16 Easy puzzle takes about 0.4 s on an idle 2-core machine: far past 0.02 s
    worker = threading.Thread(target=lambda: elapsed.append(_time_out(16, Level.EASY, 0.02)))
    worker.start()
    worker.join()
    assert elapsed and elapsed[0] < 0.02 + 2.0  # at most one solving step late


def test_someone_elses_alarm_is_left_alone() -> None:
    """A timer already running is neither replaced nor cancelled."""
    rang: list[int] = []
    previous = signal.signal(signal.SIGALRM, lambda signum, frame: rang.append(signum))
    try:
        signal.setitimer(signal.ITIMER_REAL, 30.0)
        generate(shape_for_size(6), Level.EASY, random.Random(1))
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 0 < left <= 30.0 and not rang
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class _RaisesWhenDropped:
    """An object whose ``__del__`` raises: Python ignores it and calls the unraisable hook,
    as for an alarm ringing inside a garbage collector's callback."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def __del__(self) -> None:
        raise self.error


def test_an_alarm_lost_where_python_ignores_it_prints_nothing() -> None:
    """The time limit's alarm ringing where exceptions are ignored prints no traceback (the
    deadline checks stop the search anyway); other ignored errors still reach the hook."""
    module = importlib.import_module("sudokucam.solver.logic.generate")
    seen: list[type[object]] = []
    previous = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: seen.append(type(unraisable.exc_value))
    try:
        with module._alarm_at(time.monotonic() + 30.0):
            _RaisesWhenDropped(module._OutOfTime())
            _RaisesWhenDropped(ValueError("not the alarm"))
        assert seen == [ValueError]
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    finally:
        sys.unraisablehook = previous


def test_a_try_that_missed_the_level_is_named() -> None:
    """The timeout message says how close the tries came."""
    cfg = GenerateConfig(time_limit_s=0.5)
    with pytest.raises(GenerationTimeoutError, match=r" tries, the closest was \w+\); try again"):
        generate(shape_for_size(6), Level.EXTREMELY_DIFFICULT, random.Random(2), config=cfg)


def test_an_alarm_ringing_during_cleanup_still_puts_the_handler_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The deadline can pass just as a step ends: the alarm then rings inside the
    cleanup, which must still disarm the timer and restore the handler."""
    module = importlib.import_module("sudokucam.solver.logic.generate")
    handler = signal.getsignal(signal.SIGALRM)
    real = signal.setitimer
    rings = [1]

    def ring_once(which: int, seconds: float, interval: float = 0.0) -> tuple[float, float]:
        if seconds == 0 and rings:
            rings.pop()
            raise module._OutOfTime
        return real(which, seconds, interval)

    monkeypatch.setattr(signal, "setitimer", ring_once)
    with module._alarm_at(time.monotonic() + 30.0):
        pass
    assert not rings
    assert real(signal.ITIMER_REAL, 0) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is handler
