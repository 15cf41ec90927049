"""A small grid's repair (``vision/small/read.py``, ``repaired``) never takes a digit the
digit model ruled out (``SmallGridConfig.unlikely_repair``, the 9×9's bound): where only
such a repair gives one answer, the grid is left unsolved and the repair named (issue 27:
a 4×4's printed 3 "repaired" to a 2 read at 0 % solved it wrong)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from sudokucam.solver.outcome import SOLVED_OUTCOMES, ProblemKind
from sudokucam.vision.repair import Repair, ruled_out
from sudokucam.vision.small.config import SmallGridConfig
from sudokucam.vision.small.read import solve_reading
from sudokucam.vision.types import CellReading, Kind

ANSWER = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)  # a 4×4, 2×2 boxes
PRINTED = (0, 1, 6, 11, 12, 15)  # givens with this one answer
MISREAD = 0  # r1c1's printed 1 read as a 2: two 2s in row 1
OTHERS = 1e-5  # each other class of a cell read surely


def reading(one_at: float) -> CellReading:
    """The 4×4 read with r1c1 a printed 2, the model giving its true 1 ``one_at``; every
    other given read surely, every other cell surely empty (digits 5-9 masked)."""
    probs = np.zeros((16, 19), np.float32)
    digits = np.zeros(16, np.int64)
    kinds = np.full(16, int(Kind.EMPTY), np.int64)
    for cell in range(16):
        if cell not in PRINTED:
            probs[cell, 0] = 1.0
            continue
        digit = 2 if cell == MISREAD else ANSWER[cell]
        for value in range(1, 5):  # printed 1-4, and handwritten 10-13
            probs[cell, value] = probs[cell, value + 9] = OTHERS
        probs[cell, 0] = OTHERS / 2
        if cell == MISREAD:
            probs[cell, 1] = one_at
        probs[cell, digit] = 1.0 - float(probs[cell].sum() - probs[cell, digit])
        digits[cell], kinds[cell] = digit, int(Kind.PRINTED)
    return CellReading(probs, digits, kinds, kind_log_odds=np.where(digits > 0, 8.0, 0.0))


def test_a_repair_to_a_digit_the_model_ruled_out_gives_no_answer() -> None:
    outcome = solve_reading(reading(one_at=0.001), 4, SmallGridConfig())
    assert outcome.status not in SOLVED_OUTCOMES and outcome.solution is None
    assert outcome.repairs == ()
    kinds = [p.kind for p in outcome.problems]
    assert kinds == [ProblemKind.DUPLICATE, ProblemKind.UNLIKELY_REPAIR]
    refused = outcome.problems[-1]
    assert refused.cells == (MISREAD,)
    assert "r1c1 read as 2" in refused.text and "taken as 1 (0%)" in refused.text
    assert "under 5%" in refused.text


def test_a_likely_repair_is_still_taken() -> None:
    outcome = solve_reading(reading(one_at=0.3), 4, SmallGridConfig())
    assert outcome.status in SOLVED_OUTCOMES
    assert outcome.solution == "".join(map(str, ANSWER))
    ((repair,),) = [outcome.repairs]
    assert (repair.cell, repair.old, repair.new) == (MISREAD, 2, 1)
    assert repair.new_probability == pytest.approx(0.3, abs=1e-4)
    assert ProblemKind.UNLIKELY_REPAIR not in [p.kind for p in outcome.problems]


def test_with_no_bound_the_unlikely_repair_is_taken_as_before() -> None:
    config = replace(SmallGridConfig(), unlikely_repair=0.0)
    outcome = solve_reading(reading(one_at=0.001), 4, config)
    assert outcome.status in SOLVED_OUTCOMES
    assert [(r.cell, r.new) for r in outcome.repairs] == [(MISREAD, 1)]


def test_only_a_digit_for_a_digit_below_the_bound_is_ruled_out() -> None:
    unlikely = Repair(0, 2, 1, 0.99, 0.01)
    likely = Repair(5, 3, 4, 0.6, 0.4)
    emptied = Repair(6, 3, 0, 0.99, 0.01)
    ink = Repair(7, 0, 4, 0.01, 0.01, kind_changed=True)
    repairs = (unlikely, likely, emptied, ink)
    assert ruled_out(repairs, 0.05) == (unlikely,)
    assert ruled_out(repairs, 0.0) == ()
