"""What every benchmark script shares: how it takes arguments and how it writes JSON.

from sudokucam.benchmarks.common import json_text, script_parser

parser = script_parser(__doc__)        # --help: the docstring's first paragraph, then the rest
print(json_text(rows))                 # dataclasses, numpy numbers and paths as JSON
lines = markdown_table(["set", "ms"], "lr", [("top95", "1.02")])  # a results table
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any


def script_parser(doc: str | None) -> argparse.ArgumentParser:
    """An argument parser whose ``--help`` shows the script's docstring as written: its
    first paragraph above the options, the rest (usage examples, what is measured) below."""
    head, _, rest = (doc or "").strip().partition("\n\n")
    return argparse.ArgumentParser(
        description=head,
        epilog=rest or None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def _plain(value: Any) -> Any:
    """A JSON-ready form of what ``json`` cannot write itself."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, Path):
        return str(value)
    if hasattr(value, "tolist"):  # numpy arrays and numbers
        return value.tolist()
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def json_text(data: Any) -> str:
    """``data`` as indented JSON text (one space per level), ending in a newline."""
    return json.dumps(data, indent=1, default=_plain) + "\n"


def markdown_table(
    columns: Sequence[str], align: str, rows: Iterable[Sequence[object]]
) -> list[str]:
    """The lines of a Markdown table: the header, the rule (``align`` has an "l" or "r"
    per column), and a line per row of already formatted cells."""
    if len(align) != len(columns) or set(align) - {"l", "r"}:
        raise ValueError(f"align must hold one 'l' or 'r' per column, got {align!r}")
    rule = "|" + "|".join("---" if a == "l" else "---:" for a in align) + "|"
    cells = [[str(c) for c in row] for row in rows]
    return ["| " + " | ".join(columns) + " |", rule, *("| " + " | ".join(r) + " |" for r in cells)]
