"""Random solved grids, a bitmask solution counter, and unique puzzles with symmetric givens."""

from __future__ import annotations

import numpy as np

ALL_DIGITS = 0b1111111110  # bits 1..9


def solved_grid(rng: np.random.Generator) -> np.ndarray:
    """A random valid solved 9×9 grid: the base pattern with shuffled bands, rows and digits."""
    base = np.array([[(3 * (r % 3) + r // 3 + c) % 9 for c in range(9)] for r in range(9)])

    def order() -> list[int]:
        """Indices 0..8 with the three bands shuffled and the three rows inside each band."""
        return [3 * int(b) + int(i) for b in rng.permutation(3) for i in rng.permutation(3)]

    rows, cols = order(), order()
    digits = rng.permutation(9) + 1
    grid = digits[base[np.ix_(rows, cols)]]
    return np.ascontiguousarray(grid.T if rng.random() < 0.5 else grid).astype(np.int64)


def count_solutions(grid: np.ndarray, limit: int = 2) -> int:
    """Number of solutions of a 9×9 puzzle (0 = empty cell), counted up to `limit`."""
    rows, cols, boxes = [0] * 9, [0] * 9, [0] * 9
    empty: list[tuple[int, int, int]] = []
    for r in range(9):
        for c in range(9):
            value, b = int(grid[r, c]), (r // 3) * 3 + c // 3
            if value == 0:
                empty.append((r, c, b))
                continue
            bit = 1 << value
            if (rows[r] | cols[c] | boxes[b]) & bit:
                return 0
            rows[r], cols[c], boxes[b] = rows[r] | bit, cols[c] | bit, boxes[b] | bit
    return _count(empty, rows, cols, boxes, limit)


def _count(
    empty: list[tuple[int, int, int]],
    rows: list[int],
    cols: list[int],
    boxes: list[int],
    limit: int,
) -> int:
    """Backtracking solution counter on bitmasks, most constrained cell first."""
    if not empty:
        return 1
    best, best_free, best_n = 0, 0, 10
    for i, (r, c, b) in enumerate(empty):
        free = ALL_DIGITS & ~(rows[r] | cols[c] | boxes[b])
        n = free.bit_count()
        if n < best_n:
            best, best_free, best_n = i, free, n
            if n <= 1:
                break
    r, c, b = empty[best]
    rest = empty[:best] + empty[best + 1 :]
    total = 0
    while best_free and total < limit:
        bit = best_free & -best_free
        best_free ^= bit
        rows[r], cols[c], boxes[b] = rows[r] | bit, cols[c] | bit, boxes[b] | bit
        total += _count(rest, rows, cols, boxes, limit - total)
        rows[r], cols[c], boxes[b] = rows[r] ^ bit, cols[c] ^ bit, boxes[b] ^ bit
    return total


def make_puzzle(rng: np.random.Generator, clues: int) -> tuple[np.ndarray, np.ndarray]:
    """A puzzle with a unique solution and about `clues` givens (symmetric), and its solution."""
    solution = solved_grid(rng)
    puzzle = solution.copy()
    for cell in rng.permutation(41):
        if np.count_nonzero(puzzle) <= clues:
            break
        pair = [divmod(int(cell), 9), divmod(80 - int(cell), 9)]
        saved = [puzzle[rc] for rc in pair]
        for rc in pair:
            puzzle[rc] = 0
        if count_solutions(puzzle) != 1:
            for rc, value in zip(pair, saved, strict=True):
                puzzle[rc] = value
    return puzzle, solution
