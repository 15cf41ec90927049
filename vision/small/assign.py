"""The cheapest one-to-one assignment of rows to columns of a cost matrix (the Hungarian
method, O(n² m)): a 16×16's glyph groups named as symbols (``symbols.py``) in one go.
A few dozen lines here rather than SciPy as a dependency."""

from __future__ import annotations

import numpy as np

INF = float("inf")


def assignment(cost: np.ndarray) -> tuple[int, ...]:
    """The column given to each row (all different) for the least total cost of an
    (n, m) matrix, n <= m, of finite costs."""
    if cost.ndim != 2 or cost.shape[0] > cost.shape[1]:
        raise ValueError(f"cost must be an (n, m) matrix with n <= m, got shape {cost.shape}")
    if not np.isfinite(cost).all():
        raise ValueError("cost must be finite")
    n, m = cost.shape
    a = [[0.0] * (m + 1)] + [[0.0, *map(float, row)] for row in cost]
    u, v = [0.0] * (n + 1), [0.0] * (m + 1)
    owner, way = [0] * (m + 1), [0] * (m + 1)  # owner[j]: the row holding column j (0: none)
    for row in range(1, n + 1):
        owner[0] = row
        free = augmenting_path(a, u, v, owner, way)
        while free:  # flip the path's columns back to the new row
            back = way[free]
            owner[free] = owner[back]
            free = back
    out = [0] * n
    for j in range(1, m + 1):
        if owner[j]:
            out[owner[j] - 1] = j - 1
    return tuple(out)


def augmenting_path(
    a: list[list[float]], u: list[float], v: list[float], owner: list[int], way: list[int]
) -> int:
    """Grow the shortest augmenting path from the row in ``owner[0]`` (potentials ``u``,
    ``v`` kept feasible, ``way`` the path's steps); the free column it ends in."""
    m = len(v) - 1
    least, used = [INF] * (m + 1), [False] * (m + 1)
    j0 = 0
    while True:
        used[j0] = True
        i0, delta, j1 = owner[j0], INF, 0
        for j in range(1, m + 1):
            if used[j]:
                continue
            cur = a[i0][j] - u[i0] - v[j]
            if cur < least[j]:
                least[j], way[j] = cur, j0
            if least[j] < delta:
                delta, j1 = least[j], j
        for j in range(m + 1):
            if used[j]:
                u[owner[j]] += delta
                v[j] -= delta
            else:
                least[j] -= delta
        j0 = j1
        if owner[j0] == 0:
            return j0
