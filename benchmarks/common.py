"""What every benchmark script shares: how it takes arguments and how it writes JSON.

from sudokucam.benchmarks.common import json_text, script_parser

parser = script_parser(__doc__)        # --help: the docstring's first paragraph, then the rest
print(json_text(rows))                 # dataclasses, numpy numbers and paths as JSON
lines = markdown_table(["set", "ms"], "lr", [("top95", "1.02")])  # a results table

The photo benchmarks of one grid kind (small_photo_eval.py, sixteen_photo_eval.py) share
their options (``add_photo_options``, ``parse_photo_args``) and their loop: each photo
read and judged, a progress line, then the table and the photos not all right
(``judge_photos``), the 9×9 check and the JSON (``finish_photos``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar


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


class JudgedPhoto(Protocol):
    """A photo read and judged by a photo benchmark: was its grid found, every cell read
    right, the true answer given, and what the reader said."""

    @property
    def found(self) -> bool:
        """The grid (of the right size) was found."""

    @property
    def cells(self) -> bool:
        """Every cell was read right."""

    @property
    def solved(self) -> bool:
        """The true answer was given."""

    @property
    def message(self) -> str:
        """The reader's message."""


Judged = TypeVar("Judged", bound=JudgedPhoto)


def add_photo_options(
    parser: argparse.ArgumentParser, count: tuple[int, str], seed: int, splits: Sequence[str]
) -> None:
    """The options of a photo benchmark: ``--count`` (default and help), ``--seed``, the
    9×9 check (``--nine``, ``--per-kind``, ``--split`` of ``splits``) and ``--json``."""
    parser.add_argument("--count", type=int, default=count[0], help=count[1])
    parser.add_argument("--seed", type=int, default=seed, help="first seed")
    parser.add_argument("--nine", action="store_true", help="also check 9×9 photos stay 9×9")
    parser.add_argument("--per-kind", type=int, default=4, help="rendered 9×9 photos per kind")
    parser.add_argument("--split", choices=splits, default="validation",
                        help="the dataset's photos --nine reads (default validation)")  # fmt: skip
    parser.add_argument("--json", type=Path, default=None, help="also write every outcome here")


def add_pen_options(parser: argparse.ArgumentParser, fill: float = 0.0, mistakes: int = 1) -> None:
    """The options of a benchmark whose pages may be half solved in pen: ``--pen-fill``
    (the share of the empty cells written in; 0: none) and ``--pen-mistakes`` (how many
    of them are wrong), with these defaults."""
    fill_help = f"share of each page's empty cells written in pen (0: none; default {fill:g})"
    mistakes_help = f"how many pen entries are wrong (with --pen-fill; default {mistakes})"
    parser.add_argument("--pen-fill", type=float, default=fill, help=fill_help)
    parser.add_argument("--pen-mistakes", type=int, default=mistakes, help=mistakes_help)


def add_killer_styles(parser: argparse.ArgumentParser, styles: Sequence[str]) -> None:
    """``--styles``: the Killer cage styles drawn in turn (any of ``styles``; default the
    first four, those the renderer draws at random)."""
    parser.add_argument(
        "--styles",
        nargs="+",
        choices=list(styles),
        default=list(styles[:4]),
        help="cage styles, in turn (default: the four drawn at random)",
    )


def parse_photo_args(parser: argparse.ArgumentParser) -> argparse.Namespace:
    """The command line parsed, a negative ``--count`` or ``--per-kind`` refused."""
    args = parser.parse_args()
    if args.count < 0 or args.per_kind < 0:
        parser.error("--count and --per-kind must be at least 0")
    return args


def judge_photos(
    reads: Iterable[Judged],
    names: tuple[Callable[[Judged], str], Callable[[Judged], str]],
    table: Callable[[list[Judged]], str],
) -> list[Judged]:
    """Each photo's outcome as it comes (``progress: solved=...`` on stderr), then on
    stdout the ``table`` of them all, how many were not all right, and a line for each of
    those (``- label: found=... cells=... solved=...: message``); the outcomes.
    ``names``: the ``progress`` and the ``label`` of an outcome."""
    progress, label = names
    outcomes: list[Judged] = []
    for outcome in reads:
        outcomes.append(outcome)
        print(f"{progress(outcome)}: solved={outcome.solved}", file=sys.stderr)
    if outcomes:
        print(table(outcomes))
        wrong = [o for o in outcomes if not (o.solved and o.cells)]
        print(f"\n{len(outcomes)} photos; not all right: {len(wrong)}")
        for o in wrong:
            print(f"- {label(o)}: found={o.found} cells={o.cells} solved={o.solved}: "
                  f"{o.message}")  # fmt: skip
    return outcomes


def finish_photos(args: argparse.Namespace, outcomes: list[Any], nine: Callable[[], Any]) -> None:
    """The 9×9 check (``nine``) where ``--nine`` asks for it, and every outcome written to
    ``--json`` where given."""
    if args.nine:
        nine()
    if args.json is not None:
        args.json.write_text(json_text(outcomes))
