"""The photo pipeline end to end on a rendered photo: find, read, repair, solve, draw, re-solve.

The classifier is swapped for one that reports a known reading (the real model is tested
on the committed samples and the real photos); grid finding, repair, solving and drawing
run for real.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from sudokucam.vision.check import CheckConfig
from sudokucam.vision.draw import cell_quad
from sudokucam.vision.grid.polarity import PolarityConfig
from sudokucam.vision.pipeline import NO_GRID_MESSAGE, PipelineConfig, Reader
from sudokucam.vision.read.config import ReadConfig
from sudokucam.vision.types import CellScores

PUZZLE = "042000005000632080080040200000000000715068340908350761091006000000020190006100050"
SOLUTION = "342891675157632984689745213463917528715268349928354761591476832874523196236189457"
CORNERS = np.array([[150, 80], [610, 110], [640, 560], [110, 530]], dtype=np.float64)


def render_photo(digits: str, size: tuple[int, int] = (640, 760)) -> np.ndarray:
    """A BGR photo of a printed grid holding ``digits``, seen at a slant on grey paper."""
    side, cell = 450, 50
    flat = np.full((side, side), 250, dtype=np.uint8)
    for i in range(10):
        width = 4 if i % 3 == 0 else 1
        cv2.line(flat, (i * cell, 0), (i * cell, side), 0, width)
        cv2.line(flat, (0, i * cell), (side, i * cell), 0, width)
    for c, d in enumerate(digits):
        if d != "0":
            r, k = divmod(c, 9)
            org = (k * cell + 14, r * cell + 38)
            cv2.putText(flat, d, org, cv2.FONT_HERSHEY_SIMPLEX, 1.1, 0, 2, cv2.LINE_AA)
    src = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
    h = cv2.getPerspectiveTransform(src, CORNERS.astype(np.float32))
    photo = cv2.warpPerspective(flat, h, (size[1], size[0]), borderValue=170)
    return cv2.cvtColor(photo, cv2.COLOR_GRAY2BGR)


class KnownScores:
    """A stand-in scorer that reports fixed scores and records what it was shown."""

    def __init__(self, scores: CellScores) -> None:
        self.scores = scores
        self.shown: list[np.ndarray] = []

    def score(self, warped: np.ndarray, config: ReadConfig) -> CellScores:
        """Return the fixed scores."""
        self.shown.append(warped)
        return self.scores

    def score_upright(
        self, warped: np.ndarray, config: ReadConfig, upright: CellScores | None = None
    ) -> tuple[int, CellScores]:
        """The grid taken as upright: the fixed scores."""
        return 0, self.score(warped, config)


def scores_of(
    givens: str, pen: str = "0" * 81, unsure: dict[int, dict[int, float]] | None = None
) -> CellScores:
    """Confident scores of printed ``givens`` and handwritten ``pen``, some cells unsure."""
    probs = np.full((81, 19), 1e-4)
    for c in range(81):
        probs[c, int(givens[c]) or (int(pen[c]) + 9 if pen[c] != "0" else 0)] = 1.0
    for c, mass in (unsure or {}).items():
        probs[c] = 1e-4
        for cls, p in mass.items():
            probs[c, cls] = p
    probs /= probs.sum(axis=1, keepdims=True)
    return CellScores(probs.astype(np.float32))


@pytest.fixture(scope="module")
def photo() -> np.ndarray:
    """The rendered photo of PUZZLE."""
    return render_photo(PUZZLE)


def ink_cells(before: np.ndarray, after: np.ndarray, lattice: np.ndarray) -> set[int]:
    """The cells whose middle the drawing changed."""
    changed = np.abs(after.astype(int) - before.astype(int)).max(axis=2) > 40
    cells = set()
    for cell in range(81):
        mask = np.zeros(changed.shape, np.uint8)
        quad = cell_quad(lattice, cell)
        centre = quad.mean(axis=0)
        inner = centre + 0.6 * (quad - centre)
        cv2.fillConvexPoly(mask, np.round(inner).astype(np.int32), 1)
        if (changed & mask.astype(bool)).sum() > 10:
            cells.add(cell)
    return cells


def test_a_photo_is_found_read_solved_and_drawn(photo: np.ndarray) -> None:
    classifier = KnownScores(scores_of(PUZZLE))
    reader = Reader(classifier)
    result, drawn = reader.solve(photo, name="rendered")
    assert result.error is None and result.ok
    grid = result.grids[0]
    assert np.abs(grid.detection.corners - CORNERS).max() < 8.0  # the border is 4 px thick
    assert classifier.shown[0] is grid.detection.warped
    assert (grid.givens, grid.handwritten, grid.status) == (PUZZLE, "0" * 81, "solved")
    assert grid.solution == SOLUTION
    assert drawn is not None and drawn.shape == photo.shape
    empty = {c for c in range(81) if PUZZLE[c] == "0"}
    assert ink_cells(photo, drawn, grid.detection.lattice) == empty
    assert set(result.timings) >= {"load", "find_grid", "classify", "solve", "draw"}


def test_a_misread_is_repaired_and_reported(photo: np.ndarray) -> None:
    reader = Reader(KnownScores(scores_of(PUZZLE, unsure={1: {1: 0.6, 4: 0.38}})))
    grid = reader.read(photo).grids[0]
    assert grid.status == "solved" and grid.givens == PUZZLE
    assert [(r.cell, r.old, r.new) for r in grid.repairs] == [(1, 1, 4)]
    assert "r1c2 read as 1" in grid.message
    assert grid.confidence[1] == pytest.approx(0.38, abs=0.01)


def test_without_repair_the_conflict_is_named_and_ringed(photo: np.ndarray) -> None:
    config = PipelineConfig(use_repair=False)
    reader = Reader(KnownScores(scores_of(PUZZLE, unsure={1: {1: 0.6, 4: 0.38}})), config)
    result, drawn = reader.solve(photo)
    grid = result.grids[0]
    assert grid.status == "invalid" and grid.solution is None and not result.ok
    assert grid.message == "invalid: r1c2 and r5c2 both read as 1"
    assert grid.conflict_cells == (1, 37)
    assert drawn is not None
    assert ink_cells(photo, drawn, grid.detection.lattice) == {1, 37}


def test_check_rings_pen_entries(photo: np.ndarray) -> None:
    pen = "".join(
        s if g == "0" and c % 4 == 0 else "0"
        for c, (g, s) in enumerate(zip(PUZZLE, SOLUTION, strict=True))
    )
    wrong_cell = next(c for c in range(81) if pen[c] != "0")
    pen = pen[:wrong_cell] + str(int(pen[wrong_cell]) % 9 + 1) + pen[wrong_cell + 1 :]
    reader = Reader(KnownScores(scores_of(PUZZLE, pen)))
    result, drawn = reader.check(photo)
    grid = result.grids[0]
    assert grid.status == "solved" and grid.repairs == ()
    assert grid.wrong_entries == (wrong_cell,)
    assert set(grid.right_entries) == {c for c in range(81) if pen[c] != "0"} - {wrong_cell}
    assert drawn is not None
    marked = ink_cells(photo, drawn, grid.detection.lattice)
    assert marked <= set(grid.pen_cells)
    assert len(grid.empty_cells) == PUZZLE.count("0") - len(grid.pen_cells)


def test_the_check_settings_come_from_the_pipeline_config(photo: np.ndarray) -> None:
    """A wrong pen entry read at p ≈ 0.998 is surely wrong by default, only unsure when
    ``PipelineConfig.check`` asks for certainty; a re-solved grid keeps the settings."""
    wrong_cell = next(c for c in range(81) if PUZZLE[c] == "0")
    pen = "0" * wrong_cell + str(int(SOLUTION[wrong_cell]) % 9 + 1) + "0" * (80 - wrong_cell)
    scores = KnownScores(scores_of(PUZZLE, pen))
    assert Reader(scores).read(photo).grids[0].wrong_entries == (wrong_cell,)
    strict = PipelineConfig(check=CheckConfig(min_probability=1.0))
    reader = Reader(scores, strict)
    grid = reader.read(photo).grids[0]
    assert grid.check is strict.check and grid.wrong_entries == ()
    assert [e.cell for e in grid.unsure_entries()] == [wrong_cell]
    again = reader.resolve(grid, grid.givens)
    assert again.check is strict.check and again.wrong_entries == ()


def test_resolve_after_a_person_corrects_a_digit(photo: np.ndarray) -> None:
    bad = PUZZLE[:1] + "7" + PUZZLE[2:]
    reader = Reader(KnownScores(scores_of(bad)), PipelineConfig(use_repair=False))
    grid = reader.read(photo).grids[0]
    assert grid.status == "unsolvable"
    fixed = reader.resolve(grid, PUZZLE.replace("0", "."))
    assert fixed.status == "solved" and fixed.solution == SOLUTION
    assert fixed.detection is grid.detection
    with pytest.raises(ValueError, match="givens"):
        reader.resolve(grid, PUZZLE[:80])


def test_blank_paper_has_no_grid() -> None:
    reader = Reader(KnownScores(scores_of(PUZZLE)))
    paper = np.full((480, 640, 3), 235, dtype=np.uint8)
    result, drawn = reader.solve(paper)
    assert result.grids == () and result.status == "no_grid" and not result.ok
    assert result.error == "no Sudoku grid found in the photo"
    assert drawn is not None and drawn.shape == paper.shape


def test_bytes_that_are_not_an_image_give_an_error_result() -> None:
    result = Reader(KnownScores(scores_of(PUZZLE))).read(b"hello, not a photo")
    assert result.status == "error" and result.image is None
    assert result.error is not None and "not an image" in result.error


def test_to_dict_keeps_the_json_contract(photo: np.ndarray) -> None:
    result = Reader(KnownScores(scores_of(PUZZLE))).read(photo, name="p.jpg")
    doc = json.loads(json.dumps(result.to_dict()))
    assert doc["image"] == "p.jpg" and doc["error"] is None
    grid = doc["grids"][0]
    assert len(grid["corners"]) == 4 and all(len(p) == 2 for p in grid["corners"])
    assert grid["givens"] == PUZZLE and grid["handwritten"] == "0" * 81
    assert len(grid["confidence"]) == 81 and all(0 <= p <= 1 for p in grid["confidence"])
    assert grid["status"] == "solved" and grid["solution"] == SOLUTION


SAMPLES = Path(__file__).resolve().parent.parent / "samples"
SAMPLE_PHOTOS = sorted(
    p
    for p in [*SAMPLES.glob("*/*.jpg"), *SAMPLES.glob("*/*.heic")]
    if p.with_suffix(".dat").is_file()
)


def digits_of(path: Path, skip: int) -> str:
    """The 81 digits of a .dat (skip=2 header lines) or .pen.dat (skip=0) file."""
    lines = path.read_text().splitlines()[skip : skip + 9]
    return "".join(ch for line in lines for ch in line.split())


# Samples whose printed/pen split the shipped model still gets wrong in a few cells (a
# printed digit taken for pen or the reverse; see the model card). Their answer and the
# pen mistakes found must still be exactly right; every digit must still be read.
KIND_MISREADS = {"bent/wave"}


@pytest.mark.parametrize("path", SAMPLE_PHOTOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_samples_are_read_solved_and_checked_exactly(path: Path) -> None:
    truth = json.loads(path.with_suffix(".json").read_text())
    pen_file = path.with_name(path.stem + ".pen.dat")
    pen = digits_of(pen_file, 0) if pen_file.is_file() else "0" * 81
    result, drawn = Reader().check(path)
    assert result.error is None, result.error
    grid = result.grids[0]
    givens = digits_of(path.with_suffix(".dat"), 2)
    if f"{path.parent.name}/{path.stem}" in KIND_MISREADS:
        ink = [max(g, h) for g, h in zip(givens, pen, strict=True)]
        read = [max(g, h) for g, h in zip(grid.givens, grid.handwritten, strict=True)]
        assert read == ink
    else:
        assert (grid.givens, grid.handwritten) == (givens, pen)
    assert grid.solution == "".join(str(d) for row in truth["solution"] for d in row)
    # every mistake is flagged: called wrong when read surely, else asked about (unsure)
    flagged = sorted([*grid.wrong_entries, *(u.cell for u in grid.unsure_entries())])
    assert [divmod(c, 9) for c in flagged] == [tuple(m) for m in truth["mistakes"]]
    corners = np.asarray(truth["corners"], dtype=np.float64)
    side = np.linalg.norm(corners[2] - corners[0]) / np.sqrt(2)
    assert np.linalg.norm(grid.detection.corners - corners, axis=1).max() < 0.03 * side
    assert drawn is not None and result.image is not None
    assert drawn.shape == result.image.shape


def test_config_is_checked() -> None:
    with pytest.raises(ValueError, match="max_grids"):
        PipelineConfig(max_grids=0)


def test_reader_builds_no_model_until_a_grid_needs_one(tmp_path: Path) -> None:
    reader = Reader()
    assert reader._classifier is None
    reader.read(np.full((200, 200, 3), 255, np.uint8))
    assert reader._classifier is None


def test_a_grid_shown_light_on_dark_is_read_in_the_negative_and_drawn_on_the_photo() -> None:
    """A screen in dark mode (the committed screen sample) is found in the photo's negative,
    read and solved; the answer is drawn on the photo as taken. Turned off: no grid."""
    path = SAMPLES / "screen" / "dark_mode.jpg"
    result, drawn = Reader().solve(path)
    assert result.error is None and result.image is not None and drawn is not None
    grid = result.grids[0]
    assert (grid.givens, grid.status.value) == (digits_of(path.with_suffix(".dat"), 2), "solved")
    assert float(result.image.mean()) < 80  # the dark photo itself, not its negative
    answered = ink_cells(result.image, drawn, grid.detection.lattice)
    assert answered == {c for c in range(81) if grid.givens[c] == "0"}
    off = Reader(config=PipelineConfig(polarity=PolarityConfig(on=False))).read(path)
    assert not off.grids and off.error == NO_GRID_MESSAGE
