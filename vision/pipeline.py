"""The photo pipeline: load → find grids → read cells → repair → solve, and draw on request.

A ``Reader`` holds the digit classifier (loaded once) and the settings, and reads any
number of photos::

    reader = Reader()
    result = reader.read("puzzle.jpg")          # PhotoResult
    picture = result.draw(mode="solution")      # the answer drawn on the photo

``read_photo``, ``solve_photo`` and ``check_photo`` do the same with a shared default
reader; ``Reader.resolve`` re-solves a grid after a person corrected its digits.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

from ..limits import MAX_GRIDS_PER_PHOTO
from ..solver.geometry import cell_name
from ..solver.outcome import SOLVED_OUTCOMES, Outcome
from ..solver.variant import Variant
from .check import DEFAULT_CHECK_CONFIG, CheckConfig, entry_is_sure
from .draw import DEFAULT_DRAW_CONFIG, DrawConfig
from .grid.config import DEFAULT_GRID_CONFIG, GridConfig
from .grid.find import FinerPhoto, find_all_grids, find_grids, retrace
from .grid.polarity import DEFAULT_POLARITY_CONFIG, PolarityConfig, kept_negative
from .grid.warp import moved_detection
from .load import (
    DEFAULT_DECODE_CONFIG,
    DEFAULT_MAX_PIXELS,
    REDUCTIONS,
    DecodeConfig,
    ImageLoadError,
    ImageSource,
    Photo,
    ScaledImage,
    check_room,
    describe_array,
    open_photo,
)
from .read.classifier import DigitClassifier
from .read.config import DEFAULT_READ_CONFIG, ReadConfig
from .read.hand import read_as_the_hand_writes
from .read.kind_trace import KindStep, LaterChange
from .read.pen import digit_evidence, read_pen_entries
from .read.reading import CellScorer, read_cells
from .repair import (
    DEFAULT_REPAIR_CONFIG,
    Repair,
    RepairConfig,
    RepairOutcome,
    read_givens,
    repair_givens,
    ruled_out,
    solve_givens,
)
from .results import (
    DEFAULT_PUZZLE_POLICY_CONFIG,
    GridResult,
    PhotoResult,
    PuzzlePolicyConfig,
    is_solution_grid,
    sort_grids,
)
from .small.config import DEFAULT_SMALL_GRID_CONFIG, SmallGridConfig
from .small.find import SmallGrid, find_small_grid
from .small.fine import Straighten, straightener
from .small.read import pen_entries, read_small_cells, solve_as_read, solve_reading
from .small.sixteen import (
    SixteenReading,
    find_sixteen_grid,
    is_symbol_page,
    number_cells,
    read_sixteen,
    refused,
    solve_sixteen,
    straightened_from,
)
from .small.sixteen_config import DEFAULT_SIXTEEN_CONFIG, DEFAULT_TWELVE_CONFIG, SixteenConfig
from .structure import (
    DEFAULT_STRUCTURE_CONFIG,
    DiagonalLinesAside,
    DiagonalMark,
    Lookalike,
    StructureConfig,
    find_structure,
    marked_diagonals,
    page_lookalike,
)
from .structure.cage_config import CageConfig
from .structure.cages import CageLayout, DigitModel, find_cages, settle_cages, without_sums
from .structure.rules import rules_for
from .types import (
    CLASSIC_STRUCTURE,
    VALUE_CHARS,
    CellReading,
    Digits,
    GridDetection,
    GridStructure,
    Kind,
    digit_values,
    digits_of,
)

T = TypeVar("T")
NO_GRID_MESSAGE = "no Sudoku grid found in the photo"
CLASSIC_GIVENS = 17  # no classic 9×9 puzzle has fewer givens; a Killer mostly has none


@dataclass(frozen=True)
class PipelineConfig:
    """Settings of every step: grid finding, reading, repair, drawing, and how many grids.

    read: the reading stage's settings (``ReadConfig``: orientation, notes, recentre,
    the kind thresholds and print-or-pen steps, pen entries read with the answer's prior).
    check: when a written entry that disagrees with the answer is surely wrong, and which
    notes may rule the answer out (``CheckConfig``); each ``GridResult`` keeps the one it
    was judged with.

    max_grids: the most grids read from one photo. more_when_seen: find the best grid as
    for one, and look for up to ``max_grids`` - 1 more only when the photo shows another
    (``find_all_grids``: a photo of one puzzle costs no more; several come in reading
    order); False always searches for ``max_grids`` (``find_grids``). Either way the grids
    come back as ``vision/results.py`` says: puzzles in reading order, grids printed full
    (answers) apart (``puzzle_policy``, a ``PuzzlePolicyConfig``). decode: how finely
    photos are decoded (``DecodeConfig``). polarity: when a photo's negative is
    searched too, for a grid drawn light on a dark ground (a screen in dark mode).
    structure: how a grid's drawing is read for its rules (jigsaw regions, Sudoku X
    diagonals: ``StructureConfig``, ``vision/structure/``). small: how a photo in which
    no 9×9 grid was solved is looked at for a 4×4, 6×6 or 8×8 Sudoku (``SmallGridConfig``,
    ``vision/small/``; ``sizes=()`` never). sixteen: how such a photo is looked at, where
    it holds no small grid, for a 16×16 Sudoku with the numbers 1-16 (``SixteenConfig``,
    ``vision/small/sixteen.py``; ``enabled=False`` never). twelve: the same for a 12×12
    with the numbers 1-12 (3×4 boxes), looked for after a 16×16.
    """

    grid: GridConfig = DEFAULT_GRID_CONFIG
    repair: RepairConfig = DEFAULT_REPAIR_CONFIG
    draw: DrawConfig = DEFAULT_DRAW_CONFIG
    read: ReadConfig = DEFAULT_READ_CONFIG
    max_grids: int = 1
    more_when_seen: bool = False
    puzzle_policy: PuzzlePolicyConfig = DEFAULT_PUZZLE_POLICY_CONFIG
    max_pixels: int = DEFAULT_MAX_PIXELS
    use_repair: bool = True
    decode: DecodeConfig = DEFAULT_DECODE_CONFIG
    polarity: PolarityConfig = DEFAULT_POLARITY_CONFIG
    check: CheckConfig = DEFAULT_CHECK_CONFIG
    structure: StructureConfig = DEFAULT_STRUCTURE_CONFIG
    small: SmallGridConfig = DEFAULT_SMALL_GRID_CONFIG
    sixteen: SixteenConfig = DEFAULT_SIXTEEN_CONFIG
    twelve: SixteenConfig = DEFAULT_TWELVE_CONFIG

    def __post_init__(self) -> None:
        """Check the settings make sense."""
        if not isinstance(self.max_grids, int) or self.max_grids < 1:
            raise ValueError(f"max_grids must be a positive integer, got {self.max_grids!r}")
        if self.max_pixels < 1:
            raise ValueError(f"max_pixels must be positive, got {self.max_pixels}")


DEFAULT_PIPELINE_CONFIG = PipelineConfig()
# every grid a photo shows (up to MAX_GRIDS_PER_PHOTO), at the cost of one for one grid
EVERY_GRID_CONFIG = PipelineConfig(max_grids=MAX_GRIDS_PER_PHOTO, more_when_seen=True)


class Reader:
    """Reads, solves and checks Sudoku photos; holds the classifier, reusable many times."""

    def __init__(
        self,
        classifier: CellScorer | None = None,
        config: PipelineConfig = DEFAULT_PIPELINE_CONFIG,
    ) -> None:
        """Use ``classifier`` (default: the shipped model, loaded once when first needed)."""
        self._classifier = classifier
        self.config = config

    @property
    def classifier(self) -> CellScorer:
        """The digit classifier; the shipped model is loaded on first use."""
        if self._classifier is None:
            from .read.classifier import default_classifier

            self._classifier = default_classifier()
        return self._classifier

    def read(self, source: ImageSource, name: str | None = None) -> PhotoResult:
        """Read every grid of a photo and solve it; problems come back as statuses.

        ``name`` says where the photo came from in the result (default: its path). The
        photo is decoded no finer than finding and reading its grids need
        (``PipelineConfig.decode``); the result's geometry is in full-resolution pixels.
        """
        timings: dict[str, float] = {}
        name = describe_source(source) if name is None else name
        try:
            photo = timed(
                timings, "load", lambda: open_photo(source, max_pixels=self.config.max_pixels)
            )
            check_room(photo.size, name)  # before a decode: a 1×100000 strip is no photo
            page = timed(timings, "load", lambda: photo.scaled(self.search_reduction(photo)))
        except ImageLoadError as exc:
            return PhotoResult(name, None, (), str(exc), timings)
        seen, page, detections = self.find_either_way(photo, page, timings)
        if not detections:
            return self.without_grid(name, photo, page, timings)
        page, detections = self.sharpen(seen, page, detections, timings)
        grids = tuple(
            at_full_scale(self.read_grid(d, timings, page.pixels), page) for d in detections
        )
        found = sort_grids(grids, self.config.max_grids, self.config.puzzle_policy)
        solved = any(g.solution is not None and "0" in g.givens for g in found.puzzles)
        cut = cut_off(found.puzzles, photo.size, self.config.sixteen.past_edge)
        cut = cut and not solved_inside(found.puzzles, photo.size)
        unlikely = unlikely_repairs(found.puzzles, self.config.small.unlikely_repair)
        if not solved or cut or print_taken_for_pen(found.puzzles) or unlikely:
            small = self.other_sizes(photo, seen, page, timings)
            if small and (not unlikely or len(small[0].repairs) < unlikely):
                return PhotoResult(name, photo, small, None, timings)
        if not solved:
            full = all(is_solution_grid(g, self.config.puzzle_policy) for g in grids)
            look = timed(
                timings, "structure", lambda: self.unread_lookalike(page, detections, full)
            )
            if look is not None:
                return PhotoResult(name, photo, (), look.message, timings)
        return PhotoResult(name, photo, found.puzzles, None, timings, found.solutions)

    def unread_lookalike(
        self, page: ScaledImage, detections: Sequence[GridDetection], full: bool
    ) -> Lookalike | None:
        """What a photo whose grids gave nothing solved looks like (``lookalike``, an
        outline holding them all); where there is none and every grid is printed ``full``
        (yesterday's answer beside a puzzle the grid search did not take), the page's
        largest outline, named only when it is a 12×12 Sudoku."""
        look = self.lookalike(page, [d.corners for d in detections])
        if look is not None or not full:
            return look
        wider = self.lookalike(page)
        return wider if wider is Lookalike.TWELVE else None

    def other_sizes(
        self, photo: Photo, seen: Photo, page: ScaledImage, timings: dict[str, float]
    ) -> tuple[GridResult, ...]:
        """``small_grids`` (solved only) of a photo whose 9×9 grids were found in ``seen``
        (shown in ``page``): the photo, or its negative where the search kept that (light
        lines on a dark ground); there, where the negative holds none, the photo as taken
        is looked at too (yesterday's answer found in the negative beside a 12×12 on
        paper)."""
        small = self.small_grids(page, timings, solved_only=True, photo=photo)
        if small or seen is photo:
            return small
        plain = timed(timings, "load", lambda: photo.scaled(page.factor))
        return self.small_grids(plain, timings, solved_only=True, photo=photo)

    def small_grids(
        self,
        page: ScaledImage,
        timings: dict[str, float],
        solved_only: bool,
        photo: Photo | None = None,
    ) -> tuple[GridResult, ...]:
        """The small Sudoku (4×4, 6×6 or 8×8: ``vision/small/``; or a 16×16 or 12×12) of a
        photo in which no 9×9 grid was solved, read and solved; () where none is drawn,
        where ``solved_only`` and it is not solved (a 9×9 grid was found: it stays; a
        16×16 or 12×12, surely one, is kept solved or not), where
        ``PipelineConfig.small``, ``sixteen`` and ``twelve`` look for none, or where the
        cell scorer is not the digit model. A 16×16 or 12×12 is read in ``photo`` decoded
        finer, when given (``SixteenConfig.decode_side``)."""
        found = timed(timings, "find_grid", lambda: self.find_other_size(page.pixels))
        if found is None or not isinstance(self.classifier, DigitClassifier):
            return ()
        straighten = None
        numbers = self.numbers_config(found.size)
        if numbers is not None and photo is not None:
            whole, side = photo, numbers.decode_side
            finer = timed(timings, "load", lambda: whole.scaled(whole.reduction_for(side)))
            found = straightened_from(found, page, finer)
        elif photo is not None:  # a small grid's notes are cut from a finer decode
            straighten = notes_straightener(page, photo, self.config.small.notes_decode_side)
        result = self.read_small_grid(found, timings, straighten, page.pixels)
        if solved_only and numbers is None and result.status not in SOLVED_OUTCOMES:
            return ()
        return (at_full_scale(result, page),)

    def numbers_config(self, size: int) -> SixteenConfig | None:
        """How a grid of ``size`` cells a side is read as numbers of one or two glyphs
        (``PipelineConfig.sixteen`` or ``twelve``); None for a small grid's size."""
        return next((c for c in (self.config.sixteen, self.config.twelve) if c.size == size), None)

    def find_other_size(self, image: np.ndarray) -> SmallGrid | None:
        """The 16×16 grid (``PipelineConfig.sixteen``) of a photo, else its 12×12
        (``twelve``), else its small grid (``PipelineConfig.small``); None when it holds
        none. The 16×16 is looked for first: one of its 4×4 boxes, thin lines inside, can
        pass for a 4×4 Sudoku (a 12×12's 3×4 box for no small grid)."""
        found = find_sixteen_grid(image, self.config.grid, self.config.sixteen)
        if found is None:
            found = find_sixteen_grid(image, self.config.grid, self.config.twelve)
        small = self.config.small
        if found is None and small.sizes:
            found = find_small_grid(image, self.config.grid, small)
        return found

    def read_small_grid(
        self,
        grid: SmallGrid,
        timings: dict[str, float],
        straighten: Straighten | None = None,
        image: np.ndarray | None = None,
    ) -> GridResult:
        """Read the cells of a small Sudoku (digits 1 to its size; a 16×16's numbers 1-16 or
        symbols, a 12×12's numbers 1-12: ``read_sixteen``), the grid turned upright first where the
        page lies turned, and solve (or repair) it; a 16×16 holding a symbol outside its set is
        refused (``sixteen.refused``). ``straighten``: cuts a small grid's notes cells from the
        photo decoded finer (``fine.straightener``). ``image``: the colour picture the grid was
        found in, for the ink-colour step (``read_small_cells``, ``read_sixteen``)."""
        classifier = self.classifier
        if not isinstance(classifier, DigitClassifier):
            raise TypeError("a small grid is read by the shipped DigitClassifier only")
        numbers, read = self.numbers_config(grid.size), self.config.read
        found = timed(
            timings,
            "classify",
            lambda: (
                read_sixteen(classifier, grid, numbers, read.orientation, image=image)
                if numbers is not None
                else SixteenReading(
                    *read_small_cells(
                        classifier, grid, read, self.config.small.orientation, straighten, image
                    )
                )
            ),
        )
        grid, reading, glyphs = found.grid, found.reading, found.symbols
        outcome = timed(
            timings,
            "solve",
            lambda: (
                refused(reading, found.foreign, glyphs)
                if found.foreign
                else solve_sixteen(reading, numbers, glyphs)
                if numbers is not None
                else solve_reading(reading, grid.size, self.config.small)
            ),
        )
        sixteen = grid.size == self.config.sixteen.size  # only a 16×16 prints symbols
        if sixteen and not glyphs and outcome.status not in SOLVED_OUTCOMES:
            again = timed(timings, "solve", lambda: self.symbols_instead(classifier, found.grid))
            if again is not None:
                found, outcome = again
                grid, reading, glyphs = found.grid, found.reading, found.symbols
        confidence = np.asarray(reading.confidence, dtype=np.float64).copy()
        for repair in outcome.repairs:
            confidence[repair.cell] = repair.new_probability
        structure = GridStructure(size=grid.size, glyphs=glyphs)
        hand = pen_entries(reading, outcome.givens)
        if numbers is not None and numbers.answer_prior:
            hand, reread = read_pen_entries(reading, hand, outcome.solution, read.pen)
            for cell, probability in reread.items():
                confidence[cell] = probability
        return finish(
            grid.detection, reading, outcome, hand, confidence, self.config.check, structure
        )

    def symbols_instead(
        self, classifier: DigitClassifier, grid: SmallGrid
    ) -> tuple[SixteenReading, RepairOutcome] | None:
        """A 16×16 read as numbers and not solved, read again as symbols where few of its
        cells hold two glyphs (``SymbolConfig.retry_share``: a bold face's wide letters
        cut in two) and solved; None where it is no such page or is not solved so."""
        sixteen = self.config.sixteen
        size = classifier.config.input_size
        cells = number_cells(grid.detection.warped, size, sixteen)
        if not is_symbol_page(cells, sixteen, sixteen.symbols.retry_share):
            return None
        found = read_sixteen(classifier, grid, sixteen, as_symbols=True)
        if found.foreign or not found.symbols:
            return None
        outcome = solve_sixteen(found.reading, sixteen, found.symbols)
        return (found, outcome) if outcome.status in SOLVED_OUTCOMES else None

    def lookalike(self, page: ScaledImage, grids: Sequence[np.ndarray] = ()) -> Lookalike | None:
        """What a photo holding no Sudoku it can solve (none solved, or only grids printed
        full) looks like, where surely another puzzle (a Samurai, Kakuro, KenKen or
        crossword: ``vision/structure/lookalike.py``). ``grids``: the corners (page pixels)
        of the grids found: only an outline holding them all is named, not a neighbour."""
        gray = cv2.cvtColor(page.pixels, cv2.COLOR_BGR2GRAY)
        return page_lookalike(gray, self.config.structure.lookalikes, grids)

    def without_grid(
        self, name: str, photo: Photo, page: ScaledImage, timings: dict[str, float]
    ) -> PhotoResult:
        """A photo in which no 9×9 grid was found: its small Sudoku (solved; or not, where the photo
        looks like no other puzzle; a 16×16 or 12×12, whose lines with every fourth (or third and
        fourth) thick are no other puzzle's, solved or not), else why there is none (another puzzle
        it looks like, or no grid found)."""
        small = self.small_grids(page, timings, solved_only=False, photo=photo)
        numbers = bool(small) and self.numbers_config(small[0].structure.size) is not None
        if small and (numbers or small[0].status in SOLVED_OUTCOMES):
            return PhotoResult(name, photo, small, None, timings)
        look = timed(timings, "structure", lambda: self.lookalike(page))
        if look is not None:
            return PhotoResult(name, photo, (), look.message, timings)
        return PhotoResult(name, photo, small, None if small else NO_GRID_MESSAGE, timings)

    def find_either_way(
        self, photo: Photo, page: ScaledImage, timings: dict[str, float]
    ) -> tuple[Photo, ScaledImage, list[GridDetection]]:
        """The grids of ``photo`` (shown in ``page``) and the photo they were found in.

        A grid is looked for as dark lines on a light ground, and where the photo gives a
        reason (``vision/grid/polarity.py``: none found, a dark ground, no sure grid) also
        as light lines on a dark ground (a screen in dark mode) in the photo's negative.
        The negative's grids are kept when one is surely a grid and beats the photo's
        (``negative_wins``); their cells are then read in the negative.
        """
        detections = timed(
            timings, "find_grid", lambda: self.find(page.pixels, finer_decode(photo))
        )

        def search_negative() -> tuple[tuple[Photo, ScaledImage], list[GridDetection]]:
            negative = photo.negative()
            shown = timed(timings, "load", lambda: negative.scaled(page.factor))
            found = timed(
                timings, "find_grid", lambda: self.find(shown.pixels, finer_decode(negative))
            )
            return (negative, shown), found

        kept = kept_negative(page.pixels, detections, search_negative, self.config.polarity)
        if kept is None:
            return photo, page, detections
        (negative, shown), found = kept
        return negative, shown, found

    def search_reduction(self, photo: Photo) -> int:
        """How many times smaller the photo is decoded for the grid search (1 when not reduced).

        The search sees the photo shrunk to ``search.max_side``, so no decode finer than that
        is needed (the finer search for small grids asks for its own, ``finer_decode``).
        """
        if not self.config.decode.reduce:
            return 1
        return photo.reduction_for(self.config.grid.search.max_side)

    def sharpen(
        self,
        photo: Photo,
        page: ScaledImage,
        detections: list[GridDetection],
        timings: dict[str, float],
    ) -> tuple[ScaledImage, list[GridDetection]]:
        """The grids traced again in a finer decode when ``page`` shows one too small to read.

        Reading needs each grid to span ``decode.grid_detail`` × ``grid.warp_size`` pixels.
        """
        need = self.config.decode.grid_detail * self.config.grid.warp_size
        side = min(grid_side(d.lattice) for d in detections) * page.factor  # full pixels
        factor = max(r for r in REDUCTIONS if r <= page.factor and (r == 1 or side / r >= need))
        if factor == page.factor:
            return page, detections
        finer = timed(timings, "load", lambda: photo.scaled(factor))
        found = [(finer.from_full(page.to_full(d.lattice)), d.score) for d in detections]
        return finer, timed(
            timings,
            "find_grid",
            lambda: [retrace(finer.pixels, g, s, self.config.grid) for g, s in found],
        )

    def find(self, image: np.ndarray, finer_photo: FinerPhoto | None = None) -> list[GridDetection]:
        """The grids in a loaded photo, best first.

        ``finer_photo``: where ``image`` is a reduced copy of the photo, the photo decoded
        finer for the search for small grids on a page of several (``FinerPhoto``).
        """
        find = find_all_grids if self.config.more_when_seen else find_grids
        return find(
            image, config=self.config.grid, max_grids=self.config.max_grids, finer_photo=finer_photo
        )

    def read_grid(
        self,
        detection: GridDetection,
        timings: dict[str, float] | None = None,
        image: np.ndarray | None = None,
    ) -> GridResult:
        """Classify the cells of one detected grid, read its rules from its drawing, repair
        the givens if needed, and solve.

        With the colour ``image`` the grid was found in, ink colour helps tell print from pen.
        Only a grid whose digits read give no single answer, or one only with writing taken
        for print, is looked at for Killer cages (``cages``: a Killer's few givens never
        solve alone, but with a person's entries taken for givens they can); one with
        cages has its cells read again with the sums and cage lines masked out, and is
        solved under its cages (``killer``). A Killer not solved whose cells were read
        turned is tried again as it lies (``is_unsolved_turned_killer``).
        """
        clock: dict[str, float] = {} if timings is None else timings
        mark = timed(clock, "structure", lambda: self.diagonals(detection))
        upright, reading = timed(clock, "classify", lambda: self.classify(detection, image, mark))
        result = self.ruled_grid(upright, reading, mark, clock, image)
        if not is_unsolved_turned_killer(result, upright, detection):
            return result
        lying, cells = timed(clock, "classify", lambda: self.classify(detection, image, mark, 0))
        again = self.ruled_grid(lying, cells, mark, clock, image)
        return again if again.status in SOLVED_OUTCOMES else result

    def ruled_grid(
        self,
        detection: GridDetection,
        reading: CellReading,
        mark: DiagonalMark | None = None,
        timings: dict[str, float] | None = None,
        image: np.ndarray | None = None,
    ) -> GridResult:
        """The GridResult of an (upright) grid's reading under the rules its drawing sets:
        regions and diagonals, and Killer cages where the digits read give no single answer
        or one only with writing taken for print (``took_writing_for_print``; the cells
        then read again with the sums masked). ``read_grid`` after classifying;
        the live camera with the reading its frames voted for. ``mark``: how the diagonals
        are marked, where already known (None: looked at here)."""
        clock: dict[str, float] = {} if timings is None else timings
        drawn = (
            mark
            if mark is not None
            else timed(clock, "structure", lambda: self.diagonals(detection))
        )
        structure = timed(clock, "structure", lambda: self.structure(detection, drawn))
        first = timed(clock, "solve", lambda: self.solve_reading(reading, structure))
        layout, pen = None, pen_cells(reading)
        if first.status not in SOLVED_OUTCOMES or took_writing_for_print(first):
            layout = timed(clock, "structure", lambda: self.cages(detection, image, pen))
        if layout is None:
            return grid_result(detection, reading, first, self.config, structure)
        masked = replace(detection, warped=without_sums(detection.warped, layout, self.cfg, pen))
        sums = frozenset(g[0] for g in layout.groups)
        _, cells = timed(clock, "classify", lambda: self.classify(masked, image, drawn, None, sums))
        killer = timed(clock, "structure", lambda: self.killer(structure, layout, cells))
        if killer is None:
            return grid_result(detection, reading, first, self.config, structure)
        outcome = timed(clock, "solve", lambda: self.solve_reading(cells, killer))
        return grid_result(detection, cells, outcome, self.config, killer)

    @property
    def cfg(self) -> CageConfig:
        """The Killer cage reader's settings (``StructureConfig.cages``)."""
        return self.config.structure.cages

    def cages(
        self,
        detection: GridDetection,
        image: np.ndarray | None = None,
        pen: frozenset[int] = frozenset(),
    ) -> CageLayout | None:
        """The Killer cages drawn in the (upright) grid and their sums' readings
        (``find_cages``; the sums read in the grid warped again from the photo ``image``
        it was found in, where given); None where none are drawn, where
        ``StructureConfig.killer`` is off, or where the cell scorer is no digit model that
        reads single digits. ``pen``: the cells read as holding pen entries, whose
        coloured ink is painted out of the photo's corners before the sums are read."""
        scorer = self.classifier
        if not self.config.structure.killer or not isinstance(scorer, DigitModel):
            return None
        photo = None if image is None else (image, detection.lattice)
        size = scorer.config.input_size
        return find_cages(detection.warped, scorer.predict, size, self.cfg, photo, pen)

    def killer(
        self, structure: GridStructure, layout: CageLayout, reading: CellReading
    ) -> GridStructure | None:
        """The grid's structure with its Killer cages, their sums settled by the rules
        (``settle_cages``, the printed digits of ``reading``, read with the sums masked, as
        givens, the answers that would call its pen entries surely wrong: ``disputed``).
        None where no sums give one solution on a grid with no other variant rule and as
        many givens as a classic puzzle needs (``CLASSIC_GIVENS``): the lines were
        likelier no cages, and the grid keeps its classic reading (a classic grid is
        never turned into an unsolvable Killer)."""
        givens = [int(d) for d in read_givens(reading)]
        settled = settle_cages(layout, givens, self.cfg, disputed(reading, self.config.check))
        classic = structure.is_classic and sum(g > 0 for g in givens) >= CLASSIC_GIVENS
        if not settled.consistent and classic:
            return None
        return replace(structure, variant=Variant.KILLER, cages=settled.cages)

    def diagonals(self, detection: GridDetection) -> DiagonalMark:
        """How the grid's diagonals are marked (the same whichever way up it lies)."""
        return marked_diagonals(detection.warped, 9, self.config.structure)

    def structure(
        self, detection: GridDetection, mark: DiagonalMark | None = None
    ) -> GridStructure:
        """The rules the grid's drawing sets: jigsaw regions, marked diagonals
        (``find_structure`` on the upright warped grid, with ``PipelineConfig.structure``)."""
        return find_structure(detection.warped, 9, self.config.structure, mark)

    def classify(
        self,
        detection: GridDetection,
        image: np.ndarray | None = None,
        mark: DiagonalMark = DiagonalMark.NONE,
        turns: int | None = None,
        printed: frozenset[int] = frozenset(),
    ) -> tuple[GridDetection, CellReading]:
        """Read the cells of a grid, turned upright first if the page lies sideways
        (``read_cells``, with ``PipelineConfig.read``).

        Every filled cell's print-or-pen kind is then settled by ``decide_kinds`` (with the
        colour ``image``, ink colour included), which records how in the reading's trace.
        Where ``mark`` says the diagonals are drawn as lines, a diagonal cell holding only
        the line is read empty (``DiagonalLinesAside``). ``turns`` 0 reads the grid as it
        lies (no quarter turn tried). ``printed``: cells known to hold print no digit is
        read in (a Killer's masked sums: the ink colour's printed references).
        """
        scorer = self.classifier
        if mark is DiagonalMark.LINES:
            scorer = DiagonalLinesAside(scorer, self.config.structure.diagonal)
        config = self.config.read
        if turns == 0:
            never = replace(config.orientation, check_below_log_prob=-math.inf)
            config = replace(config, orientation=never)
        return read_cells(scorer, detection, image, config, printed)

    def solve_reading(
        self, reading: CellReading, structure: GridStructure = CLASSIC_STRUCTURE
    ) -> RepairOutcome:
        """Solve the givens of a reading under the grid's rules, letting the solver repair
        it when allowed."""
        rules = rules_for(structure)
        if self.config.use_repair:
            return repair_givens(reading, self.config.repair, rules=rules)
        return solve_givens(read_givens(reading), self.config.repair.time_limit_s, rules)

    def solve(
        self, source: ImageSource, name: str | None = None
    ) -> tuple[PhotoResult, np.ndarray | None]:
        """Read a photo and draw the answer on it (None when the photo did not load)."""
        result = self.read(source, name)
        return result, self.draw(result, "solution")

    def check(
        self, source: ImageSource, name: str | None = None
    ) -> tuple[PhotoResult, np.ndarray | None]:
        """Read a photo and mark its pen entries right or wrong (None when it did not load)."""
        result = self.read(source, name)
        return result, self.draw(result, "check")

    def draw(self, result: PhotoResult, mode: str) -> np.ndarray | None:
        """The photo of ``result`` drawn in ``mode``, timed; None without a photo."""
        if result.image is None:
            return None
        return timed(
            result.timings, "draw", lambda: result.draw(mode=mode, config=self.config.draw)
        )

    def resolve(self, grid: GridResult, givens: str, handwritten: str | None = None) -> GridResult:
        """Solve ``grid`` again after a person corrected its digits (no repair: trust them).

        ``givens`` (and ``handwritten``) hold one character a cell of the grid's size: 81
        for a 9×9, 36 for a 6×6, 256 for a 16×16 (10-16 as A-G; pen entries as well).
        """
        if grid.structure.size != 9:
            return self.resolve_small(grid, givens, handwritten)
        new_givens = check_digits(givens, "givens")
        new_hand = check_digits(
            handwritten if handwritten is not None else grid.handwritten, "handwritten"
        )
        new_hand = "".join(
            "0" if g != "0" else h for g, h in zip(new_givens, new_hand, strict=True)
        )
        rules = rules_for(grid.structure)
        outcome = solve_givens(new_givens, self.config.repair.time_limit_s, rules)
        return finish(
            grid.detection,
            grid.reading,
            outcome,
            new_hand,
            grid.confidence,
            self.config.check,
            grid.structure,
        )

    def resolve_small(
        self, grid: GridResult, givens: str, handwritten: str | None = None
    ) -> GridResult:
        """``resolve`` for a small grid or a 16×16 (``vision/small/``): the corrected
        givens solved as they are under the grid's boxes, the pen entries (``grid``'s
        when None) kept where the givens leave the cell empty."""
        n = grid.structure.size
        values = digit_values(check_digits(givens, "givens", n))
        written = grid.handwritten if handwritten is None else handwritten
        written = check_digits(written, "handwritten", n)
        outcome = solve_as_read(values, n, self.config.small.time_limit_s)
        hand = "".join("0" if v else h for v, h in zip(values, written, strict=True))
        return finish(
            grid.detection,
            grid.reading,
            outcome,
            hand,
            grid.confidence,
            self.config.check,
            grid.structure,
        )


def took_writing_for_print(outcome: RepairOutcome) -> bool:
    """Whether the digits read were solved only with written digits taken for printed ones
    (``repair.written_only``, ``every_digit_as_given``): a Killer half solved in pen, its
    few givens and the person's entries together a classic puzzle with one answer, not
    the Killer's. Such a grid is looked at for cages too."""
    return any(r.kind_changed and r.new for r in outcome.repairs)


def print_taken_for_pen(puzzles: tuple[GridResult, ...]) -> bool:
    """Whether a photo's one grid was solved only by taking printed digits for pen: the
    sign of a 9×9 lattice laid over a small grid and a line beside it (an 8×8 and one
    more row and column), so the photo is looked at for a small grid as well."""
    return len(puzzles) == 1 and any(r.kind_changed and not r.new for r in puzzles[0].repairs)


def unlikely_repairs(puzzles: tuple[GridResult, ...], below: float) -> int:
    """How many repairs a photo's one grid was solved with, where one of them took a digit
    the model gave less than ``below`` (0 otherwise: a sure reading, or several grids).
    The sign of a 9×9 lattice laid over a small grid and a line beside it, whose digits
    pass for a 9×9 puzzle only after improbable repairs (``SmallGridConfig.unlikely_repair``)."""
    if len(puzzles) != 1 or puzzles[0].solution is None:
        return 0
    repairs = puzzles[0].repairs
    return len(repairs) if ruled_out(repairs, below) else 0


def grid_result(
    detection: GridDetection,
    reading: CellReading,
    outcome: RepairOutcome,
    config: PipelineConfig = DEFAULT_PIPELINE_CONFIG,
    structure: GridStructure = CLASSIC_STRUCTURE,
) -> GridResult:
    """The GridResult of a reading and its solved (maybe repaired) givens, for a grid of
    ``structure``'s rules.

    Once the givens are solved, the pen digits are read again with the answer as prior
    (``config.read.pen``), then those disagreeing with it with their copies in the same
    hand (``config.read.hand``); the entries are judged with ``config.check``.
    """
    hand, reread = read_pen_entries(
        reading, handwritten_after(reading, outcome), outcome.solution, config.read.pen
    )
    copies = read_as_the_hand_writes(
        reading.cells, digit_evidence(reading), hand, outcome.solution, config.read.hand,
        config.read.pen,
    )  # fmt: skip
    hand = "".join(str(copies.digits.get(c, d)) for c, d in enumerate(hand))
    confidence = np.asarray(reading.confidence, dtype=np.float64).copy()
    for repair in outcome.repairs:
        confidence[repair.cell] = repair.new_probability
    for cell, probability in (reread | copies.probability).items():
        confidence[cell] = probability
    reading = traced_after_solving(reading, outcome, hand, tuple(reread), tuple(copies.digits))
    return finish(detection, reading, outcome, hand, confidence, config.check, structure)


def traced_after_solving(
    reading: CellReading,
    outcome: RepairOutcome,
    handwritten: Digits,
    reread: tuple[int, ...],
    copies: tuple[int, ...] = (),
) -> CellReading:
    """The reading with its trace extended by the repairs, then the pen cells re-read.

    ``reread`` are the cells whose pen digit the answer prior changed or emptied, ``copies``
    those read again as copies of one glyph of the hand (``read_as_the_hand_writes``), to
    what ``handwritten`` holds.
    """
    if reading.trace is None:
        return reading
    repaired = tuple(
        LaterChange(
            KindStep.REPAIR,
            r.cell,
            r.new or (r.old if r.kind_changed else 0),
            Kind.PRINTED if r.new else Kind.HANDWRITTEN if r.kind_changed else Kind.EMPTY,
        )
        for r in outcome.repairs
    )
    prior = tuple(
        LaterChange(KindStep.ANSWER_PRIOR, c, int(handwritten[c]), pen_kind(handwritten[c]))
        for c in reread
    )
    alike = tuple(
        LaterChange(KindStep.HAND, c, int(handwritten[c]), Kind.HANDWRITTEN) for c in copies
    )
    return replace(reading, trace=reading.trace.with_later(repaired + prior + alike))


def pen_cells(reading: CellReading) -> frozenset[int]:
    """The cells a reading holds pen entries in."""
    return frozenset(int(c) for c in np.flatnonzero(np.asarray(reading.kinds) == Kind.HANDWRITTEN))


def disputed(reading: CellReading, check: CheckConfig) -> tuple[frozenset[int], ...]:
    """Per cell, the answers that would call the pen entry read there surely wrong
    (``entry_is_sure`` with ``check``, as a check judges it; none where no pen was read)."""
    pen, probs = pen_cells(reading), np.asarray(reading.probs)
    return tuple(
        frozenset(v for v in range(1, 10) if v != d and entry_is_sure(probs[c], int(d), v, check))
        if c in pen
        else frozenset()
        for c, d in enumerate(reading.digits)
    )


def pen_kind(digit: str) -> Kind:
    """HANDWRITTEN for a pen digit, EMPTY for '0'."""
    return Kind.EMPTY if digit == "0" else Kind.HANDWRITTEN


def finish(
    detection: GridDetection,
    reading: CellReading,
    outcome: RepairOutcome,
    handwritten: Digits,
    confidence: np.ndarray,
    check: CheckConfig = DEFAULT_CHECK_CONFIG,
    structure: GridStructure = CLASSIC_STRUCTURE,
) -> GridResult:
    """Assemble a GridResult: status, solution and a one-line message; its entries are
    judged with ``check``; ``structure``: the grid's rules."""
    givens, solution, status = outcome.givens, outcome.solution, outcome.status
    filled = all(g != "0" or h != "0" for g, h in zip(givens, handwritten, strict=True))
    if (
        solution is not None
        and filled
        and all(h in ("0", s) for h, s in zip(handwritten, solution, strict=True))
    ):
        status = Outcome.COMPLETE
    result = GridResult(
        detection=detection,
        reading=reading,
        givens=givens,
        handwritten=handwritten,
        confidence=confidence,
        status=status,
        solution=solution,
        repairs=outcome.repairs,
        problems=outcome.problems,
        message="",
        check=check,
        structure=structure,
    )
    return _with_message(result)


def _with_message(result: GridResult) -> GridResult:
    """The result with its one-line message filled in."""
    count = sum(1 for d in result.givens if d != "0")
    if result.status in SOLVED_OUTCOMES:
        text = f"solved ({count} givens"
        if result.repairs:
            text += "; " + repairs_text(result.repairs)
        text += ")"
        if result.pen_cells:
            text += "; " + result.check_message
    else:
        problems = "; ".join(p.text for p in result.problems[:4])
        more = f" (and {len(result.problems) - 4} more)" if len(result.problems) > 4 else ""
        text = f"{result.status.replace('_', ' ')}: {problems}{more}"
    if not result.structure.is_classic or result.structure.size != 9:
        text = f"{result.structure.name}: {text}"
    return replace(result, message=text)


MAX_NAMED_REPAIRS = 4  # more handwritten digits taken as printed are counted, not listed


def repairs_text(repairs: tuple[Repair, ...]) -> str:
    """The repairs in a person's words; many written digits taken as printed, in one phrase."""
    kept = [r for r in repairs if r.kind_changed and r.new and r.keeps_digit]
    if len(kept) <= MAX_NAMED_REPAIRS:
        return "; ".join(r.text for r in repairs)
    names = ", ".join(cell_name(r.cell) for r in kept[:MAX_NAMED_REPAIRS])
    phrase = f"{len(kept)} digits read as handwritten taken as printed ({names} …)"
    return "; ".join([phrase, *(r.text for r in repairs if r not in kept)])


def notes_straightener(page: ScaledImage, photo: Photo, side: int) -> Straighten:
    """Straightens a small grid found in ``page`` from ``photo`` decoded with its longer
    side at least ``side`` pixels (decoded only when a grid holds notes)."""
    return straightener(page, lambda: photo.scaled(photo.reduction_for(side)))


def is_unsolved_turned_killer(
    result: GridResult, read: GridDetection, found: GridDetection
) -> bool:
    """Whether a grid read as a Killer is not solved and its cells were read turned a
    quarter or half from how it was found: a Killer's few givens and many small sums can
    make a turn read surer, and its cages' sums (each in its cage's top-left corner) are
    then looked for the wrong way up; the grid as it lies is then tried too."""
    killer = result.structure.variant is Variant.KILLER
    turned = not np.array_equal(read.homography, found.homography)
    return killer and turned and result.status not in SOLVED_OUTCOMES


def finer_decode(photo: Photo) -> FinerPhoto:
    """The photo decoded so its longer side is at least the pixels asked (or whole)."""
    return lambda side: photo.scaled(photo.reduction_for(side)).pixels


def grid_side(lattice: np.ndarray) -> float:
    """The side in pixels of a grid's (10, 10, 2) lattice: the mean diagonal over √2."""
    corners = lattice[[0, 0, 9, 9], [0, 9, 9, 0]]
    diagonals = np.linalg.norm(corners[2] - corners[0]) + np.linalg.norm(corners[3] - corners[1])
    return float(diagonals) / (2.0 * math.sqrt(2.0))


def cut_off(grids: Sequence[GridResult], size: tuple[int, int], past_edge: float) -> bool:
    """Whether every grid read runs past the photo's edge (a corner ``past_edge`` of the
    photo's shorter side outside it): a grid cut off by the frame, such as yesterday's
    answer beside a 16×16 puzzle, solved only as far as it shows (the photo is then also
    looked at for a grid of another size, unless a grid was solved with empty cells of its
    own inside the photo: ``solved_inside``)."""
    if not grids:
        return False
    width, height = size
    reach = past_edge * min(size)
    return all(
        bool(
            (g.detection.corners < -reach).any()
            or (g.detection.corners[:, 0] > width + reach).any()
            or (g.detection.corners[:, 1] > height + reach).any()
        )
        for g in grids
    )


def solved_inside(grids: Sequence[GridResult], size: tuple[int, int]) -> bool:
    """Whether a grid was solved with an empty cell lying wholly inside the photo
    (``size``: width, height): a puzzle read as printed, not an answer grid cut off by the
    frame (``cut_off``), whose only empty cells are those past the edge."""
    width, height = size
    for grid in grids:
        if grid.solution is None:
            continue
        lattice = grid.detection.lattice
        n = lattice.shape[0] - 1
        limit = np.array([width - 1, height - 1], dtype=np.float64)
        point_in = np.all((lattice >= 0) & (lattice <= limit), axis=-1)
        cell_in = point_in[:-1, :-1] & point_in[:-1, 1:] & point_in[1:, :-1] & point_in[1:, 1:]
        empty = np.array([given == "0" for given in grid.givens]).reshape(n, n)
        if (cell_in & empty).any():
            return True
    return False


def at_full_scale(grid: GridResult, page: ScaledImage) -> GridResult:
    """The grid, read in ``page``, with its geometry in the full photo's pixels."""
    if page.factor == 1 and page.offset == (0.0, 0.0):
        return grid
    moved = moved_detection(grid.detection, float(page.factor), page.offset)
    return replace(grid, detection=moved)


def handwritten_after(reading: CellReading, outcome: RepairOutcome) -> Digits:
    """The pen digits, after repairs turned some cells into givens or out of them."""
    digits, kinds = np.asarray(reading.digits).tolist(), np.asarray(reading.kinds).tolist()
    # Python ints: a numpy integer compared with an enum member is ~50 times slower
    hand = [int(d) if k == Kind.HANDWRITTEN else 0 for d, k in zip(digits, kinds, strict=True)]
    for repair in outcome.repairs:
        hand[repair.cell] = repair.old if repair.kind_changed and not repair.new else 0
    return digits_of(hand)


def check_digits(text: str, name: str, size: int = 9) -> Digits:
    """Return ``text`` if it is size² characters of the values 0..size ('.' counts as 0;
    10-16 written A-G, as ``VALUE_CHARS``), else raise naming it."""
    cells = size * size
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a string of {cells} digits, got {type(text).__name__}")
    cleaned = text.replace(".", "0").upper()
    chars = VALUE_CHARS[: size + 1]
    if len(cleaned) != cells or not set(cleaned) <= set(chars):
        what = "0-9" if size == 9 else f"of {chars}"
        raise ValueError(f"{name} must be {cells} characters {what}, got {len(text)} characters")
    return cleaned


def describe_source(source: object) -> str:
    """A short name for where a photo came from: its path, or what kind of buffer."""
    if isinstance(source, (str, Path)):
        return str(source)
    if isinstance(source, np.ndarray):
        return describe_array(source)
    if isinstance(source, Photo):
        return source.name
    if isinstance(source, (bytes, bytearray, memoryview)):
        return f"<{len(source)} bytes>"
    return f"<{type(source).__name__}>"


def timed(timings: dict[str, float], step: str, run: Callable[[], T]) -> T:
    """Run one step and add its wall time (seconds) to ``timings[step]``."""
    started = time.perf_counter()
    try:
        return run()
    finally:
        timings[step] = timings.get(step, 0.0) + time.perf_counter() - started


@cache
def default_reader() -> Reader:
    """A Reader with the shipped model and default settings, built once per process."""
    return Reader()


def read_photo(source: ImageSource, reader: Reader | None = None) -> PhotoResult:
    """Read and solve every grid of a photo."""
    return (reader or default_reader()).read(source)


def solve_photo(
    source: ImageSource, reader: Reader | None = None
) -> tuple[PhotoResult, np.ndarray | None]:
    """Read a photo, solve it and draw the answer on it."""
    return (reader or default_reader()).solve(source)


def check_photo(
    source: ImageSource, reader: Reader | None = None
) -> tuple[PhotoResult, np.ndarray | None]:
    """Read a photo and mark its pen entries right (green) or wrong (red)."""
    return (reader or default_reader()).check(source)


__all__ = [
    "DEFAULT_PIPELINE_CONFIG",
    "EVERY_GRID_CONFIG",
    "MAX_GRIDS_PER_PHOTO",
    "CellScorer",
    "PipelineConfig",
    "Reader",
    "check_photo",
    "default_reader",
    "read_photo",
    "solve_photo",
]
