"""What the page says about a read photo: why it gave no grid, or how its grid came out."""

from __future__ import annotations

from typing import TYPE_CHECKING

import streamlit as st

from ....solver.outcome import SOLVED_OUTCOMES, Outcome
from ....vision.load import LoadProblem, problem_of
from .images import shrink, to_rgb
from .messages import RETAKE_TIPS, load_tips, show_failure

if TYPE_CHECKING:
    from ....vision.results import GridResult, PhotoResult

FIX_CELLS_TIP = (
    "Fix the digits outlined in red on the board: tap a cell, then its digit. "
    "The answer updates at once."
)
MISSED_DIGIT_TIP = "A printed digit was probably missed: look for an empty cell that is not."


def show_photo_failure(result: PhotoResult) -> bool:
    """Say why a photo gave no grid and show it; True when there was such a failure."""
    if result.error is not None and result.image is None:
        problem = problem_of(result.error)
        if problem is LoadProblem.TOO_LARGE:  # named by the photo's name, not "the image data"
            _, _, size = result.error.partition(" is too large")
            show_failure(f"{result.source} is too large{size}.", load_tips(problem))
        else:
            show_failure(
                f"That file could not be read as a photo: {result.error}.", load_tips(problem)
            )
        return True
    if not result.grids:
        show_failure("No Sudoku grid was found in this photo.", RETAKE_TIPS)
        if result.image is not None:
            st.image(to_rgb(shrink(result.image)), caption="The photo as received")
        return True
    return False


def show_more_puzzles(result: PhotoResult) -> None:
    """One line when the photo holds more puzzles than the one this page shows."""
    more = len(result.grids) - 1
    if more > 0:
        st.info(
            f"{more} more {'puzzle' if more == 1 else 'puzzles'} on this photo; the first is "
            "shown here. `sudokucam solve PHOTO -o OUT.png` solves them all."
        )


def show_grid_status(grid: GridResult, edited: bool) -> None:
    """One box saying how solving went and, when it failed, what to fix."""
    givens = sum(1 for d in grid.givens if d != "0")
    if grid.status in SOLVED_OUTCOMES:
        how = "with your corrections" if edited else f"from the {givens} printed digits read"
        st.success(f"Solved {how}: the puzzle has exactly one solution.")
        if grid.repairs and not edited:
            st.info(
                "The digits as first read broke the rules, so the solver changed "
                + "; ".join(r.text for r in grid.repairs)
                + ". Those cells are outlined in orange on the board: check them against the paper."
            )
        return
    problems = "; ".join(p.text for p in grid.problems[:4]) or grid.message
    if grid.status is Outcome.INVALID:
        show_failure(f"The digits as read break the rules: {problems}.", (FIX_CELLS_TIP,))
    elif grid.status is Outcome.MULTIPLE_SOLUTIONS:
        show_failure(
            f"The puzzle as read has more than one answer: {problems}.",
            (MISSED_DIGIT_TIP, FIX_CELLS_TIP),
        )
    else:
        show_failure(f"With these digits the puzzle has no solution: {problems}.", (FIX_CELLS_TIP,))


def failure_caption(grid: GridResult) -> str:
    """The caption of the photo of a grid that could not be solved."""
    if grid.conflict_cells:
        return "Cells that break the rules are ringed in red"
    return "The grid as found: check the digits against the board"
