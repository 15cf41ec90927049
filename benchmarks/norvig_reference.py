"""The benchmark's yardstick: a constraint-propagation solver in the style Peter Norvig
described in "Solving Every Sudoku Puzzle" (norvig.com/sudoku.html), written here from
that description, not copied, and extended to prove uniqueness.

REFERENCE ONLY: sudokucam never imports this module; benchmarks/solver_bench.py times
it beside sudokucam's solver in the same run.

As the essay describes it: every square keeps a string of the digits it may still hold
(a dict keyed by square names such as "A1"). Placing a digit eliminates all the others;
eliminating a digit (1) when a square is left with one digit, eliminates that digit from
its peers, and (2) when a unit is left with one place for the digit, places it there.
Search copies the dict and tries each digit of a square with the fewest possibilities.
Here the search goes on after the first solution until it has found two (or none more
exist), which is the uniqueness proof sudokucam makes too.
"""

from __future__ import annotations

DIGITS = "123456789"
ROWS = "ABCDEFGHI"
COLS = DIGITS
Values = dict[str, str]


def _cross(a: str, b: str) -> list[str]:
    """Every name made of one character of a and one of b."""
    return [x + y for x in a for y in b]


SQUARES = _cross(ROWS, COLS)
UNIT_LIST = (
    [_cross(ROWS, c) for c in COLS]
    + [_cross(r, COLS) for r in ROWS]
    + [_cross(rs, cs) for rs in ("ABC", "DEF", "GHI") for cs in ("123", "456", "789")]
)
UNITS = {s: [u for u in UNIT_LIST if s in u] for s in SQUARES}
PEERS = {s: set().union(*UNITS[s]) - {s} for s in SQUARES}


def parse(text: str) -> Values | None:
    """Possibilities of every square after placing the givens, or None on a contradiction."""
    values = dict.fromkeys(SQUARES, DIGITS)
    for square, ch in zip(SQUARES, text, strict=True):
        if ch in DIGITS and not place(values, square, ch):
            return None
    return values


def place(values: Values, square: str, digit: str) -> bool:
    """Eliminate every other digit from square; False on a contradiction."""
    return all(eliminate(values, square, d) for d in values[square].replace(digit, ""))


def eliminate(values: Values, square: str, digit: str) -> bool:
    """Remove digit from square and propagate both rules; False on a contradiction."""
    if digit not in values[square]:
        return True
    left = values[square] = values[square].replace(digit, "")
    if not left:
        return False
    if len(left) == 1 and not all(eliminate(values, p, left) for p in PEERS[square]):
        return False
    for unit in UNITS[square]:
        places = [s for s in unit if digit in values[s]]
        if not places:
            return False
        if len(places) == 1 and not place(values, places[0], digit):
            return False
    return True


def search(values: Values, found: list[Values], limit: int) -> None:
    """Depth-first search on the square with fewest possibilities, collecting solutions."""
    open_squares = [s for s in SQUARES if len(values[s]) > 1]
    if not open_squares:
        found.append(values)
        return
    square = min(open_squares, key=lambda s: len(values[s]))
    for digit in values[square]:
        child = values.copy()
        if place(child, square, digit):
            search(child, found, limit)
            if len(found) >= limit:
                return


def count_solutions(text: str, limit: int = 2) -> int:
    """Solutions of an 81-character puzzle, counting no further than limit."""
    values = parse(text)
    if values is None:
        return 0
    found: list[Values] = []
    search(values, found, limit)
    return len(found)
