"""12×12 Sudokus (3×4 boxes, the numbers 1-12) from a photo: the grid found by its 13 lines
each way, the numbers read as one or two glyphs (``vision/small/sixteen.py`` with
``SixteenConfig.size`` 12), solved, drawn back, and said by `sudokucam read / solve`; no
9×9 or 16×16 taken for one (with the 12×12 reader off, the photo is still named:
tests/test_lookalikes.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from sudokucam.samples.synth.small_drawing import render_small_photo
from sudokucam.samples.synth.truth import Photo
from sudokucam.tests.test_sixteen import log_probs
from sudokucam.ui.cli import app
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.results import PhotoResult
from sudokucam.vision.small.sixteen import (
    cell_blobs,
    find_sixteen_grid,
    number_probs,
    printed_reading,
    solve_sixteen,
)
from sudokucam.vision.small.sixteen_config import (
    DEFAULT_SIXTEEN_CONFIG,
    DEFAULT_TWELVE_CONFIG,
    SixteenConfig,
)
from sudokucam.vision.types import CellReading, digits_of

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "samples" / "small" / "twelve_newspaper.jpg"
NINES = [REPO / "samples" / "printed" / "demo.jpg", REPO / "samples" / "scan" / "clipping.jpg"]
runner = CliRunner()


@pytest.fixture(scope="module")
def truth() -> dict[str, Any]:
    return json.loads(SAMPLE.with_suffix(".json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def read_sample() -> PhotoResult:
    return Reader().read(SAMPLE)


def drawn_grid(n: int, rows: int, cols: int, cell: int = 40) -> np.ndarray:
    """A white page with an n × n grid drawn: thin lines, thick ones every ``rows`` cells
    down and every ``cols`` across (boxes of rows × cols) and a thick border."""
    margin, side = 100, n * cell
    page = np.full((side + 2 * margin, side + 2 * margin, 3), 250, np.uint8)
    for i in range(n + 1):
        at = margin + i * cell
        across, down = (5 if i % k == 0 else 1 for k in (rows, cols))
        cv2.line(page, (margin, at), (margin + side, at), (20, 20, 20), across)
        cv2.line(page, (at, margin), (at, margin + side), (20, 20, 20), down)
    return page


def test_a_12x12_grid_is_found_with_its_lines() -> None:
    found = find_sixteen_grid(drawn_grid(12, 3, 4), config=DEFAULT_TWELVE_CONFIG)
    assert found is not None and found.size == 12
    expected = 100 + 40 * np.arange(13)  # each line within a tenth of a cell (4 px)
    assert np.abs(found.detection.lattice[0, :, 0] - expected).max() < 4
    assert np.abs(found.detection.lattice[:, 0, 1] - expected).max() < 4
    found = Reader().find_other_size(drawn_grid(12, 3, 4))  # before any small grid
    assert found is not None and found.size == 12


@pytest.mark.parametrize(("n", "rows", "cols"), [(9, 3, 3), (16, 4, 4), (6, 2, 3), (8, 2, 4)])
def test_other_grids_are_never_a_12x12(n: int, rows: int, cols: int) -> None:
    assert find_sixteen_grid(drawn_grid(n, rows, cols), config=DEFAULT_TWELVE_CONFIG) is None
    found = Reader().find_other_size(drawn_grid(n, rows, cols))
    assert found is None or found.size == n


@pytest.mark.parametrize("photo", NINES, ids=lambda p: p.parent.name)
def test_a_9x9_photo_is_never_taken_for_a_12x12(photo: Path) -> None:
    image = cv2.imread(str(photo))
    assert image is not None
    assert find_sixteen_grid(image, config=DEFAULT_TWELVE_CONFIG) is None


def test_a_12x12_cell_reads_no_number_past_12() -> None:
    assert int(np.argmax(number_probs(log_probs(1, 2), 0.02, 12))) == 12
    assert int(np.argmax(number_probs(log_probs(1, 0), 0.02, 12))) == 10
    fifteen = number_probs(log_probs(1, 5), 0.02, 12)  # past 12: never read
    assert fifteen.shape == (13,) and fifteen[1:10].sum() == 0
    assert abs(float(fifteen.sum()) - 1) < 1e-9


def test_the_number_readers_size_is_checked() -> None:
    assert DEFAULT_TWELVE_CONFIG.size == 12 and DEFAULT_SIXTEEN_CONFIG.size == 16
    with pytest.raises(ValueError, match="size must be one of"):
        SixteenConfig(size=10)
    with pytest.raises(ValueError, match=r"lines.sizes must be \(12,\)"):
        SixteenConfig(size=12)  # a 16×16's finder settings


def test_the_12x12_sample_is_read_exactly_and_solved(
    truth: dict[str, Any], read_sample: PhotoResult
) -> None:
    (grid,) = read_sample.grids
    givens = digits_of(v for row in truth["givens"] for v in row)
    assert grid.givens == givens and "C" in givens  # 12 as printed
    assert set(grid.handwritten) == {"0"}
    assert grid.solution == truth["answer"]
    assert grid.message.startswith("12×12 Sudoku: solved")
    data: dict[str, Any] = grid.to_dict()
    assert data["size"] == 12 and data["symbols"] == "123456789ABC"
    assert data["regions"][3] == "444455556666" and len(data["contents"]) == 144
    assert np.abs(grid.detection.corners - np.asarray(truth["corners"])).max() < 6


def test_solve_a_12x12_photo_on_the_command_line(tmp_path: Path, truth: Any) -> None:
    out = tmp_path / "solved.png"
    done = runner.invoke(app, ["solve", str(SAMPLE), "-o", str(out)])
    assert done.exit_code == 0, done.output
    assert "+-------------+-------------+-------------+" in done.stdout
    assert "| " + " ".join(f"{int(ch, 16):>2}" for ch in truth["answer"][:4]) + " |" in done.stdout
    before, after = cv2.imread(str(SAMPLE)), cv2.imread(str(out))
    assert before is not None and after is not None and after.shape == before.shape
    assert np.abs(after.astype(int) - before.astype(int)).max() > 100  # the answer drawn


def test_a_12x12_read_from_a_photo_is_typed_back_with_grid(tmp_path: Path, truth: Any) -> None:
    done = runner.invoke(app, ["read", "--json", str(SAMPLE)])
    assert done.exit_code == 0, done.output
    saved = tmp_path / "twelve.json"
    saved.write_text(done.stdout, encoding="utf-8")
    again = runner.invoke(app, ["grid", str(saved), "--json"])
    assert again.exit_code == 0, again.output
    assert truth["answer"] in again.stdout


@pytest.mark.parametrize(("seed", "style"), [(0, "kids"), (1, "book"), (107, "kids")])
def test_12x12_photos_once_only_named_are_read_and_solved(seed: int, style: str) -> None:
    """Seeds once named "a 12×12 Sudoku" and refused (seed 0 had been read as an invalid
    9×9, seed 1 as a 4×4; on seed 107 only yesterday's answer beside it was found)."""
    made = render_small_photo(seed, 12, style)
    result = Reader().read(made.photo.image)
    (grid,) = result.grids
    assert grid.structure.size == 12
    assert grid.givens == digits_of(made.puzzle.givens)
    assert grid.solution == digits_of(made.answer)


def through_jpeg(photo: Photo) -> np.ndarray:
    """A rendered photo's image as its JPEG file (at its own quality) gives it back."""
    quality = [cv2.IMWRITE_JPEG_QUALITY, photo.jpeg_quality]
    ok, data = cv2.imencode(".jpg", photo.image, quality)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
    assert image is not None
    return np.asarray(image)


def test_a_12x12_is_looked_for_in_the_photo_when_the_9x9_search_kept_its_negative() -> None:
    """Seed 702 (shaded boxes, half in pen, through JPEG at its quality): the 9×9 search
    keeps the photo's negative, where it finds only yesterday's answer cut off beside the
    puzzle and no 12×12; the photo as taken is looked at too (it was read as that invalid
    9×9)."""
    made = render_small_photo(702, 12, "shaded", pen_fill=0.4, pen_mistakes=1)
    (grid,) = Reader().read(through_jpeg(made.photo)).grids
    assert grid.structure.size == 12
    assert grid.solution == digits_of(made.answer)


def test_a_12x12s_unsure_pen_numbers_lean_to_the_answer() -> None:
    """Seed 710 (shaded boxes, half in pen): six pen numbers were asked about ("12 or
    10?", "11 or 1?", "1 or 8?", ...), each the answer's number read less surely than
    another; read again with the answer as prior (``SixteenConfig.answer_prior``), as a
    9×9's pen digits are, every entry is read as written, the mistake among them too (a
    1 where the answer is 11: asked about, a 1 and an 11 being alike)."""
    made = render_small_photo(710, 12, "shaded", pen_fill=0.4, pen_mistakes=1)
    (grid,) = Reader().read(through_jpeg(made.photo)).grids
    assert grid.solution == digits_of(made.answer)
    assert grid.handwritten == digits_of(int(v) for v in made.photo.truth.pen.ravel())
    mistakes = {r * 12 + c for r, c in made.photo.truth.mistakes}
    asked = {u.cell for u in grid.unsure_entries()}
    assert asked | set(grid.wrong_entries) == mistakes


def reading_of(values: list[int], written: set[int], unsure: dict[int, int]) -> CellReading:
    """A 12×12 reading of ``values`` (0 empty): each surely its number (99 %), the cells
    ``written`` handwriting, those in ``unsure`` read as another number (97 %, the true one
    2 %)."""
    probs = np.full((144, 13), 0.01 / 12)
    probs[np.arange(144), values] = 0.99
    for cell, misread in unsure.items():
        probs[cell] = 0.01 / 11
        probs[cell, misread], probs[cell, values[cell]] = 0.97, 0.02
    pen = np.array([0.99 if c in written else 0.01 for c in range(144)])
    return printed_reading(probs, pen, max(DEFAULT_TWELVE_CONFIG.pen_odds))


def test_a_12x12s_printed_number_misread_beside_pen_is_repaired_where_it_breaks_the_rules() -> None:
    """A printed 10 read as 11 (97 %) where the row already prints an 11, on a page half
    solved in pen with one mistake: the printed numbers alone break the rules, so no split
    of print from pen had one answer, and every number was taken as a given and repaired
    (the pen as print, the mistake a given). Now the printed numbers alone are repaired in
    the cells that break the rules (``sixteen.printed_repaired``) and the pen stays the
    person's."""
    made = render_small_photo(700, 12, "kids")
    givens, answer = list(made.puzzle.givens), list(made.answer)
    misread = next(c for c in range(144) if givens[c])
    other = next(
        givens[d]
        for d in range(misread - misread % 12, misread - misread % 12 + 12)
        if d != misread and givens[d]
    )
    empty = [c for c in range(144) if not givens[c]]
    written = set(empty[::2])
    values = [givens[c] or (answer[c] if c in written else 0) for c in range(144)]
    mistake = next(c for c in written if c // 12 == empty[0] // 12 and c != empty[0])
    values[mistake] = answer[empty[0]]  # the row's other entry's number: a mistake
    reading = reading_of(values, written, {misread: other})
    outcome = solve_sixteen(reading, DEFAULT_TWELVE_CONFIG)
    assert outcome.solution == digits_of(answer)
    assert outcome.givens == digits_of(givens)
    assert [(r.cell, r.old, r.new) for r in outcome.repairs] == [(misread, other, givens[misread])]


def test_a_12x12s_pale_pen_on_tinted_boxes_is_read_as_handwriting() -> None:
    """Seed 711 (children's style, blue-tinted boxes, a thin pale pen, through JPEG): 19 of
    the 31 entries' darkest ink lay under ``min_ink`` of the grid's and were read as empty.
    A cell whose darkest ink reaches ``faint_ink`` is read, as handwriting
    (``SixteenConfig.faint_pen``): print is as dark as the grid."""
    made = render_small_photo(711, 12, "kids", pen_fill=0.4, pen_mistakes=1)
    (grid,) = Reader().read(through_jpeg(made.photo)).grids
    written = [int(v) for v in made.photo.truth.pen.ravel()]
    printed = [int(v) for v in made.photo.truth.givens.ravel()]
    read = [c for c, v in enumerate(grid.handwritten) if v != "0"]
    assert grid.solution == digits_of(made.answer)
    assert sum(1 for c in read if written[c]) >= 22
    assert all(written[c] for c in read)  # no paper read as an entry
    assert all(grid.givens[c] == "0" for c, v in enumerate(written) if v)
    assert grid.givens == digits_of(printed)


def test_faint_ink_settings_are_checked() -> None:
    for field, config in (
        ("faint_ink", lambda: SixteenConfig(faint_ink=0.6)),
        ("faint_ink", lambda: SixteenConfig(faint_ink=0.0)),
        ("faint_pen", lambda: SixteenConfig(faint_pen=1.0)),
        ("faint_fill", lambda: SixteenConfig(faint_fill=1.5)),
    ):
        with pytest.raises(ValueError, match=field):
            config()


def test_a_pale_cells_strokes_are_a_glyph_and_a_thin_scatter_is_not() -> None:
    """``cell_blobs`` in a cell whose darkest ink is under ``min_ink``: a pen 7's strokes at
    0.45 of the grid's ink are a glyph; a shadow's edge as pale, one pixel wide across the
    cell, is none."""
    config = DEFAULT_TWELVE_CONFIG
    seven, line = np.zeros((144, 144), np.uint8), np.zeros((144, 144), np.uint8)
    cv2.putText(seven, "7", (52, 96), cv2.FONT_HERSHEY_SIMPLEX, 1.8, 255, 4)
    cv2.line(line, (40, 40), (70, 100), 255, 1)
    stroke, edge = seven * np.float32(0.45 / 255), line * np.float32(0.42 / 255)
    assert len(cell_blobs(stroke, config, config.faint_ink)) == 1
    assert cell_blobs(edge, config, config.faint_ink) == []
    assert cell_blobs(stroke, config, config.min_ink) == []  # looked at only from faint_ink
