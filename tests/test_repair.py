"""The solver-assisted repair: misreads that break the rules are fixed, pen mistakes are not."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from sudokucam.solver.geometry import cell_name
from sudokucam.solver.validate import is_solution
from sudokucam.vision.pipeline import grid_result
from sudokucam.vision.repair import (
    RepairConfig,
    candidate_moves,
    digit_probabilities,
    read_givens,
    repair_givens,
    solve_givens,
    subsets_by_cost,
)
from sudokucam.vision.types import CellReading, GridDetection, Kind

# image10 of the Wicht-Hennebert dataset (CC-BY-4.0): givens and the full solution.
PUZZLE = "042000005000632080080040200000000000715068340908350761091006000000020190006100050"
SOLUTION = "342891675157632984689745213463917528715268349928354761591476832874523196236189457"


def make_reading(
    givens: str, pen: str = "0" * 81, tweaks: dict[int, dict[int, float]] | None = None
) -> CellReading:
    """A confident reading of ``givens`` (printed) and ``pen`` (handwritten), some cells unsure.

    ``tweaks`` maps a cell to {class: probability}; the rest of that cell's mass is spread
    thinly over the other classes.
    """
    probs = np.full((81, 19), 1e-4, dtype=np.float64)
    for c in range(81):
        cls = int(givens[c]) or (int(pen[c]) + 9 if pen[c] != "0" else 0)
        probs[c, cls] = 1.0
    for c, mass in (tweaks or {}).items():
        probs[c] = 1e-4
        for cls, p in mass.items():
            probs[c, cls] = p
    probs /= probs.sum(axis=1, keepdims=True)
    best = probs.argmax(axis=1)
    digits = np.where(best == 0, 0, np.where(best <= 9, best, best - 9)).astype(np.int64)
    kinds = np.where(best == 0, Kind.EMPTY, np.where(best <= 9, Kind.PRINTED, Kind.HANDWRITTEN))
    return CellReading(probs.astype(np.float32), digits, kinds.astype(np.int64))


def fake_detection() -> GridDetection:
    """A detection of an upright 360-pixel grid at the origin."""
    ticks = np.arange(10, dtype=np.float64) * 40.0
    xs, ys = np.meshgrid(ticks, ticks)
    corners = np.array([[0, 0], [360, 0], [360, 360], [0, 360]], dtype=np.float64)
    return GridDetection(
        corners, np.stack([xs, ys], -1), np.eye(3), np.eye(3), np.zeros((360, 360), np.uint8), 1.0
    )


def test_puzzle_is_the_dataset_grid() -> None:
    assert is_solution(SOLUTION, PUZZLE)


def test_a_good_reading_is_solved_without_repairs() -> None:
    outcome = repair_givens(make_reading(PUZZLE))
    assert outcome.status == "solved"
    assert outcome.repairs == ()
    assert "".join(map(str, outcome.solution or ())) == SOLUTION


def test_a_misread_digit_that_breaks_the_rules_is_repaired() -> None:
    # r1c2 holds a printed 4; read as 1 (60%), the 4 a close second. r5c2 holds a 1.
    reading = make_reading(PUZZLE, tweaks={1: {1: 0.6, 4: 0.38}})
    assert reading.digits[1] == 1
    outcome = repair_givens(reading)
    assert outcome.status == "solved"
    assert [(r.cell, r.old, r.new) for r in outcome.repairs] == [(1, 1, 4)]
    assert outcome.repairs[0].text.startswith("r1c2 read as 1")
    assert "".join(map(str, outcome.givens)) == PUZZLE
    assert any("r1c2 and r5c2 both read as 1" in p.text for p in outcome.problems)


def test_a_misread_that_keeps_the_rules_but_has_no_solution_is_repaired() -> None:
    # r1c2 is a 4; read as 7 (no duplicate in its row, column or box), no solution then.
    reading = make_reading(PUZZLE, tweaks={1: {7: 0.55, 4: 0.4}})
    assert solve_givens(PUZZLE[:1] + "7" + PUZZLE[2:]).status == "unsolvable"
    outcome = repair_givens(reading)
    assert [(r.cell, r.old, r.new) for r in outcome.repairs] == [(1, 7, 4)]
    assert "".join(map(str, outcome.solution or ())) == SOLUTION


def test_a_missed_given_is_restored_when_the_puzzle_is_not_unique() -> None:
    # r1c2 (4) and r1c3 (2) read as empty: the puzzle then has several solutions.
    reading = make_reading(PUZZLE, tweaks={1: {0: 0.6, 4: 0.38}, 2: {0: 0.7, 2: 0.28}})
    outcome = repair_givens(reading)
    assert outcome.status == "solved"
    assert outcome.problems[0].kind == "multiple_solutions"
    assert {(r.cell, r.new) for r in outcome.repairs} <= {(1, 4), (2, 2)}
    assert "".join(map(str, outcome.solution or ())) == SOLUTION


def test_an_unrepairable_reading_names_the_conflicting_cells() -> None:
    # r1c2 read as a sure 1 next to r5c2's sure 1; no cheap change makes the grid unique.
    reading = make_reading(PUZZLE, tweaks={1: {1: 0.999}})
    outcome = repair_givens(reading, RepairConfig(max_log_loss=4.0))
    assert outcome.status == "invalid"
    assert outcome.solution is None
    assert outcome.repairs == ()
    assert [p.text for p in outcome.problems] == ["r1c2 and r5c2 both read as 1"]
    assert outcome.problems[0].cells == (1, 37)


def test_repair_stays_within_the_solver_call_budget() -> None:
    reading = make_reading(PUZZLE, tweaks={1: {1: 0.999}})
    outcome = repair_givens(reading, RepairConfig(max_solver_calls=3, max_log_loss=100.0))
    assert outcome.solver_calls <= 3


def test_a_pen_mistake_is_reported_not_repaired() -> None:
    # A pen-filled grid where the person wrote 9 in r1c1 (the answer is 3).
    pen = "".join("0" if g != "0" else s for g, s in zip(PUZZLE, SOLUTION, strict=True))
    pen = "9" + pen[1:]
    reading = make_reading(PUZZLE, pen)
    outcome = repair_givens(reading)
    assert outcome.status == "solved"
    assert outcome.repairs == ()
    result = grid_result(fake_detection(), reading, outcome)
    assert result.handwritten[0] == "9"
    assert result.wrong_entries == (0,)
    assert len(result.right_entries) == PUZZLE.count("0") - 1
    assert result.status == "solved"
    assert "1 entry wrong (r1c1)" in result.message


def test_a_correct_pen_filled_grid_is_complete() -> None:
    pen = "".join("0" if g != "0" else s for g, s in zip(PUZZLE, SOLUTION, strict=True))
    reading = make_reading(PUZZLE, pen)
    result = grid_result(fake_detection(), reading, repair_givens(reading))
    assert result.status == "complete"
    assert result.givens == PUZZLE
    assert result.wrong_entries == ()
    assert result.answer == {}


def test_a_printed_given_read_as_pen_is_taken_as_printed_again() -> None:
    # A pen-filled grid where the printed 4 of r1c2 was read as handwritten: without it
    # the givens have several solutions.
    pen = "".join("0" if g != "0" else s for g, s in zip(PUZZLE, SOLUTION, strict=True))
    pen = pen[:1] + "4" + pen[2:]
    reading = make_reading(PUZZLE[:1] + "0" + PUZZLE[2:], pen, tweaks={1: {4: 0.3, 13: 0.7}})
    assert reading.kinds[1] == Kind.HANDWRITTEN
    outcome = repair_givens(reading)
    assert outcome.status == "solved"
    assert [(r.cell, r.old, r.new, r.kind_changed) for r in outcome.repairs] == [(1, 0, 4, True)]
    assert outcome.repairs[0].text == "r1c2 read as a handwritten 4, taken as a printed 4"
    result = grid_result(fake_detection(), reading, outcome)
    assert (result.givens, result.handwritten[1]) == (PUZZLE, "0")


def test_kind_changes_are_dearer_than_close_digit_calls() -> None:
    reading = make_reading(PUZZLE, tweaks={1: {1: 0.6, 4: 0.38}})
    moves = candidate_moves(reading, read_givens(reading), {1, 37}, RepairConfig())
    assert moves[0].cell == 1 and moves[0].new == 4 and not moves[0].kind_changed
    assert all(not m.kind_changed for m in moves)  # no pen on the page: no kind changes
    assert digit_probabilities(reading)[1, 1] == pytest.approx(0.6, abs=0.02)


@pytest.mark.parametrize("max_size", [1, 2, 3])
def test_subsets_come_cheapest_first_and_each_once(max_size: int) -> None:
    costs = [0.1, 0.4, 0.4, 1.0, 2.5, 2.6]
    got = list(subsets_by_cost(costs, max_size))
    expected = [
        s for k in range(1, max_size + 1) for s in itertools.combinations(range(len(costs)), k)
    ]
    assert sorted(s for _, s in got) == sorted(expected)
    totals = [t for t, _ in got]
    assert totals == sorted(totals)
    assert all(t == pytest.approx(sum(costs[i] for i in s)) for t, s in got)


def test_printed_digits_read_as_pen_are_taken_back_as_givens() -> None:
    """Givens read as handwriting leave several solutions: they are promoted until one."""
    givens = [c for c in range(81) if PUZZLE[c] != "0"]
    lost = givens[:6]  # these printed digits come out as pen digits
    printed = "".join("0" if c in lost else PUZZLE[c] for c in range(81))
    pen = "".join(PUZZLE[c] if c in lost else "0" for c in range(81))
    assert solve_givens(printed).status == "multiple_solutions"
    outcome = repair_givens(make_reading(printed, pen))
    assert outcome.status == "solved"
    assert outcome.solution is not None and "".join(map(str, outcome.solution)) == SOLUTION
    assert outcome.repairs and all(r.kind_changed and r.old == 0 for r in outcome.repairs)
    assert {r.cell for r in outcome.repairs} <= set(lost)


def test_many_printed_digits_read_as_pen_are_all_taken_as_givens() -> None:
    """Sixteen givens of an unfamiliar face read as pen: more than promotion adds one by
    one, but every digit read together has exactly one solution, so that is solved and
    each digit taken as a given is named."""
    givens = [c for c in range(81) if PUZZLE[c] != "0"]
    lost = givens[::2][:16]
    printed = "".join("0" if c in lost else PUZZLE[c] for c in range(81))
    pen = "".join(PUZZLE[c] if c in lost else "0" for c in range(81))
    config = RepairConfig(max_promotions=4)
    outcome = repair_givens(make_reading(printed, pen), config)
    assert outcome.status == "solved"
    assert outcome.solution == SOLUTION
    assert sorted(r.cell for r in outcome.repairs) == sorted(lost)
    assert all(r.kind_changed and r.keeps_digit for r in outcome.repairs)
    result = grid_result(fake_detection(), make_reading(printed, pen), outcome)
    assert result.givens == PUZZLE and result.handwritten == "0" * 81


def test_a_printed_digit_read_as_another_pen_digit_is_taken_back() -> None:
    """A printed 9 of an unfamiliar face read as a pen 5 (43 % against 37 % for a 9):
    the other givens allow several solutions, and the repair takes it as a printed 9."""
    cell = next(c for c in range(81) if PUZZLE[c] == "9")
    printed = PUZZLE[:cell] + "0" + PUZZLE[cell + 1 :]
    assert solve_givens(printed).status == "multiple_solutions"
    pen = "0" * cell + "5" + "0" * (80 - cell)
    reading = make_reading(printed, pen, tweaks={cell: {14: 0.43, 9: 0.23, 18: 0.14}})
    assert reading.kinds[cell] == Kind.HANDWRITTEN and reading.digits[cell] == 5
    outcome = repair_givens(reading)
    assert outcome.status == "solved" and outcome.givens == PUZZLE
    (repair,) = outcome.repairs
    assert (repair.cell, repair.new, repair.read, repair.kind_changed) == (cell, 9, 5, True)
    assert not repair.keeps_digit
    assert repair.text.startswith(f"{cell_name(cell)} read as a handwritten 5 (")
    assert "taken as a printed 9" in repair.text


def test_a_grid_written_entirely_by_hand_is_taken_as_written() -> None:
    """No printed digit at all, a person's whole grid: the written digits are the puzzle,
    all named in one phrase; a person's rule break is named, not several solutions."""
    whole = make_reading("0" * 81, SOLUTION)
    result = grid_result(fake_detection(), whole, repair_givens(whole))
    assert result.status == "complete" and result.solution == SOLUTION
    assert len(result.repairs) == 81
    assert "81 digits read as handwritten taken as printed (r1c1, r1c2, r1c3, r1c4 …)" in (
        result.message
    )
    clash = SOLUTION[:5] + "2" + SOLUTION[6:]  # r1c6 is a 5: now a second 2 in row 1
    broken = make_reading("0" * 81, clash)
    outcome = repair_givens(broken)
    assert outcome.status == "invalid"
    assert outcome.problems[0].text == "r1c3 and r1c6 both read as 2"


# Peter Norvig's "impossible" puzzle: it keeps the rules and has no solution; a plain
# search took over a minute to prove it (the solver now takes about 0.1 s).
IMPOSSIBLE = (
    ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4.........".replace(
        ".", "0"
    )
)


def test_a_grid_that_takes_too_long_gives_up_within_its_time_limit() -> None:
    import time

    reading = make_reading(IMPOSSIBLE)
    started = time.monotonic()
    # the whole repair search takes about 0.1 s on an idle 2-core machine (0.5 s once):
    # far past 0.01 s
    outcome = repair_givens(reading, RepairConfig(time_limit_s=0.01))
    elapsed = time.monotonic() - started
    assert elapsed < 3.0, f"took {elapsed:.1f} s with a 0.01 s limit"
    assert outcome.status == "timeout" and outcome.solution is None
    assert [p.kind for p in outcome.problems] == ["timeout"]
    result = grid_result(fake_detection(), reading, outcome)
    assert result.status == "timeout"
    assert result.message.startswith("timeout: gave up after 0.01 s")
    # solved alone, the puzzle is refuted well within the limit (the repair above tries
    # many variants of it)
    assert solve_givens(IMPOSSIBLE, time_limit_s=0.5).status == "unsolvable"


def test_two_printed_digits_read_as_other_pen_digits_are_found_past_cheap_changes() -> None:
    """Two printed 9s read as pen 8s (as image209's printed 6s were read as pen 5s), with
    ten other unsure cells whose cheap changes cannot help: the search skips the trials
    whose outcome follows from grids already solved, so it reaches the two changes
    within its solver-call budget."""
    a, b = 45, 55
    assert PUZZLE[a] == PUZZLE[b] == "9"
    printed = "".join("0" if c in (a, b) else PUZZLE[c] for c in range(81))
    for kept in (a, b):  # each alone leaves several answers: both must be found
        assert solve_givens(printed[:kept] + "9" + printed[kept + 1 :]).status != "solved"
    pen = "".join("8" if c in (a, b) else "0" for c in range(81))
    tweaks = {c: {17: 0.41, 9: 0.2, 8: 0.3} for c in (a, b)}
    givens = [c for c in range(81) if printed[c] != "0"]
    for c in givens[3:8]:  # printed digits that look a little like pen
        tweaks[c] = {int(PUZZLE[c]): 0.6, int(PUZZLE[c]) + 9: 0.38}
    for c in [c for c in range(81) if PUZZLE[c] == "0"][5:10]:  # faint specks
        tweaks[c] = {0: 0.7, 1 + c % 9: 0.28}
    outcome = repair_givens(make_reading(printed, pen, tweaks))
    assert outcome.status == "solved" and outcome.givens == PUZZLE
    assert {(r.cell, r.read, r.new) for r in outcome.repairs} == {(a, 8, 9), (b, 8, 9)}
    assert outcome.solver_calls <= RepairConfig().max_solver_calls


def written_sevens_read_as_printed_ones(pen_cells: int) -> CellReading:
    """PUZZLE with two written 7s read as printed 1s (r2c3 clashes with a printed 1, r4c6
    clashes with nothing), and ``pen_cells`` right written entries whose ink the classifier
    found print-like (the kind steps after it said pen): each is cheap to take as printed.
    """
    assert SOLUTION[11] == SOLUTION[32] == "7"
    ones = {c: {1: 0.9, 16: 0.08} for c in (11, 32)}  # printed 1, handwritten 7
    open_cells = [c for c in range(81) if PUZZLE[c] == "0" and c not in ones][:pen_cells]
    pen = "".join(SOLUTION[c] if c in open_cells else "0" for c in range(81))
    leaning = {c: {int(SOLUTION[c]): 0.5, int(SOLUTION[c]) + 9: 0.45} for c in open_cells}
    reading = make_reading(PUZZLE, pen, {**ones, **leaning})
    kinds = reading.kinds.copy()
    kinds[open_cells] = Kind.HANDWRITTEN
    return CellReading(reading.probs, reading.digits, kinds)


def test_written_digits_read_as_print_are_found_past_cheap_pen_changes() -> None:
    """Givens that clash hold a wrong printed digit: the cells read as printed are opened
    to change before the written ones, so a written 7 read as a printed 1 that clashes
    with nothing is found too, however many cheap changes the pen cells offer."""
    reading = written_sevens_read_as_printed_ones(pen_cells=14)
    assert reading.digits[11] == reading.digits[32] == 1
    assert int(reading.kinds[32]) == Kind.PRINTED
    outcome = repair_givens(reading)
    assert outcome.status == "solved"
    assert "".join(map(str, outcome.solution or ())) == SOLUTION
    assert {r.cell for r in outcome.repairs} == {11, 32}
    before = repair_givens(
        reading, RepairConfig(clash_printed_first=False, clash_opens_digit=False)
    )
    assert before.solution is None or "".join(map(str, before.solution)) != SOLUTION


def test_no_repair_takes_a_digit_the_model_ruled_out() -> None:
    """A printed 4 read as a sure 1 (the 4 at 2 %) next to a printed 1: the search never
    takes the 4 the photo does not support (``min_digit_probability``), printed or pen."""
    reading = make_reading(PUZZLE, tweaks={1: {1: 0.97, 4: 0.02}})
    moves = candidate_moves(reading, read_givens(reading), {1, 37}, RepairConfig())
    assert not any(m.cell == 1 and m.new == 4 for m in moves)
    assert all(r.new_probability >= 0.05 for r in repair_givens(reading).repairs if r.new)
    loose = repair_givens(reading, RepairConfig(min_digit_probability=0.0))
    assert [(r.cell, r.old, r.new) for r in loose.repairs] == [(1, 1, 4)]
    pen = make_reading("0" * 81, PUZZLE, tweaks={1: {13: 0.9, 15: 0.07, 18: 0.02}})
    taken = {m.new for m in candidate_moves(pen, "0" * 81, {1}, RepairConfig()) if m.cell == 1}
    assert 6 in taken and 9 not in taken  # a written 4: maybe a printed 6 (7 %), never a 9 (2 %)
    with pytest.raises(ValueError, match="min_digit_probability"):
        RepairConfig(min_digit_probability=1.0)


def test_a_sure_written_seven_read_as_print_is_opened_by_the_clash_of_its_digit() -> None:
    """Black pen: two written 7s read as printed 1s, r2c3 clashing with the printed 1 at
    r7c3 and r4c6 (a printed 1 at 95 %) clashing with nothing, on a page whose twelve
    other givens are less sure than r4c6. The clash opens every given read as 1, so r4c6
    is open to change however many cells are less sure (seed 1002 of just-another-hand)."""
    assert PUZZLE[56] == "1" and SOLUTION[11] == SOLUTION[32] == "7"
    sure = {11: {1: 0.85, 10: 0.08, 7: 0.06}, 32: {1: 0.95, 10: 0.03, 16: 0.01}}
    pen_cells = [c for c in range(81) if PUZZLE[c] == "0" and c not in sure][:6]
    pen = "".join(SOLUTION[c] if c in pen_cells else "0" for c in range(81))
    givens = [c for c in range(81) if PUZZLE[c] not in "01"]
    unsure = {c: {int(PUZZLE[c]): 0.75, int(PUZZLE[c]) % 9 + 1: 0.24} for c in givens[:12]}
    reading = make_reading(PUZZLE, pen, {**sure, **unsure})
    assert reading.digits[32] == 1 and int(reading.kinds[32]) == Kind.PRINTED
    shut = candidate_moves(reading, read_givens(reading), {11, 56}, RepairConfig(), True)
    assert 32 not in {m.cell for m in shut}  # by sureness alone r4c6 stays shut
    outcome = repair_givens(reading)
    assert outcome.status == "solved"
    assert "".join(map(str, outcome.solution or ())) == SOLUTION
    assert {r.cell for r in outcome.repairs} == {11, 32}
    before = repair_givens(reading, RepairConfig(clash_opens_digit=False))
    assert before.solution is None or "".join(map(str, before.solution)) != SOLUTION


def test_two_as_likely_repairs_with_different_answers_give_no_answer() -> None:
    """r2c1 read as a printed 3 beside the printed 3 at r2c5, both as print-like: taking
    either as written gives one solution, but not the same one. Neither answer is sure, so
    none is given (a black-pen page solved wrong, seed 1005 of just-another-hand); with no
    margin for a tie the slightly likelier repair (r2c1 written) wins."""
    printed = PUZZLE[:9] + "3" + PUZZLE[10:]
    for emptied in (9, 13):
        one = solve_givens(printed[:emptied] + "0" + printed[emptied + 1 :])
        assert one.status == "solved"
        assert ("".join(map(str, one.solution or ())) == SOLUTION) == (emptied == 9)
    pen_cells = [c for c in range(81) if PUZZLE[c] == "0" and c != 9][:6]
    pen = "".join(SOLUTION[c] if c in pen_cells else "0" for c in range(81))
    tweaks = {9: {3: 0.78, 12: 0.2}, 13: {3: 0.8, 12: 0.18}}
    reading = make_reading(printed, pen, tweaks)
    outcome = repair_givens(reading)
    assert outcome.status == "invalid" and outcome.solution is None
    assert [p.cells for p in outcome.problems] == [(9, 13), (9, 13)]
    tie = outcome.problems[-1]
    assert tie.kind == "tied_repairs" and "r2c1" in tie.text and "r2c5" in tie.text
    sure = repair_givens(reading, RepairConfig(tie_log_loss=0.0))
    assert "".join(map(str, sure.solution or ())) == SOLUTION
    assert [(r.cell, r.kind_changed) for r in sure.repairs] == [(9, True)]
