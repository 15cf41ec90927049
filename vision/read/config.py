"""Every setting of the reading stage, in one config: how a grid's 81 cells become digits.

``ReadConfig`` is reached from the pipeline's settings as ``PipelineConfig.read`` and
passed down to each reading step: the classifier (``CellScorer.score``: notes, recentre
and the kind thresholds it reads cells with), the quarter-turn check (orientation), the
print-or-pen decision (``KindDecisionConfig``) and the pen entries read again with the
answer as prior (``PenConfig``).

How cells are cut from the straightened grid (``cells.CellConfig``) is not set here: the
model was trained on cells cut one way, and its ``config.json`` says which
(``ModelConfig.cells``); a model and its cutting change together.
"""

from __future__ import annotations

from dataclasses import dataclass

from .decide import DEFAULT_KIND_DECISION_CONFIG, KindDecisionConfig
from .faint import DEFAULT_FAINT_CONFIG, FaintConfig
from .hand import DEFAULT_HAND_CONFIG, HandConfig
from .notes import DEFAULT_NOTES_CONFIG, NotesConfig
from .orientation import DEFAULT_ORIENTATION_CONFIG, OrientationConfig
from .pen import DEFAULT_PEN_CONFIG, PenConfig
from .recentre import DEFAULT_RECENTRE_CONFIG, RecentreConfig


@dataclass(frozen=True)
class ReadConfig:
    """The reading stage's settings, one per step.

    orientation: when the other quarter turns of a grid are read, and when one wins.
    notes: how the digits of a cell taken for candidate notes are cut out and read.
    recentre: which cells holding ink but no legible digit are read again centred.
    faint: which cells read as empty are read again at their own contrast (faint pencil).
    kind_decision: the thresholds that make a cell empty, notes, illegible or crossed out, and the
        print-or-pen evidence steps (copies, ink shape, placement, symmetry, ink colour).
    pen: how strongly the answer is expected in a pen-filled cell once the givens are solved.
    hand: when pen cells disagreeing alike with the answer are read as copies of one glyph.
    """

    orientation: OrientationConfig = DEFAULT_ORIENTATION_CONFIG
    notes: NotesConfig = DEFAULT_NOTES_CONFIG
    recentre: RecentreConfig = DEFAULT_RECENTRE_CONFIG
    faint: FaintConfig = DEFAULT_FAINT_CONFIG
    kind_decision: KindDecisionConfig = DEFAULT_KIND_DECISION_CONFIG
    pen: PenConfig = DEFAULT_PEN_CONFIG
    hand: HandConfig = DEFAULT_HAND_CONFIG


DEFAULT_READ_CONFIG = ReadConfig()
