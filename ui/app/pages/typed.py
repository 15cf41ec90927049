"""Type a puzzle: paste 81 characters or fill in an empty grid, then solve and show the answer.

The size is chosen above the grid (4×4, 6×6, 8×8, 9×9, 12×12 or 16×16, boxes as the
solver knows them): a pasted line then holds size² characters (10-16 as A-G, the JSON
contract's), and the board's pad goes up to the size (10-16 as numbers).

A Sudoku X is typed the same way (its diagonals shaded on the board); a jigsaw or Killer
is pasted or uploaded as the JSON of `sudokucam grid FILE.json` (any variant may be),
and the board draws its regions or cages. When the puzzle cannot be solved, the page
says why and marks the cells at fault; a puzzle that breaks its own rules is refused
with the solver's message naming the cage, region or cell. The search runs in the
server's search pool and gives up after `APP_CONFIG.search_time_limit_s`.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

import streamlit as st

from ....solver import Outcome, PuzzleParseError, SearchTimeoutError, SolveResult, parse_grid
from ....solver.geometry import shape_for_size
from ....solver.grid import Grid
from ....solver.variant import Variant, VariantError, VariantPuzzle
from ....solver.variant_solve import is_classic
from ....vision.types import VALUE_CHARS, digits_of
from ..state.backend import run_search, solve_values
from ..state.settings import APP_CONFIG
from ..state.variants import (
    KIND_OF,
    KINDS,
    SIZES,
    Kind,
    box_words,
    classic_of,
    layout_words,
    new_variant,
    parse_variant_json,
    puzzle_text,
    solve_typed,
    with_givens,
)
from ..widgets.board import BoardLayout, BoardView, Look, board, latest_edit, legend_of
from ..widgets.messages import friendly_errors
from ..widgets.variant_hints import said_of, show_variant_hint

TEXT_KEY = "typed_text"
SOLVING_KEY = "typed_solving"
KIND_KEY = "typed_kind"
SIZE_KEY = "typed_size"
SIZE_LABELS = {f"{n}×{n}": n for n in SIZES}
UPLOAD_KEY = "typed_upload"
EXAMPLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
CELLS = 81
TAP_WORDS = (
    "tap a cell of the grid and then a digit of the number pad (a keyboard's digits and "
    "arrows work too)"
)
CAPTIONS = {
    Kind.CLASSIC: f"Paste 81 characters (1-9, and . or 0 for empty), or {TAP_WORDS}.",
    Kind.X: f"Both diagonals hold 1-9 once too. Paste 81 characters, or {TAP_WORDS}.",
    Kind.JIGSAW: (
        'Paste or upload the puzzle as JSON: its "givens" and its "regions", 9 rows of 9 '
        "labels, one label per region. Givens can also be tapped in on the board."
    ),
    Kind.KILLER: (
        'Paste or upload the puzzle as JSON: its "cages", each a "sum" and its "cells" '
        "(r1c1 is row 1, column 1), and any givens. Givens can also be tapped in on the board."
    ),
}
PLACEHOLDERS = {
    Kind.CLASSIC: EXAMPLE,
    Kind.X: EXAMPLE,
    Kind.JIGSAW: '{"variant": "jigsaw", "givens": "81 characters", "regions": ["111222333", ...]}',
    Kind.KILLER: '{"variant": "killer", "cages": [{"sum": 10, "cells": ["r1c1", "r1c2"]}, ...]}',
}
SIZE_HELP = "Classic and Sudoku X puzzles are typed at this size; a pasted JSON says its own size."
SHOWN = (Outcome.SOLVED, Outcome.MULTIPLE_SOLUTIONS, Outcome.TIMEOUT)  # no cells to blame
FIX_HINT = "The cells at fault are outlined in red on the grid above: correct them."
NO_CELLS_HINT = "Check each digit against the puzzle: one is probably mistyped."
MULTIPLE_HINT = "The cells that differ between two answers are shown in amber."
MORE_TIME_HINT = (
    "A puzzle this slow to solve usually has a mistyped digit or no solution. "
    "On the command line, `sudokucam grid PUZZLE --time-limit 120` allows more time."
)


def parsed_text(text: str, size: int = 9) -> list[int] | None:
    """The values of a pasted puzzle of ``size`` cells a side, None when nothing is pasted;
    errors are shown."""
    if not text.strip():
        return None
    try:
        grid = parse_grid(text, size)
    except PuzzleParseError as exc:
        st.error(
            f"That text is not a {size}×{size} puzzle: {exc}. Paste {size * size} "
            f"characters, row by row, with {symbol_words(size)} and . or 0 for empty cells."
        )
        return None
    return list(grid.values)


def symbol_words(size: int) -> str:
    """How a pasted line writes the values of a grid of ``size``: "1-6 for digits"."""
    if size <= 9:
        return f"1-{size} for digits"
    return f"1-9 and A-{VALUE_CHARS[size]} for 10-{size}"


def caption(kind: Kind, size: int) -> str:
    """What to type for the kind of puzzle at the size chosen."""
    if size == 9 or kind in (Kind.JIGSAW, Kind.KILLER):
        return CAPTIONS[kind]
    pad = " (on the pad 10-16 are numbers; a keyboard types 1 then 0-6)" if size > 9 else ""
    x = " Both diagonals hold each value once too." if kind is Kind.X else ""
    return (
        f"A {size}×{size} Sudoku: {box_words(size)}, values 1-{size}.{x} Paste "
        f"{size * size} characters ({symbol_words(size)}, and . or 0 for empty), or "
        f"{TAP_WORDS}{pad}."
    )


def board_key(text: str, size: int = 9) -> str:
    """The typing board's key: a fresh board for each pasted text (and each size chosen)."""
    said = text if size == 9 else f"{size}×{size}:{text}"
    digest = hashlib.sha1(said.encode(), usedforsecurity=False).hexdigest()[:10]
    return f"typed_grid_{digest}"


def _start_solving() -> None:
    """Remember that the person asked for the answer (runs before the page is drawn)."""
    st.session_state[SOLVING_KEY] = True


def render() -> None:
    """The 'Type a puzzle' page."""
    st.subheader("Type a puzzle")
    kind = Kind(st.radio("Kind of puzzle", KINDS, horizontal=True, key=KIND_KEY) or Kind.CLASSIC)
    label = st.selectbox("Size", list(SIZE_LABELS), index=SIZES.index(9), key=SIZE_KEY,
                         help=SIZE_HELP)  # fmt: skip
    size = SIZE_LABELS[label or "9×9"]
    st.caption(caption(kind, size))
    text = _typed_text(kind)
    usable, template = _template(text, kind, size)
    if not usable:
        return
    start = list(template.givens) if template else parsed_text(text) or [0] * CELLS
    key = board_key(text, size)
    edit = latest_edit(key)
    values = edit.values if edit is not None and len(edit.values) == len(start) else start
    puzzle = _with_values(template, values) if template else None
    broken = template is not None and puzzle is None  # the typed givens break a rule: said
    asked = st.session_state.get(SOLVING_KEY) and not broken
    result = _solved(values, puzzle) if asked else None
    bad = problem_cells(result) if result is not None and result.status not in SHOWN else set()
    looks = {c: Look.GIVEN for c, v in enumerate(values) if v} | dict.fromkeys(bad, Look.CONFLICT)
    layout = BoardLayout.of(template)
    view = BoardView(digits_of(values), looks, editable=True, typed_printed=True,
                     legend=legend_of(looks, always=()), label="Puzzle to solve",
                     layout=layout)  # fmt: skip
    board(view, key=key)
    if template:
        st.caption(layout_words(template))
    st.button("Solve", type="primary", key="typed_solve", on_click=_start_solving)
    if not st.session_state.get(SOLVING_KEY):
        return
    if not any(values) and not (template and template.cages):
        st.info("The grid is empty: paste a puzzle or tap its digits in first.")
    elif result is not None:
        show_result(result, layout, puzzle)


def _typed_text(kind: Kind) -> str:
    """The puzzle's text: pasted, or an uploaded JSON file (jigsaw and Killer)."""
    text = st.text_area("Puzzle as text", key=TEXT_KEY, height=80, placeholder=PLACEHOLDERS[kind])
    if kind in (Kind.CLASSIC, Kind.X):
        return text
    upload = st.file_uploader("Or upload the puzzle (.json)", type=["json"], key=UPLOAD_KEY)
    st.button(f"Try an example {kind}", key="typed_example", on_click=_example, args=(kind,))
    if upload is not None:
        return upload.getvalue().decode("utf-8", errors="replace")
    return text


def _example(kind: Kind) -> None:
    """Put a freshly made puzzle of the kind into the text box (runs before the page)."""
    limit = APP_CONFIG.generate_time_limit_s
    with friendly_errors(f"make an example {kind}"):
        made, _ = run_search(new_variant, kind, 0, random.randrange(2**31), limit_s=limit)
        st.session_state[TEXT_KEY] = puzzle_text(made)
        st.session_state.pop(SOLVING_KEY, None)


def _template(text: str, kind: Kind, size: int = 9) -> tuple[bool, VariantPuzzle | None]:
    """Whether there is a puzzle to show, and the variant the board follows: the pasted
    JSON's (of its own size), a Sudoku X's diagonals, a classic grid of ``size`` other
    than 9, or None (a classic 9×9). When there is none, says why."""
    if text.lstrip().startswith("{"):
        try:
            puzzle = parse_variant_json(text)
        except VariantError as exc:
            st.error(f"That puzzle cannot be used: {exc}.")
            return False, None
        if KIND_OF[puzzle.variant] is not kind:
            st.caption(f"The JSON describes a {KIND_OF[puzzle.variant]} puzzle.")
        return True, puzzle
    if kind is Kind.X:
        givens = tuple(parsed_text(text, size) or [0] * size * size)
        return True, VariantPuzzle(size, givens, Variant.X, diagonals=True)
    if kind in (Kind.JIGSAW, Kind.KILLER):
        if text.strip():
            st.error(f"A {kind} puzzle is typed as JSON: it starts with {{ (see the example).")
        else:
            st.info(f"Paste or upload a {kind} puzzle, or press *Try an example {kind}*.")
        return False, None
    if size != 9:
        return True, classic_of(size, tuple(parsed_text(text, size) or [0] * size * size))
    return True, None


def _with_values(template: VariantPuzzle, values: Sequence[int]) -> VariantPuzzle | None:
    """The typed puzzle with the board's givens; None, with the solver's reason, if it breaks
    its own rules (a given outside its cage's reach)."""
    try:
        return with_givens(template, tuple(values))
    except VariantError as exc:
        st.error(f"That puzzle cannot be used: {exc}.")
        return None


def _solved(values: Sequence[int], puzzle: VariantPuzzle | None) -> SolveResult | None:
    """The solver's answer for the grid, or None when it is empty or the search failed."""
    if puzzle is not None and not is_nine(puzzle):
        return _solved_variant(puzzle)
    if not any(values):
        return None
    with friendly_errors("solve the puzzle"), st.spinner("Solving…"):
        return solve_values(values)
    return None


def _solved_variant(puzzle: VariantPuzzle) -> SolveResult | None:
    """A variant (or a grid of another size than 9×9) solved in the search pool, proving its
    answer unique (TIMEOUT past the limit); values named as the board shows them."""
    limit = APP_CONFIG.search_time_limit_s
    with friendly_errors("solve the puzzle"), st.spinner("Solving…"):
        try:
            return run_search(solve_typed, puzzle, limit, said_of(puzzle), limit_s=limit)
        except SearchTimeoutError:
            grid = Grid(shape_for_size(puzzle.size), puzzle.givens)
            return SolveResult(grid, Outcome.TIMEOUT, time_limit=limit)
    return None


def is_nine(puzzle: VariantPuzzle) -> bool:
    """True for a classic 9×9 (solved, hinted and shown as the classic page always did)."""
    return is_classic(puzzle) and puzzle.size == 9


def given_classes(puzzle: Sequence[int]) -> dict[int, Look]:
    """The looks that mark the givens of a puzzle and the cells it leaves to fill."""
    return {c: (Look.GIVEN if v else Look.ANSWER) for c, v in enumerate(puzzle)}


def problem_cells(result: SolveResult) -> set[int]:
    """The cells named by a failed solve: conflicting givens or dead cells."""
    return {c for conflict in result.conflicts for c in conflict.cells}


def show_board(
    values: Sequence[int], looks: dict[int, Look], label: str, layout: BoardLayout
) -> None:
    """A board that only shows a grid (no number pad), with the variant's lines."""
    legend = legend_of(looks, always=())
    key = "typed_" + label.lower().replace(" ", "_")
    view = BoardView(digits_of(values), looks, legend=legend, label=label, layout=layout)
    board(view, key=key)


def show_result(
    result: SolveResult, layout: BoardLayout, variant: VariantPuzzle | None = None
) -> None:
    """The answer grid when solved; otherwise a message, with the cells at fault marked.

    variant: the typed variant puzzle, whose first step a hint then offers.
    """
    puzzle = list(result.puzzle.values)
    looks = given_classes(puzzle)
    if result.status is Outcome.SOLVED and result.solution is not None:
        answer = list(result.solution.values)
        st.success("Solved: the puzzle has exactly one solution.")
        show_board(answer, looks, "Solution", layout)
        with st.expander("The answer as text"):
            st.code(answer_lines(answer), language=None)
        if variant is not None and not is_nine(variant):
            empty = (0,) * len(answer)
            show_variant_hint(variant, empty, result.solution.values, key="typed_hint")
        return
    if result.status is Outcome.MULTIPLE_SOLUTIONS:
        first, second = (list(s.values) for s in result.solutions)
        differ = {c: Look.UNSURE for c in range(len(first)) if first[c] != second[c]}
        st.warning(
            f"This puzzle has {result.message}. A proper Sudoku has one answer: "
            f"a digit is probably missing. {MULTIPLE_HINT}"
        )
        show_board(first, looks | differ, "One solution", layout)
        return
    if result.status is Outcome.TIMEOUT:
        st.error(f"No answer: the solver {result.message}. {MORE_TIME_HINT}")
        return
    fix = FIX_HINT if problem_cells(result) else NO_CELLS_HINT
    st.error(f"This puzzle cannot be solved: {result.message}. {fix}")


def grid_line(values: Sequence[int]) -> str:
    """The grid as one line of one character a cell, '.' for empty (10-16 as A-G)."""
    return "".join(VALUE_CHARS[v] if v else "." for v in values)


def answer_lines(values: Sequence[int]) -> str:
    """An answer as text: a 9×9's one line of 81 digits; another size one line a row
    (a 12×12 or 16×16's numbers written out, space apart), then its one line (10-16 as
    A-G, as `sudokucam grid` reads it)."""
    n = round(len(values) ** 0.5)
    if n == 9:
        return grid_line(values)
    width = len(str(n))
    numbers = [str(v).rjust(width) for v in values]
    gap = " " if n > 9 else ""
    rows = [gap.join(numbers[r * n : (r + 1) * n]) for r in range(n)]
    return "\n".join([*rows, "", grid_line(values)])
