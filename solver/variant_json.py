"""A typed variant puzzle as a JSON object, and back (the `sudokucam grid FILE.json` contract).

    {"size": 9, "variant": "killer", "givens": "....",   (size² symbols, '.' empty)
     "symbols": "123456789", "regions": ["111222333", ...], "diagonals": false,
     "cages": [{"sum": 15, "cells": ["r1c1", "r1c2"]}, ...]}

Every key but one of "givens" or "cages" may be left out: "size" follows from the givens,
"variant" from what is given (cages: killer, regions: jigsaw, diagonals: x), "symbols" is
1-9 then A.. ("0123456789ABCDEF" and "ABCDEFGHIJKLMNOP" also work for 16×16).
"givens" and "regions" are one string (spaces and line breaks ignored) or a list of row
strings; region labels are any characters (or a list of rows of numbers). A mistake raises
VariantError naming the key, cage, region or cell. `load_puzzle_json` reads the text
itself (a UTF-8 byte-order mark, JSON nested too deep and numbers too long included: each a
VariantError, never another exception), and takes the JSON that `sudokucam read`, `solve`
and `check` print for a photo of one grid as the puzzle of that grid.
"""

from __future__ import annotations

import json
from typing import Any

from .geometry import BOX_SHAPES
from .grid import SYMBOLS
from .variant import Cage, Variant, VariantError, VariantPuzzle, parse_cell, shown

KEYS = frozenset({"size", "variant", "givens", "symbols", "regions", "diagonals", "cages"})
ECHOED = frozenset({"puzzle", "status", "solutions", "conflicts", "message"})  # --json output
EMPTY = frozenset("._-")
MAX_DIGITS = 18  # a longer whole number is no size, sum or label a puzzle can hold
PHOTO_KEYS = frozenset({"image", "grids"})  # a photo object of `read --json`
# The keys of a photo's grid that make the puzzle ("regions" too, for a jigsaw): its
# other keys (the cells read, the answer, the check) are what the photo showed.
GRID_KEYS = ("size", "variant", "symbols", "givens", "diagonals", "cages")


class NotJsonError(VariantError):
    """The text is not JSON at all (rather than JSON that is no puzzle)."""


def load_puzzle_json(text: str) -> VariantPuzzle:
    """The puzzle a JSON text describes: a typed puzzle, or a photo's JSON of one grid.
    An object with neither givens nor cages (``{}``) is no puzzle a person typed."""
    doc = parse_json(text)
    puzzle = puzzle_from_json(doc)
    if isinstance(doc, dict) and not {"givens", "puzzle", "cages", "grids"} & set(doc):
        raise VariantError(
            'the puzzle has no "givens" (nor "cages", for a Killer): '
            "give the printed values, '.' for an empty cell"
        )
    return puzzle


def parse_json(text: str) -> Any:
    """The JSON document of a text (a leading byte-order mark skipped); VariantError when
    it nests too deep or holds a number too long, NotJsonError when it is not JSON."""
    try:
        return json.loads(text.lstrip("\ufeff"), parse_int=_whole_number)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise NotJsonError(f"not valid JSON ({exc.msg} at {where})") from None
    except RecursionError:
        raise VariantError("the JSON is nested too deeply to be a puzzle") from None


def _whole_number(digits: str) -> int:
    """A JSON whole number, refused when longer than any puzzle needs."""
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise VariantError(
            f"a number of {len(digits)} digits ({digits[:12]}...) is too long for any "
            "size, sum or label"
        )
    return int(digits)


def puzzle_from_json(doc: Any) -> VariantPuzzle:
    """The puzzle a JSON object describes, checked; VariantError names what is wrong.

    The JSON of a photo of one grid (`read --json`'s list, `solve`/`check --json`'s
    object, or one of its grids) is taken as that grid's puzzle."""
    doc = _one_grid(doc)
    if not isinstance(doc, dict):
        raise VariantError(f"a puzzle is a JSON object; got {_json_type(doc)}")
    unknown = sorted(set(doc) - KEYS - ECHOED)
    if unknown:
        raise VariantError(
            f"unknown key {shown(unknown[0])}; a puzzle has {', '.join(sorted(KEYS))}"
        )
    size = _size(doc)
    symbols = _symbols(doc.get("symbols"), size)
    givens = _givens(doc.get("givens", doc.get("puzzle")), size, symbols)
    regions = _regions(doc.get("regions"), size)
    diagonals = doc.get("diagonals", doc.get("variant") == Variant.X.value)
    if not isinstance(diagonals, bool):
        raise VariantError(f'"diagonals" must be true or false; got {shown(diagonals)}')
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


def _one_grid(doc: Any) -> Any:
    """The puzzle object within a photo's JSON (a list of one photo, a photo of one grid,
    or a grid read from a photo), or the document itself when it is none of these."""
    if isinstance(doc, list):
        if len(doc) != 1:
            raise VariantError(
                f"a puzzle is a JSON object; got a list of {len(doc)} items "
                "(a photo's JSON is taken when it holds one photo of one grid)"
            )
        doc = doc[0]
    if isinstance(doc, dict) and set(doc) >= PHOTO_KEYS:
        doc = _photo_grid(doc)
    if isinstance(doc, dict) and "corners" in doc and "givens" in doc:
        grid = {k: doc[k] for k in GRID_KEYS if k in doc}
        if doc.get("variant") == Variant.JIGSAW.value and "regions" in doc:
            grid["regions"] = doc["regions"]
        return grid
    return doc


def _photo_grid(photo: dict[str, Any]) -> Any:
    """The one grid of a photo's JSON; VariantError when it holds none or several."""
    grids = photo["grids"]
    name = shown(photo["image"])
    if not isinstance(grids, list):
        raise VariantError(f'the photo {name}\'s "grids" must be a list of grids')
    if not grids:
        why = f": {photo['error']}" if isinstance(photo.get("error"), str) else ""
        raise VariantError(f"the photo {name} has no grid read{why}")
    if len(grids) > 1:
        raise VariantError(
            f'the photo {name} has {len(grids)} grids: keep the one to solve in "grids"'
        )
    return grids[0]


def _json_type(value: Any) -> str:
    """A JSON value's kind in JSON's words (a list, a string, a number)."""
    kinds = {list: "a list", str: "a string", bool: "true or false", type(None): "null"}
    return kinds.get(type(value), "a number")


def _size(doc: dict[str, Any]) -> int:
    """The size given, or the one the givens' length implies (9 for a Killer without them)."""
    size = doc.get("size")
    if size is None:
        text = _joined(doc.get("givens", doc.get("puzzle")), "givens")
        size = round(len(text) ** 0.5) if text else 9
    if not isinstance(size, int) or isinstance(size, bool) or size not in BOX_SHAPES:
        known = ", ".join(map(str, BOX_SHAPES))
        raise VariantError(f'"size" must be one of {known}; got {shown(size)}')
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
            raise VariantError(f"{where}: {ch!r} is not one of the symbols {shown(symbols)}")
    return tuple(values)


def _regions(value: Any, size: int) -> tuple[int, ...]:
    """Region numbers (0-based, in order of first appearance), or () for boxes."""
    if value is None:
        return ()
    labels: list[Any]
    if isinstance(value, list) and value and all(isinstance(row, list) for row in value):
        labels = [x for row in value for x in row]
        odd = [x for x in labels if isinstance(x, bool) or not isinstance(x, (str, int))]
        if odd:
            raise VariantError(
                f'"regions" labels are letters or whole numbers; got {shown(odd[0])}'
            )
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
            raise VariantError(f'cage {i}: "sum" must be a whole number; got {shown(total)}')
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
        raise VariantError(f'"variant" must be one of {known}; got {shown(value)}') from None
