"""Reading puzzles: every accepted format, and every parse error with its message."""

from __future__ import annotations

import pytest

from sudokucam.solver import Grid, PuzzleParseError, parse_grid, parse_puzzles
from sudokucam.solver.errors import PuzzleError

ANTI_BACKTRACK = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"

NINE_LINES = """\
4 0 0 0 0 0 6 0 0
0 9 0 0 8 0 0 5 0
0 0 7 1 4 9 2 0 0
1 0 0 0 3 0 9 0 0
0 0 0 0 0 0 0 2 6
9 7 0 0 0 5 0 8 0
0 2 0 0 0 8 0 0 0
0 5 0 0 0 0 0 6 0
0 0 1 0 7 0 0 0 3
"""


def test_compact_line_with_dots_and_zeros_read_the_same() -> None:
    dots = Grid.parse(ANTI_BACKTRACK)
    zeros = Grid.parse(ANTI_BACKTRACK.replace(".", "0"))
    assert dots == zeros
    assert dots.size == 9
    assert dots.values[14] == 3 and dots.values[0] == 0
    assert dots.to_string() == ANTI_BACKTRACK


def test_nine_line_numbers_format() -> None:
    grid = Grid.parse(NINE_LINES)
    assert grid.to_string()[:18] == "4.....6...9..8..5."
    assert grid.to_numbers() + "\n" == NINE_LINES


def test_pretty_and_numbers_read_back() -> None:
    grid = Grid.parse(ANTI_BACKTRACK)
    assert Grid.parse(grid.pretty()) == grid
    assert Grid.parse(grid.to_numbers()) == grid


def test_compact_rows_with_separators() -> None:
    rows = [ANTI_BACKTRACK[i : i + 9] for i in range(0, 81, 9)]
    text = "\n".join(f"{r[:3]} | {r[3:6]} | {r[6:]}" for r in rows)
    assert Grid.parse(text).to_string() == ANTI_BACKTRACK


def test_many_puzzles_one_per_line_with_comments() -> None:
    text = f"# two puzzles\n{ANTI_BACKTRACK}\n\n{ANTI_BACKTRACK.replace('.', '0')}\n"
    grids = parse_puzzles(text)
    assert len(grids) == 2 and grids[0] == grids[1]


def test_many_nine_line_puzzles_with_headers() -> None:
    text = f"Grid 01\n{NINE_LINES}Grid 02\n{NINE_LINES}"
    assert len(parse_puzzles(text)) == 2


def test_sixteen_by_sixteen_letters_and_numbers_agree() -> None:
    letters = "123456789ABCDEFG" + "." * 240
    numbers = "\n".join([" ".join(str(v) for v in range(1, 17))] + [" ".join(["0"] * 16)] * 15)
    a, b = Grid.parse(letters), Grid.parse(numbers)
    assert a == b and a.size == 16
    assert a.values[:16] == tuple(range(1, 17))
    assert Grid.parse(a.pretty()) == a


@pytest.mark.parametrize("size", [4, 6, 8, 9, 12, 16, 25])
def test_every_size_round_trips(size: int) -> None:
    grid = Grid.from_values([(i % size) + 1 if i % 3 == 0 else 0 for i in range(size * size)])
    assert Grid.parse(grid.to_string()) == grid
    assert Grid.parse(grid.to_numbers()) == grid
    assert Grid.parse(grid.pretty()) == grid


def test_forced_size_reads_sixteen_values_as_a_4x4() -> None:
    assert Grid.parse("1234341221434321", size=4).size == 4


@pytest.mark.parametrize(
    ("text", "size", "message"),
    [
        (ANTI_BACKTRACK[:80], None, "wrong length: line 1 has 80 values; a puzzle needs one of"),
        (ANTI_BACKTRACK + ".", None, "wrong length: line 1 has 82 values"),
        (ANTI_BACKTRACK[:80] + "x", None, "bad character 'x' at line 1, row 9, column 9"),
        ("A" + ANTI_BACKTRACK[1:], None, "bad character 'A' at line 1, row 1, column 1"),
        (ANTI_BACKTRACK, 4, "wrong length: line 1 has 81 values; a 4×4 puzzle needs 16"),
        (
            NINE_LINES.replace("0 9 0 0 8 0 0 5 0", "0 9 0 0 8 0 0 5"),
            None,
            "line 2 has 8 values; expected 9",
        ),
        (
            "\n".join(NINE_LINES.splitlines()[:8]),
            None,
            "puzzle at line 1 has 8 rows; a 9×9 puzzle needs 9",
        ),
        (
            NINE_LINES.replace("4 0 0", "4 0 12", 1),
            None,
            "value '12' at line 1, row 1, column 3 is out of range for 9×9 (1-9)",
        ),
        ("", None, "no puzzle found: the text is empty"),
        (f"{ANTI_BACKTRACK}\n{ANTI_BACKTRACK}", None, "expected one puzzle, found 2"),
        ("H" + "." * 255, None, "value 'H' at line 1, row 1, column 1 is out of range for 16×16"),
    ],
)
def test_parse_errors_name_the_problem(text: str, size: int | None, message: str) -> None:
    with pytest.raises(PuzzleParseError) as info:
        parse_grid(text, size)
    assert message in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, PuzzleError)


def test_unsupported_size_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="size must be one of"):
        parse_grid(ANTI_BACKTRACK, size=10)


def test_many_puzzle_file_reports_the_bad_line() -> None:
    text = f"{ANTI_BACKTRACK}\n{ANTI_BACKTRACK[:79]}\n"
    with pytest.raises(PuzzleParseError, match="line 2 has 79 values"):
        parse_puzzles(text)
