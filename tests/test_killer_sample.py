"""The committed Killer samples (dashed outlines; cages told by colour alone): read exactly
(every cage and sum) and solved right, end to end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from sudokucam.samples.render import render_killer
from sudokucam.solver.variant import Variant
from sudokucam.solver.variant_json import puzzle_from_json
from sudokucam.vision import pipeline
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.structure.cage_sums import SumReading
from sudokucam.vision.structure.cages import CageLayout

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "killer" / "dashed.jpg"
TINTED = SAMPLE.with_name("tinted.jpg")


@pytest.fixture(scope="module")
def truth() -> dict[str, Any]:
    return json.loads(SAMPLE.with_suffix(".json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("sample", [SAMPLE, TINTED], ids=lambda p: p.stem)
def test_the_killer_sample_is_read_and_solved(sample: Path) -> None:
    truth = json.loads(sample.with_suffix(".json").read_text(encoding="utf-8"))
    result = Reader().read(sample)
    assert len(result.grids) == 1
    grid = result.grids[0]
    data: dict[str, Any] = grid.to_dict()
    assert data["variant"] == "killer"
    cages = sorted((c["sum"], c["cells"]) for c in data["cages"])
    assert cages == sorted((c["sum"], c["cells"]) for c in truth["cages"])
    answer = "".join(str(v) for row in truth["solution"] for v in row)
    assert grid.solution == answer
    assert set(grid.givens) == {"0"}  # no sum was taken for a given


def test_lines_taken_for_cages_never_spoil_a_classic_grid(
    monkeypatch: pytest.MonkeyPatch, samples_dir: Path
) -> None:
    """Were the cage step to see cages in a classic grid, with sums no puzzle can take,
    the grid is still read and solved as the classic grid it is."""
    singles = tuple((c,) for c in range(81))
    bogus = CageLayout(singles, (SumReading((5,), (0.0,)),) * 81, 0.1, ((0.5, 0.5),) * 81)
    monkeypatch.setattr(pipeline, "find_cages", lambda *args: bogus)
    grid = Reader().read(samples_dir / "printed" / "demo.jpg").grids[0]
    truth = json.loads((samples_dir / "printed" / "demo.json").read_text(encoding="utf-8"))
    assert grid.structure.variant is Variant.CLASSIC
    assert grid.solution == "".join(str(v) for row in truth["solution"] for v in row)


def test_the_killer_truth_holds_its_puzzle_as_the_other_samples_do(
    truth: dict[str, Any],
) -> None:
    """``puzzle``: the `grid FILE.json` form, as each variant, small and 16×16 sample's."""
    puzzle = puzzle_from_json(truth["puzzle"])
    assert puzzle.variant is Variant.KILLER and truth["puzzle"]["cages"] == truth["cages"]
    assert puzzle.is_solution([v for row in truth["solution"] for v in row])


def test_a_killer_read_surer_turned_is_read_as_it_lies() -> None:
    """Rendered Killer 790000 (dashed, four givens, JPEG at its quality, decoded whole):
    its cells read surer a quarter turn away, so its cages were looked for the wrong way
    up ("the cage sums add up to 492"); unsolved so, it is read as it lies and solved."""
    photo = render_killer(790000, "dashed")
    quality = [cv2.IMWRITE_JPEG_QUALITY, photo.jpeg_quality]
    ok, data = cv2.imencode(".jpg", photo.image, quality)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
    assert image is not None
    (grid,) = Reader().read(image).grids
    assert grid.structure.variant is Variant.KILLER
    answer = "".join(str(v) for v in np.asarray(photo.truth.solution).ravel())
    assert grid.solution == answer
