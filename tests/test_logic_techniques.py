"""Each technique on a hand-made position where it applies, and one where it must not."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from sudokucam.solver import shape_for_size
from sudokucam.solver.logic import Candidates, Technique
from sudokucam.solver.logic.chains import aic, x_chain, xy_chain
from sudokucam.solver.logic.colouring import simple_colouring, unique_rectangle
from sudokucam.solver.logic.fish import fish
from sudokucam.solver.logic.intersections import claiming, pointing
from sudokucam.solver.logic.singles import hidden_single, naked_single
from sudokucam.solver.logic.subsets import hidden_subset, naked_subset
from sudokucam.solver.logic.wings import w_wing, xy_wing, xyz_wing


def cell(name: str, n: int = 9) -> int:
    """'r3c5' to a cell index."""
    r, c = name[1:].split("c")
    return (int(r) - 1) * n + int(c) - 1


def blank(n: int = 9, givens: dict[str, int] | None = None) -> Candidates:
    """An empty grid (or one with a few givens) with full pencil marks."""
    values = [0] * (n * n)
    for name, v in (givens or {}).items():
        values[cell(name, n)] = v
    return Candidates.from_values(shape_for_size(n), values)


def strike(cand: Candidates, value: int, cells: Iterable[str]) -> None:
    """Remove a value from the named cells."""
    for name in cells:
        cand.eliminate(cell(name, cand.size), value)


def set_marks(cand: Candidates, name: str, values: Iterable[int]) -> None:
    """Give a cell exactly these candidates."""
    mask = 0
    for v in values:
        mask |= 1 << (v - 1)
    cand.masks[cell(name, cand.size)] = mask


def row_cells(r: int, cols: Iterable[int]) -> list[str]:
    return [f"r{r}c{c}" for c in cols]


def elims(step: object) -> set[tuple[int, int]]:
    return set(step.eliminations)  # type: ignore[attr-defined]


def named(pairs: Iterable[tuple[str, int]]) -> set[tuple[int, int]]:
    return {(cell(n), v) for n, v in pairs}


# --- singles --------------------------------------------------------------------------

HS_GIVENS = {"r1c4": 7, "r2c7": 7, "r4c1": 7, "r7c2": 7}


def test_hidden_single_in_box() -> None:
    step = hidden_single(blank(givens=HS_GIVENS))
    assert step is not None
    assert step.technique is Technique.HIDDEN_SINGLE
    assert step.placements == ((cell("r3c3"), 7),)
    assert step.explanation == "r3c3 must be 7: it is the only cell in box 1 where 7 can go"


def test_hidden_single_absent() -> None:
    givens = {k: v for k, v in HS_GIVENS.items() if k != "r7c2"}
    assert hidden_single(blank(givens=givens)) is None


def test_hidden_single_six_by_six_rectangular_box() -> None:
    # 6×6 boxes are 2 rows × 3 columns: a 4 in row 2 and in columns 1, 2 leave r1c3 only.
    cand = blank(6, {"r2c5": 4, "r4c1": 4, "r5c2": 4})
    step = hidden_single(cand)
    assert step is not None
    assert step.placements == ((cell("r1c3", 6), 4),)
    assert "box 1" in step.explanation


NS_GIVENS = {"r5c1": 1, "r5c2": 2, "r5c3": 3, "r1c5": 5, "r2c5": 6, "r3c5": 7, "r4c4": 8, "r6c6": 9}


def test_naked_single() -> None:
    step = naked_single(blank(givens=NS_GIVENS))
    assert step is not None
    assert step.placements == ((cell("r5c5"), 4),)
    assert step.explanation.startswith("r5c5 must be 4: it is the only value not already in")


def test_naked_single_absent() -> None:
    givens = {k: v for k, v in NS_GIVENS.items() if k != "r6c6"}
    assert naked_single(blank(givens=givens)) is None


# --- locked candidates ----------------------------------------------------------------


def test_pointing() -> None:
    cand = blank()
    strike(cand, 5, ["r1c3", "r2c1", "r2c2", "r2c3", "r3c1", "r3c2", "r3c3"])
    step = pointing(cand)
    assert step is not None
    assert elims(step) == named((f"r1c{c}", 5) for c in range(4, 10))
    assert "box 1" in step.explanation and "row 1" in step.explanation


def test_pointing_absent() -> None:
    cand = blank()
    strike(cand, 5, ["r1c3", "r2c2", "r2c3", "r3c1", "r3c2", "r3c3"])
    assert pointing(cand) is None


def test_claiming() -> None:
    cand = blank()
    strike(cand, 5, row_cells(1, range(4, 10)))
    step = claiming(cand)
    assert step is not None
    assert step.technique is Technique.CLAIMING
    assert elims(step) == named((f"r{r}c{c}", 5) for r in (2, 3) for c in (1, 2, 3))


def test_claiming_absent() -> None:
    cand = blank()
    strike(cand, 5, row_cells(1, range(5, 10)))
    assert claiming(cand) is None


# --- subsets --------------------------------------------------------------------------


@pytest.mark.parametrize("k", [2, 3, 4])
def test_naked_subset(k: int) -> None:
    cand = blank()
    vals = list(range(3, 3 + k))
    for c in range(1, k + 1):
        set_marks(cand, f"r1c{c}", vals)
    step = naked_subset(cand, k)
    assert step is not None
    assert elims(step) == named((f"r1c{c}", v) for c in range(k + 1, 10) for v in vals)
    assert all(n in step.explanation for n in row_cells(1, range(1, k + 1)))


@pytest.mark.parametrize("k", [2, 3, 4])
def test_naked_subset_absent(k: int) -> None:
    cand = blank()
    for c in range(1, k + 1):
        set_marks(cand, f"r1c{c}", range(3, 4 + k))  # k cells, k+1 values
    assert naked_subset(cand, k) is None


@pytest.mark.parametrize("k", [2, 3, 4])
def test_hidden_subset(k: int) -> None:
    cand = blank()
    vals = list(range(1, k + 1))
    for v in vals:
        strike(cand, v, row_cells(1, range(k + 1, 10)))
    step = hidden_subset(cand, k)
    assert step is not None
    others = range(k + 1, 10)
    assert elims(step) == named((f"r1c{c}", v) for c in range(1, k + 1) for v in others)


@pytest.mark.parametrize("k", [2, 3, 4])
def test_hidden_subset_absent(k: int) -> None:
    cand = blank()
    for v in range(1, k + 1):
        strike(cand, v, row_cells(1, range(k + 2, 10)))  # k values over k+1 cells
    assert hidden_subset(cand, k) is None


# --- fish -----------------------------------------------------------------------------


def test_x_wing() -> None:
    cand = blank()
    for r in (1, 5):
        strike(cand, 5, row_cells(r, [1, 3, 4, 5, 6, 8, 9]))
    step = fish(cand, 2)
    assert step is not None
    assert step.technique is Technique.X_WING
    expected = {(f"r{r}c{c}", 5) for r in (2, 3, 4, 6, 7, 8, 9) for c in (2, 7)}
    assert elims(step) == named(expected)
    assert set(step.cells) == {cell(n) for n in ("r1c2", "r1c7", "r5c2", "r5c7")}


def test_x_wing_absent() -> None:
    cand = blank()
    strike(cand, 5, row_cells(1, [1, 3, 4, 5, 6, 8, 9]))
    strike(cand, 5, row_cells(5, [1, 3, 5, 6, 8, 9]))  # row 5 also has c4
    assert fish(cand, 2) is None


def test_swordfish() -> None:
    cand = blank()
    keep = {1: (2, 5), 4: (5, 8), 7: (2, 8)}
    for r, cols in keep.items():
        strike(cand, 6, row_cells(r, [c for c in range(1, 10) if c not in cols]))
    step = fish(cand, 3)
    assert step is not None
    assert step.technique is Technique.SWORDFISH
    expected = {(f"r{r}c{c}", 6) for r in range(1, 10) if r not in keep for c in (2, 5, 8)}
    assert elims(step) == named(expected)


def test_swordfish_absent() -> None:
    cand = blank()
    keep = {1: (2, 5), 4: (5, 8), 7: (2, 9)}
    for r, cols in keep.items():
        strike(cand, 6, row_cells(r, [c for c in range(1, 10) if c not in cols]))
    assert fish(cand, 3) is None


# --- wings ----------------------------------------------------------------------------


def xy_wing_position() -> Candidates:
    cand = blank()
    set_marks(cand, "r1c1", [1, 2])
    set_marks(cand, "r1c5", [1, 3])
    set_marks(cand, "r5c1", [2, 3])
    return cand


def test_xy_wing() -> None:
    step = xy_wing(xy_wing_position())
    assert step is not None
    assert elims(step) == named([("r5c5", 3)])
    assert "pivot r1c1" in step.explanation and "r5c5" in step.explanation


def test_xy_wing_absent() -> None:
    cand = xy_wing_position()
    set_marks(cand, "r5c1", [2, 4])
    assert xy_wing(cand) is None


def test_xyz_wing() -> None:
    cand = blank()
    set_marks(cand, "r1c1", [1, 2, 3])
    set_marks(cand, "r1c7", [1, 3])
    set_marks(cand, "r2c2", [2, 3])
    step = xyz_wing(cand)
    assert step is not None
    assert elims(step) == named([("r1c2", 3), ("r1c3", 3)])


def test_xyz_wing_absent() -> None:
    cand = blank()
    set_marks(cand, "r1c1", [1, 2, 3])
    set_marks(cand, "r1c7", [1, 3])
    set_marks(cand, "r5c5", [2, 3])  # does not see the pivot
    assert xyz_wing(cand) is None


def w_wing_position() -> Candidates:
    cand = blank()
    set_marks(cand, "r1c1", [1, 2])
    set_marks(cand, "r5c6", [1, 2])
    strike(cand, 1, row_cells(3, [1, 3, 4, 5, 7, 8, 9]))
    return cand


def test_w_wing() -> None:
    step = w_wing(w_wing_position())
    assert step is not None
    assert elims(step) == named([("r1c6", 2), ("r5c1", 2)])
    assert "r3c2" in step.explanation and "r3c6" in step.explanation


def test_w_wing_absent() -> None:
    cand = w_wing_position()
    set_marks(cand, "r3c5", range(1, 10))  # the link on 1 in row 3 is gone
    assert w_wing(cand) is None


# --- colouring, chains, uniqueness ----------------------------------------------------


def colouring_position() -> Candidates:
    cand = blank()
    strike(cand, 5, [n for n in row_cells(1, range(1, 10)) if n not in ("r1c1", "r1c5")])
    box2 = [f"r{r}c{c}" for r in (1, 2, 3) for c in (4, 5, 6)]
    strike(cand, 5, [n for n in box2 if n not in ("r1c5", "r3c6")])
    strike(cand, 5, [f"r{r}c6" for r in range(1, 10) if r not in (3, 8)])
    return cand


def test_simple_colouring_trap() -> None:
    step = simple_colouring(colouring_position())
    assert step is not None
    assert elims(step) == named([("r8c1", 5)])
    assert "r8c1" in step.explanation and "both colours" in step.explanation


def test_simple_colouring_absent() -> None:
    cand = colouring_position()
    cand.eliminate(cell("r8c1"), 5)
    assert simple_colouring(cand) is None


def test_x_chain_finds_the_same_elimination() -> None:
    step = x_chain(colouring_position())
    assert step is not None
    assert elims(step) == named([("r8c1", 5)])
    assert step.explanation.startswith("X-chain: if r8c6 is not 5") or "r8c1" in step.explanation


def test_xy_chain() -> None:
    step = xy_chain(xy_wing_position())
    assert step is not None
    assert elims(step) == named([("r5c5", 3)])


def test_chains_absent_on_blank_grid() -> None:
    cand = blank()
    assert x_chain(cand) is None and xy_chain(cand) is None and aic(cand) is None


def test_unique_rectangle() -> None:
    cand = blank()
    for n in ("r1c1", "r1c4", "r2c1"):
        set_marks(cand, n, [1, 2])
    set_marks(cand, "r2c4", [1, 2, 5])
    step = unique_rectangle(cand)
    assert step is not None
    assert elims(step) == named([("r2c4", 1), ("r2c4", 2)])


def test_unique_rectangle_needs_two_boxes() -> None:
    cand = blank()
    for n in ("r1c1", "r1c4", "r4c1"):
        set_marks(cand, n, [1, 2])
    set_marks(cand, "r4c4", [1, 2, 5])  # four boxes: no deadly pattern
    assert unique_rectangle(cand) is None
