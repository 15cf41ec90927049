"""Faint pencil read again at its own contrast; erasure ghosts and paper grain left empty."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sudokucam.vision.read.classifier import default_classifier
from sudokucam.vision.read.faint import (
    FaintConfig,
    cell_ink,
    faint_candidates,
    faint_page_ink,
    reread_faint,
)

SIZE = 32


def stroke_cell(text: str, ink: float) -> np.ndarray:
    """A (32, 32) ink image of a digit drawn with a pen stroke at ``ink`` darkness."""
    cell = np.zeros((SIZE, SIZE), np.uint8)
    cv2.putText(cell, text, (9, 25), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 0.8, 255, 2)
    return cell.astype(np.float32) * (ink / 255)


def page(entry_ink: float, other_ink: float) -> tuple[np.ndarray, np.ndarray]:
    """Three written entries at ``entry_ink`` and one cell read as empty at ``other_ink``:
    the cells and their (4, 19) digit probabilities."""
    cells = np.stack([stroke_cell(d, entry_ink) for d in "475"] + [stroke_cell("3", other_ink)])
    digit = np.zeros((4, 19))
    digit[[0, 1, 2], [13, 16, 14]] = 0.95
    digit[[0, 1, 2], 0] = 0.05
    digit[3, 0] = 0.9
    digit[3, 11] = 0.1
    return cells, digit


def test_a_cell_as_faint_as_the_written_entries_is_read_again() -> None:
    """The page's writing is faint (0.12): a cell read empty at the same ink is a candidate."""
    cells, digit = page(0.12, 0.12)
    todo = faint_candidates(digit, np.zeros(4), cell_ink(cells), FaintConfig())
    assert todo.tolist() == [False, False, False, True]


def test_an_erasure_ghost_or_grain_is_not() -> None:
    """Writing at 0.6 and a ghost at 0.15 (a quarter of it), or nothing but grain: no
    candidate; nor where the cell may hold notes, nor on a page with no writing."""
    config = FaintConfig()
    cells, digit = page(0.6, 0.15)
    assert not faint_candidates(digit, np.zeros(4), cell_ink(cells), config).any()
    cells, digit = page(0.12, 0.03)
    assert not faint_candidates(digit, np.zeros(4), cell_ink(cells), config).any()
    cells, digit = page(0.12, 0.12)
    notes = np.array([0.0, 0.0, 0.0, 0.5])
    assert not faint_candidates(digit, notes, cell_ink(cells), config).any()
    digit[:3] = 0.0
    digit[:3, 0] = 1.0
    assert not faint_candidates(digit, np.zeros(4), cell_ink(cells), config).any()


def test_reread_stretches_the_cell_and_keeps_only_sure_written_digits() -> None:
    """The shipped model reads a faint written 3 stretched to an entry's contrast; an
    off switch reads nothing."""
    model = default_classifier()
    cells, _ = page(0.12, 0.12)
    todo = np.array([False, False, False, True])
    again = reread_faint(cells, todo, model.predict, model.digit_probs)
    assert again.cells.tolist() == [3]
    assert int(np.argmax(model.digit_probs(again.probs)[0])) == 12  # handwritten 3
    assert float(again.images.max()) == pytest.approx(0.8, abs=0.05)
    off = reread_faint(cells, todo, model.predict, model.digit_probs, FaintConfig(on=False))
    assert off.cells.size == 0


def test_a_faint_digit_read_unsurely_is_read_again_but_no_darker_cell() -> None:
    """A cell read as a digit, but 0.35 likely empty (the pen step would take it for a
    faint mark), is a candidate; one only 0.2 likely empty is not, nor is a cell read as
    empty with ink three times the writing's (print is far darker than faint pencil)."""
    config = FaintConfig()
    cells, digit = page(0.12, 0.12)
    digit[3, 0], digit[3, 11], digit[3, 2] = 0.35, 0.4, 0.25
    assert faint_candidates(digit, np.zeros(4), cell_ink(cells), config).tolist()[3]
    digit[3, 0], digit[3, 11] = 0.2, 0.55
    assert not faint_candidates(digit, np.zeros(4), cell_ink(cells), config).any()
    dark, digit = page(0.12, 0.36)
    assert not faint_candidates(digit, np.zeros(4), cell_ink(dark), config).any()
    assert faint_candidates(digit, np.zeros(4), cell_ink(dark), FaintConfig(max_share=4.0))[3]


def test_a_sure_digit_read_half_as_print_is_taken_as_written() -> None:
    """Stretched, a cell reads 3 as 0.5 printed and 0.45 written: with ``as_written`` it is
    a sure written 3; without, it is no sure written digit and is not taken."""
    probs = np.full((1, 21), 0.05 / 19, dtype=np.float32)
    probs[0, 3], probs[0, 12] = 0.5, 0.45
    cells = np.full((1, SIZE, SIZE), 0.1, dtype=np.float32)
    model = default_classifier()

    def predict(images: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return probs, np.zeros((len(images), 1), dtype=np.float32)

    again = reread_faint(cells, np.array([True]), predict, model.digit_probs)
    assert again.cells.tolist() == [0]
    digit = model.digit_probs(again.probs)[0]
    assert digit[12] == pytest.approx(0.95, abs=0.01) and digit[1:10].max() == 0.0
    off = FaintConfig(as_written=False)
    assert reread_faint(cells, np.array([True]), predict, model.digit_probs, off).cells.size == 0


def test_a_faint_digit_read_too_unsurely_is_asked_about() -> None:
    """The shipped model's stretched 3, kept only where it is surer than it reads, is
    asked about instead (``unsure``); below ``ask_from`` it is neither taken nor asked."""
    model = default_classifier()
    cells, _ = page(0.12, 0.12)
    todo = np.array([False, False, False, True])
    again = reread_faint(cells, todo, model.predict, model.digit_probs)
    best = float(model.digit_probs(again.probs)[0, 10:19].max())
    strict = FaintConfig(sure_from=min(1.0, best + 1e-3), ask_from=best / 2)
    unsure = reread_faint(cells, todo, model.predict, model.digit_probs, strict)
    assert unsure.cells.size == 0 and unsure.unsure.tolist() == [3]
    mute = FaintConfig(sure_from=min(1.0, best + 1e-3), ask_from=min(1.0, best + 1e-3))
    assert reread_faint(cells, todo, model.predict, model.digit_probs, mute).unsure.size == 0


def faint_page(entry_ink: float, entries: int) -> tuple[np.ndarray, np.ndarray]:
    """A page where no cell reads as a written digit: ``entries`` written digits at
    ``entry_ink`` that the model calls empty with a hint of writing (0.1), and grain
    elsewhere; the cells and their (N, 19) digit probabilities."""
    rng = np.random.default_rng(7)
    written = [stroke_cell(d, entry_ink) for d in "47513689"[:entries]]
    grain = rng.uniform(0.0, 0.06, (16 - entries, SIZE, SIZE)).astype(np.float32)
    cells = np.concatenate([np.stack(written), grain]) if written else grain
    digit = np.zeros((16, 19))
    digit[:, 0] = 0.9
    digit[:entries, 0], digit[:entries, 11] = 0.85, 0.15
    return cells, digit


def test_all_too_faint_writing_is_found_by_its_own_reading() -> None:
    """No cell reads as a written digit, but eight faint written digits stretched read
    surely: their ink (0.1) is the page's writing's. Five, or grain alone, are no writing."""
    model = default_classifier()
    cells, digit = faint_page(0.1, 8)
    level = faint_page_ink(cells, digit, np.zeros(16), model.predict, model.digit_probs)
    assert level == pytest.approx(float(np.median(cell_ink(cells[:8]))))
    cells, digit = faint_page(0.1, 5)
    assert faint_page_ink(cells, digit, np.zeros(16), model.predict, model.digit_probs) is None
    cells, digit = faint_page(0.1, 8)
    digit[:8, 0], digit[:8, 11] = 0.99, 0.01  # no hint of writing: not even read
    assert faint_page_ink(cells, digit, np.zeros(16), model.predict, model.digit_probs) is None
    grain, digit = faint_page(0.1, 0)
    digit[:, 0], digit[:, 11] = 0.85, 0.15  # grain the model sees a hint of writing in
    assert faint_page_ink(grain, digit, np.zeros(16), model.predict, model.digit_probs) is None


@pytest.mark.parametrize("field", ["sure_from", "stretch_to", "ask_from", "page_from"])
def test_config_is_checked(field: str) -> None:
    bad = {"ask_from": 0.95, "page_from": 0}.get(field, 0.0)
    with pytest.raises(ValueError, match=field):
        FaintConfig(**{field: bad})  # type: ignore[arg-type]


def test_cell_ink_is_numpys_percentile_of_each_cells_inside() -> None:
    """Each cell's ink is ``np.percentile`` of its pixels inside the border, bit for bit."""
    rng = np.random.default_rng(7)
    cells = (rng.random((81, 32, 32), dtype=np.float32) ** 6).astype(np.float32)
    config = FaintConfig()
    b = config.border_px
    inner = cells[:, b : 32 - b, b : 32 - b].reshape(81, -1)
    expected = np.percentile(inner, config.ink_percentile, axis=1).astype(np.float64)
    assert np.array_equal(cell_ink(cells, config), expected)
