"""The rules a grid's structure sets, as the repair keeps them (``vision/repair.py`` ``Rules``).

A classic grid keeps the classic rules and solver untouched; a variant's units are its
rows, columns, regions (or boxes), diagonals and cages, and it is solved by the variant
solver (``solver/variant_solve.py``) with the same proof of one solution and time limit.
"""

from __future__ import annotations

from functools import partial

from ...solver.grid import Grid
from ...solver.outcome import Outcome
from ...solver.solve import SolveResult
from ...solver.validate import Conflict
from ...solver.variant import VariantError, all_units
from ...solver.variant_solve import solve_variant_before
from ..repair import CLASSIC_RULES, Rules, Values
from ..types import NINE, GridStructure


def rules_for(structure: GridStructure) -> Rules:
    """The repair's rules for a grid of this structure."""
    if structure.is_classic:
        return CLASSIC_RULES
    units = all_units(structure.size, structure.regions, structure.diagonals)
    cages = tuple(cage.cells for cage in structure.cages)
    return Rules(units + cages, partial(solve_structure, structure), bool(cages))


def solve_structure(
    structure: GridStructure, values: Values, deadline: float | None
) -> SolveResult:
    """Solve ``values`` under the structure's rules before ``deadline`` (SearchTimeoutError
    past it); values no puzzle of these rules can hold (a cage's sum out of reach) are
    INVALID, the reason named."""
    try:
        puzzle = structure.puzzle(values)
    except VariantError as exc:
        conflict = Conflict((), 0, -1, str(exc))
        return SolveResult(Grid(NINE, values), Outcome.INVALID, conflicts=(conflict,))
    return solve_variant_before(puzzle, deadline)
