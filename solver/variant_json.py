"""A typed variant puzzle as a JSON object, and back (the `sudokucam grid FILE.json` contract).

    {"size": 9, "variant": "killer", "givens": "....",   (size² symbols, '.' empty)
     "symbols": "123456789", "regions": ["111222333", ...], "diagonals": false,
     "cages": [{"sum": 15, "cells": ["r1c1", "r1c2"]}, ...]}

Every key but one of "givens" or "cages" may be left out: "size" follows from the givens,
"variant" from what is given (cages: killer, regions: jigsaw, diagonals: x), "symbols" is
1-9 then A.. ("0123456789ABCDEF" and "ABCDEFGHIJKLMNOP" also work for 16×16).
"givens" and "regions" are one string (spaces and line breaks ignored) or a list of row
strings; region labels are any characters (or a list of rows of numbers). A mistake raises
VariantError naming the key, cage, region or cell.
"""

from __future__ import annotations

from typing import Any

from .geometry import BOX_SHAPES
from .grid import SYMBOLS
from .variant import Cage, Variant, VariantError, VariantPuzzle, parse_cell

KEYS = frozenset({"size", "variant", "givens", "symbols", "regions", "diagonals", "cages"})
ECHOED = frozenset({"puzzle", "status", "solutions", "conflicts", "message"})  # --json output
EMPTY = frozenset("._-")


def puzzle_from_json(doc: Any) -> VariantPuzzle:
    """The puzzle a JSON object describes, checked; VariantError names what is wrong."""
    if not isinstance(doc, dict):
        raise VariantError(f"a puzzle is a JSON object; got {type(doc).__name__}")
    unknown = sorted(set(doc) - KEYS - ECHOED)
    if unknown:
        raise VariantError(f"unknown key {unknown[0]!r}; a puzzle has {', '.join(sorted(KEYS))}")
    size = _size(doc)
    symbols = _symbols(doc.get("symbols"), size)
    givens = _givens(doc.get("givens", doc.get("puzzle")), size, symbols)
    regions = _regions(doc.get("regions"), size)
    diagonals = doc.get("diagonals", doc.get("variant") == Variant.X.value)
    if not isinstance(diagonals, bool):
        raise VariantError(f'"diagonals" must be true or false; got {diagonals!r}')
    cages = _cages(doc.get("cages"), size)
    variant = _variant(doc.get("variant"), bool(regions), diagonals, bool(cages))
    return VariantPuzzle(size, givens, variant, regions, diagonals, cages, symbols)


def puzzle_to_json(p: VariantPuzzle) -> dict[str, Any]:
    """The puzzle's keys as the contract writes them (cells r1c1-style, regions as rows)."""
    n = p.size
    labels = SYMBOLS
    return {
        "size": n,
        "variant": p.variant.value,
        "symbols": p.symbols,
        "givens": p.write(p.givens),
        "regions": ["".join(labels[p.regions[r * n + c]] for c in range(n)) for r in range(n)]
        if p.regions
        else None,
        "diagonals": p.diagonals,
        "cages": [{"sum": k.total, "cells": [p.cell_name(c) for c in k.cells]} for k in p.cages],
    }


def _size(doc: dict[str, Any]) -> int:
    """The size given, or the one the givens' length implies (9 for a Killer without them)."""
    size = doc.get("size")
    if size is None:
        text = _joined(doc.get("givens", doc.get("puzzle")), "givens")
        size = round(len(text) ** 0.5) if text else 9
    if not isinstance(size, int) or isinstance(size, bool) or size not in BOX_SHAPES:
        raise VariantError(f'"size" must be one of {", ".join(map(str, BOX_SHAPES))}; got {size!r}')
    return size


def _joined(value: Any, key: str) -> str:
    """A string, or a list of row strings, as one string without whitespace."""
    if value is None:
        return ""
    if isinstance(value, list) and all(isinstance(row, str) for row in value):
        value = "".join(value)
    if not isinstance(value, str):
        raise VariantError(f'"{key}" must be a string or a list of row strings')
    return "".join(value.split())


def _symbols(value: Any, size: int) -> str:
    """The symbols given, or 1-9 then A.. for the size."""
    if value is None:
        return SYMBOLS[:size]
    if not isinstance(value, str):
        raise VariantError(f'"symbols" must be a string such as "{SYMBOLS[:size]}"')
    return value


def _givens(value: Any, size: int, symbols: str) -> tuple[int, ...]:
    """The givens as values (0 empty); an empty grid when none are given."""
    text = _joined(value, "givens")
    if not text:
        return (0,) * (size * size)
    if len(text) != size * size:
        raise VariantError(
            f'"givens" has {len(text)} cells; a {size}×{size} puzzle needs {size * size}'
        )
    empty = EMPTY | ({"0"} if "0" not in symbols else set())
    values = []
    for c, ch in enumerate(text):
        if ch in empty:
            values.append(0)
        elif ch.upper() in symbols.upper():
            values.append(symbols.upper().index(ch.upper()) + 1)
        else:
            where = f"r{c // size + 1}c{c % size + 1}"
            raise VariantError(f"{where}: {ch!r} is not one of the symbols {symbols!r}")
    return tuple(values)


def _regions(value: Any, size: int) -> tuple[int, ...]:
    """Region numbers (0-based, in order of first appearance), or () for boxes."""
    if value is None:
        return ()
    labels: list[Any]
    if isinstance(value, list) and value and all(isinstance(row, list) for row in value):
        labels = [x for row in value for x in row]
    else:
        labels = list(_joined(value, "regions"))
    if len(labels) != size * size:
        raise VariantError(
            f'"regions" labels {len(labels)} cells; {size}×{size} needs {size * size}'
        )
    names = list(dict.fromkeys(labels))
    if len(names) != size:
        raise VariantError(
            f'"regions" has {len(names)} different labels; {size}×{size} needs {size}'
        )
    return tuple(names.index(x) for x in labels)


def _cages(value: Any, size: int) -> tuple[Cage, ...]:
    """The cages: a list of {"sum": int, "cells": ["r1c1", ...]}."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise VariantError('"cages" must be a list of {"sum": ..., "cells": [...]}')
    cages = []
    for i, item in enumerate(value, start=1):
        if not isinstance(item, dict) or set(item) != {"sum", "cells"}:
            raise VariantError(f'cage {i} must be {{"sum": number, "cells": ["r1c1", ...]}}')
        total, cells = item["sum"], item["cells"]
        if not isinstance(total, int) or isinstance(total, bool):
            raise VariantError(f'cage {i}: "sum" must be a whole number; got {total!r}')
        if not isinstance(cells, list) or not cells:
            raise VariantError(f'cage {i} (sum {total}): "cells" must be a list of cell names')
        cages.append(Cage(total, tuple(parse_cell(c, size) for c in cells)))
    return tuple(cages)


def _variant(value: Any, jigsaw: bool, diagonals: bool, killer: bool) -> Variant:
    """The variant given, or the one the constraints imply."""
    if value is None:
        if killer:
            return Variant.KILLER
        if jigsaw:
            return Variant.JIGSAW
        return Variant.X if diagonals else Variant.CLASSIC
    try:
        return Variant(str(value).lower())
    except ValueError:
        known = ", ".join(v.value for v in Variant)
        raise VariantError(f'"variant" must be one of {known}; got {value!r}') from None
