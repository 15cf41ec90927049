"""Batch store: atomic records, what counts as done, tables rebuilt without duplicates."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from sudokucam.files import atomic_write
from sudokucam.vision.batch.inputs import WorkUnit
from sudokucam.vision.batch.store import (
    RESULTS_NAME,
    SUMMARY_NAME,
    BatchStore,
    GridOutput,
    UnitOutcome,
    recorded_stems,
    source_stems,
)


def _unit(page: int = 1) -> WorkUnit:
    """A PDF page unit."""
    return WorkUnit("/scans/paper.pdf", 1234, 42, page, 3, "pdf")


def _outcome(unit: WorkUnit, grids: int) -> UnitOutcome:
    """An outcome with ``grids`` solved grids, each with a tiny image."""
    outputs = tuple(
        GridOutput(
            {"source": unit.source, "page": unit.page, "grid": n, "status": "solved"},
            b"image-bytes-%d" % n,
        )
        for n in range(1, grids + 1)
    )
    return UnitOutcome(unit, grids=outputs, status="solved", timings={"total": 1.5})


def test_atomic_write_leaves_no_temporary(tmp_path: Path) -> None:
    """The file holds the new bytes and no temporary file is left beside it."""
    target = tmp_path / "x.json"
    atomic_write(target, b"old")
    atomic_write(target, b"new")
    assert target.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]


def test_commit_then_load_round_trip(tmp_path: Path) -> None:
    """A committed unit loads back with its rows and images."""
    store = BatchStore(tmp_path)
    stored = store.commit(_outcome(_unit(), 2))
    loaded = store.load(_unit())
    assert loaded == stored
    assert [row["grid"] for row in loaded.rows] == [1, 2]
    for row in loaded.rows:
        assert (tmp_path / row["image"]).read_bytes().startswith(b"image-bytes-")


def test_half_written_record_is_not_done(tmp_path: Path) -> None:
    """A truncated record, a record of another unit, or a missing image mean: read again."""
    store = BatchStore(tmp_path)
    store.commit(_outcome(_unit(), 2))
    path = store.record_path(_unit())
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])
    assert store.load(_unit()) is None
    path.write_bytes(whole)
    assert store.load(_unit()) is not None
    (tmp_path / store.load(_unit()).rows[1]["image"]).unlink()  # type: ignore[union-attr]
    assert store.load(_unit()) is None
    other = json.loads(whole)
    other["unit"]["size"] = 999
    path.write_text(json.dumps(other))
    assert store.load(_unit()) is None


def test_tables_hold_each_row_once(tmp_path: Path) -> None:
    """Committing a unit twice (a resumed run) still lists its grids once."""
    store = BatchStore(tmp_path)
    first = store.commit(_outcome(_unit(1), 2))
    again = store.commit(_outcome(_unit(1), 2))
    second = store.commit(UnitOutcome(_unit(2), error="bad page", status="error"))
    assert first == again
    store.write_tables([*again.rows, *second.rows])
    lines = (tmp_path / RESULTS_NAME).read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    assert [(r["page"], r["grid"], r["status"]) for r in rows] == [
        (1, 1, "solved"),
        (1, 2, "solved"),
        (2, None, "error"),
    ]
    with (tmp_path / SUMMARY_NAME).open() as handle:
        table = list(csv.DictReader(handle))
    assert [(r["page"], r["grid"], r["status"], r["error"]) for r in table] == [
        ("1", "1", "solved", ""),
        ("1", "2", "solved", ""),
        ("2", "", "error", "bad page"),
    ]
    assert len(list((tmp_path / "solved").iterdir())) == 2


@pytest.mark.parametrize("page", [1, 2, 3])
def test_image_names_are_distinct_per_page(tmp_path: Path, page: int) -> None:
    """Solved images of different pages never overwrite each other: stem, page, grid."""
    store = BatchStore(tmp_path)
    names = {row["image"] for p in (1, 2, 3) for row in store.commit(_outcome(_unit(p), 2)).rows}
    assert len(names) == 6
    assert f"solved/paper_p{page}_g1.png" in names


def _key(path: str) -> tuple[str, int, int]:
    """The file key of a source path (size and time do not matter here)."""
    return (path, 10, 20)


def test_stems_clash_only_where_files_share_one() -> None:
    """A file keeps its stem unless another has it (in any case); then -2, -3 in path order."""
    keys = [
        _key("/b/demo.jpg"),
        _key("/a/demo.jpg"),
        _key("/a/Demo.png"),
        _key("/a/other.jpg"),
        _key("/c/demo-2.jpg"),  # a real stem the clashing files must not take
    ]
    stems = source_stems(keys)
    assert stems == {
        _key("/a/Demo.png"): "Demo",
        _key("/a/demo.jpg"): "demo-3",
        _key("/b/demo.jpg"): "demo-4",
        _key("/a/other.jpg"): "other",
        _key("/c/demo-2.jpg"): "demo-2",
    }
    assert source_stems(reversed(keys)) == stems  # the order files are given does not matter


def test_a_resumed_batch_names_like_an_uninterrupted_one() -> None:
    """Stems fixed by an earlier run (any subset of the same pile) leave the rest unchanged."""
    keys = [_key(f"/{folder}/scan.pdf") for folder in "abcd"] + [_key("/e/scan-2.png")]
    whole = source_stems(keys)
    for done in ([keys[1]], [keys[0], keys[3]], [keys[2], keys[4]]):
        assert source_stems(keys, {k: whole[k] for k in done}) == whole


def test_stems_of_other_files_in_the_folder_are_not_reused() -> None:
    """A file named earlier by another pile keeps its stem; a new file steps around it."""
    stems = source_stems([_key("/b/demo.jpg")], {_key("/a/demo.jpg"): "demo"})
    assert stems[_key("/b/demo.jpg")] == "demo-2"


def test_recorded_stems_read_back_from_image_names(tmp_path: Path) -> None:
    """The stem a stored unit's images were named with is read back from its rows."""
    store = BatchStore(tmp_path)
    unit = _unit(2)
    stored = store.commit(_outcome(unit, 2), stem="paper_p1_g1-2")
    assert stored.rows[0]["image"] == "solved/paper_p1_g1-2_p2_g1.png"
    assert recorded_stems([stored]) == {unit.file_key: "paper_p1_g1-2"}
    no_grid = store.commit(UnitOutcome(_unit(3), status="no_grid"))
    assert recorded_stems([no_grid]) == {}
