"""A short help on the rules and the solving techniques, for the Play page (and the
rules and techniques of a Sudoku X, jigsaw or Killer game)."""

from __future__ import annotations

import streamlit as st

from ....solver.geometry import BOX_SHAPES
from ....solver.variant import Variant

RULES = """
**The rules.** Fill every empty cell with a {value} from 1 to {size} so that each row, each
column and each {box} box holds every {value} exactly once. The printed {value}s never change.

**Playing here.** Tap a cell, then a digit of the number pad to write it in (on a
computer, click a cell and type; the arrows move, Delete rubs out). *Erase* clears the
cell. Switch on *Notes* (or press N) and each digit adds or removes a small candidate
note instead. *Undo* takes a move back, *Check* shows wrong digits in red, *Hint* points
to the next cell you can work out (the digit stays hidden until you ask; then the cells
of the pattern and the notes it rules out show on the board), *Save* downloads the game
as a text file that *Open a file* reads back.
"""

TECHNIQUES = """
- **Hidden single**: a digit fits only one cell of a row, column or box.
- **Naked single**: a cell has only one digit left.
- **Locked candidates**: in a box a digit sits only in one row (or column), so the rest of
  that row can't hold it (*pointing*); or the other way round (*claiming*).
- **Naked pair / triple / quad**: two (three, four) cells of a unit share just two (three,
  four) digits, which therefore leave the unit's other cells.
- **Hidden pair / triple / quad**: two (three, four) digits fit only two (three, four)
  cells of a unit, so those cells hold nothing else.
- **X-Wing, Swordfish, Jellyfish**: a digit confined to the same columns in two (three,
  four) rows leaves those columns elsewhere.
- **XY-Wing, XYZ-Wing, W-Wing**: short chains of two-digit cells that rule a digit out of
  the cells that see both ends.
- **Colouring and chains**: follow links where a digit must be in one of two places;
  whatever sees both ends of a contradiction-free chain can't hold it.
- **Forcing chains**: try each option of a cell; a digit every option agrees on is true.
"""


VARIANT_RULES = {
    Variant.X: "**Sudoku X.** Each of the two shaded diagonals also holds every digit once.",
    Variant.JIGSAW: (
        "**Jigsaw.** The thick lines mark nine irregular regions, which take the place of "
        "the 3×3 boxes: each holds every digit once."
    ),
    Variant.KILLER: (
        "**Killer.** Each dashed cage holds different digits adding up to the small sum in "
        "its corner; the cages are the clues, so a Killer may start with no digits at all. "
        "Hints use the singles, the **cage combinations** (the sets of different digits that "
        "make a cage's sum: a 2-cell cage of 3 is 1+2) and the **45 rule** (each row, "
        "column and box adds up to 45, so the cells poking out of a group of whole cages "
        "add up to what is left)."
    ),
}


SIZED_HINTS = (
    "**Hints on a {size}×{size} grid** use the singles (a {value} that fits only one cell of a "
    "row, column or box; a cell with one {value} left); where they find nothing, one value "
    "of the solution, said as such."
)


def rules_text(size: int = 9) -> str:
    """The rules of a classic grid of ``size`` cells a side (its boxes the solver's)."""
    rows, cols = BOX_SHAPES[size]
    box = "3×3" if size == 9 else f"{rows}×{cols} ({rows} rows × {cols} columns)"
    value = "number" if size > 9 else "digit"
    return RULES.format(value=value, size=size, box=box)


def show_help(variant: Variant = Variant.CLASSIC, size: int = 9) -> None:
    """The rules and techniques, with a variant's own rules first, folded away until wanted
    (``size``: the grid's cells a side; its rules and hints said for it)."""
    with st.expander("Help: rules and techniques"):
        if variant in VARIANT_RULES:
            st.markdown(VARIANT_RULES[variant])
        st.markdown(rules_text(size))
        if size != 9:
            value = "number" if size > 9 else "digit"
            st.markdown(SIZED_HINTS.format(size=size, value=value))
            return
        st.markdown(TECHNIQUES)
