"""The structure step: jigsaw regions from thick borders, Sudoku X from marked diagonals.

Tiny synthetic grids test each decision; rendered photos test the whole reader on them.
"""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from sudokucam.solver.variant import Variant
from sudokucam.solver.variant_sample import random_regions
from sudokucam.vision.structure import DiagonalMark, StructureConfig, find_structure
from sudokucam.vision.structure.borders import box_labels
from sudokucam.vision.types import CLASSIC_STRUCTURE, box_regions

CELL = 24


def canonical(labels: tuple[int, ...]) -> tuple[int, ...]:
    """Region labels renumbered in reading order (a partition compares equal to itself)."""
    names = list(dict.fromkeys(labels))
    return tuple(names.index(x) for x in labels)


def drawn_grid(labels: tuple[int, ...], thin: int = 1, thick: int = 4) -> np.ndarray:
    """A white 9×9 grid, borders between two regions ``thick`` pixels, others ``thin``."""
    side = 9 * CELL
    img = np.full((side, side), 250, np.uint8)
    for r in range(9):
        for c in range(9):
            x, y = c * CELL, r * CELL
            if c < 8:
                w = thick if labels[r * 9 + c] != labels[r * 9 + c + 1] else thin
                img[y : y + CELL, x + CELL - w // 2 : x + CELL - w // 2 + w] = 30
            if r < 8:
                w = thick if labels[r * 9 + c] != labels[r * 9 + c + 9] else thin
                img[y + CELL - w // 2 : y + CELL - w // 2 + w, x : x + CELL] = 30
    return cv2.GaussianBlur(img, (3, 3), 0.8)


def with_digits(img: np.ndarray, seed: int) -> np.ndarray:
    """Some printed digits in random cells."""
    rng = np.random.default_rng(seed)
    out = img.copy()
    for cell in rng.choice(81, 28, replace=False):
        r, c = divmod(int(cell), 9)
        org = (c * CELL + 7, r * CELL + 19)
        cv2.putText(out, str(rng.integers(1, 10)), org, cv2.FONT_HERSHEY_SIMPLEX, 0.6, 20, 2)
    return out


def test_boxes_drawn_thick_are_classic() -> None:
    assert find_structure(with_digits(drawn_grid(box_labels()), 1)) == CLASSIC_STRUCTURE


def test_all_lines_alike_are_classic() -> None:
    img = with_digits(drawn_grid(box_labels(), thin=2, thick=2), 2)
    assert find_structure(img) == CLASSIC_STRUCTURE


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_jigsaw_regions_are_read_from_thick_borders(seed: int) -> None:
    regions = random_regions(9, random.Random(seed))
    found = find_structure(with_digits(drawn_grid(regions), seed))
    assert found.variant is Variant.JIGSAW
    assert canonical(found.regions) == canonical(regions)
    assert not found.diagonals


def penned(labels: tuple[int, ...], seed: int) -> np.ndarray:
    """A jigsaw grid as a pen leaves it: one thin border inside a region written along
    heavily, two thick borders between regions paled (shadow), so the widest gap in the
    borders' ink no longer splits thin from thick."""
    img = with_digits(drawn_grid(labels), seed)
    grid = np.array(labels).reshape(9, 9)
    r, c = next((r, c) for r in range(9) for c in range(8) if grid[r, c] == grid[r, c + 1])
    img[r * CELL + 3 : (r + 1) * CELL - 3, (c + 1) * CELL - 1 : (c + 1) * CELL + 2] = 70
    between = [(r, c) for r in range(8) for c in range(9) if grid[r, c] != grid[r + 1, c]]
    for r, c in between[:2]:
        band = img[(r + 1) * CELL - 3 : (r + 1) * CELL + 3, c * CELL : (c + 1) * CELL]
        band[:] = np.maximum(band, 150)
    return img


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_jigsaw_regions_under_pen_and_shadow_are_read(seed: int) -> None:
    """The next widest gaps, then a border or two taken the other way, find the regions."""
    regions = random_regions(9, random.Random(seed))
    found = find_structure(penned(regions, seed))
    assert found.variant is Variant.JIGSAW
    assert canonical(found.regions) == canonical(regions)


def test_jigsaw_regions_half_in_deep_shadow_are_read() -> None:
    """A shadow over half the page dims its thick lines below the thin ones in the light;
    each border weighed against its own paper's brightness, the regions are read."""
    regions = random_regions(9, random.Random(5))
    img = with_digits(drawn_grid(regions, thin=2, thick=4), 5).astype(np.float64)
    img[:, int(4.5 * CELL) :] *= 0.25  # the shadow's edge across the middle of a cell
    found = find_structure(img.astype(np.uint8))
    assert found.variant is Variant.JIGSAW
    assert canonical(found.regions) == canonical(regions)


def test_broken_borders_give_no_regions() -> None:
    """Thick borders that do not close nine regions of nine are no jigsaw."""
    labels = list(box_labels())
    labels[0], labels[40] = labels[40], labels[0]  # two cells cut off from their regions
    assert find_structure(drawn_grid(tuple(labels))) == CLASSIC_STRUCTURE


def test_regions_off_in_the_config_are_not_read() -> None:
    regions = random_regions(9, random.Random(3))
    found = find_structure(drawn_grid(regions), config=StructureConfig(regions=False))
    assert found == CLASSIC_STRUCTURE


def diagonal_lines(img: np.ndarray, grey: int = 110) -> np.ndarray:
    """Both main diagonals drawn as thin grey lines."""
    out, side = img.copy(), img.shape[0] - 1
    cv2.line(out, (0, 0), (side, side), grey, 1, cv2.LINE_AA)
    cv2.line(out, (side, 0), (0, side), grey, 1, cv2.LINE_AA)
    return out


def shaded_diagonals(img: np.ndarray, tint: int = 205) -> np.ndarray:
    """The cells of both main diagonals tinted grey under the ink."""
    out = img.copy()
    for i in range(9):
        for c in {i, 8 - i}:
            cell = out[i * CELL : (i + 1) * CELL, c * CELL : (c + 1) * CELL]
            np.minimum(cell, tint, out=cell)
    return out


def test_diagonal_lines_make_a_sudoku_x() -> None:
    found = find_structure(with_digits(diagonal_lines(drawn_grid(box_labels())), 4))
    assert (found.variant, found.diagonals, found.diagonal_mark) == (
        Variant.X, True, DiagonalMark.LINES
    )  # fmt: skip
    assert found.regions == ()


def test_shaded_diagonal_cells_make_a_sudoku_x() -> None:
    found = find_structure(shaded_diagonals(with_digits(drawn_grid(box_labels()), 5)))
    assert (found.variant, found.diagonal_mark) == (Variant.X, DiagonalMark.SHADED)


def test_one_diagonal_is_no_sudoku_x() -> None:
    img = drawn_grid(box_labels())
    cv2.line(img, (0, 0), (img.shape[0] - 1, img.shape[0] - 1), 110, 1, cv2.LINE_AA)
    assert find_structure(img) == CLASSIC_STRUCTURE


def test_tinted_boxes_are_no_shaded_diagonals() -> None:
    """Newspapers tint every other box: whole boxes, so no diagonal stands out."""
    img = with_digits(drawn_grid(box_labels()), 6)
    for box in (0, 2, 4, 6, 8):
        r, c = divmod(box, 3)
        part = img[3 * r * CELL : 3 * (r + 1) * CELL, 3 * c * CELL : 3 * (c + 1) * CELL]
        np.minimum(part, 205, out=part)
    assert find_structure(img) == CLASSIC_STRUCTURE


def test_jigsaw_x_keeps_both() -> None:
    regions = random_regions(9, random.Random(7))
    found = find_structure(diagonal_lines(drawn_grid(regions)))
    assert found.variant is Variant.JIGSAW and found.diagonals
    assert found.name == "jigsaw Sudoku X"


def test_structure_speaks_its_regions_as_rows() -> None:
    assert CLASSIC_STRUCTURE.region_rows()[3] == "444555666"
    assert box_regions(9) == box_labels()


@pytest.mark.parametrize(
    ("image", "error"),
    [
        ([[0]], TypeError),
        (np.zeros((9 * CELL, 9 * CELL), np.float32), ValueError),
        (np.zeros((9 * CELL, 9 * CELL, 3), np.uint8), ValueError),
        (np.zeros((40, 40), np.uint8), ValueError),
        (np.zeros((9 * CELL + 1, 9 * CELL + 1), np.uint8), ValueError),
    ],
)
def test_bad_warped_grids_are_refused(image: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        find_structure(image)  # type: ignore[arg-type]
