"""Variant puzzles (Killer, X, jigsaw): the model's checks, the search, uniqueness, refusals."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from sudokucam.solver import Outcome, shape_for_size
from sudokucam.solver.logic.generate import GenerationTimeoutError
from sudokucam.solver.sample import random_solution
from sudokucam.solver.variant import (
    Cage,
    Variant,
    VariantError,
    VariantPuzzle,
    all_units,
    cage_combinations,
)
from sudokucam.solver.variant_json import puzzle_from_json, puzzle_to_json
from sudokucam.solver.variant_sample import (
    KillerConfig,
    VariantConfig,
    layout_solvable,
    random_jigsaw,
    random_killer,
    random_regions,
    random_variant,
)
from sudokucam.solver.variant_solve import solve_variant

DATA = json.loads((Path(__file__).parent / "data" / "variant_puzzles.json").read_text())
PUZZLES = {p["name"]: p for p in DATA["puzzles"]}
KILLER = PUZZLES["killer_9x9_seed11"]["puzzle"]


def _load(name: str) -> tuple[VariantPuzzle, str]:
    """A committed puzzle and its solution line."""
    entry = PUZZLES[name]
    return puzzle_from_json(entry["puzzle"]), entry["solution"]


def naive_count(p: VariantPuzzle, limit: int = 2) -> int:
    """Solutions up to limit by plain backtracking, cell by cell: a check independent of the
    engine (its units, peers and cage sums are worked out here from scratch)."""
    n = p.size
    groups = [set(u) for u in all_units(n, p.regions, p.diagonals)]
    groups += [set(k.cells) for k in p.cages]
    peers = [set().union(*(g for g in groups if c in g)) - {c} for c in range(n * n)]
    cage_of = {c: k for k in p.cages for c in k.cells}
    values = list(p.givens)

    def cage_ok(c: int) -> bool:
        k = cage_of.get(c)
        if k is None:
            return True
        held = [values[x] for x in k.cells if values[x]]
        if len(held) == len(k.cells):
            return sum(held) == k.total
        return sum(held) < k.total

    def count(i: int) -> int:
        if i == n * n:
            return 1
        if values[i]:
            return count(i + 1)
        found = 0
        for v in range(1, n + 1):
            if all(values[q] != v for q in peers[i]):
                values[i] = v
                if cage_ok(i):
                    found += count(i + 1)
                values[i] = 0
                if found >= limit:
                    break
        return found

    return count(0)


@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_committed_puzzles_solve_to_their_truth(name: str) -> None:
    puzzle, truth = _load(name)
    result = solve_variant(puzzle, time_limit=10)
    assert result.status is Outcome.SOLVED, result.message
    assert result.solution is not None
    assert puzzle.write(result.solution.values) == truth
    assert puzzle.is_solution(result.solution.values)


@pytest.mark.parametrize("name", ["killer_6x6_seed14", "jigsaw_6x6_seed17"])
def test_small_puzzles_are_unique_by_plain_backtracking(name: str) -> None:
    puzzle, _ = _load(name)
    assert naive_count(puzzle) == 1


def test_the_oracle_sees_a_broken_cage_and_a_broken_diagonal() -> None:
    puzzle, truth = _load("killer_9x9_seed11")
    values = [int(ch) for ch in truth]
    assert puzzle.is_solution(values)
    cage = next(k for k in puzzle.cages if len(k.cells) == 2)
    a, b = cage.cells
    values[a], values[b] = values[b], values[a]  # a row or column breaks (cage sum stays)
    assert not puzzle.is_solution(values)
    x = VariantPuzzle(9, (0,) * 81, Variant.X, diagonals=True)
    classic = random_solution(shape_for_size(9), random.Random(0)).values
    assert VariantPuzzle(9, (0,) * 81).is_solution(classic)
    assert "diagonal repeats a value" in str(x.broken_by(classic))
    whole = VariantPuzzle(9, (0,) * 81, Variant.KILLER, cages=(Cage(45, tuple(range(9))),))
    shifted = classic[1:9] + classic[:1] + classic[9:]
    assert whole.is_solution(classic) and not whole.is_solution(shifted)


@pytest.mark.parametrize("seed", range(5))
def test_fresh_killers_come_back_to_the_grid_they_were_cut_from(seed: int) -> None:
    puzzle, solution = random_killer(random.Random(100 + seed))
    assert sum(k.total for k in puzzle.cages) == 405
    result = solve_variant(puzzle, time_limit=10)
    assert result.status is Outcome.SOLVED and result.solution is not None
    assert result.solution.values == solution


def test_fresh_jigsaw_regions_are_pieces_of_nine() -> None:
    rng = random.Random(5)
    regions = random_regions(9, rng)
    assert regions != tuple(c // 27 * 3 + c % 9 // 3 for c in range(81))  # bent from the boxes
    made = random_variant(rng, 9, Variant.JIGSAW, regions)
    assert made is not None
    puzzle, solution = made
    assert solve_variant(puzzle).solution is not None
    assert puzzle.is_solution(solution)


SLOW_LAYOUT_SEED = 14  # random_regions(9, Random(14)): no first solution within seconds


def test_a_jigsaw_layout_without_a_quick_solution_stops_at_the_time_limit() -> None:
    """An unsolvable (or very slow) layout once searched on without end: now the time
    limit ends it with a clear error."""
    regions = random_regions(9, random.Random(SLOW_LAYOUT_SEED))
    assert not layout_solvable(regions, 0.2)
    started = time.monotonic()
    with pytest.raises(GenerationTimeoutError, match=r"no puzzle was made in 0\.5 s"):
        random_variant(
            random.Random(1), 9, Variant.JIGSAW, regions, config=VariantConfig(time_limit_s=0.5)
        )
    assert time.monotonic() - started < 5.0


def test_random_jigsaw_throws_slow_layouts_away_and_says_when_it_gives_up() -> None:
    cfg = VariantConfig(time_limit_s=5.0, layouts=1, layout_seconds=0.2)
    with pytest.raises(GenerationTimeoutError, match="no jigsaw layout with a solution"):
        random_jigsaw(random.Random(SLOW_LAYOUT_SEED), 9, 0, cfg)
    puzzle, solution = random_jigsaw(random.Random(5), 9, 30)
    assert puzzle.regions and puzzle.is_solution(solution)
    assert solve_variant(puzzle).solution is not None
    with pytest.raises(ValueError, match="time_limit_s"):
        VariantConfig(time_limit_s=0)


def test_random_killer_stops_at_its_one_time_limit() -> None:
    """Cages of up to 9 cells leave many solutions: before the overall limit a million
    cuttings of up to 5 s each were tried; now the limit ends it with a clear error."""
    cfg = KillerConfig(cage_sizes=(9,), tries=10**6, seconds_per_try=5.0, time_limit_s=0.5)
    started = time.monotonic()
    with pytest.raises(GenerationTimeoutError, match=r"no 9×9 Killer was made in 0\.5 s"):
        random_killer(random.Random(3), 9, cfg)
    assert time.monotonic() - started < 3.0
    with pytest.raises(ValueError, match="no unique 9×9 Killer found in 2 cuttings"):
        random_killer(random.Random(3), 9, KillerConfig(cage_sizes=(9,), tries=2))
    with pytest.raises(ValueError, match="time_limit_s"):
        KillerConfig(time_limit_s=0)


def test_cage_combinations() -> None:
    assert cage_combinations(3, 2, 9) == (frozenset({1, 2}),)
    assert cage_combinations(17, 2, 9) == (frozenset({8, 9}),)
    assert len(cage_combinations(10, 3, 9)) == 4  # 127 136 145 235
    assert cage_combinations(45, 9, 9) == (frozenset(range(1, 10)),)


def test_json_round_trip() -> None:
    for entry in DATA["puzzles"]:
        puzzle = puzzle_from_json(entry["puzzle"])
        assert puzzle_from_json(puzzle_to_json(puzzle)) == puzzle


def test_variant_follows_from_what_is_given() -> None:
    assert puzzle_from_json(KILLER).variant is Variant.KILLER
    x = dict(PUZZLES["x_9x9_seed15"]["puzzle"])
    del x["variant"]
    assert puzzle_from_json(x).variant is Variant.X
    assert puzzle_from_json({"givens": "." * 81}).variant is Variant.CLASSIC


def test_several_solutions() -> None:
    several = solve_variant(VariantPuzzle(9, (0,) * 81, Variant.X, diagonals=True))
    assert several.status is Outcome.MULTIPLE_SOLUTIONS
    assert "more than one solution" in several.message
    assert all(
        VariantPuzzle(9, (0,) * 81, Variant.X, diagonals=True).is_solution(s.values)
        for s in several.solutions
    )


def test_a_given_outside_every_cage_set_is_refused() -> None:
    puzzle = puzzle_from_json(KILLER)
    first = puzzle.cages[0]
    combos = cage_combinations(first.total, len(first.cells), 9)
    wrong = next(v for v in range(1, 10) if not any(v in c for c in combos))
    with pytest.raises(VariantError, match="cannot reach its sum with r"):
        puzzle_from_json(_with_value(KILLER, first.cells[0], wrong))


def _with_value(doc: dict[str, Any], cell: int, value: int) -> dict[str, Any]:
    """A copy of a puzzle's JSON with one given set."""
    givens = list(doc.get("givens", "." * 81))
    givens[cell] = str(value)
    return doc | {"givens": "".join(givens)}


def test_duplicate_givens_in_a_cage_are_invalid_and_named() -> None:
    doc = {"cages": [{"sum": 10, "cells": ["r1c1", "r2c1", "r3c1"]}], "givens": "." * 81}
    doc = _with_value(doc, 0, 2)
    doc = _with_value(doc, 9, 2)
    result = solve_variant(puzzle_from_json(doc))
    assert result.status is Outcome.INVALID
    assert "r1c1 and r2c1 both hold 2" in result.message


def test_givens_that_leave_no_solution() -> None:
    _, truth = _load("killer_9x9_seed11")
    wrong = [int(ch) for ch in truth]
    wrong[0], wrong[1] = wrong[1], wrong[0]
    doc = dict(PUZZLES["killer_9x9_seed11"]["puzzle"])
    doc["givens"] = "".join(str(v) if i < 2 else "." for i, v in enumerate(wrong))
    try:
        result = solve_variant(puzzle_from_json(doc))
    except VariantError:
        return  # a given the cage itself rules out is refused when read
    assert result.status is Outcome.NO_SOLUTION


def test_time_limit_gives_timeout() -> None:
    puzzle = VariantPuzzle(16, (0,) * 256, Variant.X, diagonals=True)
    result = solve_variant(puzzle, time_limit=1e-6)
    assert result.status is Outcome.TIMEOUT
    assert "gave up" in result.message


def _killer(cages: list[tuple[Any, list[str]]], **extra: Any) -> dict[str, Any]:
    """A Killer's JSON from (sum, cells) pairs."""
    return {"cages": [{"sum": s, "cells": cells} for s, cells in cages], **extra}


def _one_sum_raised() -> dict[str, Any]:
    """The committed Killer with one 3-cell cage's sum one higher (still reachable)."""
    cages = [dict(k) for k in KILLER["cages"]]
    i = next(i for i, k in enumerate(cages) if len(k["cells"]) == 3 and k["sum"] < 24)
    cages[i]["sum"] += 1
    return KILLER | {"cages": cages}


BAD = [
    (_one_sum_raised(), "the cage sums add up to 406, but a full 9×9 grid adds up to 405"),
    (_killer([(18, ["r1c1", "r1c2"])]), "the 2-cell cage of 18 at r1c1,r1c2 cannot be reached"),
    (_killer([(2, ["r1c1", "r1c2"])]), "2 different values make 3 to 17"),
    (_killer([(5, ["r1c1", "r1c3"])]), "cage of 5 at r1c1,r1c3 is not one piece"),
    (
        _killer([(5, ["r1c1", "r1c2"]), (9, ["r1c2", "r1c3"])]),
        "r1c2 is in two cages: the 2-cell cage of 5 at r1c1,r1c2 and the 2-cell cage of 9",
    ),
    (_killer([(5, ["r1c1", "r1c1"])]), "names a cell twice"),
    (_killer([(5, ["r0c1"])]), "cell r0c1 is outside the 9×9 grid"),
    (_killer([(5, ["a1"])]), "bad cell name 'a1'"),
    (_killer([(5.5, ["r1c1"])]), 'cage 1: "sum" must be a whole number'),
    ({"regions": ["111222333"] * 9}, '"regions" has 3 different labels; 9×9 needs 9'),
    ({"size": 16, "symbols": "0123456789ABCDEF", "givens": "G" + "." * 255}, "r1c1: 'G'"),
    ({"size": 9, "givens": "." * 80}, '"givens" has 80 cells'),
    ({"variant": "killer", "givens": "." * 81}, "a killer puzzle needs its cages"),
    ({"variant": "samurai"}, '"variant" must be one of classic, x, jigsaw, killer'),
    ({"variant": "x", "diagonals": False}, 'a Sudoku X has "diagonals": true'),
    ({"cage": []}, "unknown key 'cage'"),
    ({"size": 10}, '"size" must be one of 4, 6, 8, 9, 12, 16, 25'),
    ({"symbols": "12345678"}, "symbols must be 9 different characters"),
    ([1, 2], "a puzzle is a JSON object"),
]


@pytest.mark.parametrize(("doc", "words"), BAD)
def test_bad_input_is_named(doc: Any, words: str) -> None:
    with pytest.raises(VariantError) as caught:
        puzzle_from_json(doc)
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


def test_regions_of_the_wrong_size_are_named() -> None:
    rows = ["111111111", "122222222", "222222223", *[str(k) * 9 for k in range(3, 9)]]
    rows[3] = "3333333" + "99"
    doc = {"regions": rows}
    with pytest.raises(VariantError, match=r"region 1 has 10 cells \(r1c1, .*\); each needs 9"):
        puzzle_from_json(doc)


def test_a_region_in_two_pieces_is_named() -> None:
    rows = [str(k) * 9 for k in range(1, 10)]
    rows[0], rows[1] = "211111111", "122222222"  # region 1 and 2 swap their first cells
    with pytest.raises(VariantError, match="region 1 is not one piece"):
        puzzle_from_json({"regions": rows})


def test_cages_need_the_killer_variant() -> None:
    with pytest.raises(VariantError, match='cages are given but the variant is "x"'):
        puzzle_from_json({"variant": "x", "cages": [{"sum": 3, "cells": ["r1c1", "r1c2"]}]})


def test_cage_model_names() -> None:
    assert Cage(3, (0, 1)).name(9) == "the 2-cell cage of 3 at r1c1,r1c2"


def test_regions_meeting_lines_in_single_cells() -> None:
    # every region a whole row: each column meets each region in one cell
    puzzle = puzzle_from_json({"regions": [str(r) * 9 for r in range(1, 10)]})
    result = solve_variant(puzzle, time_limit=10)
    assert result.status is Outcome.MULTIPLE_SOLUTIONS
    assert all(puzzle.is_solution(s.values) for s in result.solutions)
