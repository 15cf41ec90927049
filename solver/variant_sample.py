"""Random Killer, Sudoku X and jigsaw puzzles with exactly one solution (seeded).

Killer: a solved grid is cut into cages of a few cells, side by side, no value twice in a
cage; each cage's sum is what its cells hold. A cutting whose sums leave more than one
solution is thrown away and the grid cut again, so every puzzle made is proved unique.

Sudoku X and jigsaw: a first solution of the empty grid under the rules, its values
shuffled, then clues removed while the puzzle stays unique. A jigsaw layout may have no
solution at all, and proving so can take minutes: every search has a deadline
(``VariantConfig``), and running out of time is a ``GenerationTimeoutError``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from .errors import SearchTimeoutError
from .geometry import Cell, shape_for_size
from .logic.generate import GenerationTimeoutError
from .sample import random_solution
from .variant import Cage, Variant, VariantPuzzle, joined, neighbours
from .variant_search import find_variant_solutions, variant_tables


def check_limits(config: object, seconds: tuple[str, ...], count: str) -> None:
    """ValueError where a field of ``seconds`` is not a positive number of seconds, or the
    field ``count`` is below 1."""
    for name in seconds:
        if not getattr(config, name) > 0:
            raise ValueError(f"{name} must be a positive number of seconds")
    if getattr(config, count) < 1:
        raise ValueError(f"{count} must be at least 1; got {getattr(config, count)}")


@dataclass(frozen=True)
class KillerConfig:
    """How random Killers are cut.

    cage_sizes: drawn per cage, as printed.
    tries: cuttings tried before giving up.
    seconds_per_try: a cutting whose uniqueness proof takes longer is thrown away.
    time_limit_s: give up on one Killer after this long in all, whatever it is doing
    (``tries`` × ``seconds_per_try`` alone can be minutes).
    """

    cage_sizes: tuple[int, ...] = (2, 2, 2, 3, 3, 3, 4, 4, 5)
    tries: int = 200
    seconds_per_try: float = 2.0
    time_limit_s: float = 20.0

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        check_limits(self, ("time_limit_s", "seconds_per_try"), "tries")


@dataclass(frozen=True)
class VariantConfig:
    """How random Sudoku X and jigsaw puzzles are made.

    time_limit_s: give up on one puzzle after this long, whatever it is doing.
    layouts: random jigsaw layouts tried before giving up (a layout may have no solution).
    layout_seconds: how long a layout's first solution is searched for before the layout
    is thrown away (one without any solution can take minutes to prove so).
    """

    time_limit_s: float = 20.0
    layouts: int = 20
    layout_seconds: float = 1.0

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        check_limits(self, ("time_limit_s", "layout_seconds"), "layouts")


def random_killer(
    rng: random.Random, size: int = 9, config: KillerConfig | None = None
) -> tuple[VariantPuzzle, tuple[int, ...]]:
    """A Killer without givens and its solution.

    ValueError when none of ``config.tries`` cuttings was unique; GenerationTimeoutError
    past ``config.time_limit_s`` in all.
    """
    cfg = config or KillerConfig()
    deadline = time.monotonic() + cfg.time_limit_s
    solution = random_solution(shape_for_size(size), rng).values
    for _ in range(cfg.tries):
        now = time.monotonic()
        if now >= deadline:
            break
        cages = cut_cages(solution, size, rng, cfg.cage_sizes)
        puzzle = VariantPuzzle(size, (0,) * size * size, Variant.KILLER, cages=cages)
        vt = variant_tables(size, (), False, cages)
        try:
            found = find_variant_solutions(
                puzzle.givens, vt, 2, min(now + cfg.seconds_per_try, deadline)
            )
        except SearchTimeoutError:
            continue
        if len(found) == 1:
            return puzzle, solution
    if time.monotonic() >= deadline:
        raise GenerationTimeoutError(
            f"no {size}×{size} Killer was made in {cfg.time_limit_s:g} s (no cutting tried "
            "by then had one solution); try another seed or allow more time"
        )
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
    config: VariantConfig | None = None,
) -> tuple[VariantPuzzle, tuple[int, ...]] | None:
    """A unique X or jigsaw puzzle with clues removed in random order while it stays unique
    (down to min_clues at least), and its solution; None when the layout has no solution.

    GenerationTimeoutError past ``config.time_limit_s`` (a layout without a solution can
    take minutes to prove so: ``random_jigsaw`` throws such layouts away sooner).
    """
    cfg = config or VariantConfig()
    deadline = time.monotonic() + cfg.time_limit_s
    vt = variant_tables(size, regions, diagonals, ())
    found = _before(deadline, cfg, lambda d: find_variant_solutions((0,) * size * size, vt, 1, d))
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
        if len(_before(deadline, cfg, lambda d: find_variant_solutions(values, vt, 2, d))) != 1:
            values[cell] = kept
            clues += 1
    puzzle = VariantPuzzle(size, tuple(values), variant, regions, diagonals)
    return puzzle, solution


def _before(
    deadline: float, cfg: VariantConfig, search: Callable[[float], list[list[int]]]
) -> list[list[int]]:
    """The solutions ``search`` finds by the deadline; GenerationTimeoutError past it."""
    try:
        return search(deadline)
    except SearchTimeoutError:
        raise GenerationTimeoutError(
            f"no puzzle was made in {cfg.time_limit_s:g} s (the search for its solutions "
            "ran out of time); try another seed or allow more time"
        ) from None


def random_jigsaw(
    rng: random.Random, size: int = 9, min_clues: int = 0, config: VariantConfig | None = None
) -> tuple[VariantPuzzle, tuple[int, ...]]:
    """A unique jigsaw on random regions and its solution: new regions until a layout's
    first solution is found within ``config.layout_seconds``.

    GenerationTimeoutError after ``config.layouts`` layouts without one, or past
    ``config.time_limit_s`` in all.
    """
    cfg = config or VariantConfig()
    deadline = time.monotonic() + cfg.time_limit_s
    for _ in range(cfg.layouts):
        regions = random_regions(size, rng)
        left = deadline - time.monotonic()
        if left <= 0:
            break
        if not layout_solvable(regions, min(cfg.layout_seconds, left)):
            continue
        rest = replace(cfg, time_limit_s=max(deadline - time.monotonic(), 1e-3))
        made = random_variant(rng, size, Variant.JIGSAW, regions, min_clues=min_clues, config=rest)
        if made is not None:
            return made
    raise GenerationTimeoutError(
        f"no jigsaw layout with a solution was found ({cfg.layouts} layouts tried, "
        f"{cfg.layout_seconds:g} s each, {cfg.time_limit_s:g} s in all); try another seed"
    )


def layout_solvable(regions: tuple[int, ...], seconds: float) -> bool:
    """Whether an empty grid of these jigsaw regions is completed within ``seconds``
    (False past them)."""
    size = round(len(regions) ** 0.5)
    tables = variant_tables(size, regions, False, ())
    try:
        return bool(
            find_variant_solutions((0,) * len(regions), tables, 1, time.monotonic() + seconds)
        )
    except SearchTimeoutError:
        return False
