"""The fast search for grids up to 12×12: the whole state in one big integer.

The candidates are kept four times over, in four layouts side by side in one Python
int, each layout size² chunks of size+1 bits (the top bit of each chunk a guard,
always clear in the state):

- by cell (the lowest bits): chunk = cell, bit = value;
- by row, by column, by box: chunk = value × size + unit, bit = the cell's place in it.

Placing a value is one AND with a mask made once per shape (the value's other cells in
its row, column and box, and the cell's other values, in every layout). A round of
propagation works on all chunks at once, SWAR style: with the guards set, subtracting
the chunks' low bits leaves a chunk's guard set exactly when the chunk was not empty,
and ANDing the difference with the chunk clears its lowest bit, so two such steps find
every empty chunk (a contradiction) and every chunk with one bit (a naked single in the
cell layout, a hidden single in the others). The chunks already seen with one bit are
carried in the state, so a round extracts only the new singles. A search with a node
budget raises BudgetSpentError past it; the caller then switches to the engine with
the stronger steps.

State sketch, 9×9 (chunks of 10 bits, 81 chunks a layout, 810 bits a layout):

    bit:    0            810              1620                2430            3240
            | by cell    | by row         | by column         | by box        |
    chunk:  | cell       | value×9 + row  | value×9 + column  | value×9 + box |
    bit k:  | value k+1  | the row's k-th | the column's k-th | the box's k-th|
            |            | cell           | cell              | cell          |

    one chunk:  g 8 7 6 5 4 3 2 1 0      g: the guard (bit 9), clear in the state
    cell 0 may hold 1, 2 or 7:           chunk 0 of the cell layout = 0b0001000011
    ... and row 0's chunk for value 7 (chunk 6×9 + 0) has bit 0 set: its cell 0 may hold 7
    Board = (the four layouts in one int, the guard bits of the chunks already found single)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from .clock import Clock
from .geometry import Shape

LAYOUTS = 4  # by cell, by row, by column, by box
Board = tuple[int, int]  # the four layouts, and the guard bits of the chunks seen single


class BudgetSpentError(Exception):
    """The search visited more nodes than its budget allowed."""


@dataclass(frozen=True)
class BoardTables:
    """What the bitboard search precomputes for one shape."""

    size: int
    cells: int
    ties: int  # two-candidate cells compared when choosing where to branch
    guard: int  # the guard bit of every chunk of every layout
    low: int  # the lowest bit of every chunk of every layout
    cell_guard: int  # the guard bits of the cell layout alone
    cell_low: int  # its lowest bits
    cell_bits: int  # every bit of the cell layout
    chunk: int  # the value bits of one chunk
    keep: tuple[int, ...]  # by value × cells + cell: what placing it keeps
    marks: tuple[int, ...]  # likewise: the guard bits of its chunks
    index: tuple[int, ...]  # by bit position: value × cells + cell
    full: Board  # the state of an empty grid
    peers_low: tuple[int, ...]  # by cell: the lowest bit of each peer's chunk (cell layout)


def _positions(shape: Shape) -> list[tuple[int, int, int, int]]:
    """The bit of each (value, cell) in each layout, by value × cells + cell."""
    n = shape.size
    width = n + 1
    span = n * n * width  # bits of one layout
    where = [[(0, 0)] * shape.ncells for _ in range(3)]  # by kind, cell: (unit, place)
    for unit, cells in enumerate(shape.units):
        kind, number = divmod(unit, n)
        for place, cell in enumerate(cells):
            where[kind][cell] = (number, place)
    rows, cols, boxes = where
    return [
        (
            cell * width + value,
            span + (value * n + rows[cell][0]) * width + rows[cell][1],
            2 * span + (value * n + cols[cell][0]) * width + cols[cell][1],
            3 * span + (value * n + boxes[cell][0]) * width + boxes[cell][1],
        )
        for value in range(n)
        for cell in range(shape.ncells)
    ]


def _keep(shape: Shape, pos: list[tuple[int, int, int, int]], full: int) -> list[int]:
    """By value × cells + cell: the state bits that stay when that value goes there."""
    n, cells = shape.size, shape.ncells
    shifts = (1, n * (n + 1), n * (n + 1), n * (n + 1))  # from one value's bit to the next
    at_cell = [
        sum(1 << spot for v in range(n) for spot in pos[v * cells + c]) for c in range(cells)
    ]
    peers0 = [
        [sum(1 << pos[p][k] for p in shape.peers[c]) for k in range(LAYOUTS)] for c in range(cells)
    ]
    keep = []
    for i, spots in enumerate(pos):
        value, cell = divmod(i, cells)
        gone = at_cell[cell] ^ sum(1 << spot for spot in spots)
        for k in range(LAYOUTS):
            gone |= peers0[cell][k] << (value * shifts[k])
        keep.append(full & ~gone)
    return keep


@cache
def board_tables(shape: Shape, ties: int) -> BoardTables:
    """The bitboard tables of a shape (computed once); ``ties``: EngineConfig's
    ``bitboard_branch_ties``."""
    n, cells = shape.size, shape.ncells
    width = n + 1
    cell_low = sum(1 << (k * width) for k in range(n * n))
    low = cell_low * sum(1 << (k * n * n * width) for k in range(LAYOUTS))
    chunk = (1 << n) - 1
    pos = _positions(shape)
    index = [-1] * (LAYOUTS * n * n * width)
    for i, spots in enumerate(pos):
        for spot in spots:
            index[spot] = i
    return BoardTables(
        size=n,
        cells=cells,
        ties=ties,
        guard=low << n,
        low=low,
        cell_guard=cell_low << n,
        cell_low=cell_low,
        cell_bits=cell_low * chunk,
        chunk=chunk,
        keep=tuple(_keep(shape, pos, low * chunk)),
        marks=tuple(sum(1 << ((s // width + 1) * width - 1) for s in spots) for spots in pos),
        index=tuple(index),
        full=(low * chunk, 0),
        peers_low=tuple(sum(1 << (p * width) for p in shape.peers[c]) for c in range(cells)),
    )


def place(board: Board, i: int, t: BoardTables) -> Board:
    """The board with value × cells + cell i placed (not yet propagated)."""
    return board[0] & t.keep[i], board[1]


def settle(board: Board, t: BoardTables) -> Board | None:
    """Place naked and hidden singles until none is new; None on a contradiction."""
    guard, low, n, chunk = t.guard, t.low, t.size, t.chunk
    keep, index, marks = t.keep, t.index, t.marks
    z, seen = board
    while True:
        lowered = (z | guard) - low
        if lowered & guard != guard:
            return None  # an empty cell, or a value with no place in a unit
        single = guard & ~(((lowered & z) | guard) - low)
        fresh = single & ~seen
        if not fresh:
            return z, seen
        seen = single
        bits = z & ((fresh >> n) * chunk)
        new_places = set()  # a single is often found in two layouts at once
        while bits:
            top = bits.bit_length() - 1
            new_places.add(index[top])
            bits ^= 1 << top
        for i in new_places:
            z &= keep[i]
            seen |= marks[i]  # its chunks in the other layouts are seen too


def pick_cell(board: Board, t: BoardTables) -> int:
    """A cell with the fewest candidates, or -1 when all are placed.

    Among two-candidate cells, the best by _pair_score of the first ``t.ties`` of them.
    """
    guard, low, width = t.cell_guard, t.cell_low, t.size + 1
    x, seen = board[0] & t.cell_bits, board[1] & guard
    if seen == guard:
        return -1
    z = x
    for fewest in range(1, t.size + 1):
        z &= (z | guard) - low  # clear each chunk's lowest bit
        empty = guard & ~((z | guard) - low)  # chunks with at most `fewest` candidates
        hit = empty & ~seen
        if hit:
            if fewest == 2 and hit & (hit - 1):
                return _best_pair(x, hit, t)
            return (hit.bit_length() - 1) // width
        seen |= empty
    return -1


def _best_pair(x: int, hit: int, t: BoardTables) -> int:
    """Of the two-candidate cells (guard bits of `hit`), the first ``t.ties``, the one whose
    values most peers hold, a peer that has two candidates itself counting twice."""
    n, width, peers, chunk = t.size, t.size + 1, t.peers_low, t.chunk
    two_low = hit >> n  # the low bit of every two-candidate cell
    best, best_score = -1, -1
    for _ in range(t.ties):
        if not hit:
            break
        top = hit.bit_length() - 1
        hit ^= 1 << top
        cell = top // width
        values = (x >> (cell * width)) & chunk
        mine = peers[cell]
        tight = mine & two_low
        high = values.bit_length() - 1
        score = 0
        for v in (high, (values ^ (1 << high)).bit_length() - 1):
            score += (x & (mine << v)).bit_count() + (x & (tight << v)).bit_count()
        if score > best_score:
            best, best_score = cell, score
    return best


def search(
    board: Board, t: BoardTables, found: list[Board], limit: int, clock: Clock, budget: list[int]
) -> None:
    """Depth-first search, appending solved boards up to limit.

    budget: nodes left, as a one-item list shared by the whole search; BudgetSpentError
    when it runs out. The clock raises SearchTimeoutError at its deadline.
    """
    clock.left -= 1
    if not clock.left:
        clock.check()
    budget[0] -= 1
    if not budget[0]:
        raise BudgetSpentError
    settled = settle(board, t)
    if settled is None:
        return
    cell = pick_cell(settled, t)
    if cell < 0:
        found.append(settled)
        return
    values = (settled[0] >> (cell * (t.size + 1))) & t.chunk
    while values:
        bit = values & -values
        values ^= bit
        search(
            place(settled, (bit.bit_length() - 1) * t.cells + cell, t),
            t,
            found,
            limit,
            clock,
            budget,
        )
        if len(found) >= limit:
            return


def initial_board(values: Sequence[int], t: BoardTables) -> Board:
    """The board with the givens placed (0 is empty), not yet propagated."""
    board = t.full
    for cell, v in enumerate(values):
        if v:
            board = place(board, (v - 1) * t.cells + cell, t)
    return board


def decode(board: Board, t: BoardTables) -> list[int]:
    """The values of a solved board."""
    x, width = board[0] & t.cell_bits, t.size + 1
    return [((x >> (c * width)) & t.chunk).bit_length() for c in range(t.cells)]


def find_solutions(
    values: Sequence[int], shape: Shape, limit: int, clock: Clock, budget: int, ties: int
) -> list[list[int]]:
    """Up to limit solutions; BudgetSpentError after `budget` nodes; `ties` two-candidate
    cells compared at each branch."""
    t = board_tables(shape, ties)
    found: list[Board] = []
    search(initial_board(values, t), t, found, limit, clock, [budget])
    return [decode(b, t) for b in found]
