"""Where a batch keeps its results: one record file per work unit, written atomically.

Layout of the output folder::

    results.jsonl        one JSON object per grid, per page without a grid, per failed input
                         and per skipped file
    summary.csv          the same rows as a table
    solved/              the solved images, one per grid: <stem>_p<page>_g<grid>.png
                         (demo_p1_g1.png); inputs whose stems clash get -2, -3, ...
    .batch/units/        one record per finished work unit (the resume state; a unit that
                         failed on an unexpected exception keeps its traceback there)

Each file is written to a temporary name in the same folder, flushed to disk and renamed
over its final name, so a reader (or a resumed batch) sees a whole file or none; a write
that fails (a full disk: ``OutOfSpaceError``) removes its temporary file. A unit
counts as done only when its record parses, names the same unit key, and every solved
image it lists exists: the images are written before the record, so a batch killed in
between simply reads that unit again. results.jsonl and summary.csv are rebuilt from the
records, in input order, so a unit is never listed twice; the batch rewrites them as
units finish (see ``run.TableRefreshConfig``), so a killed batch leaves them whole.

Image names depend only on the set of inputs (``source_stems``), never on the order pages
finish, so a resumed batch names its images as an uninterrupted one would.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ...errors import SudokucamError
from ...files import WriteError as StoreWriteError  # a file of the output folder
from ...files import atomic_write
from ...solver.outcome import Outcome
from .inputs import InputFailure, Skipped, WorkUnit

RECORD_VERSION = 1
RESULTS_NAME = "results.jsonl"
SUMMARY_NAME = "summary.csv"
SOLVED_DIR = "solved"
UNITS_DIR = Path(".batch") / "units"
FIRST_COLUMNS = ("source", "page", "grid", "status", "error", "image")
SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")
MAX_STEM = 60  # characters of a source's stem kept in image names
# A spreadsheet runs a cell that starts with one of these as a formula (CSV injection);
# such text cells get a leading apostrophe in summary.csv, as OWASP recommends.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# RFC 4180 line ends: the csv module then also quotes a cell holding a lone CR, which
# would otherwise end the row early.
CSV_LINE_END = "\r\n"

FileKey = tuple[str, int, int]  # WorkUnit.file_key: path, size, modification time

Record = dict[str, Any]


@dataclass(frozen=True)
class GridOutput:
    """One grid a worker read: its JSON record and its solved image (encoded bytes)."""

    record: Record
    image: bytes
    suffix: str = ".png"


@dataclass(frozen=True)
class UnitOutcome:
    """What reading one work unit gave: its grids, or why it has none.

    status: the page's status: "error" when it could not be read (``error`` says why),
    "no_grid" when no grid was found on it, else the status of its first grid.
    timings: milliseconds spent per step on the unit (load, read, draw and total, plus the
    reader's own steps). error_traceback: the full traceback of an unexpected exception
    behind ``error``, kept in the unit's record (not in the result tables). note: how the
    page was read when not as asked (a huge PDF page rendered at a lower resolution).
    """

    unit: WorkUnit
    grids: tuple[GridOutput, ...] = ()
    error: str | None = None
    status: str = "ok"
    timings: Mapping[str, float] = field(default_factory=dict)
    error_traceback: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class StoredUnit:
    """A unit's record as kept on disk: its rows for results.jsonl and the page status."""

    unit: WorkUnit
    rows: tuple[Record, ...]
    status: str

    @property
    def failed(self) -> bool:
        """Whether the unit could not be read at all (as opposed to read with no grid)."""
        return self.status == Outcome.ERROR


class LinkInTheWayError(StoreWriteError):
    """A symbolic link where the batch keeps a file or folder of its own (never followed)."""

    def __init__(self, path: Path) -> None:
        SudokucamError.__init__(
            self, f"{path} is a symbolic link; sudokucam never follows one where it keeps "
            "its own files: remove it"
        )  # fmt: skip
        self.path = path
        self.reason = "a symbolic link is in the way"


def refuse_link(path: Path) -> None:
    """A StoreWriteError when ``path``, a file or folder the batch keeps for itself, is a
    symbolic link: following a planted link would write (or truncate) files elsewhere."""
    if path.is_symlink():
        raise LinkInTheWayError(path)


class BatchStore:
    """The output folder of a batch: commits unit records and rebuilds the result tables."""

    def __init__(self, out: Path) -> None:
        """Create the folder layout under ``out`` if needed."""
        self.out = Path(out)
        self.units_dir = self.out / UNITS_DIR
        self.solved_dir = self.out / SOLVED_DIR
        for folder in (self.out / UNITS_DIR.parent, self.units_dir, self.solved_dir):
            refuse_link(folder)
        self.units_dir.mkdir(parents=True, exist_ok=True)
        self.solved_dir.mkdir(parents=True, exist_ok=True)

    def remove_leftovers(self) -> int:
        """Delete temporary files a killed batch left behind; return how many."""
        removed = 0
        for folder in (self.out, self.units_dir, self.solved_dir):
            for path in folder.glob(".*.tmp"):
                path.unlink(missing_ok=True)
                removed += 1
        return removed

    def record_path(self, unit: WorkUnit) -> Path:
        """Where the record of a unit lives."""
        return self.units_dir / f"{unit.uid}.json"

    def load(self, unit: WorkUnit) -> StoredUnit | None:
        """The stored record of a unit if it is complete and valid, else None."""
        try:
            raw = json.loads(self.record_path(unit).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(raw, dict) or raw.get("version") != RECORD_VERSION:
            return None
        if raw.get("unit") != asdict(unit) or not isinstance(raw.get("rows"), list):
            return None
        rows = tuple(row for row in raw["rows"] if isinstance(row, dict))
        if len(rows) != len(raw["rows"]) or not all(self._image_ok(row) for row in rows):
            return None
        return StoredUnit(unit, rows, str(raw.get("status")))

    def other_units(self, known: Collection[str]) -> list[StoredUnit]:
        """The valid records of units whose uid is not in ``known`` (other piles, older
        versions of a file) that shared this output folder."""
        found = []
        for path in sorted(self.units_dir.glob("*.json")):
            if path.stem in known:
                continue
            try:
                unit = WorkUnit(**json.loads(path.read_text(encoding="utf-8"))["unit"])
            except (OSError, ValueError, TypeError, KeyError):
                continue
            stored = self.load(unit) if unit.uid == path.stem else None
            if stored is not None:
                found.append(stored)
        return found

    def _image_ok(self, row: Record) -> bool:
        """Whether the solved image a row names (if any) is on disk and not empty."""
        name = row.get("image")
        if name is None:
            return True
        path = self.out / str(name)
        return path.is_file() and path.stat().st_size > 0

    def commit(self, outcome: UnitOutcome, stem: str | None = None) -> StoredUnit:
        """Write a unit's solved images, then its record; return what was stored.

        stem: how its images are named (from ``source_stems``); the source's own stem
        when not given.
        """
        stem = stem or safe_stem(outcome.unit.source)
        rows = [self._write_grid(outcome.unit, grid, stem) for grid in outcome.grids]
        if not rows:
            rows = [page_row(outcome)]
        stored = StoredUnit(outcome.unit, tuple(rows), outcome.status)
        body: Record = {
            "version": RECORD_VERSION,
            "unit": asdict(outcome.unit),
            "status": outcome.status,
            "rows": rows,
        }
        if outcome.error_traceback is not None:
            body["traceback"] = outcome.error_traceback
        atomic_write(self.record_path(outcome.unit), json_bytes(body))
        return stored

    def _write_grid(self, unit: WorkUnit, grid: GridOutput, stem: str) -> Record:
        """Write one solved image; its row names the image relative to the output folder."""
        number = int(grid.record["grid"])
        name = image_name(unit, number, grid.suffix, stem)
        atomic_write(self.solved_dir / name, grid.image)
        return {**grid.record, "image": f"{SOLVED_DIR}/{name}"}

    def write_tables(self, rows: Sequence[Record]) -> None:
        """Rebuild summary.csv, then results.jsonl, from the given rows.

        Each file is replaced whole; summary.csv goes first, so once results.jsonl lists
        a unit the table does too (a kill between the two leaves the table a unit ahead).
        """
        lines = b"".join(json_bytes(row) + b"\n" for row in rows)
        atomic_write(self.out / SUMMARY_NAME, csv_bytes(rows))
        atomic_write(self.out / RESULTS_NAME, lines)


def image_name(unit: WorkUnit, grid: int, suffix: str, stem: str | None = None) -> str:
    """A solved image's file name: stem, page and grid number (``demo_p1_g1.png``)."""
    return f"{stem or safe_stem(unit.source)}_p{unit.page}_g{grid}{suffix}"


def safe_stem(source: str) -> str:
    """A source's file stem with only safe characters, cut to MAX_STEM."""
    return SAFE_NAME.sub("_", Path(source).stem)[:MAX_STEM] or "page"


def source_stems(
    keys: Iterable[FileKey], taken: Mapping[FileKey, str] | None = None
) -> dict[FileKey, str]:
    """The stem each input file's images are named with; no two files share one.

    A file keeps its own stem (``safe_stem``) unless another file has the same one, in any
    case (demo.jpg beside demo.png, or a/demo.jpg and b/demo.jpg); then those files, in
    path order, take the first of demo, demo-2, demo-3, ... that no other file uses.
    ``taken``: stems fixed earlier (files an earlier run of the batch named), kept as they
    are. The result depends only on the set of files and ``taken``, so a resumed batch
    names the files it has left as an uninterrupted run would.
    """
    stems = dict(taken or {})
    own = {key: safe_stem(key[0]) for key in set(keys) | set(stems)}
    clashes = Counter(stem.casefold() for stem in own.values())
    used = {stem.casefold() for stem in stems.values()}
    free = sorted(key for key in own if key not in stems)
    for key in free:  # a file alone with its stem takes it (no clashing file may)
        if clashes[own[key].casefold()] == 1 and own[key].casefold() not in used:
            stems[key] = own[key]
            used.add(own[key].casefold())
    for key in free:
        if key in stems:
            continue
        candidate, number = own[key], 1
        while candidate.casefold() in used:
            number += 1
            candidate = f"{own[key]}-{number}"
        stems[key] = candidate
        used.add(candidate.casefold())
    return stems


def recorded_stems(stored: Iterable[StoredUnit]) -> dict[FileKey, str]:
    """The stems stored units' images were named with (units without images name none)."""
    stems: dict[FileKey, str] = {}
    for unit in stored:
        for row in unit.rows:
            name = Path(str(row.get("image") or "")).stem
            tail = f"_p{unit.unit.page}_g{row.get('grid')}"
            if name.endswith(tail) and len(name) > len(tail):
                stems[unit.unit.file_key] = name[: -len(tail)]
    return stems


def unit_fields(unit: WorkUnit) -> Record:
    """The columns every row of a unit starts with."""
    return {"source": unit.source, "page": unit.page if unit.page else None}


def page_row(outcome: UnitOutcome) -> Record:
    """The single row of a unit without grids: an error, or a page where none was found."""
    row: Record = {
        **unit_fields(outcome.unit),
        "grid": None,
        "status": outcome.status,
        "error": outcome.error,
        "timings_ms": dict(outcome.timings),
    }
    if outcome.note is not None:
        row["note"] = outcome.note
    return row


def failure_outcome(failure: InputFailure) -> UnitOutcome:
    """The outcome recorded for an input that could not be split into pages."""
    return UnitOutcome(failure.unit, error=failure.error, status=Outcome.ERROR)


def skipped_row(skipped: Skipped) -> Record:
    """The row of a file passed over in a folder (not a failure)."""
    return {
        "source": skipped.source,
        "page": None,
        "grid": None,
        "status": "skipped",
        "error": skipped.reason,
    }


def json_bytes(value: object) -> bytes:
    """Compact UTF-8 JSON of a record."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def csv_bytes(rows: Iterable[Record]) -> bytes:
    """The rows as CSV: lists and mappings become JSON text, timings become *_ms columns."""
    flat = [flatten(row) for row in rows]
    columns = list(FIRST_COLUMNS)
    for row in flat:
        columns.extend(key for key in row if key not in columns)
    columns.sort(key=lambda name: name.endswith("_ms"))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator=CSV_LINE_END)
    writer.writeheader()
    writer.writerows(flat)
    return buffer.getvalue().encode("utf-8")


def flatten(row: Mapping[str, Any]) -> dict[str, Any]:
    """One CSV row: timings spread into ``<step>_ms`` columns, nested values as JSON, text
    that a spreadsheet would run as a formula neutralised (``safe_cell``)."""
    flat: dict[str, Any] = {}
    for key, value in row.items():
        if key == "timings_ms" and isinstance(value, Mapping):
            flat.update({f"{step}_ms": ms for step, ms in value.items()})
        elif isinstance(value, (list, tuple, dict)):
            flat[key] = json.dumps(value, separators=(",", ":"))
        else:
            flat[key] = "" if value is None else safe_cell(value)
    return flat


def safe_cell(value: Any) -> Any:
    """A text cell starting with =, +, -, @, tab or CR behind a ``'`` (shown as text by
    spreadsheets, never run as a formula); other values as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
