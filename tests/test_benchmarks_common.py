"""What the benchmark scripts share (benchmarks/common.py): the results table, the photo
benchmarks' options and report."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import pytest

from sudokucam.benchmarks.common import (
    add_photo_options,
    judge_photos,
    markdown_table,
    parse_photo_args,
    script_parser,
)


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


@dataclass(frozen=True)
class _Read:
    """A judged photo as the photo benchmarks keep it."""

    seed: int
    found: bool
    cells: bool
    solved: bool
    message: str


def test_judge_photos_prints_progress_the_table_and_each_photo_not_all_right(
    capsys: pytest.CaptureFixture[str],
) -> None:
    reads = [_Read(1, True, True, True, "ok"), _Read(2, True, False, True, "one cell off")]
    names = (lambda o: f"p{o.seed}", lambda o: f"seed {o.seed}")
    kept = judge_photos(iter(reads), names, lambda rows: f"TABLE of {len(rows)}")
    out, err = capsys.readouterr()
    assert kept == reads
    assert err.splitlines() == ["p1: solved=True", "p2: solved=True"]
    assert out.splitlines() == [
        "TABLE of 2",
        "",
        "2 photos; not all right: 1",
        "- seed 2: found=True cells=False solved=True: one cell off",
    ]
    assert judge_photos(iter([]), names, lambda rows: "never") == []
    assert capsys.readouterr().out == ""


def test_photo_options_refuse_a_negative_count(monkeypatch: pytest.MonkeyPatch) -> None:
    parser = script_parser("A benchmark.")
    add_photo_options(parser, (24, "photos"), 700, ["validation", "test"])
    monkeypatch.setattr(sys, "argv", ["bench", "--per-kind", "2"])
    args = parse_photo_args(parser)
    assert (args.count, args.seed, args.per_kind, args.split, args.nine) == (
        24, 700, 2, "validation", False
    )  # fmt: skip
    monkeypatch.setattr(sys, "argv", ["bench", "--count", "-1"])
    with pytest.raises(SystemExit):
        parse_photo_args(parser)
