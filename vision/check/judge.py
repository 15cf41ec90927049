"""Judge a person's written entries against the answer without accusing a right one.

An entry that disagrees with the answer is called wrong only when the ink is read surely:
the classifier gives the digit read a high probability, the answer's digit a very low one,
and the cell little chance of being empty. Any other disagreeing entry is *unsure*: the
person is asked, shown the digit read and the next likeliest one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..types import Digits, digit_values, value_shares


@dataclass(frozen=True)
class CheckConfig:
    """When a disagreeing written entry counts as surely wrong, and notes as candidates.

    min_probability: the least probability (over the digits 1-9, any ink) of the digit read.
    max_answer_probability: the most probability the answer's digit may have.
    max_empty_probability: the most probability of the cell being empty (a faint mark).
    min_candidates: the fewest digits a cell's notes hold to be its candidates. One lone
        small digit is a reminder (a corner mark: "a 3 goes in one of these two cells"),
        not the cell's candidates, so it is never said to rule out the answer nor taken as
        candidates by the hint.
    """

    min_probability: float = 0.99
    max_answer_probability: float = 0.001
    max_empty_probability: float = 0.05
    min_candidates: int = 2

    def __post_init__(self) -> None:
        """Check every field is a probability, and the candidates a count."""
        for name in ("min_probability", "max_answer_probability", "max_empty_probability"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {value}")
        if self.min_candidates < 1:
            raise ValueError(f"min_candidates must be at least 1, got {self.min_candidates}")


DEFAULT_CHECK_CONFIG = CheckConfig()


@dataclass(frozen=True)
class UnsureEntry:
    """A written entry that disagrees with the answer, read without certainty.

    cell: 0-80, row by row; reading: the digit read; other: the next likeliest digit.
    """

    cell: int
    reading: int
    other: int


def digit_shares(cell_probs: np.ndarray) -> np.ndarray:
    """(9,) probability of each digit 1-9 in any ink, from a cell's 19, normalised; (n,)
    of each value 1-n from a cell of one column a value in any ink (a 16×16's 17)."""
    digits = value_shares(np.asarray(cell_probs)[None, :])[0]
    return digits / max(float(digits.sum()), 1e-12)


def entry_is_sure(
    cell_probs: np.ndarray, read: int, answer: int, config: CheckConfig = DEFAULT_CHECK_CONFIG
) -> bool:
    """Whether a cell's ink (its 19 class probabilities) is surely ``read`` and not ``answer``."""
    shares = digit_shares(cell_probs)
    return (
        shares[read - 1] >= config.min_probability
        and shares[answer - 1] <= config.max_answer_probability
        and float(cell_probs[0]) <= config.max_empty_probability
    )


def next_likeliest(cell_probs: np.ndarray, read: int) -> int:
    """The likeliest digit 1-9 (value 1-n) other than ``read`` in a cell's probabilities."""
    shares = digit_shares(cell_probs)
    shares[read - 1] = -1.0
    return int(np.argmax(shares)) + 1


def judge_entries(
    probs: np.ndarray,
    handwritten: Digits,
    solution: Digits,
    config: CheckConfig = DEFAULT_CHECK_CONFIG,
    answer_is_sure: bool = True,
) -> tuple[tuple[int, ...], tuple[UnsureEntry, ...]]:
    """The written entries surely wrong, and those disagreeing with the answer unsurely.

    ``probs``: (81, 19) class probabilities; ``handwritten``: the entries ('0' where none).
    ``answer_is_sure``: False when the answer rests on a digit not read surely (see
    ``answer_rests_on_sure_digits``): then no entry is called wrong, only unsure.
    """
    wrong: list[int] = []
    unsure: list[UnsureEntry] = []
    written, answers = digit_values(handwritten), digit_values(solution)
    for cell, (digit, answer) in enumerate(zip(written, answers, strict=True)):
        if digit in (0, answer):
            continue
        if answer_is_sure and entry_is_sure(probs[cell], digit, answer, config):
            wrong.append(cell)
        else:
            unsure.append(UnsureEntry(cell, digit, next_likeliest(probs[cell], digit)))
    return tuple(wrong), tuple(unsure)


def answer_rests_on_sure_digits(
    taken: Sequence[float], config: CheckConfig = DEFAULT_CHECK_CONFIG
) -> bool:
    """Whether the answer rests only on digits read surely.

    ``taken``: how surely each change the solver's repair made to the givens was read
    (``results.repair_sureness``): the probability of a written entry taken as printed, of
    a printed digit taken as another, 0 for a printed digit taken as written. A wrong
    change gives a unique answer that is not the puzzle's (a written 7 read as a printed
    1 kept, the true printed 1 beside it taken as written), and every right entry
    disagreeing with it would be called wrong; so each must be as sure as a mistake must be.
    """
    return all(p >= config.min_probability for p in taken)


def notes_missing_answer(notes: Sequence[str], solution: Digits) -> tuple[int, ...]:
    """Cells whose candidate notes leave out the answer's digit."""
    return tuple(
        c
        for c, (noted, answer) in enumerate(zip(notes, solution, strict=True))
        if noted and answer not in noted
    )
