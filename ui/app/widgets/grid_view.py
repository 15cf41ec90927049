"""Draw a 9×9 grid as a small HTML table, each cell tagged with CSS classes."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import streamlit as st

SIZE = 9
CELLS = SIZE * SIZE

LEGEND_TEXT: dict[str, str] = {
    "given": "printed",
    "answer": "answer",
    "pen": "pen entry",
    "low": "unsure reading: check it",
    "repaired": "changed by the repair",
    "right": "right",
    "wrong": "wrong",
    "hint": "hint",
}


def cell_text(value: int, marks: Sequence[int] = ()) -> str:
    """The inside of one cell: its digit, or its pencil marks in small print."""
    if value:
        return str(value)
    if marks:
        rows = ("".join(str(v) if v in marks else "&nbsp;" for v in r) for r in _MARK_ROWS)
        return f'<div class="marks">{"<br>".join(rows)}</div>'
    return ""


_MARK_ROWS = ((1, 2, 3), (4, 5, 6), (7, 8, 9))


def grid_html(
    values: Sequence[int],
    classes: Mapping[int, str] | None = None,
    marks: Mapping[int, Sequence[int]] | None = None,
    legend: Sequence[str] = (),
    label: str = "Sudoku grid",
) -> str:
    """The grid as an HTML table; classes and pencil marks are keyed by cell (0-80)."""
    if len(values) != CELLS:
        raise ValueError(f"values must hold {CELLS} cells, got {len(values)}")
    classes = classes or {}
    marks = marks or {}
    rows = []
    for r in range(SIZE):
        tds = []
        for c in range(r * SIZE, (r + 1) * SIZE):
            css = classes.get(c, "")
            attr = f' class="{html.escape(css)}"' if css else ""
            title = f' title="r{r + 1}c{c % SIZE + 1}"'
            tds.append(f"<td{attr}{title}>{cell_text(int(values[c]), marks.get(c, ()))}</td>")
        rows.append("<tr>" + "".join(tds) + "</tr>")
    table = f'<table class="sc-grid" aria-label="{html.escape(label)}">{"".join(rows)}</table>'
    return f'<div class="sc-grid-wrap">{table}{legend_html(legend)}</div>'


def legend_html(kinds: Sequence[str]) -> str:
    """A line explaining the colours used, or nothing."""
    if not kinds:
        return ""
    spans = "".join(f'<span class="{k}">{LEGEND_TEXT[k]}</span>' for k in kinds)
    return f'<div class="sc-legend">{spans}</div>'


def show_grid(
    values: Sequence[int],
    classes: Mapping[int, str] | None = None,
    marks: Mapping[int, Sequence[int]] | None = None,
    legend: Sequence[str] = (),
    label: str = "Sudoku grid",
) -> None:
    """Put the grid on the page."""
    st.html(grid_html(values, classes, marks, legend, label))


def grid_line(values: Sequence[int]) -> str:
    """The grid as one line of 81 characters, '.' for empty."""
    return "".join(str(v) if v else "." for v in values)
