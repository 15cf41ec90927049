"""Ink colour settles print vs pen: measured per cell, used only when the two inks differ."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sudokucam.vision.grid.warp import ideal_lattice
from sudokucam.vision.read import decide
from sudokucam.vision.read.decide import KindDecisionConfig, decide_kinds
from sudokucam.vision.read.ink_colour import (
    InkColourConfig,
    cell_ink_colours,
    colour_evidence,
    ink_tints,
    trusted_tints,
)
from sudokucam.vision.read.kind_trace import KindStep
from sudokucam.vision.read.symmetry import SymmetryConfig
from sudokucam.vision.types import CellReading, CellScores, Kind

# the pages' printed cells below are nearly half-turn symmetric (9 of 10), so the
# symmetry step would move the unsure cells too: it is off, and colour is judged alone
NO_SYMMETRY = SymmetryConfig(weight=0.0)

CELL = 40
MARGIN = 20
PAPER = (200, 228, 238)  # BGR: a warm, yellowish page under indoor light
BLACK = (40, 40, 40)
BLUE = (170, 60, 20)
PRINTED_CELLS = [0, 4, 8, 20, 30, 40, 50, 60, 72, 80]
PEN_CELLS = [2, 6, 13, 27, 44, 55, 66, 77]


def page(pen_colour: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """A photo of a grid with black printed digits and pen digits in ``pen_colour``."""
    side = 2 * MARGIN + 9 * CELL
    image = np.empty((side, side, 3), dtype=np.uint8)
    image[:] = PAPER
    for i in range(10):
        at = MARGIN + i * CELL
        cv2.line(image, (at, MARGIN), (at, side - MARGIN), BLACK, 2)
        cv2.line(image, (MARGIN, at), (side - MARGIN, at), BLACK, 2)
    for cells, colour, font in (
        (PRINTED_CELLS, BLACK, cv2.FONT_HERSHEY_SIMPLEX),
        (PEN_CELLS, pen_colour, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX),
    ):
        for cell in cells:
            row, col = divmod(cell, 9)
            origin = (MARGIN + col * CELL + 11, MARGIN + row * CELL + 31)
            cv2.putText(image, str(cell % 9 + 1), origin, font, 0.9, colour, 2, cv2.LINE_AA)
    return image, ideal_lattice(CELL, MARGIN)


def scores(log_odds: dict[int, float]) -> CellScores:
    """Scores whose filled cells have the given printed-vs-pen log-odds (others empty), and
    no cell images (so only the ink-colour step can follow the classifier's)."""
    probs = np.zeros((81, 19), dtype=np.float32)
    probs[:, 0] = 1.0
    for cell, value in log_odds.items():
        digit = cell % 9 + 1
        printed = 1.0 / (1.0 + np.exp(-value))
        probs[cell] = 0.0
        probs[cell, digit], probs[cell, digit + 9] = printed, 1.0 - printed
    return CellScores(probs)


def by_colour(
    log_odds: dict[int, float],
    image: np.ndarray,
    lattice: np.ndarray,
    config: InkColourConfig = InkColourConfig(),
) -> CellReading:
    """The reading ``decide_kinds`` settles from ``scores(log_odds)`` in ``image``."""
    settings = KindDecisionConfig(ink_colour=config, symmetry=NO_SYMMETRY)
    return decide_kinds(scores(log_odds), image, lattice, settings)


def classifier_only(log_odds: dict[int, float]) -> CellReading:
    """The reading settled by the classifier alone (no photo)."""
    return decide_kinds(scores(log_odds), config=KindDecisionConfig(symmetry=NO_SYMMETRY))


# Sure print everywhere it is, sure pen in all but two pen cells: r1c3 reads as print
# (log-odds +2), r2c5 (cell 13) as pen only just (-0.5).
UNSURE_PEN = {2: 2.0, 13: -0.5}
ODDS = {c: 9.0 for c in PRINTED_CELLS} | {c: -9.0 for c in PEN_CELLS} | UNSURE_PEN


def test_ink_colour_is_measured_against_each_cells_paper() -> None:
    image, lattice = page(BLUE)
    colours = cell_ink_colours(image, lattice)
    assert colours.shape == (81, 3)
    printed, pen = colours[PRINTED_CELLS], colours[PEN_CELLS]
    empty = np.delete(colours, PRINTED_CELLS + PEN_CELLS, axis=0)
    assert (printed[:, 0] < -20).all() and (pen[:, 0] < -20).all()  # ink is darker than paper
    assert np.abs(empty).max() < 3  # nothing but paper: no difference
    # The paper's yellow cast cancels: black print has little tint, the blue pen a lot.
    assert np.abs(ink_tints(printed)).max() < 0.15
    assert (ink_tints(pen)[:, 1] < -0.5).all()  # b* well below the paper's: blue


def test_a_coloured_pen_settles_unsure_cells() -> None:
    image, lattice = page(BLUE)
    settled = by_colour(ODDS, image, lattice)
    assert [Kind(settled.kinds[c]) for c in UNSURE_PEN] == [Kind.HANDWRITTEN] * 2
    assert (settled.kinds[PRINTED_CELLS] == Kind.PRINTED).all()
    assert (settled.kinds[PEN_CELLS] == Kind.HANDWRITTEN).all()
    assert settled.kind_log_odds is not None and settled.kind_log_odds[2] < -1.0
    assert (settled.digits == classifier_only(ODDS).digits).all()  # only kinds change


def test_a_black_pen_changes_nothing() -> None:
    image, lattice = page(BLACK)
    before = classifier_only(ODDS)
    settled = by_colour(ODDS, image, lattice)
    assert (settled.kinds == before.kinds).all()
    assert settled.kinds[2] == Kind.PRINTED  # colour cannot tell, the classifier's call stands


def test_sure_cells_keep_their_kind_whatever_their_colour() -> None:
    image, lattice = page(BLUE)
    odds = ODDS | {2: 9.5}  # r1c3 is blue but the classifier is sure it is print
    assert by_colour(odds, image, lattice).kinds[2] == Kind.PRINTED


def test_a_coloured_pen_digit_read_surely_as_print_is_pen() -> None:
    """A hand's 7 the classifier takes for a printed 1 at log-odds +6 (sure print, by the
    classifier's ink alone) is in the pen's blue: the colour reaches it and it is pen,
    while the black print read at the same log-odds stays print."""
    image, lattice = page(BLUE)
    odds = ODDS | {2: 6.0, 4: 6.0}  # r1c3 blue pen, r1c5 black print
    settled = by_colour(odds, image, lattice)
    assert settled.kinds[2] == Kind.HANDWRITTEN
    assert settled.kinds[4] == Kind.PRINTED
    narrow = by_colour(odds, image, lattice, InkColourConfig(print_reach_log_odds=4.0))
    assert narrow.kinds[2] == Kind.PRINTED


def test_a_pen_digit_read_surely_as_pen_keeps_its_kind_whatever_its_colour() -> None:
    """The wider reach is for print only: a pen cell the classifier is sure of (-6) keeps
    its kind even in a black ink like the print's (a dark pen's tint passes for print's)."""
    image, lattice = page(BLUE)
    cv2.putText(
        image,
        "8",
        (MARGIN + 7 * CELL + 11, MARGIN + 31),
        cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
        0.9,
        BLACK,
        2,
        cv2.LINE_AA,
    )  # r1c8 in black pen
    odds = ODDS | {7: -6.0}
    assert by_colour(odds, image, lattice).kinds[7] == Kind.HANDWRITTEN
    wide = InkColourConfig(ambiguous_log_odds=9.0)
    assert by_colour(odds, image, lattice, wide).kinds[7] == Kind.PRINTED


def test_evidence_needs_enough_sure_cells_of_both_kinds() -> None:
    pen_cells = PEN_CELLS[:4]  # too few to stand in for sure pen cells on their own
    tints = np.zeros((81, 2))
    tints[pen_cells] = (0.5, -1.2)
    filled = np.zeros(81, dtype=bool)
    filled[PRINTED_CELLS + pen_cells] = True
    log_odds = np.where(filled, 9.0, 0.0)
    log_odds[pen_cells[:2]] = -9.0  # only two sure pen cells
    log_odds[pen_cells[2:]] = 1.0
    assert not colour_evidence(log_odds, filled, tints).any()
    log_odds[pen_cells[2]] = -9.0  # three are enough
    evidence = colour_evidence(log_odds, filled, tints)
    assert evidence[pen_cells[3]] < -1.0
    assert not evidence[PRINTED_CELLS].any()  # sure cells get no evidence


def test_ink_too_faint_for_its_tint_gives_none() -> None:
    """Sure pen cells so faint that their tint is the paper's (ΔL* 6, under
    ``min_reference_darkness``) give no tint: an unsure cell is left as it is, where
    with them trusted it would be pulled towards print."""
    colours = np.zeros((81, 3))
    colours[PRINTED_CELLS] = (-90.0, 2.0, 0.0)
    colours[PEN_CELLS] = (-6.0, 4.0, 0.0)  # faint pencil: a* from the paper's balance
    unsure = PEN_CELLS[0]
    colours[unsure] = (-8.0, 0.5, -0.5)
    tints = ink_tints(colours)
    filled = np.zeros(81, dtype=bool)
    filled[PRINTED_CELLS + PEN_CELLS] = True
    log_odds = np.where(filled, 9.0, 0.0)
    log_odds[PEN_CELLS] = -20.0
    log_odds[unsure] = 0.0
    assert colour_evidence(log_odds, filled, tints)[unsure] > 1.0
    trusted = trusted_tints(colours, InkColourConfig())
    assert not trusted[PEN_CELLS].any() and trusted[PRINTED_CELLS].all()
    assert colour_evidence(log_odds, filled, tints, trusted=trusted)[unsure] == 0.0


def test_a_neat_coloured_pen_is_found_with_no_sure_pen_cell() -> None:
    image, lattice = page(BLUE)
    neat = {c: 9.0 for c in PRINTED_CELLS} | {c: 1.5 for c in PEN_CELLS}  # pen read as print
    settled = by_colour(neat, image, lattice)
    assert (settled.kinds[PEN_CELLS] == Kind.HANDWRITTEN).all()
    assert (settled.kinds[PRINTED_CELLS] == Kind.PRINTED).all()
    # A black pen gives colour nothing to go on: the classifier's call stands.
    black, _ = page(BLACK)
    assert (by_colour(neat, black, lattice).kinds[PEN_CELLS] == Kind.PRINTED).all()


def test_no_pen_is_inferred_under_a_colour_cast_or_from_a_few_stray_cells() -> None:
    tints = np.zeros((81, 2))
    filled = np.zeros(81, dtype=bool)
    filled[PRINTED_CELLS + PEN_CELLS] = True
    log_odds = np.where(filled, 9.0, 0.0)
    log_odds[PEN_CELLS] = 1.0
    tints[PEN_CELLS] = (0.5, -1.2)
    assert (colour_evidence(log_odds, filled, tints)[PEN_CELLS] < -1.0).all()
    cast = tints.copy()
    cast[PRINTED_CELLS] = (0.2, 0.6)  # print itself far from neutral: colour is not to be trusted
    assert not colour_evidence(log_odds, filled, cast).any()
    stray = np.zeros((81, 2))
    stray[PEN_CELLS[:4]] = (0.5, -1.2)  # four odd cells are not a pen
    assert not colour_evidence(log_odds, filled, stray).any()


def test_step_is_off_for_weight_zero_and_grey_photos() -> None:
    image, lattice = page(BLUE)
    before = classifier_only(ODDS)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    for settled in (
        by_colour(ODDS, image, lattice, InkColourConfig(weight=0.0)),
        by_colour(ODDS, grey, lattice),
    ):
        assert settled.trace is not None
        assert [s.step for s in settled.trace.steps] == [KindStep.CLASSIFIER]
        assert (settled.kinds == before.kinds).all()
    coloured = by_colour(ODDS, image, lattice).trace
    assert coloured is not None and coloured.steps[-1].step is KindStep.INK_COLOUR


def test_bad_inputs_and_settings_are_refused() -> None:
    image, lattice = page(BLUE)
    with pytest.raises(ValueError, match="BGR uint8"):
        cell_ink_colours(image.astype(np.float32), lattice)
    with pytest.raises(ValueError, match="lattice"):
        cell_ink_colours(image, lattice[:9])
    with pytest.raises(ValueError, match="ink_share"):
        InkColourConfig(ink_share=0.6)
    with pytest.raises(ValueError, match="inset_fraction"):
        InkColourConfig(inset_fraction=0.5)


def test_the_ink_is_measured_only_when_a_cell_is_unsure(monkeypatch: pytest.MonkeyPatch) -> None:
    """With every filled cell sure when the colour step comes, the step adds nothing
    whatever the tints, so the cells' ink is not measured; with one unsure it is."""
    image, lattice = page(BLUE)
    measured: list[int] = []

    def counted(*args: object) -> np.ndarray:
        measured.append(1)
        return cell_ink_colours(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(decide, "cell_ink_colours", counted)
    sure = {c: 12.0 for c in PRINTED_CELLS} | {c: -12.0 for c in PEN_CELLS}
    settled, alone = by_colour(sure, image, lattice), classifier_only(sure)
    assert not measured
    assert settled.kind_log_odds is not None and alone.kind_log_odds is not None
    assert (settled.kinds == alone.kinds).all()
    assert np.array_equal(settled.kind_log_odds, alone.kind_log_odds)
    assert by_colour(ODDS, image, lattice).kinds[2] == Kind.HANDWRITTEN
    assert measured == [1]


def test_a_killers_sums_are_the_printed_ink_a_page_without_givens_lacks() -> None:
    """A Killer page with no given: its pen digits are the only filled cells, the neat
    ones unsure. Nothing filled is surely printed, so colour cannot tell; the cells whose
    ink is known print (its sums, masked from the reader: here the printed cells read
    empty) give the printed tint, and the unsure blue digits lean to pen."""
    image, lattice = page(BLUE)
    sure = {cell: -8.0 for cell in PEN_CELLS[:4]}
    unsure = {cell: 1.0 for cell in PEN_CELLS[4:]}
    settings = KindDecisionConfig(symmetry=NO_SYMMETRY)
    alone = decide_kinds(scores(sure | unsure), image, lattice, settings)
    assert all(alone.kinds[c] == Kind.PRINTED for c in unsure)
    sums = frozenset(PRINTED_CELLS)
    helped = decide_kinds(scores(sure | unsure), image, lattice, settings, sums)
    assert all(helped.kinds[c] == Kind.HANDWRITTEN for c in unsure)
    assert all(helped.kinds[c] == Kind.EMPTY for c in PRINTED_CELLS)
