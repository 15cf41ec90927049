"""Difficulty: a level from the hardest technique a solve needs and how often, plus a score."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum

from ..errors import SearchTimeoutError
from .step import Step, Technique
from .strategy import LogicSolve


class Level(IntEnum):
    """Difficulty levels, easiest first."""

    EASY = 1
    MEDIUM = 2
    DIFFICULT = 3
    EXTREMELY_DIFFICULT = 4

    @property
    def label(self) -> str:
        """'Easy', 'Medium', 'Difficult' or 'Extremely Difficult'."""
        return self.name.replace("_", " ").title()

    @classmethod
    def parse(cls, text: str) -> Level:
        """A level from its label or number, any case, or a unique start of a label.

        "medium", "Med", "d" and "ext" all work; "e" (Easy or Extremely Difficult) and
        names that are no level ("hard") raise ValueError listing the levels.
        """
        key = " ".join(text.strip().lower().replace("-", " ").replace("_", " ").split())
        for level in cls:
            if key in (level.label.lower(), str(level.value)):
                return level
        starts = [level for level in cls if key and level.label.lower().startswith(key)]
        if len(starts) == 1:
            return starts[0]
        labels = ", ".join(lv.label for lv in cls)
        why = f"{text!r} could be {' or '.join(lv.label for lv in starts)}" if starts else None
        raise ValueError(
            f"level must be one of {labels} (any case, or a unique start such as 'ext'); "
            f"{why or f'got {text!r}'}"
        )


TIER: dict[Technique, Level] = {
    Technique.HIDDEN_SINGLE: Level.EASY,
    Technique.NAKED_SINGLE: Level.EASY,
    Technique.POINTING: Level.MEDIUM,
    Technique.CLAIMING: Level.MEDIUM,
    Technique.NAKED_PAIR: Level.MEDIUM,
    Technique.HIDDEN_PAIR: Level.MEDIUM,
    Technique.NAKED_TRIPLE: Level.MEDIUM,
    Technique.HIDDEN_TRIPLE: Level.MEDIUM,
    Technique.NAKED_QUAD: Level.DIFFICULT,
    Technique.HIDDEN_QUAD: Level.DIFFICULT,
    Technique.X_WING: Level.DIFFICULT,
    Technique.SWORDFISH: Level.DIFFICULT,
    Technique.JELLYFISH: Level.DIFFICULT,
    Technique.XY_WING: Level.DIFFICULT,
    Technique.XYZ_WING: Level.DIFFICULT,
    Technique.W_WING: Level.DIFFICULT,
    Technique.SIMPLE_COLOURING: Level.DIFFICULT,
    Technique.UNIQUE_RECTANGLE: Level.DIFFICULT,
    Technique.X_CHAIN: Level.DIFFICULT,
    Technique.XY_CHAIN: Level.DIFFICULT,
    Technique.AIC: Level.EXTREMELY_DIFFICULT,
    Technique.FORCING_CHAIN: Level.EXTREMELY_DIFFICULT,
    Technique.FORCING_NET: Level.EXTREMELY_DIFFICULT,
    Technique.NESTED_FORCING: Level.EXTREMELY_DIFFICULT,
    Technique.GUESS: Level.EXTREMELY_DIFFICULT,
}

WEIGHT: dict[Technique, float] = {
    Technique.HIDDEN_SINGLE: 1.0,
    Technique.NAKED_SINGLE: 2.0,
    Technique.POINTING: 4.0,
    Technique.CLAIMING: 4.5,
    Technique.NAKED_PAIR: 5.0,
    Technique.HIDDEN_PAIR: 6.0,
    Technique.NAKED_TRIPLE: 7.0,
    Technique.HIDDEN_TRIPLE: 8.0,
    Technique.X_WING: 10.0,
    Technique.NAKED_QUAD: 10.0,
    Technique.HIDDEN_QUAD: 11.0,
    Technique.XY_WING: 12.0,
    Technique.XYZ_WING: 13.0,
    Technique.SWORDFISH: 14.0,
    Technique.W_WING: 14.0,
    Technique.SIMPLE_COLOURING: 15.0,
    Technique.UNIQUE_RECTANGLE: 15.0,
    Technique.JELLYFISH: 18.0,
    Technique.X_CHAIN: 18.0,
    Technique.XY_CHAIN: 20.0,
    Technique.AIC: 25.0,
    Technique.FORCING_CHAIN: 35.0,
    Technique.FORCING_NET: 45.0,
    Technique.NESTED_FORCING: 60.0,
    Technique.GUESS: 80.0,
}


@dataclass(frozen=True)
class GradeConfig:
    """How step counts move a grade.

    promote_after: a puzzle that needs techniques of its hardest level (Medium or
        Difficult) at least this many times is graded one level up.
    total_weight_share: the score is the hardest weight plus this share of all weights.
    """

    promote_after: dict[Level, int] = field(
        default_factory=lambda: {Level.MEDIUM: 10, Level.DIFFICULT: 8}
    )
    total_weight_share: float = 0.1


@dataclass(frozen=True)
class Grade:
    """The difficulty of one puzzle."""

    level: Level
    score: float
    hardest: Technique
    counts: tuple[tuple[Technique, int], ...]
    solved: bool  # False when even guessing could not finish (no unique solution)

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON."""
        return {
            "level": self.level.label,
            "score": self.score,
            "hardest": self.hardest.value,
            "counts": {t.value: k for t, k in self.counts},
            "solved": self.solved,
        }


def grade_steps(steps: Sequence[Step], config: GradeConfig | None = None) -> Grade:
    """The grade of a solve given its steps."""
    cfg = config or GradeConfig()
    counts = Counter(s.technique for s in steps)
    order = list(Technique)
    if not counts:
        return Grade(Level.EASY, 0.0, Technique.HIDDEN_SINGLE, (), True)
    hardest = max(counts, key=lambda t: (TIER[t], WEIGHT[t]))
    level = TIER[hardest]
    in_tier = sum(k for t, k in counts.items() if TIER[t] == level)
    limit = cfg.promote_after.get(level)
    if limit is not None and in_tier >= limit:
        level = Level(level + 1)
    total = sum(WEIGHT[t] * k for t, k in counts.items())
    score = round(WEIGHT[hardest] + cfg.total_weight_share * total, 1)
    ordered = tuple(sorted(counts.items(), key=lambda tk: order.index(tk[0])))
    return Grade(level, score, hardest, ordered, True)


def grade_solve(result: LogicSolve, config: GradeConfig | None = None) -> Grade:
    """The grade of a finished logical solve (unsolved: marked as such).

    A solve stopped at its deadline has no grade: SearchTimeoutError.
    """
    if result.timed_out:
        raise SearchTimeoutError
    g = grade_steps(result.steps, config)
    if result.solved:
        return g
    return Grade(Level.EXTREMELY_DIFFICULT, g.score, g.hardest, g.counts, False)
