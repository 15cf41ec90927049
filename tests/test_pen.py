"""Pen entries read with the answer as prior: unsure ones lean to it, clear mistakes stay."""

from __future__ import annotations

import numpy as np
import pytest

from sudokucam.vision.read.pen import PenConfig, read_pen_entries
from sudokucam.vision.types import CellReading, Kind

SOLUTION = "342891675157632984689745213463917528715268349928354761591476832874523196236189457"


def reading_with(cells: dict[int, dict[int, float]]) -> CellReading:
    """A reading where ``cells`` maps a cell to {class: probability}; others sure empty."""
    probs = np.zeros((81, 19), dtype=np.float32)
    probs[:, 0] = 1.0
    for cell, classes in cells.items():
        probs[cell] = 0.0
        for cls, p in classes.items():
            probs[cell, cls] = p
    digits = np.zeros(81, dtype=np.int64)
    kinds = np.zeros(81, dtype=np.int64)
    for cell in cells:
        best = int(np.argmax(probs[cell]))
        if best:
            digits[cell] = best if best < 10 else best - 9
            kinds[cell] = Kind.PRINTED if best < 10 else Kind.HANDWRITTEN
    return CellReading(probs=probs, digits=digits, kinds=kinds)


def pen_string(entries: dict[int, int]) -> str:
    """81 characters with pen digits at the given cells."""
    return "".join(str(entries.get(c, 0)) for c in range(81))


def test_unsure_pen_digit_leans_to_the_answer() -> None:
    """r1c1's answer is 3; ink reads 8 (55%) or 3 (40%): taken as 3."""
    reading = reading_with({0: {17: 0.55, 12: 0.40, 0: 0.05}})
    hand, changed = read_pen_entries(reading, pen_string({0: 8}), SOLUTION)
    assert hand[0] == "3"
    assert changed == {0: pytest.approx(0.40 / 0.95, rel=1e-3)}


def test_clearly_written_mistake_stays_a_mistake() -> None:
    """A confidently read wrong digit is what the person wrote: it is not corrected."""
    reading = reading_with({0: {17: 0.995, 12: 0.004, 0: 0.001}})
    hand, changed = read_pen_entries(reading, pen_string({0: 8}), SOLUTION)
    assert hand[0] == "8"
    assert changed == {}


def test_faint_mark_that_disagrees_with_the_answer_is_empty() -> None:
    """Show-through read as a pen 5 (30%) with 40% empty: a phantom, emptied."""
    reading = reading_with({0: {0: 0.40, 14: 0.30, 12: 0.02, 16: 0.28}})
    hand, changed = read_pen_entries(reading, pen_string({0: 5}), SOLUTION)
    assert hand[0] == "0"
    assert 0 in changed


def test_faint_but_right_entry_is_kept() -> None:
    """A light pen 3 in a cell whose answer is 3 stays, even with 30% empty."""
    reading = reading_with({0: {0: 0.30, 12: 0.65, 17: 0.05}})
    hand, _ = read_pen_entries(reading, pen_string({0: 3}), SOLUTION)
    assert hand[0] == "3"


def test_nothing_changes_without_a_solution_or_prior() -> None:
    reading = reading_with({0: {17: 0.55, 12: 0.40, 0: 0.05}})
    pen = pen_string({0: 8})
    assert read_pen_entries(reading, pen, None) == (pen, {})
    assert read_pen_entries(reading, pen, SOLUTION, PenConfig(right_prior=0.0)) == (pen, {})


@pytest.mark.parametrize("prior", [-0.1, 1.0])
def test_config_is_checked(prior: float) -> None:
    with pytest.raises(ValueError, match="right_prior"):
        PenConfig(right_prior=prior)


def test_a_sixteen_by_sixteens_unsure_entry_leans_to_the_answer() -> None:
    """A 16×16's reading has a column a value (0 empty, then 1-16): a pen 12 read at 50 %
    where the answer is 10 (45 %) is taken as 10; a 16 read surely where the answer is 1
    stays; values past 9 written as A-G."""
    n = 16
    probs = np.zeros((n * n, n + 1), dtype=np.float32)
    probs[:, 0] = 1.0
    probs[0] = 0.0
    probs[0, [12, 10, 0]] = [0.50, 0.45, 0.05]
    probs[1] = 0.0
    probs[1, [16, 1]] = [0.9999, 0.0001]
    reading = CellReading(probs=probs, digits=np.zeros(n * n, np.int64), kinds=np.zeros(n * n))
    solution = "A1" + "2" * (n * n - 2)
    hand, changed = read_pen_entries(reading, "CG" + "0" * (n * n - 2), solution)
    assert hand[:2] == "AG" and set(hand[2:]) == {"0"}
    assert changed == {0: pytest.approx(0.45 / 0.95, rel=1e-3)}


def test_a_six_by_sixs_unsure_entry_leans_to_the_answer() -> None:
    """A 6×6 read by the 19-class model: ink read as a pen 5 (55 %) or 3 (40 %) where the
    answer is 3 is taken as 3; a sure 6 where the answer is 2 stays."""
    probs = np.zeros((36, 19), dtype=np.float32)
    probs[:, 0] = 1.0
    probs[0] = 0.0
    probs[0, [14, 12, 0]] = [0.55, 0.40, 0.05]
    probs[1] = 0.0
    probs[1, [15, 11]] = [0.9999, 0.0001]
    reading = CellReading(probs=probs, digits=np.zeros(36, np.int64), kinds=np.zeros(36))
    hand, changed = read_pen_entries(reading, "56" + "0" * 34, "32" + "1" * 34)
    assert hand[:2] == "36"
    assert changed == {0: pytest.approx(0.40 / 0.95, rel=1e-3)}
