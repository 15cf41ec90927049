"""Print or pen in one order: every filled cell's kind names the step that decided it."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from sudokucam.solver.geometry import cell_name
from sudokucam.ui.cli import app
from sudokucam.vision.grid.warp import ideal_lattice
from sudokucam.vision.pipeline import PipelineConfig, Reader
from sudokucam.vision.read.classifier import default_classifier
from sudokucam.vision.read.config import ReadConfig
from sudokucam.vision.read.copies import CopyConfig
from sudokucam.vision.read.decide import KindDecisionConfig, decide_kinds
from sudokucam.vision.read.kind_trace import KindStep, KindTrace, LaterChange, StepOdds
from sudokucam.vision.read.placement import PlacementConfig
from sudokucam.vision.read.symmetry import SymmetryConfig
from sudokucam.vision.results import GridResult
from sudokucam.vision.types import CellReading, CellScores, Kind

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
CELL, MARGIN = 40, 20
PAPER, BLACK, BLUE = (235, 238, 240), (35, 35, 35), (170, 60, 20)
PRINTED = [0, 4, 8, 20, 30, 40, 50, 60, 72, 80]
PEN = [2, 6, 13, 27, 44, 55, 66, 77]
UNSURE_PEN = 13  # blue ink, but the classifier leans to print


@pytest.fixture(scope="module")
def reader() -> Reader:
    """The shipped reader."""
    return Reader()


def read_sample(reader: Reader, name: str) -> GridResult:
    """The first grid of a committed sample photo."""
    result = reader.read(SAMPLES / name)
    assert result.grids, result.error
    return result.grids[0]


def check_consistent(reading: CellReading) -> KindTrace:
    """The trace agrees with the reading: kinds, log-odds, a step for every filled cell."""
    trace = reading.trace
    assert trace is not None
    assert trace.steps[0].step is KindStep.CLASSIFIER
    np.testing.assert_array_equal(trace.steps[-1].kinds, reading.kinds)
    np.testing.assert_array_equal(trace.steps[-1].log_odds, reading.kind_log_odds)
    filled = ~np.isin(reading.kinds, (Kind.EMPTY, Kind.NOTES))  # notes cells hold no entry
    printed = reading.kinds == Kind.PRINTED
    assert reading.kind_log_odds is not None
    assert np.array_equal(printed[filled], reading.kind_log_odds[filled] >= 0)
    traced = set(trace.traced_cells())
    assert {int(c) for c in np.flatnonzero(filled)} <= traced
    for cell in traced:
        assert trace.decided_by(cell) in KindStep
    return trace


@pytest.mark.parametrize(
    ("name", "late_decides"), [("webcam/pen.jpg", True), ("progress/half_blue.jpg", False)]
)
def test_a_pen_sample_traces_every_filled_cell(
    reader: Reader, name: str, late_decides: bool
) -> None:
    grid = read_sample(reader, name)
    trace = check_consistent(grid.reading)
    assert [s.step for s in trace.steps] == [
        KindStep.CLASSIFIER,
        KindStep.COPIES,
        KindStep.INK_SHAPE,
        KindStep.PLACEMENT,
        KindStep.SYMMETRY,
        KindStep.INK_COLOUR,
    ]
    late = (KindStep.PLACEMENT, KindStep.SYMMETRY, KindStep.INK_COLOUR)
    decided = {c: trace.decided_by(c) for c in trace.traced_cells()}
    # webcam/pen's neat pen digits pass for print until their place in the cell, the
    # givens' pattern or their colour is seen; half_blue's the classifier reads right by
    # itself (the later steps then change nothing)
    assert any(step in late for step in decided.values()) is late_decides
    at = {s.step: i for i, s in enumerate(trace.steps)}
    for cell, step in decided.items():  # a late step turned the kind the cell had before it
        if step in late:
            assert trace.steps[at[step]].kinds[cell] != trace.steps[at[step] - 1].kinds[cell]


# the ink-shape step alone: the synthetic cells below are identical blocks (copies) on
# one set of rows (placement)
INK_SHAPE_ONLY = KindDecisionConfig(
    copies=CopyConfig(weight=0.0), placement=PlacementConfig(weight=0.0)
)


@dataclass(frozen=True)
class PenForPrint:
    """The shipped classifier, except that one printed cell leans to pen (the same digit)."""

    cell: int
    digit: int

    def lean(self, scores: CellScores) -> CellScores:
        """The scores with ``cell`` read as pen ``digit`` (0.6) before printed (0.4)."""
        probs = np.full_like(scores.probs, 1e-4)
        probs[:] = scores.probs
        probs[self.cell] = 1e-4
        probs[self.cell, self.digit + 9], probs[self.cell, self.digit] = 0.6, 0.4
        return replace(scores, probs=probs / probs.sum(axis=1, keepdims=True))

    def score(self, warped: np.ndarray, config: ReadConfig) -> CellScores:
        """The shipped scores, leaned."""
        return self.lean(default_classifier().score(warped, config))

    def score_upright(
        self, warped: np.ndarray, config: ReadConfig, upright: CellScores | None = None
    ) -> tuple[int, CellScores]:
        """The shipped upright scores, leaned (``upright``, leaned already, not passed on)."""
        k, scores = default_classifier().score_upright(warped, config)
        return k, self.lean(scores)


def test_a_printed_digit_read_as_pen_is_set_right_by_its_printed_copies() -> None:
    """demo.jpg's r1c1 is a printed 3 matching the page's other printed 3s."""
    grid = Reader(PenForPrint(cell=0, digit=3)).read(SAMPLES / "printed" / "demo.jpg").grids[0]
    trace = check_consistent(grid.reading)
    assert trace.steps[0].kinds[0] == Kind.HANDWRITTEN
    assert trace.decided_by(0) is KindStep.COPIES
    assert grid.givens[0] == "3" and not grid.repairs


def test_a_printed_digit_read_as_pen_is_set_right_by_its_place_and_pattern() -> None:
    """demo.jpg's r1c1, a printed 3 read as pen, with no copies compared: its ink sits on
    the print's rows and its half-turn partner r9c9 is a given."""
    config = PipelineConfig(
        read=ReadConfig(kind_decision=KindDecisionConfig(copies=CopyConfig(weight=0.0)))
    )
    grid = Reader(PenForPrint(cell=0, digit=3), config).read(SAMPLES / "printed" / "demo.jpg")
    trace = check_consistent(grid.grids[0].reading)
    assert trace.held(0) == (3, Kind.PRINTED) and not grid.grids[0].repairs
    record = trace.cell_dict(0)
    assert record["why"] == {
        "placement": "ink on the print's rows", "symmetry": "its partner is printed"
    }  # fmt: skip
    assert "symmetric" in str(trace.to_dict()["reasons"])


def test_a_repaired_kind_is_decided_by_the_repair() -> None:
    # demo.jpg's r1c1 is a printed 3; read as pen (and no copies, placement or pattern
    # compared), the givens left have several answers
    alone = KindDecisionConfig(
        copies=CopyConfig(weight=0.0),
        placement=PlacementConfig(weight=0.0),
        symmetry=SymmetryConfig(weight=0.0),
    )
    config = PipelineConfig(read=ReadConfig(kind_decision=alone))
    reader = Reader(PenForPrint(cell=0, digit=3), config)
    grid = reader.read(SAMPLES / "printed" / "demo.jpg").grids[0]
    trace = check_consistent(grid.reading)
    changed = [r for r in grid.repairs if r.kind_changed]
    assert [r.cell for r in changed] == [0]
    for repair in changed:
        assert trace.decided_by(repair.cell) is KindStep.REPAIR
        assert trace.held(repair.cell) == (repair.new, Kind.PRINTED)
        assert grid.givens[repair.cell] == str(repair.new)


def test_a_pen_digit_changed_by_the_answer_is_recorded(reader: Reader) -> None:
    grid = read_sample(reader, "progress/notes_half.jpg")
    trace = check_consistent(grid.reading)
    later = [c for c in trace.later if c.step is KindStep.ANSWER_PRIOR]
    assert later
    for change in later:
        digit, kind = trace.held(change.cell)
        assert str(digit) == grid.handwritten[change.cell]
        assert kind is (Kind.HANDWRITTEN if digit else Kind.EMPTY)


def colour_page() -> tuple[np.ndarray, np.ndarray]:
    """A photo of a grid with black printed digits and blue pen digits, and its lattice."""
    side = 2 * MARGIN + 9 * CELL
    image = np.full((side, side, 3), PAPER, dtype=np.uint8)
    for i in range(10):
        at = MARGIN + i * CELL
        cv2.line(image, (at, MARGIN), (at, side - MARGIN), BLACK, 2)
        cv2.line(image, (MARGIN, at), (side - MARGIN, at), BLACK, 2)
    for cells, colour, font in (
        (PRINTED, BLACK, cv2.FONT_HERSHEY_SIMPLEX),
        (PEN, BLUE, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX),
    ):
        for cell in cells:
            row, col = divmod(cell, 9)
            origin = (MARGIN + col * CELL + 11, MARGIN + row * CELL + 31)
            cv2.putText(image, str(cell % 9 + 1), origin, font, 0.9, colour, 2, cv2.LINE_AA)
    return image, ideal_lattice(CELL, MARGIN)


def colour_probs() -> np.ndarray:
    """Sure print and sure pen where the page has them; one blue cell the classifier calls print."""
    probs = np.zeros((81, 19), dtype=np.float32)
    probs[:, 0] = 1.0
    for cell, printed in [(c, 0.999) for c in PRINTED] + [(c, 0.001) for c in PEN]:
        digit = cell % 9 + 1
        if cell == UNSURE_PEN:
            printed = 0.8
        probs[cell] = 0.0
        probs[cell, digit], probs[cell, digit + 9] = printed, 1.0 - printed
    return probs


def test_ink_colour_flipping_a_cell_is_recorded() -> None:
    image, lattice = colour_page()
    # the page's printed cells are nearly half-turn symmetric: colour is judged alone
    alone = KindDecisionConfig(symmetry=SymmetryConfig(weight=0.0))
    reading = decide_kinds(CellScores(colour_probs()), image, lattice, alone)
    trace = check_consistent(reading)
    assert [s.step for s in trace.steps] == [KindStep.CLASSIFIER, KindStep.INK_COLOUR]
    assert trace.steps[0].kinds[UNSURE_PEN] == Kind.PRINTED
    assert reading.kinds[UNSURE_PEN] == Kind.HANDWRITTEN
    assert trace.decided_by(UNSURE_PEN) is KindStep.INK_COLOUR
    assert trace.contributions[1, UNSURE_PEN] < -np.log(4.0)  # against the classifier's 4:1
    assert all(trace.decided_by(c) is KindStep.CLASSIFIER for c in [*PRINTED, 2, 6, 27])
    # no photo: the classifier's call stands
    grey = decide_kinds(CellScores(colour_probs()), config=alone)
    assert grey.kinds[UNSURE_PEN] == Kind.PRINTED
    assert grey.trace is not None and len(grey.trace.steps) == 1


def test_ink_shape_settling_a_cell_is_recorded() -> None:
    cells = np.zeros((11, 32, 32), np.float32)
    probs = np.zeros((11, 19), np.float32)
    cells[:5, 6:26, 12:18] = 1.0  # sure printed: tall, thick, dark
    probs[:5, [1, 10]] = [0.9999, 0.0001]
    cells[5:10, 10:22, 14:16] = 0.6  # sure handwritten: short, thin, lighter
    probs[5:10, [1, 10]] = [0.0001, 0.9999]
    cells[10, 6:26, 12:18] = 1.0  # looks printed, classifier slightly favours handwritten
    probs[10, [1, 10]] = [0.4, 0.6]
    reading = decide_kinds(CellScores(probs, cells), config=INK_SHAPE_ONLY)
    assert reading.trace is not None
    assert reading.kinds[10] == Kind.PRINTED
    assert reading.trace.decided_by(10) is KindStep.INK_SHAPE
    assert reading.trace.decided_by(0) is KindStep.CLASSIFIER


def test_unlike_print_leans_handwritten_when_the_hand_is_not_known() -> None:
    """No sure handwritten cell (a neat, print-like pencil): an ambiguous cell whose ink is
    unlike every sure printed cell (grey, thin) is taken for handwriting by the ink-shape
    step, while an ambiguous cell inked like the print stays printed."""
    cells = np.zeros((8, 32, 32), np.float32)
    probs = np.zeros((8, 19), np.float32)
    for i in range(5):  # sure printed: tall, thick, dark, a little different each
        cells[i, 6 + i % 2 : 26, 12:18] = 1.0 - 0.02 * i
    probs[:5, [1, 10]] = [0.9999, 0.0001]
    cells[5:7, 8:24, 14:16] = 0.5  # pencil: grey, thin; the classifier leans printed
    probs[5:7, [1, 10]] = [0.7, 0.3]
    cells[7, 6:26, 12:18] = 1.0  # printed, read unsurely
    probs[7, [1, 10]] = [0.6, 0.4]
    reading = decide_kinds(CellScores(probs, cells), config=INK_SHAPE_ONLY)
    assert reading.trace is not None
    assert list(reading.kinds[5:8]) == [Kind.HANDWRITTEN, Kind.HANDWRITTEN, Kind.PRINTED]
    assert reading.trace.decided_by(5) is KindStep.INK_SHAPE
    assert reading.trace.decided_by(7) is KindStep.CLASSIFIER


def test_later_changes_decide_and_show_in_json() -> None:
    kinds = np.array([Kind.HANDWRITTEN, Kind.HANDWRITTEN, Kind.PRINTED, Kind.EMPTY])
    odds = np.array([-1.234, -9.0, 7.0, 0.0])
    first = StepOdds(KindStep.CLASSIFIER, odds, kinds.astype(np.int64))
    trace = KindTrace(np.array([5, 3, 8, 0]), (first,)).with_later(
        (
            LaterChange(KindStep.REPAIR, 0, 5, Kind.PRINTED),
            LaterChange(KindStep.ANSWER_PRIOR, 1, 2, Kind.HANDWRITTEN),
        )
    )
    assert [trace.decided_by(c) for c in range(3)] == [
        KindStep.REPAIR,
        KindStep.CLASSIFIER,  # the digit changed, not the kind
        KindStep.CLASSIFIER,
    ]
    doc = trace.to_dict()
    assert doc["steps"] == ["classifier"]
    cells = doc["cells"]
    assert isinstance(cells, dict) and list(cells) == [cell_name(c) for c in range(3)]
    assert cells["r1c1"] == {
        "digit": 5,
        "kind": "printed",
        "decided_by": "repair",
        "log_odds": [-1.23],
        "read": {"digit": 5, "kind": "handwritten"},
        "later": [{"step": "repair", "digit": 5, "kind": "printed"}],
    }
    assert cells["r1c2"]["digit"] == 2


def test_read_json_has_a_trace_for_every_filled_cell() -> None:
    result = CliRunner().invoke(app, ["read", "--json", str(SAMPLES / "progress/half_blue.jpg")])
    assert result.exit_code == 0, result.output
    grid = json.loads(result.output)[0]["grids"][0]
    trace = grid["trace"]
    assert trace["steps"] == [
        "classifier", "copies", "ink_shape", "placement", "symmetry", "ink_colour"
    ]  # fmt: skip
    filled = {
        cell_name(c): ("printed" if g != "0" else "handwritten")
        for c, (g, h) in enumerate(zip(grid["givens"], grid["handwritten"], strict=True))
        if g != "0" or h != "0"
    }
    assert {name: trace["cells"][name]["kind"] for name in filled} == filled
    for record in trace["cells"].values():
        assert record["decided_by"] in {str(step) for step in KindStep}
        assert len(record["log_odds"]) == 6
