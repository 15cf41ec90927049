"""A short help on the rules and the solving techniques, for the Play page (and the
rules and techniques of a Sudoku X, jigsaw or Killer game)."""

from __future__ import annotations

import streamlit as st

from ....solver.variant import Variant

RULES = """
**The rules.** Fill every empty cell with a digit from 1 to 9 so that each row, each
column and each 3×3 box holds every digit exactly once. The printed digits never change.

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


def show_help(variant: Variant = Variant.CLASSIC) -> None:
    """The rules and techniques, with a variant's own rules first, folded away until wanted."""
    with st.expander("Help: rules and techniques"):
        if variant in VARIANT_RULES:
            st.markdown(VARIANT_RULES[variant])
        st.markdown(RULES)
        st.markdown(TECHNIQUES)
