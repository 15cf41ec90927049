"""New puzzles with exactly one solution, at a chosen difficulty level.

A random full grid comes from randomized backtracking. Clues are then removed in random
(or symmetric) order, keeping a removal only while the puzzle can still be solved with
the techniques of the level asked for (which also proves it has one solution). The result
is graded; if it lands below the level, start again, until a time limit.

The time limit is a deadline that every stage checks: the fill at each cell it tries,
the carving before each removal, the grading solve before each step. On the main thread
of a Unix process a timer (SIGALRM) also stops a single long step (a uniqueness proof or
a forcing net on 16×16 can take a second) at the deadline itself; elsewhere (another
thread, Windows) the stage checks alone bound it, so the overrun is at most one step.
"""

from __future__ import annotations

import random
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

from ...errors import SudokucamError
from ..engine import find_solutions
from ..geometry import Shape
from .candidates import Candidates
from .grade import TIER, Grade, Level, grade_steps
from .nets import NetState, settle_singles
from .step import Technique
from .strategy import ALL_TECHNIQUES, UNIQUENESS_TECHNIQUES, next_step

# Sizes whose puzzles never need more than some level (measured: 36,000 tries).
HARDEST_LEVEL: dict[int, Level] = {4: Level.EASY}


class GenerationTimeoutError(SudokucamError):
    """No puzzle at the level asked was found in the time allowed."""


class _OutOfTime(Exception):  # noqa: N818 - internal signal, never leaves this module
    """Raised inside generation when the deadline has passed."""


@dataclass(frozen=True)
class GenerateConfig:
    """Limits for generation.

    time_limit_s: give up after this long for one puzzle (a hard limit: see the module).
    """

    time_limit_s: float = 60.0


@dataclass(frozen=True)
class Generated:
    """A new puzzle, its solution and its grade."""

    shape: Shape
    puzzle: tuple[int, ...]
    solution: tuple[int, ...]
    grade: Grade
    attempts: int

    @property
    def clues(self) -> int:
        """Number of givens."""
        return sum(1 for v in self.puzzle if v)


def _check_time(deadline: float | None) -> None:
    """Raise _OutOfTime when the deadline (a `time.monotonic()` time) has passed."""
    if deadline is not None and time.monotonic() > deadline:
        raise _OutOfTime


def random_solution(
    shape: Shape, rng: random.Random, deadline: float | None = None
) -> tuple[int, ...]:
    """A random full grid by randomized backtracking with singles propagation."""
    cand = Candidates.from_values(shape, [0] * shape.ncells)
    st = NetState(cand.values, cand.masks, [])
    found = _fill(cand, st, rng, deadline)
    if found is None:  # pragma: no cover - an empty grid always has a solution
        raise SudokucamError("could not fill an empty grid")
    return found


def _fill(
    cand: Candidates, st: NetState, rng: random.Random, deadline: float | None
) -> tuple[int, ...] | None:
    """Complete st at random, or None when it cannot be completed."""
    _check_time(deadline)
    lay = cand.layout
    open_cells = [c for c, v in enumerate(st.values) if not v]
    if not open_cells:
        return tuple(st.values)
    best = min(open_cells, key=lambda c: (st.masks[c].bit_count(), rng.random()))
    options = [v for v in range(1, lay.size + 1) if st.masks[best] >> (v - 1) & 1]
    rng.shuffle(options)
    for v in options:
        child = NetState(st.values[:], st.masks[:], [])
        child.masks[best] = 1 << (v - 1)
        if settle_singles(lay, child, [best]):
            done = _fill(cand, child, rng, deadline)
            if done is not None:
                return done
    return None


def solvable_with(shape: Shape, values: list[int], allowed: frozenset[Technique]) -> bool:
    """True when the allowed techniques fill the grid (so it has exactly one solution)."""
    cand = Candidates.from_values(shape, values)
    lay = cand.layout
    harder = allowed - {Technique.HIDDEN_SINGLE, Technique.NAKED_SINGLE}
    while True:
        st = NetState(cand.values, cand.masks, [])
        queue = [c for c in cand.open_cells() if cand.masks[c].bit_count() == 1]
        if not settle_singles(lay, st, queue):
            return False
        if cand.is_solved():
            return True
        step = next_step(cand, harder) if harder else None
        if step is None:
            return False
        cand.apply(step)


def techniques_up_to(level: Level) -> frozenset[Technique]:
    """Techniques no harder than a level, leaving out those that assume one solution."""
    return frozenset(
        t for t in ALL_TECHNIQUES if TIER[t] <= level and t not in UNIQUENESS_TECHNIQUES
    )


def _removal_order(shape: Shape, rng: random.Random, symmetric: bool) -> list[tuple[int, ...]]:
    """Groups of cells to try emptying together: single cells, or 180° symmetric pairs."""
    n2 = shape.ncells
    if not symmetric:
        cells = list(range(n2))
        rng.shuffle(cells)
        return [(c,) for c in cells]
    groups: list[tuple[int, ...]] = [
        (c, n2 - 1 - c) if c != n2 - 1 - c else (c,) for c in range(n2 // 2 + n2 % 2)
    ]
    rng.shuffle(groups)
    return groups


def carve(
    shape: Shape,
    solution: tuple[int, ...],
    level: Level,
    rng: random.Random,
    symmetric: bool,
    deadline: float | None = None,
) -> list[int]:
    """Empty cells while the puzzle stays solvable with techniques up to the level."""
    allowed = techniques_up_to(level)
    puzzle = list(solution)
    for group in _removal_order(shape, rng, symmetric):
        _check_time(deadline)
        saved = [puzzle[c] for c in group]
        for c in group:
            puzzle[c] = 0
        if level is Level.EXTREMELY_DIFFICULT:
            keep = len(find_solutions(puzzle, shape, limit=2)) == 1
        else:
            keep = solvable_with(shape, puzzle, allowed)
        if not keep:
            for c, v in zip(group, saved, strict=True):
                puzzle[c] = v
    return puzzle


class _Tries:
    """How a search for one puzzle went so far: tries made and the closest level seen."""

    def __init__(self) -> None:
        self.count = 0
        self.closest: Level | None = None

    def note(self, grade: Grade, level: Level) -> None:
        """Remember a graded try that missed the level if it came closer than the others."""
        if self.closest is None or abs(grade.level - level) < abs(self.closest - level):
            self.closest = grade.level


@contextmanager
def _alarm_at(deadline: float) -> Iterator[None]:
    """Raise _OutOfTime in the main thread at the deadline, through SIGALRM where it can.

    Does nothing off the main thread, without `signal.setitimer` (Windows), or when a
    timer is already set (someone else's alarm is left alone).
    """
    usable = (
        hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    )
    if not usable:
        yield
        return

    def ring(signum: int, frame: FrameType | None) -> None:
        raise _OutOfTime

    previous, hook = signal.signal(signal.SIGALRM, ring), sys.unraisablehook
    sys.unraisablehook = _quiet_lost_alarm(hook)
    try:
        signal.setitimer(signal.ITIMER_REAL, max(deadline - time.monotonic(), 1e-3))
        yield
    finally:
        _put_back(previous, hook)


def _put_back(
    previous: signal.Handlers | Callable[[int, FrameType | None], object] | int | None,
    hook: Callable[[sys.UnraisableHookArgs], object],
) -> None:
    """Disarm the timer, then restore the SIGALRM handler and the unraisable hook.

    An alarm may ring while this runs (the step ended just at the deadline, or the signal
    was caught but its handler not yet run): its _OutOfTime is dropped and the cleanup
    done again, so the handler is always put back.
    """
    while True:
        try:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            sys.unraisablehook = hook
            return
        except _OutOfTime:
            continue


def _quiet_lost_alarm(
    hook: Callable[[sys.UnraisableHookArgs], object],
) -> Callable[[sys.UnraisableHookArgs], object]:
    """``hook`` that says nothing of an alarm ringing where Python ignores exceptions (a
    garbage collector's callback): the deadline checks stop the search there anyway."""

    def quiet(unraisable: sys.UnraisableHookArgs) -> object:
        if isinstance(unraisable.exc_value, _OutOfTime):
            return None
        return hook(unraisable)

    return quiet


def generate(
    shape: Shape,
    level: Level,
    rng: random.Random,
    symmetric: bool = False,
    config: GenerateConfig | None = None,
) -> Generated:
    """One puzzle with one solution graded at the level.

    Raises GenerationTimeoutError when none is found within ``config.time_limit_s``
    (checked throughout, see the module), ValueError when the size has no puzzle that hard.
    """
    cfg = config or GenerateConfig()
    top = HARDEST_LEVEL.get(shape.size, Level.EXTREMELY_DIFFICULT)
    if level > top:
        raise ValueError(
            f"level: {shape.size}×{shape.size} puzzles with one solution come no harder than "
            f"{top.label} (none found in tens of thousands of tries)"
        )
    deadline = time.monotonic() + cfg.time_limit_s
    tries = _Tries()
    made: Generated | None = None
    try:
        with _alarm_at(deadline):
            made = _search(shape, level, rng, symmetric, deadline, tries)
    except _OutOfTime:
        pass  # made stays None unless the alarm rang just after the puzzle was found
    if made is None:
        plural = "try" if tries.count == 1 else "tries"
        closest = f", the closest was {tries.closest.label}" if tries.closest else ""
        raise GenerationTimeoutError(
            f"no {level.label} {shape.size}×{shape.size} puzzle found in "
            f"{cfg.time_limit_s:g} s ({tries.count} {plural}{closest}); "
            "try again or allow more time"
        )
    return made


def _search(
    shape: Shape,
    level: Level,
    rng: random.Random,
    symmetric: bool,
    deadline: float,
    tries: _Tries,
) -> Generated:
    """Fill, carve and grade until a puzzle lands at the level; _OutOfTime at the deadline."""
    from .solving import logical_solve

    while True:
        tries.count += 1
        solution = random_solution(shape, rng, deadline)
        puzzle = carve(shape, solution, level, rng, symmetric, deadline)
        solve = logical_solve(shape, puzzle, solution=solution, deadline=deadline)
        _check_time(deadline)  # a solve cut short at the deadline grades nothing
        grade = grade_steps(solve.steps)
        if solve.solved and grade.level == level:
            return Generated(shape, tuple(puzzle), solution, grade, tries.count)
        tries.note(grade, level)
