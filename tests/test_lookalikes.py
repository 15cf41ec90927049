"""Puzzles that look like a Sudoku but are not one are named, never read as a Sudoku."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from sudokucam.samples.render import LOOKALIKES, render_lookalike
from sudokucam.samples.synth.lookalikes import render_sudoku_beside_crossword
from sudokucam.samples.synth.small_drawing import render_small_photo
from sudokucam.solver import Outcome
from sudokucam.ui.cli import app
from sudokucam.vision.pipeline import PipelineConfig, Reader, default_reader
from sudokucam.vision.small.sixteen_config import DEFAULT_TWELVE_CONFIG
from sudokucam.vision.structure import Lookalike, page_lookalike
from sudokucam.vision.structure.config import DEFAULT_LOOKALIKE_CONFIG
from sudokucam.vision.structure.lookalike import square_lookalike

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
NAMES = {
    "samurai": "Samurai Sudoku",
    "kakuro": "Kakuro",
    "kenken": "KenKen",
    "crossword": "crossword",
}
runner = CliRunner()


@pytest.mark.parametrize("kind", LOOKALIKES)
def test_committed_lookalike_is_named_and_refused(kind: str, tmp_path: Path) -> None:
    photo = SAMPLES / "lookalikes" / f"{kind}.jpg"
    done = runner.invoke(app, ["solve", str(photo), "-o", str(tmp_path / "out.jpg")])
    assert done.exit_code == 1
    expected = f"this looks like a {NAMES[kind]}"
    assert expected in done.output and "sudokucam reads Sudoku variants only" in done.output
    assert "Traceback" not in done.output


@pytest.mark.slow
@pytest.mark.parametrize("kind", LOOKALIKES)
@pytest.mark.parametrize("seed", [3, 4])
def test_rendered_lookalikes_are_never_read_as_a_sudoku(kind: str, seed: int) -> None:
    image, _ = render_lookalike(seed, kind)
    result = default_reader().read(image)
    assert result.grids == ()
    assert result.error == Lookalike[kind.upper()].message


def test_the_committed_sudokus_are_no_lookalikes() -> None:
    for photo in sorted(SAMPLES.glob("*/*.jpg")):
        if photo.parent.name in ("lookalikes", "pages"):  # pages: crosswords beside Sudokus
            continue
        gray = cv2.imread(str(photo), cv2.IMREAD_GRAYSCALE)
        # the 12×12's outline measures as one (read first: tests/test_twelve.py)
        named = Lookalike.TWELVE if photo.stem.startswith("twelve") else None
        assert gray is not None and page_lookalike(np.asarray(gray)) is named, photo


@pytest.mark.parametrize("seed", [2, 3])
def test_a_sudoku_that_fails_beside_a_big_crossword_is_not_named_a_crossword(seed: int) -> None:
    """The page's largest outline is a crossword, but the grid found is the Sudoku (too
    few givens to solve): it keeps its own status, and no look-alike is named."""
    image, truth = render_sudoku_beside_crossword(seed, size=(1600, 1200))
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    assert page_lookalike(gray) is Lookalike.CROSSWORD  # the neighbour, measured alone
    result = default_reader().read(image)
    assert result.error is None
    assert [g.status for g in result.grids] == [Outcome.MULTIPLE_SOLUTIONS]
    assert result.grids[0].givens == "".join(str(d) for row in truth["givens"] for d in row)


def drawn(n: int, black: set[tuple[int, int]], cell: int = 30) -> np.ndarray:
    """An n×n ruled grid on white, ``black`` cells filled."""
    img = np.full((n * cell + 1, n * cell + 1), 245, np.uint8)
    for r, c in black:
        img[r * cell : (r + 1) * cell, c * cell : (c + 1) * cell] = 20
    for i in range(n + 1):
        img[:, min(i * cell, n * cell)] = 30
        img[min(i * cell, n * cell), :] = 30
    return cv2.resize(img, (630, 630), interpolation=cv2.INTER_AREA)


def test_black_squares_make_a_crossword_and_a_black_edge_a_kakuro() -> None:
    rng = np.random.default_rng(0)
    squares = {(int(r), int(c)) for r, c in rng.integers(1, 15, (40, 2))}
    assert square_lookalike(drawn(15, squares), DEFAULT_LOOKALIKE_CONFIG) is Lookalike.CROSSWORD
    edge = {(0, c) for c in range(10)} | {(r, 0) for r in range(10)}
    kakuro = drawn(10, edge | {(int(r), int(c)) for r, c in rng.integers(1, 10, (12, 2))})
    assert square_lookalike(kakuro, DEFAULT_LOOKALIKE_CONFIG) is Lookalike.KAKURO


def test_a_plain_ruled_grid_is_no_lookalike() -> None:
    assert square_lookalike(drawn(9, set()), DEFAULT_LOOKALIKE_CONFIG) is None


@pytest.mark.parametrize(("seed", "style"), [(0, "kids"), (1, "book"), (107, "kids")])
def test_a_12x12_photo_the_12x12_reader_misses_is_named_never_read_as_another_size(
    seed: int, style: str
) -> None:
    """With the 12×12 reader off (``PipelineConfig.twelve``; it reads these photos:
    tests/test_twelve.py), the photo is still named: seed 0 was read as an invalid 9×9,
    seed 1 as a 4×4 with several solutions; on seed 107 only yesterday's answer beside it
    was found (printed full)."""
    off = PipelineConfig(twelve=replace(DEFAULT_TWELVE_CONFIG, enabled=False))
    result = Reader(config=off).read(render_small_photo(seed, 12, style).photo.image)
    assert result.grids == ()
    assert result.error == Lookalike.TWELVE.message
    assert result.error.startswith("this looks like a 12×12 Sudoku, but its grid could not")


def test_lines_at_every_twelfth_make_a_12x12_not_a_16x16() -> None:
    """Lines at every twelfth both ways (and not every sixteenth) name a 12×12."""
    side = DEFAULT_LOOKALIKE_CONFIG.side
    for n, named in ((12, Lookalike.TWELVE), (16, None), (9, None)):
        square = np.full((side, side), 255, np.uint8)
        for k in range(n + 1):
            x = min(side - 2, round(k * (side - 1) / n))
            square[:, x : x + 2] = 0
            square[x : x + 2, :] = 0
        assert square_lookalike(square, DEFAULT_LOOKALIKE_CONFIG) is named, n
