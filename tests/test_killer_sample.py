"""The committed Killer sample: read exactly (every cage and sum) and solved right, end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudokucam.vision.pipeline import Reader

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "killer" / "dashed.jpg"


@pytest.fixture(scope="module")
def truth() -> dict[str, object]:
    return json.loads(SAMPLE.with_suffix(".json").read_text(encoding="utf-8"))


def test_the_killer_sample_is_read_and_solved(truth: dict[str, object]) -> None:
    result = Reader().read(SAMPLE)
    assert len(result.grids) == 1
    grid = result.grids[0]
    data = grid.to_dict()
    assert data["variant"] == "killer"
    cages = sorted((c["sum"], c["cells"]) for c in data["cages"])
    assert cages == sorted((c["sum"], c["cells"]) for c in truth["cages"])  # type: ignore[attr-defined]
    answer = "".join(str(v) for row in truth["solution"] for v in row)  # type: ignore[attr-defined]
    assert grid.solution == answer
    assert set(grid.givens) == {"0"}  # no sum was taken for a given
