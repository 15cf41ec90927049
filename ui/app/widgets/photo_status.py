"""What the page says about a read photo: why it gave no grid, or how its grid came out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import streamlit as st

from ....solver.outcome import SOLVED_OUTCOMES, Outcome
from ....vision.load import LoadProblem, problem_of
from ...words import plural, repairs_sentence
from .board import LOOK_COLOURS, Look
from .images import shrink, to_rgb
from .messages import RETAKE_TIPS, load_tips, show_failure

if TYPE_CHECKING:
    from ....vision.results import GridResult, PhotoResult

MISSED_DIGIT_TIP = "A printed digit was probably missed: look for an empty cell that is not."
MAX_PUZZLES_SHOWN = 9  # the switcher's buttons (PipelineConfig caps the grids read anyway)


def fix_cells_tip(looks: Mapping[int, Look]) -> str:
    """What to fix on the board, naming only colours the board shows (none: compare)."""
    shown = set(looks.values())
    where = []
    if Look.CONFLICT in shown:
        where.append(f"the cells outlined in {LOOK_COLOURS[Look.CONFLICT]} break the rules")
    if Look.UNSURE in shown:
        where.append(f"the {LOOK_COLOURS[Look.UNSURE]} cells were hard to read")
    if Look.REPAIRED in shown:
        where.append(f"the {LOOK_COLOURS[Look.REPAIRED]} cells were changed to make it work")
    start = ("On the board, " + "; ".join(where) + ". ") if where else ""
    return (
        start + "Compare every digit with the paper, tap a wrong one, then its digit: "
        "the answer updates at once."
    )


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


def choose_puzzle(result: PhotoResult, key: str) -> int:
    """Which puzzle of a photo of several to show (a switcher above it); 0 for one puzzle."""
    count = min(len(result.grids), MAX_PUZZLES_SHOWN)
    if count < 2:
        return 0
    chosen = st.segmented_control(
        f"{count} puzzles on this photo, top to bottom, left to right",
        list(range(count)),
        format_func=lambda i: f"Puzzle {i + 1}",
        default=0,
        required=True,
        key=key,
    )
    return int(chosen or 0)


def show_solution_grids(result: PhotoResult) -> None:
    """One line naming the grids printed full beside the puzzles (answers, not puzzles)."""
    count = len(result.solutions)
    if count:
        st.caption(
            f"Also on this photo: {plural(count, 'solution grid')}, printed full "
            "(an earlier puzzle's answer): nothing to solve there."
        )


def show_grid_status(
    grid: GridResult, edited: bool, looks: Mapping[int, Look], puzzle_only: bool = True
) -> None:
    """One box saying how solving went and, when it failed, what to fix on the board.

    looks: how the board shows each cell, so that the advice names its colours.
    puzzle_only: the page solves the printed puzzle and leaves handwritten digits out
    (False where they are the person's entries, on the page that checks them).
    """
    printed = sum(1 for d in grid.givens if d != "0")
    pen = len(grid.pen_cells) if puzzle_only else 0
    looked = plural(pen, "digit that looks", "digits that look")
    left_out = f" ({looked} handwritten left out)" if pen else ""
    if grid.status in SOLVED_OUTCOMES:
        read = f"from the {plural(printed, 'printed digit')} read{left_out}"
        how = "with your corrections" if edited else read
        st.success(f"Solved {how}: the puzzle has exactly one answer.")
        if grid.repairs and not edited:
            st.info(
                repairs_sentence(grid)
                + f" Those cells are {LOOK_COLOURS[Look.REPAIRED]} on the board."
            )
        return
    tips: tuple[str, ...] = (fix_cells_tip(looks),)
    if pen and not edited:
        tips += (
            f"{plural(pen, 'digit was', 'digits were')} read as handwritten and left out: "
            "if printed, tap the cell and type it.",
        )
    if grid.status is Outcome.INVALID:
        show_failure(
            f"The {plural(printed, 'printed digit')} read{left_out} break the rules.", tips
        )
    elif grid.status is Outcome.MULTIPLE_SOLUTIONS:
        show_failure(
            f"The {plural(printed, 'printed digit')} read leave more than one answer.",
            (MISSED_DIGIT_TIP, *tips),
        )
    else:
        show_failure(f"The {plural(printed, 'printed digit')} read leave no answer.", tips)


def failure_caption(grid: GridResult) -> str:
    """The caption of the photo of a grid that could not be solved."""
    if grid.conflict_cells:
        return "Cells that break the rules are ringed in red"
    return "The grid as found: check the digits against the board"
