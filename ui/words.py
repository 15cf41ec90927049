"""What a photo's reading comes to, said the way a Sudoku player says it.

One wording for the command line's text (``sudokucam solve``) and the app: what was
solved, which digits the reading had to change and where to look on the paper. The
detail (probabilities, which step changed what) stays in ``--json`` and the app's
"How it was read" section. Nothing heavy is imported: the CLI's start stays quick.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..solver.geometry import cell_name
from ..solver.outcome import SOLVED_OUTCOMES, Outcome

if TYPE_CHECKING:
    from ..vision.repair import Repair
    from ..vision.results import GridResult

NOT_SOLVED = {  # why a puzzle as read has no answer, by its status
    Outcome.INVALID: "the digits read break the rules",
    Outcome.NO_SOLUTION: "the digits read leave no answer",
    Outcome.MULTIPLE_SOLUTIONS: "the digits read leave more than one answer "
    "(a printed digit was probably missed)",
}


def plural(count: int, one: str, many: str | None = None) -> str:
    """'1 digit', '3 digits'."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def a(digit: int) -> str:
    """'a 3', 'an 8'."""
    return f"{'an' if digit == 8 else 'a'} {digit}"


def repair_words(repair: Repair) -> str:
    """One change the reading made so that the puzzle works, as a player would say it."""
    name = cell_name(repair.cell)
    if repair.kind_changed and repair.new:
        return f"the {repair.new} in {name} counts as printed"
    if repair.kind_changed:
        return f"the {repair.old} in {name} counts as your own entry, not printed"
    if not repair.new:
        return f"{name} is taken as empty (it looked like {a(repair.old)})"
    if not repair.old:
        return f"{name} is taken as a printed {repair.new} (it looked empty)"
    return f"{name} is taken as {a(repair.new)} (it looked like {a(repair.old)})"


def repairs_sentence(grid: GridResult) -> str:
    """'Check on the paper: the 6 in r1c7 counts as printed.' ('' without repairs)."""
    if not grid.repairs:
        return ""
    return "Check on the paper: " + "; ".join(repair_words(r) for r in grid.repairs) + "."


def entries_sentence(grid: GridResult) -> str:
    """How the handwritten digits stand against the answer, in a few words ('' for none)."""
    wrong, right = len(grid.wrong_entries), len(grid.right_entries)
    unsure = grid.unsure_entries()
    if not (wrong or right or unsure):
        return ""
    if not (wrong or unsure):
        fit = "fits" if right == 1 else "all fit"
        return f"{plural(right, 'digit that looks', 'digits that look')} handwritten {fit} it."
    parts = []
    if wrong:
        names = ", ".join(cell_name(c) for c in grid.wrong_entries)
        parts.append(f"{plural(wrong, 'handwritten digit is', 'handwritten digits are')} wrong "
                     f"({names})")  # fmt: skip
    parts += [f"is {cell_name(u.cell)} {a(u.reading)} or {a(u.other)}?" for u in unsure]
    if right:
        parts.append(f"{right} right")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + ("" if text.endswith("?") else ".")


def rule_broken(grid: GridResult) -> str:
    """The broken rules of a grid read invalid that no cell is to blame for, in brackets
    (a Killer's cage sums that add up to more than 405, a cage whose sum it cannot
    reach); '' where there are none."""
    texts = [p.text for p in grid.problems if not p.cells]
    return f" ({'; '.join(texts[:2])})" if texts and grid.status is Outcome.INVALID else ""


def solve_sentence(grid: GridResult) -> str:
    """What ``sudokucam solve`` says of one puzzle: solved or why not, then what to check."""
    printed = sum(1 for d in grid.givens if d != "0")
    kind = "" if grid.structure.is_classic else f" ({grid.structure.name})"
    if grid.status not in SOLVED_OUTCOMES:
        why = NOT_SOLVED.get(grid.status, grid.status.replace("_", " "))
        cells = sorted({c for p in grid.problems for c in p.cells})
        where = f": look at {', '.join(cell_name(c) for c in cells[:9])}" if cells else ""
        return f"Not solved{kind}: {why}{where or rule_broken(grid)}."
    if grid.status is Outcome.COMPLETE:
        return " ".join(
            s for s in ("Finished, and every digit is right.", repairs_sentence(grid)) if s
        )
    left = plural(len(grid.answer), "cell")
    noun = "printed symbol" if grid.structure.glyphs else "printed digit"  # 0-9/A-F, A-P
    head = f"Solved{kind}: {plural(printed, noun)} read, {left} to fill in."
    return " ".join(s for s in (head, entries_sentence(grid), repairs_sentence(grid)) if s)
