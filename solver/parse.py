"""Reading puzzles from text: compact lines, rows of numbers, pretty grids, many-puzzle files.

Accepted, for every size in geometry.BOX_SHAPES:
  * one compact line of n² characters: 1-9 then A.. (16×16: A-G), '.', '0', '_' or '-' empty;
  * n lines of n values: compact ("4.....6..") or space-separated numbers ("4 0 0 0 ..."),
    with '|' and '+---+' box rules ignored (so `Grid.pretty()` reads back);
  * a file of many puzzles: one compact line each, or blocks of n lines, blank lines and
    '#' comments or 'Grid NN' headers between them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from .errors import PuzzleParseError
from .geometry import BOX_SHAPES, shape_for_size
from .grid import SYMBOLS, Grid

EMPTY_CHARS = frozenset(".0_-")
_RULE = re.compile(r"^[\s+\-=|:]*$")  # a box rule line such as +-------+-------+
_HEADER = re.compile(r"^\s*(#|grid\b|puzzle\b)", re.IGNORECASE)
_SIZES_BY_CELLS = {n * n: n for n in BOX_SHAPES}
_KNOWN = ", ".join(f"{n * n} ({n}×{n})" for n in BOX_SHAPES)


def parse_grid(text: str, size: int | None = None) -> Grid:
    """Read exactly one puzzle from text; PuzzleParseError names what is wrong."""
    grids = parse_puzzles(text, size)
    if len(grids) != 1:
        raise PuzzleParseError(f"expected one puzzle, found {len(grids)}")
    return grids[0]


def parse_puzzles(text: str, size: int | None = None) -> list[Grid]:
    """Read every puzzle in a text (one file); PuzzleParseError names the first problem."""
    return list(iter_puzzles(text, size))


def iter_puzzles(text: str, size: int | None = None) -> Iterator[Grid]:
    """Yield the puzzles of a text one by one."""
    if size is not None:
        shape_for_size(size)  # ValueError naming the size when unsupported
    found = False
    for block in _blocks(text):
        for start, lines in _split_block(block, size):
            found = True
            yield _grid_from_lines(lines, start, size)
    if not found:
        raise PuzzleParseError("no puzzle found: the text is empty")


def _blocks(text: str) -> Iterator[list[tuple[int, str]]]:
    """Runs of puzzle lines (1-based line number, text), split at blank and header lines."""
    block: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or _HEADER.match(line):
            if block:
                yield block
            block = []
        elif not _RULE.match(line) or "." in line:
            block.append((number, line.replace("|", " ").strip()))
    if block:
        yield block


def _split_block(
    block: list[tuple[int, str]], size: int | None
) -> Iterator[tuple[int, list[tuple[int, str]]]]:
    """Cut a block into puzzles: a line each, or n lines each (n = the usual row length)."""
    counts = [len(_tokens(line)) for _, line in block]
    n = Counter(counts).most_common(1)[0][0]
    rows = n == size if size is not None else n in BOX_SHAPES and _rows_fit(n, block)
    multi_line = len(block) > 1 and rows
    if not multi_line:
        for number, line in block:
            yield number, [(number, line)]
        return
    for i in range(0, len(block), n):
        yield block[i][0], block[i : i + n]


def _rows_fit(n: int, block: list[tuple[int, str]]) -> bool:
    """Whether lines of n values are grid rows rather than 4×4 puzzles (16 values each)."""
    return n != 16 or len(block) % 16 == 0


def _tokens(line: str) -> list[str]:
    """The values written on one line, as strings."""
    parts = line.split()
    if len(parts) > 1 and all(_is_number(p) for p in parts):
        return parts
    return [ch for ch in "".join(parts)]


def _is_number(token: str) -> bool:
    """A space-separated value: one character, or a number up to 25 without leading zeros."""
    if len(token) == 1:
        return True
    return token.isdigit() and token[0] != "0" and int(token) <= max(BOX_SHAPES)


def _grid_from_lines(lines: list[tuple[int, str]], start: int, size: int | None) -> Grid:
    """Build one Grid from its lines, checking counts and characters."""
    where = f"line {start}"
    if len(lines) == 1:
        tokens = _tokens(lines[0][1])
        n = _side(len(tokens), size, where)
    else:
        n = size if size is not None else len(_tokens(lines[0][1]))
        if n not in BOX_SHAPES:
            raise PuzzleParseError(f"{where} has {n} values; a grid row needs one of {_rows()}")
        if len(lines) != n:
            raise PuzzleParseError(
                f"puzzle at line {start} has {len(lines)} rows; a {n}×{n} puzzle needs {n}"
            )
        tokens = []
        for number, line in lines:
            row = _tokens(line)
            if len(row) != n:
                raise PuzzleParseError(f"line {number} has {len(row)} values; expected {n}")
            tokens.extend(row)
    values = [_value(tok, i, n, lines) for i, tok in enumerate(tokens)]
    return Grid(shape_for_size(n), tuple(values))


def _side(count: int, size: int | None, where: str) -> int:
    """The side length for a one-line puzzle of `count` values, or a clear error."""
    if size is not None:
        if count != size * size:
            raise PuzzleParseError(
                f"wrong length: {where} has {count} values; a {size}×{size} puzzle needs "
                f"{size * size}"
            )
        return size
    if count not in _SIZES_BY_CELLS:
        raise PuzzleParseError(
            f"wrong length: {where} has {count} values; a puzzle needs one of {_KNOWN}"
        )
    return _SIZES_BY_CELLS[count]


def _value(token: str, index: int, n: int, lines: list[tuple[int, str]]) -> int:
    """The value of one token (0 for empty), or an error naming the token and its place."""
    if token in EMPTY_CHARS:
        return 0
    if token.isdigit():
        v = int(token)
    elif len(token) == 1 and n > 9 and token.upper() in SYMBOLS:
        v = SYMBOLS.index(token.upper()) + 1
    else:
        raise PuzzleParseError(f"bad character {token!r} at {_place(index, n, lines)}")
    if not 1 <= v <= n:
        raise PuzzleParseError(
            f"value {token!r} at {_place(index, n, lines)} is out of range for {n}×{n} "
            f"(1-{SYMBOLS[n - 1] if n > 9 else n})"
        )
    return v


def _place(index: int, n: int, lines: list[tuple[int, str]]) -> str:
    """Where a value sits: line, row and column (1-based)."""
    r, c = divmod(index, n)
    number = lines[0][0] if len(lines) == 1 else lines[r][0]
    return f"line {number}, row {r + 1}, column {c + 1}"


def _rows() -> str:
    """The row lengths a multi-line puzzle may have."""
    return ", ".join(str(n) for n in BOX_SHAPES)
