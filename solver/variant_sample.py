"""Random Killer puzzles with exactly one solution, for tests and benchmarks (seeded).

A solved grid is cut into cages of a few cells, side by side, no value twice in a cage;
each cage's sum is what its cells hold. A cutting whose sums leave more than one solution
is thrown away and the grid cut again, so every puzzle made is proved unique.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from .errors import SearchTimeoutError
from .geometry import Cell, shape_for_size
from .sample import random_solution
from .variant import Cage, Variant, VariantPuzzle, joined, neighbours
from .variant_search import find_variant_solutions, variant_tables


@dataclass(frozen=True)
class KillerConfig:
    """How random Killers are cut."""

    cage_sizes: tuple[int, ...] = (2, 2, 2, 3, 3, 3, 4, 4, 5)  # drawn per cage, as printed
    tries: int = 200  # cuttings tried before giving up
    seconds_per_try: float = 2.0  # a cutting whose proof takes longer is thrown away


def random_killer(
    rng: random.Random, size: int = 9, config: KillerConfig | None = None
) -> tuple[VariantPuzzle, tuple[int, ...]]:
    """A Killer without givens and its solution; ValueError when no cutting was unique."""
    cfg = config or KillerConfig()
    solution = random_solution(shape_for_size(size), rng).values
    for _ in range(cfg.tries):
        cages = cut_cages(solution, size, rng, cfg.cage_sizes)
        puzzle = VariantPuzzle(size, (0,) * size * size, Variant.KILLER, cages=cages)
        vt = variant_tables(size, (), False, cages)
        try:
            found = find_variant_solutions(
                puzzle.givens, vt, 2, time.monotonic() + cfg.seconds_per_try
            )
        except SearchTimeoutError:
            continue
        if len(found) == 1:
            return puzzle, solution
    raise ValueError(f"no unique {size}×{size} Killer found in {cfg.tries} cuttings")


def cut_cages(
    solution: tuple[int, ...], size: int, rng: random.Random, sizes: tuple[int, ...]
) -> tuple[Cage, ...]:
    """Cut a solved grid into cages grown from random cells, no value twice in a cage."""
    owner: dict[Cell, int] = {}
    cages: list[list[Cell]] = []
    order = list(range(size * size))
    rng.shuffle(order)
    for start in order:
        if start in owner:
            continue
        cells, held, want = [start], {solution[start]}, rng.choice(sizes)
        owner[start] = len(cages)
        while len(cells) < want:
            free = [
                m
                for c in cells
                for m in neighbours(c, size)
                if m not in owner and solution[m] not in held
            ]
            if not free:
                break
            m = rng.choice(free)
            cells.append(m)
            held.add(solution[m])
            owner[m] = len(cages)
        cages.append(sorted(cells))
    cages.sort()
    return tuple(Cage(sum(solution[c] for c in cells), tuple(cells)) for cells in cages)


def random_regions(size: int, rng: random.Random, swaps: int = 60) -> tuple[int, ...]:
    """Jigsaw regions: the boxes, bent by swapping neighbouring cells of two regions while
    both stay in one piece."""
    regions = list(shape_for_size(size).units[2 * size :])
    label = [0] * (size * size)
    for k, cells in enumerate(regions):
        for c in cells:
            label[c] = k
    done = 0
    while done < swaps:
        a = rng.randrange(size * size)
        b = rng.choice(list(neighbours(a, size)))
        x = rng.choice([c for c in range(size * size) if label[c] == label[b] and c != b])
        if label[a] == label[b] or not _swap_keeps_pieces(label, a, x, size):
            continue
        label[a], label[x] = label[x], label[a]  # a joins b's region, x joins a's
        done += 1
    return tuple(label)


def _swap_keeps_pieces(label: list[int], a: Cell, x: Cell, size: int) -> bool:
    """Whether swapping the regions of cells a and x leaves both regions in one piece."""
    trial = label[:]
    trial[a], trial[x] = trial[x], trial[a]
    for k in (trial[a], trial[x]):
        cells = [c for c in range(size * size) if trial[c] == k]
        if not joined(cells, size):
            return False
    return True


def random_variant(
    rng: random.Random,
    size: int,
    variant: Variant,
    regions: tuple[int, ...] = (),
    diagonals: bool = False,
    min_clues: int = 0,
) -> tuple[VariantPuzzle, tuple[int, ...]] | None:
    """A unique X or jigsaw puzzle with clues removed in random order while it stays unique
    (down to min_clues at least), and its solution; None when the layout has no solution."""
    vt = variant_tables(size, regions, diagonals, ())
    found = find_variant_solutions((0,) * (size * size), vt, 1)
    if not found:
        return None
    perm = list(range(1, size + 1))
    rng.shuffle(perm)
    solution = tuple(perm[v - 1] for v in found[0])
    values = list(solution)
    order = list(range(size * size))
    rng.shuffle(order)
    clues = size * size
    for cell in order:
        if clues <= min_clues:
            break
        kept, values[cell] = values[cell], 0
        clues -= 1
        if len(find_variant_solutions(values, vt, 2)) != 1:
            values[cell] = kept
            clues += 1
    puzzle = VariantPuzzle(size, tuple(values), variant, regions, diagonals)
    return puzzle, solution
