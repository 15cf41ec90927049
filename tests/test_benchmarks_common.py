"""What the benchmark scripts share (benchmarks/common.py): the results table."""

from __future__ import annotations

import pytest

from sudokucam.benchmarks.common import markdown_table


def test_a_table_has_its_header_its_alignment_and_a_line_per_row() -> None:
    lines = markdown_table(["set", "ms", "note"], "lrl", [("top95", "1.02", ""), ("x", 3, "n")])
    assert lines == [
        "| set | ms | note |",
        "|---|---:|---|",
        "| top95 | 1.02 |  |",
        "| x | 3 | n |",
    ]


@pytest.mark.parametrize("align", ["lr", "lrx", "lrrl"])
def test_an_alignment_per_column_is_required(align: str) -> None:
    with pytest.raises(ValueError, match="align"):
        markdown_table(["set", "ms", "note"], align, [])
