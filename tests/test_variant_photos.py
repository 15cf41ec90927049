"""Rendered Sudoku X and jigsaw photos are read, solved under their rules, and said so."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import cv2
import pytest
from typer.testing import CliRunner

from sudokucam.samples.synth.variant_drawing import VariantPhoto, render_variant_photo
from sudokucam.solver.variant import Variant
from sudokucam.ui.cli import app
from sudokucam.vision.pipeline import Reader, default_reader
from sudokucam.vision.results import GridResult

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "samples"
CASES = [("x", "lines", 1), ("x", "shaded", 2), ("jigsaw", "thick", 1), ("jigsaw", "tinted", 2)]


@cache
def rendered(variant: str, style: str, seed: int) -> tuple[VariantPhoto, GridResult]:
    """A rendered photo and the one grid the shipped reader finds in it."""
    vp = render_variant_photo(seed, variant, style)
    result = default_reader().read(vp.photo.image)
    assert len(result.grids) == 1, result.message
    return vp, result.grids[0]


def canonical(labels: tuple[int, ...]) -> tuple[int, ...]:
    """Region labels renumbered in reading order."""
    names = list(dict.fromkeys(labels))
    return tuple(names.index(x) for x in labels)


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "style", "seed"), CASES)
def test_variant_photo_is_read_and_solved(variant: str, style: str, seed: int) -> None:
    vp, grid = rendered(variant, style, seed)
    assert grid.structure.variant is Variant(variant)
    if variant == "jigsaw":
        assert canonical(grid.structure.regions) == canonical(vp.puzzle.regions)
    assert grid.givens == "".join(map(str, vp.puzzle.givens))
    assert grid.handwritten == "0" * 81, "a diagonal or region line read as a pen digit"
    truth = tuple(int(v) for v in vp.photo.truth.solution.ravel())
    assert grid.solution == "".join(map(str, truth))
    assert vp.puzzle.is_solution(truth)


@pytest.mark.parametrize(("style", "seed"), [("thick", 520), ("thick", 526), ("tinted", 507)])
def test_jigsaw_half_filled_in_pen_keeps_its_regions(style: str, seed: int) -> None:
    """Pen strokes along thin lines once hid these regions (read as a classic grid)."""
    vp = render_variant_photo(seed, "jigsaw", style, pen_fill=0.5, pen_mistakes=1)
    quality = [cv2.IMWRITE_JPEG_QUALITY, vp.photo.jpeg_quality]
    image = cv2.imdecode(cv2.imencode(".jpg", vp.photo.image, quality)[1], cv2.IMREAD_COLOR)
    assert image is not None
    grid = default_reader().read(image).grids[0]
    assert grid.structure.variant is Variant.JIGSAW
    assert canonical(grid.structure.regions) == canonical(vp.puzzle.regions)
    assert grid.solution == "".join(str(v) for v in vp.photo.truth.solution.ravel())


@pytest.mark.slow
def test_variant_json_and_message_name_the_rules() -> None:
    vp, grid = rendered("jigsaw", "thick", 1)
    doc = grid.to_dict()
    assert (doc["size"], doc["variant"], doc["symbols"]) == (9, "jigsaw", "123456789")
    rows = doc["regions"]
    assert isinstance(rows, list) and len(rows) == 9 and rows[0][0] == "1"
    assert canonical(tuple(ord(ch) for row in rows for ch in row)) == canonical(vp.puzzle.regions)
    assert doc["diagonals"] is False and doc["cages"] == []
    assert grid.message.startswith("jigsaw Sudoku: solved")
    _, x = rendered("x", "shaded", 2)
    assert x.to_dict()["diagonals"] is True and x.message.startswith("Sudoku X: solved")


@pytest.mark.slow
def test_a_corrected_variant_grid_is_solved_under_its_rules() -> None:
    _, grid = rendered("x", "shaded", 2)
    again = Reader(default_reader().classifier).resolve(grid, grid.givens)
    assert again.structure == grid.structure and again.solution == grid.solution
    first = next(c for c in range(81) if grid.givens[c] == "0")
    twice = (
        grid.givens[:first]
        + grid.givens[first - 1 if first else first + 1]
        + grid.givens[first + 1 :]
    )
    broken = Reader(default_reader().classifier).resolve(grid, twice)
    assert broken.solution is None and broken.message.startswith("Sudoku X: ")


@pytest.mark.slow
def test_cli_names_the_variant_and_shows_the_regions(tmp_path: Path) -> None:
    vp, _ = rendered("jigsaw", "thick", 1)
    photo = tmp_path / "jigsaw.jpg"
    assert cv2.imwrite(str(photo), vp.photo.image)
    done = runner.invoke(app, ["solve", str(photo), "-o", str(tmp_path / "out.jpg")])
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[0].startswith("Solved (jigsaw Sudoku): ")
    regions = [line.split()[-1] for line in lines[1:10]]
    assert canonical(tuple(ord(ch) for row in regions for ch in row)) == canonical(
        vp.puzzle.regions
    )
    done = runner.invoke(app, ["check", str(photo), "--hint", "-o", str(tmp_path / "c.jpg")])
    assert done.exit_code == 0 and "\nnext: " in done.output and "no hint" not in done.output
    done = runner.invoke(app, ["read", str(photo), "--json"])
    grid = json.loads(done.output)[0]["grids"][0]
    assert grid["variant"] == "jigsaw" and grid["solution"] == "".join(
        str(v) for v in vp.photo.truth.solution.ravel()
    )


@pytest.mark.parametrize(
    "photo", sorted((SAMPLES / "variants").glob("*.jpg")), ids=lambda p: p.stem
)
def test_committed_variant_samples_read_exactly(photo: Path) -> None:
    truth = json.loads(photo.with_suffix(".json").read_text())
    puzzle = truth["puzzle"]
    result = default_reader().read(photo)
    assert len(result.grids) == 1, result.message
    grid = result.grids[0]
    assert grid.structure.variant.value == puzzle["variant"]
    assert grid.structure.diagonals == puzzle["diagonals"]
    assert grid.givens == puzzle["givens"].replace(".", "0")
    assert grid.handwritten == "0" * 81
    assert grid.solution == "".join(str(v) for row in truth["solution"] for v in row)
    if puzzle["regions"]:
        rows = grid.to_dict()["regions"]
        assert isinstance(rows, list)
        read = canonical(tuple(ord(ch) for row in rows for ch in row))
        assert read == canonical(tuple(ord(ch) for row in puzzle["regions"] for ch in row))


HINT_PHOTOS = [SAMPLES / "variants" / "x_shaded.jpg", SAMPLES / "variants" / "jigsaw_thick.jpg",
               SAMPLES / "killer" / "dashed.jpg"]  # fmt: skip


@pytest.mark.parametrize("photo", HINT_PHOTOS, ids=lambda p: p.stem)
def test_check_hint_on_a_variant_photo_gives_a_right_variant_step(
    photo: Path, tmp_path: Path
) -> None:
    """`check PHOTO --hint` on a Sudoku X, jigsaw or Killer: a step of the variant, in the
    text and the JSON, whose values are the photo's true answer."""
    solution = [v for row in json.loads(photo.with_suffix(".json").read_text())["solution"]
                for v in row]  # fmt: skip
    out = str(tmp_path / "checked.png")
    text = runner.invoke(app, ["check", str(photo), "-o", out, "--hint"])
    assert text.exit_code == 0, text.output
    next_lines = [line for line in text.stdout.splitlines() if line.startswith("next: ")]
    assert len(next_lines) == 1 and "no hint" not in next_lines[0], text.stdout
    done = runner.invoke(app, ["check", str(photo), "-o", out, "--hint", "--json"])
    found = json.loads(done.stdout)["grids"][0]["next"]
    assert found["status"] == "step" and found["message"] == next_lines[0].removeprefix("next: ")
    step = found["step"]
    assert step["placements"] or step["eliminations"]
    for placed in step["placements"]:
        cell = (int(placed["cell"][1]) - 1) * 9 + int(placed["cell"][3]) - 1
        assert placed["value"] == solution[cell]
    for struck in step["eliminations"]:
        cell = (int(struck["cell"][1]) - 1) * 9 + int(struck["cell"][3]) - 1
        assert struck["value"] != solution[cell]
