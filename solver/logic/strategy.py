"""The order in which a person tries techniques, and a full logical solve."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..errors import SearchTimeoutError
from ..geometry import Shape
from .candidates import Candidates
from .chains import aic, x_chain, xy_chain
from .colouring import simple_colouring, unique_rectangle
from .fish import fish
from .forcing import forcing_chain
from .intersections import claiming, pointing
from .nets import forcing_net_1, forcing_net_2
from .singles import hidden_single, naked_single
from .step import Step, Technique
from .subsets import hidden_subset, naked_subset
from .wings import w_wing, xy_wing, xyz_wing

Finder = Callable[[Candidates], "Step | None"]

FINDERS: tuple[tuple[Technique, Finder], ...] = (
    (Technique.HIDDEN_SINGLE, hidden_single),
    (Technique.NAKED_SINGLE, naked_single),
    (Technique.POINTING, pointing),
    (Technique.CLAIMING, claiming),
    (Technique.NAKED_PAIR, lambda c: naked_subset(c, 2)),
    (Technique.HIDDEN_PAIR, lambda c: hidden_subset(c, 2)),
    (Technique.NAKED_TRIPLE, lambda c: naked_subset(c, 3)),
    (Technique.HIDDEN_TRIPLE, lambda c: hidden_subset(c, 3)),
    (Technique.X_WING, lambda c: fish(c, 2)),
    (Technique.XY_WING, xy_wing),
    (Technique.XYZ_WING, xyz_wing),
    (Technique.NAKED_QUAD, lambda c: naked_subset(c, 4)),
    (Technique.HIDDEN_QUAD, lambda c: hidden_subset(c, 4)),
    (Technique.SWORDFISH, lambda c: fish(c, 3)),
    (Technique.W_WING, w_wing),
    (Technique.SIMPLE_COLOURING, simple_colouring),
    (Technique.UNIQUE_RECTANGLE, unique_rectangle),
    (Technique.JELLYFISH, lambda c: fish(c, 4)),
    (Technique.X_CHAIN, x_chain),
    (Technique.XY_CHAIN, xy_chain),
    (Technique.AIC, aic),
    (Technique.FORCING_CHAIN, forcing_chain),
    (Technique.FORCING_NET, forcing_net_1),
    (Technique.NESTED_FORCING, forcing_net_2),
)

ALL_TECHNIQUES: frozenset[Technique] = frozenset(t for t, _ in FINDERS)
# Techniques that are only sound when the puzzle is known to have one solution.
UNIQUENESS_TECHNIQUES: frozenset[Technique] = frozenset({Technique.UNIQUE_RECTANGLE})


def next_step(
    cand: Candidates,
    techniques: Iterable[Technique] = ALL_TECHNIQUES,
    solution: Sequence[int] | None = None,
    deadline: float | None = None,
) -> Step | None:
    """The easiest step that applies; a guess (needs the solution) when none does.

    deadline: a `time.monotonic()` time, looked at before each technique is tried;
    SearchTimeoutError once it has passed (one technique's search is not cut short).
    """
    allowed = frozenset(techniques)
    for tech, find in FINDERS:
        if tech in allowed:
            _check_deadline(deadline)
            step = find(cand)
            if step is not None:
                return step
    if solution is not None and Technique.GUESS in allowed:
        _check_deadline(deadline)
        return guess(cand, solution)
    return None


def _check_deadline(deadline: float | None) -> None:
    """Raise SearchTimeoutError when the deadline (a `time.monotonic()` time) has passed."""
    if deadline is not None and time.monotonic() > deadline:
        raise SearchTimeoutError


def guess(cand: Candidates, solution: Sequence[int]) -> Step | None:
    """Try a value in a cell with the fewest candidates: the one that leads to the solution."""
    lay = cand.layout
    open_cells = list(cand.open_cells())
    if not open_cells:
        return None
    cell = min(open_cells, key=lambda c: cand.masks[c].bit_count())
    value = solution[cell]
    options = ", ".join(str(v) for v in cand.candidates(cell))
    text = (
        f"No technique finds a step here, so guess: {lay.name(cell)} can be {options}; "
        f"trying each in turn (backtracking), only {value} leads to a solution"
    )
    return Step(Technique.GUESS, ((cell, value),), (), (cell,), (), text)


@dataclass(frozen=True)
class LogicSolve:
    """The steps of a logical solve and where it ended."""

    shape: Shape
    start: tuple[int, ...]
    steps: tuple[Step, ...]
    values: tuple[int, ...]
    timed_out: bool = False  # stopped at its deadline, before the grid was full or stuck

    @property
    def solved(self) -> bool:
        """True when every cell was filled."""
        return 0 not in self.values

    @property
    def guessed(self) -> bool:
        """True when some step was a guess."""
        return any(s.technique is Technique.GUESS for s in self.steps)

    @property
    def by_logic(self) -> bool:
        """True when solved without guessing."""
        return self.solved and not self.guessed


def solve_steps(
    shape: Shape,
    values: Sequence[int],
    techniques: Iterable[Technique] = ALL_TECHNIQUES,
    solution: Sequence[int] | None = None,
    max_steps: int = 100_000,
    deadline: float | None = None,
) -> LogicSolve:
    """Apply the easiest step again and again until the grid is full or nothing applies.

    deadline: a `time.monotonic()` time after which no further technique is tried (the
    solve then ends unfinished, marked timed_out).
    """
    cand = Candidates.from_values(shape, values)
    allowed = frozenset(techniques)
    steps: list[Step] = []
    timed_out = False
    while not cand.is_solved() and len(steps) < max_steps:
        try:
            step = next_step(cand, allowed, solution, deadline)
        except SearchTimeoutError:
            timed_out = True
            break
        if step is None:
            break
        cand.apply(step)
        steps.append(step)
        if cand.contradiction() is not None:
            break
    return LogicSolve(shape, tuple(values), tuple(steps), tuple(cand.values), timed_out)
