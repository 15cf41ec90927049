"""The live frame processor: search, read across frames, solve, then track and draw."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import replace

import numpy as np

from ...solver.outcome import SOLVED_OUTCOMES
from ..grid.find import find_grid
from ..grid.polarity import kept_negative
from ..grid.warp import check_image, warp_from_corners
from ..pipeline import Reader
from ..read.reading import score_oriented, settle_cells
from ..results import GridResult
from ..types import CellScores, GridDetection
from .config import DEFAULT_LIVE_CONFIG, LiveConfig
from .frames import FrameResult, FrameState
from .overlay import AnswerOverlay
from .tracker import GridTracker, lattice_of
from .votes import ReadingVotes


def differing_givens(a: str, b: str) -> int:
    """How many cells hold a printed digit in one reading and not the same one in the other."""
    return sum(x != y and (x != "0" or y != "0") for x, y in zip(a, b, strict=True))


def filled_digits(grid: GridResult) -> str:
    """The digit in each cell of a reading, printed or written alike ("0": empty)."""
    return "".join(g if g != "0" else h for g, h in zip(grid.givens, grid.handwritten, strict=True))


def shown(grid: GridResult) -> bool:
    """True when the grid's answer may be drawn: one solution, no digit changed by a repair.

    A repair that only moved a digit between pen and print keeps the digit read.
    """
    solved = grid.status in SOLVED_OUTCOMES and grid.solution is not None
    return solved and all(r.keeps_digit for r in grid.repairs)


class LiveProcessor:
    """Fed video frames one by one; returns each with the answer drawn once it is known.

    No grid known: the frame is searched (``find_grid``). A grid found is turned upright
    (the reader's orientation step, ``score_oriented``) and tracked, and its cells are
    scored on every steady frame until the summed scores read the same two frames running
    and, settled as a photo's are (``settle_cells``), solve to exactly one answer under the
    rules the grid's drawing sets (``Reader.ruled_grid``: X, jigsaw, Killer); from
    then on the grid is only tracked, the answer warped onto each frame, and every
    ``recheck_every`` frames the cells are read again (a new puzzle is read afresh; new pen
    entries are marked). A lost track sends it back to searching. A grid found in the
    frame's negative (a screen in dark mode; the reader's polarity step,
    ``kept_negative``) is tracked and read in the negatives of the frames, and drawn on
    the frames themselves. A frame holding no 9×9 wholly in view (a 16×16's lines can pass
    for one running past the frame's edge) is looked at for a small grid (4×4, 6×6,
    8×8) or a 16×16 (``Reader.find_other_size``, ``LiveConfig.other_sizes``, every
    ``other_sizes_every`` such frames), read whole on that frame as a photo's is; once two
    looks running read the same givens and they solve to one answer, the grid is tracked
    and its answer drawn like a 9×9's (it is not read again while tracked).
    """

    def __init__(self, reader: Reader | None = None, config: LiveConfig = DEFAULT_LIVE_CONFIG):
        """Use ``reader``'s classifier and settings (default: the shipped model)."""
        self.reader = reader if reader is not None else Reader()
        self.config = config
        self.tracker = GridTracker(config.track)
        self.counts: Counter[str] = Counter()  # frames per state, and "drawn"
        self._index = 0
        self._votes = ReadingVotes()
        self._grid: GridResult | None = None  # the answer being shown
        self._overlay: AnswerOverlay | None = None
        self._since_check = 0
        self._negative = False  # the grid is light on dark: frames are read as negatives
        self._other_givens: str | None = None  # a small grid's givens read on the last look
        self._without_nine = 0  # frames searched in vain for a 9×9 since the last look
        self._elapsed = 0.0  # seconds since the frame processed before this one
        self._last_at: float | None = None  # when the last frame processed was taken
        self.last: FrameResult | None = None  # the last frame processed (its image dropped)
        self.processed_at: float | None = None  # time.monotonic() when ``last`` was processed

    def process(self, frame: np.ndarray, at: float | None = None) -> FrameResult:
        """Process the next frame (BGR uint8) and say what it shows.

        at: when the frame was taken, in seconds (any origin; a stream's timestamps), so
        that a page's speed is measured over the time between the frames processed, however
        many were skipped between them. None: frames are ``LiveConfig.untimed_fps`` apart.
        """
        image = check_image(frame, "frame")
        if image.ndim != 3 or image.shape[2] != 3:
            raise ValueError(f"frame must be a BGR image (H, W, 3), got {image.shape}")
        start = time.perf_counter()
        self._clock(at)
        state = self._advance(image)
        h = self.tracker.homography
        lattice = None if h is None else lattice_of(h, self.tracker.size)
        drawn = state is FrameState.TRACKING and self._overlay is not None and h is not None
        out = self._overlay.draw(image, h) if drawn and self._overlay and h is not None else image
        result = FrameResult(self._index, state, lattice, drawn, out, self._grid,
                             time.perf_counter() - start)  # fmt: skip
        self.counts[state.value] += 1
        self.counts["drawn"] += int(drawn)
        self._index += 1
        self.last = replace(result, image=image[:0, :0])
        self.processed_at = time.monotonic()
        return result

    def _clock(self, at: float | None) -> None:
        """Note the time since the last frame processed (one untimed frame when unknown)."""
        last, self._last_at = self._last_at, at
        if at is None or last is None or at <= last:
            self._elapsed = 1.0 / self.config.untimed_fps
        else:
            self._elapsed = min(at - last, self.config.max_vote_gap_s)

    def _advance(self, image: np.ndarray) -> FrameState:
        """Move the state on by one frame: search, or track and read."""
        if self.tracker.homography is None:
            return self._search(image)
        frame = 255 - image if self._negative else image
        before = self.tracker.homography
        if not self.tracker.step(frame):
            self._forget()
            return FrameState.LOST
        if self._grid is None and self._steady(before):
            self._read(frame)
        elif self._grid is not None:
            self._recheck(frame, before)
        if self.tracker.homography is None:
            return FrameState.LOST
        return FrameState.TRACKING if self._grid is not None else FrameState.READING

    def _search(self, image: np.ndarray) -> FrameState:
        """Look for a grid wholly in view; start tracking and reading it when found.

        The frame's negative is searched too where the polarity step says so
        (``vision/grid/polarity.py``, as for photos); a grid kept from there is tracked and
        read in the negatives of the frames. The grid is turned upright before tracking.
        """
        found, frame = self._find_either_way(image)
        if found is None or not self._inside(found.lattice, image.shape):
            return self._search_other_size(image)  # no 9×9 wholly in view: another size?
        self._negative = frame is not image
        detection, scores = score_oriented(self.reader.classifier, found, self.reader.config.read)
        self.tracker.start(frame, detection.lattice)
        self._votes = ReadingVotes()
        self._read(frame, detection, scores)
        return FrameState.TRACKING if self._grid is not None else FrameState.READING

    def _search_other_size(self, image: np.ndarray) -> FrameState:
        """A frame with no 9×9 in view: its small grid or 16×16, read whole on this frame
        (``Reader.read_small_grid``); tracked with its answer drawn once this look and the
        one before read the same givens and they solve to one answer."""
        self._without_nine += 1
        if not self.config.other_sizes or self._without_nine < self.config.other_sizes_every:
            return FrameState.SEARCHING
        self._without_nine = 0
        found = self.reader.find_other_size(image)
        if found is None or not self._inside(found.detection.lattice, image.shape):
            self._other_givens = None
            return FrameState.SEARCHING
        grid = self.reader.read_small_grid(found, {}, image=image)
        seen, self._other_givens = self._other_givens, grid.givens
        if grid.givens != seen or not shown(grid):
            return FrameState.SEARCHING
        self._negative = False
        self.tracker.start(image, found.detection.lattice)
        self._show(grid)
        return FrameState.TRACKING

    def _find_either_way(self, image: np.ndarray) -> tuple[GridDetection | None, np.ndarray]:
        """The grid of the frame or, where the polarity step keeps it, of its negative; and
        the frame it was found in."""
        grid = self.reader.config.grid

        def search_negative() -> tuple[np.ndarray, list[GridDetection]]:
            negative = 255 - image
            found = find_grid(negative, config=grid)
            return negative, [] if found is None else [found]

        found = find_grid(image, config=grid)
        polarity, unsure = self.reader.config.polarity, self.config.negative_when_unsure
        kept = kept_negative(image, [found], search_negative, polarity, unsure)
        return (found, image) if kept is None else (kept[1][0], kept[0])

    def _inside(self, lattice: np.ndarray, shape: tuple[int, ...]) -> bool:
        """True when every grid crossing lies inside the frame, with the margin."""
        n = lattice.shape[0] - 1
        cell = float(np.linalg.norm(lattice[0, n] - lattice[0, 0])) / n
        m = self.config.min_margin_cells * cell
        height, width = shape[:2]
        xs, ys = lattice[..., 0], lattice[..., 1]
        return bool(xs.min() >= m and ys.min() >= m and xs.max() <= width - 1 - m
                    and ys.max() <= height - 1 - m)  # fmt: skip

    def _steady(self, before: np.ndarray) -> bool:
        """True when the tracked grid moved slowly enough since the last frame to be read."""
        after = self.tracker.homography
        assert after is not None
        n = self.tracker.size
        old, new = lattice_of(before, n), lattice_of(after, n)
        cell = float(np.linalg.norm(new[0, n] - new[0, 0])) / n
        moved = float(np.max(np.linalg.norm(new - old, axis=-1)))
        return moved <= self.config.max_vote_speed_cells_s * self._elapsed * max(cell, 1.0)

    def _detection(self, frame: np.ndarray) -> GridDetection:
        """The tracked grid straightened out of the frame, for the classifier."""
        h = self.tracker.homography
        assert h is not None
        corners = lattice_of(h)[[0, 0, 9, 9], [0, 9, 9, 0]]
        return warp_from_corners(frame, corners, self.reader.config.grid, score=1.0)

    def _scores(self, detection: GridDetection) -> CellScores:
        """The classifier's probabilities for the grid's cells (the grid taken as upright)."""
        return self.reader.classifier.score(detection.warped, self.reader.config.read)

    def _read(
        self,
        frame: np.ndarray,
        detection: GridDetection | None = None,
        scores: CellScores | None = None,
    ) -> None:
        """Add this frame's scores (given, or read now) to the votes; settle and solve them
        when steady."""
        detection = detection if detection is not None else self._detection(frame)
        votes = self._votes
        votes.add(scores if scores is not None else self._scores(detection))
        if votes.frames >= self.config.max_read_frames:
            self._forget()  # no unique answer: search again, the grid may be misplaced
        elif votes.frames % self.config.read_frames == 0 and votes.steady:
            grid = self._settle(votes, frame, detection)
            if shown(grid):
                self._show(grid)

    def _settle(
        self, votes: ReadingVotes, frame: np.ndarray, detection: GridDetection
    ) -> GridResult:
        """The summed scores settled into digits and kinds as a photo's are, and solved
        under the rules the grid's drawing sets (``Reader.ruled_grid``: jigsaw regions,
        marked diagonals, Killer cages read from this frame)."""
        reading = settle_cells(votes.scores(), detection, frame, self.reader.config.read)
        return self.reader.ruled_grid(detection, reading, image=frame)

    def _show(self, grid: GridResult) -> None:
        """Draw this grid's answer (and its pen entries' marks) from now on."""
        draw = self.reader.config.draw
        overlay = AnswerOverlay(self.config.overlay_cell_px, draw, grid.structure.size)
        overlay.add_digits(grid.answer, draw.answer_on_dark_color if self._negative else None)
        if self.config.mark_entries:
            overlay.add_check_marks(grid.check_marks())
        self._grid, self._overlay = grid, overlay
        self._votes, self._since_check = ReadingVotes(), 0

    def _recheck(self, frame: np.ndarray, before: np.ndarray) -> None:
        """Every ``recheck_every`` steady frames, read the cells again; act on a change (a
        9×9's only: a small grid or a 16×16 is read once)."""
        if self._grid is not None and self._grid.structure.size != 9:
            return
        self._since_check += 1
        if self._since_check < self.config.recheck_every or not self._steady(before):
            return
        if self._grid is not None and self._grid.structure.cages:
            return  # a Killer's sums read as digits would look like a new puzzle
        self._since_check = 0
        detection = self._detection(frame)
        self._votes.add(self._scores(detection))
        if self._votes.frames < self.config.read_frames or not self._votes.steady:
            return
        old, votes = self._grid, self._votes
        assert old is not None
        self._votes = ReadingVotes()
        if votes.digits() == filled_digits(old):
            return  # the same digits as shown: nothing to settle again
        grid = self._settle(votes, frame, detection)
        if differing_givens(grid.givens, old.givens) >= self.config.new_puzzle_cells:
            self._grid, self._overlay = None, None  # a new puzzle: read it afresh
        elif shown(grid) and grid.handwritten != old.handwritten:
            self._show(grid)

    def _forget(self) -> None:
        """Drop the grid and its answer: the next frame is searched."""
        self.tracker.stop()
        self._grid, self._overlay = None, None
        self._votes = ReadingVotes()
        self._other_givens = None
