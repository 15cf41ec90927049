"""A 16×16 half solved in pen: on a page of the numbers 1-16 printed told from written
per cell (the digit model's printed and handwritten classes), on a page of 0-9/A-F or
A-P by the printed copies' likeness (a hand's glyphs are unlike them), decided for the
whole puzzle (the printed numbers alone have one answer), the entries checked against
the answer."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from sudokucam.benchmarks.small_photo_eval import jpeg_round_trip
from sudokucam.samples import render
from sudokucam.samples.synth.sixteen_drawing import sixteen_puzzle
from sudokucam.ui.cli import app
from sudokucam.vision.check.judge import judge_entries
from sudokucam.vision.pipeline import Reader
from sudokucam.vision.small.sixteen import (
    OtherReading,
    arcs,
    broken_zero,
    colour_odds,
    holds,
    other_reading,
    pen_share,
    printed_reading,
    solve_sixteen,
    walled,
)
from sudokucam.vision.small.sixteen_config import (
    DEFAULT_SIXTEEN_CONFIG,
    DEFAULT_SYMBOL_CONFIG,
    SymbolConfig,
)
from sudokucam.vision.small.symbols import (
    Glyphs,
    Naming,
    load_references,
    placed_crop,
    split_written,
    written_probs,
)
from sudokucam.vision.structure.cage_sums import sum_blobs
from sudokucam.vision.types import Kind, digit_values, digits_of

runner = CliRunner()
VALUES = 17


def one_hot(values: tuple[int, ...]) -> np.ndarray:
    """(256, 17) sure value probabilities of ``values`` (0 empty)."""
    probs = np.full((len(values), VALUES), 1e-6)
    probs[np.arange(len(values)), values] = 1.0
    return probs / probs.sum(axis=1, keepdims=True)


def test_a_glyph_is_pen_by_the_model_s_handwritten_classes() -> None:
    probs = np.zeros((2, 19))
    probs[0, 3], probs[0, 12] = 0.9, 0.1  # a printed 3, a little pen
    probs[1, 12] = 1.0  # a handwritten 3
    assert np.allclose(pen_share(probs), [0.1, 1.0])


def test_a_cell_is_handwritten_where_its_odds_of_print_are_low_enough() -> None:
    values = (5, 12, 0, 7)
    reading = printed_reading(one_hot(values), np.array([0.01, 0.99, 0.0, 0.6]), pen_odds=0.0)
    assert list(reading.kinds) == [Kind.PRINTED, Kind.HANDWRITTEN, Kind.EMPTY, Kind.HANDWRITTEN]
    assert reading.kind_log_odds is not None and reading.kind_log_odds[1] < -4


def test_pen_entries_are_left_out_of_the_givens_where_the_print_alone_has_one_answer() -> None:
    puzzle, answer = sixteen_puzzle(7)
    givens = puzzle.givens
    empty = [c for c, v in enumerate(givens) if not v]
    right, wrong = empty[:20], empty[20]
    values = list(givens)
    for c in right:
        values[c] = answer[c]
    values[wrong] = answer[wrong] % 16 + 1  # a wrong entry: with it, no answer
    pen = np.zeros(256)
    pen[right] = 0.9  # read as pen, but not surely: the ladder reaches them
    pen[wrong] = 0.999
    reading = printed_reading(one_hot(tuple(values)), pen, pen_odds=1.0)
    outcome = solve_sixteen(reading)
    assert outcome.givens == digits_of(givens)
    assert outcome.solution == digits_of(answer)


def test_entries_past_9_are_judged_as_values() -> None:
    solution = digits_of([16, 10, 3])
    written = digits_of([16, 12, 0])  # right, surely wrong, none
    probs = one_hot((16, 12, 0))
    wrong, unsure = judge_entries(probs, written, solution)
    assert wrong == (1,) and unsure == ()


@pytest.mark.slow
def test_a_16x16_half_solved_in_pen_is_checked() -> None:
    """A rendered 16×16 of numbers with pen entries (two wrong): every printed number read
    as a given, the answer right, no right entry called wrong, most entries found as
    written (a pen number read as another is asked about, never called wrong)."""
    made = render.render_sixteen_photo(1600, "magazine", pen_fill=0.5, pen_mistakes=2,
                                       size=(1600, 1200))  # fmt: skip
    truth = made.photo.truth
    (grid,) = Reader().read(made.photo.image).grids
    assert grid.solution == digits_of(made.answer)
    printed = np.flatnonzero(truth.givens.ravel())
    assert np.array_equal(
        np.array(digit_values(grid.givens))[printed], truth.givens.ravel()[printed]
    )
    pen = truth.pen.ravel()
    found = np.array(digit_values(grid.handwritten))
    assert ((found > 0) & (found == pen)).sum() >= 0.7 * (pen > 0).sum()  # 59 of 78 measured
    mistakes = {r * 16 + c for r, c in truth.mistakes}
    assert set(grid.wrong_entries) <= mistakes
    asked = {u.cell for u in grid.unsure_entries()}
    assert set(np.flatnonzero((found > 0) & (found != pen))) <= asked


@pytest.mark.slow
def test_check_names_the_wrong_pen_entries_of_a_16x16(tmp_path: Path) -> None:
    made = render.render_sixteen_photo(1601, "bold", pen_fill=0.4, pen_mistakes=2,
                                       size=(1600, 1200))  # fmt: skip
    photo = tmp_path / "half.jpg"
    cv2.imwrite(str(photo), made.photo.image)
    marked = tmp_path / "marked.png"
    done = runner.invoke(app, ["check", "--json", str(photo), "-o", str(marked)])
    assert done.exit_code == 0, done.output
    (grid,) = json.loads(done.stdout)["grids"]
    mistakes = {f"r{r + 1}c{c + 1}" for r, c in made.photo.truth.mistakes}
    assert set(grid["check"]["wrong"]) <= mistakes
    assert grid["check"]["right"], "no right entry found"
    assert marked.is_file()


def drawn_cell(joined: bool) -> np.ndarray:
    """A cleared, padded cell (96 pixels a side, ink 1) holding a tall 1 and a 0 about
    half its height beside it (under the finder's ``digit_height``): apart, or run into
    the 1 (``joined``)."""
    ink = np.zeros((96, 96), np.uint8)
    cv2.line(ink, (36, 28), (36, 68), 255, 4)  # the 1, 41 pixels tall
    cv2.ellipse(ink, (58, 58), (8, 10), 0, 0, 360, 255, 4)  # the 0, half as tall
    if joined:
        cv2.line(ink, (36, 68), (52, 64), 255, 2)  # the pen run on from the 1's foot
    return ink.astype(np.float32) / 255.0


def test_a_pen_1_keeps_the_shorter_digit_written_beside_it() -> None:
    config = DEFAULT_SIXTEEN_CONFIG
    cell = drawn_cell(joined=False)
    (glyph,) = sum_blobs(cell, config.glyphs)  # the finder keeps the 1 alone
    other = other_reading(0, glyph, cell, config)
    assert other is not None and not other.joined
    assert other.parts[0].shape == glyph.shape and other.parts[1].shape[0] < glyph.shape[0]


def test_a_pen_1_run_into_the_next_digit_is_cut_from_it() -> None:
    config = DEFAULT_SIXTEEN_CONFIG
    cell = drawn_cell(joined=True)
    (glyph,) = sum_blobs(cell, config.glyphs)  # one blob
    other = other_reading(0, glyph, cell, config)
    assert other is not None and other.joined
    left, right = other.parts
    assert left.shape[1] < right.shape[1] and left.shape[0] == glyph.shape[0]


def part_logs(left: int, right: int, sure: float = 0.97) -> np.ndarray:
    """(2, 10) log-probabilities of 0-9 for two parts read as ``left`` and ``right``."""
    out = np.full((2, 10), (1.0 - sure) / 9)
    out[0, left], out[1, right] = sure, sure
    return np.log(out)


def whole_reading(value: int) -> np.ndarray:
    """(17,) a one-glyph cell's value probabilities, read as ``value``."""
    return one_hot((value,))[0]


def parts_of(*heights: int) -> tuple[np.ndarray, np.ndarray]:
    """Two ink parts of these heights (a joined blob cut in two)."""
    left, right = (np.ones((h, 8), np.float32) for h in heights)
    return left, right


@pytest.mark.parametrize(
    ("heights", "logs", "whole", "held"),
    [
        ((40, 40), part_logs(1, 6), 6, True),  # a 16 seen as a 6: its 1 run into the 6
        ((40, 30), part_logs(1, 0), 1, True),  # a 10: the 0 is not what the blob reads as
        ((40, 40), part_logs(1, 1), 1, False),  # a 1 cut through its stem, or an 11
        ((12, 40), part_logs(1, 4), 4, False),  # a 4's slanted stroke is no 1
        ((40, 40), part_logs(1, 3), 6, False),  # a 6 cut in two: a 1 and a 3
        ((40, 40), part_logs(7, 6), 6, False),  # no 1 on the left
        ((40, 40), part_logs(1, 6, sure=0.6), 6, False),  # not read surely
    ],
)
def test_a_joined_reading_holds_only_for_a_tall_sure_1_and_the_digit_seen(
    heights: tuple[int, int], logs: np.ndarray, whole: int, held: bool
) -> None:
    other = OtherReading(0, parts_of(*heights), joined=True)
    config = DEFAULT_SIXTEEN_CONFIG.pen_numbers
    assert holds(other, logs, whole_reading(whole), config) is held


def test_a_1_beside_a_shorter_glyph_holds_when_it_reads_as_a_1() -> None:
    other = OtherReading(0, parts_of(40, 26), joined=False)
    config = DEFAULT_SIXTEEN_CONFIG.pen_numbers
    assert holds(other, part_logs(1, 0), whole_reading(1), config)
    assert not holds(other, part_logs(7, 0), whole_reading(7), config)


@pytest.mark.slow
def test_two_digit_pen_numbers_keep_their_1() -> None:
    """The rendered page whose pen 16s were read as 6s (seed 1600, magazine; the
    benchmark's first pen page): each of its pen 16s read as 16, more entries read as
    written than before (59 of 78 then, 65 now), no right entry called wrong."""
    made = render.render_sixteen_photo(1600, "magazine", pen_fill=0.5, pen_mistakes=2)
    truth = made.photo.truth
    image = jpeg_round_trip(made.photo.image, made.photo.jpeg_quality)
    (grid,) = Reader().read(image).grids
    assert grid.solution == digits_of(made.answer)
    pen = truth.pen.ravel()
    found = np.array(digit_values(grid.handwritten))
    sixteens = np.flatnonzero(pen == 16)
    assert len(sixteens) >= 3 and (found[sixteens] == 16).all(), found[sixteens]
    assert ((found > 0) & (found == pen)).sum() >= 64
    mistakes = {r * 16 + c for r, c in truth.mistakes}
    assert set(grid.wrong_entries) <= mistakes


def glyphs_of(cells: list[int], features: np.ndarray) -> Glyphs:
    """Glyphs at ``cells`` of the given unit ``features``, square, the model unsure, each
    placed alike in its cell."""
    n = len(cells)
    return Glyphs(np.array(cells, np.int64), features, np.zeros(n), np.full((n, 10), -np.log(10)),
                  np.tile([0.4, 0.0, 0.0], (n, 1)))  # fmt: skip


def parts(glyphs: Glyphs, config: SymbolConfig) -> tuple[np.ndarray, np.ndarray]:
    """The glyphs ``split_written`` takes for printed and for written."""
    split = split_written(glyphs, config)
    assert len(split.odds) == len(split.written) and (split.odds <= 0).all()
    return split.printed, split.written


def printed_and_written(written: int) -> tuple[Glyphs, list[int]]:
    """Three printed copies of each of 16 symbols (alike but for a little noise, in cells
    holding that symbol in a solved grid) and ``written`` glyphs unlike all (a hand's),
    and the indices of the written ones."""
    rng = np.random.default_rng(5)
    _, answer = sixteen_puzzle(7)
    shapes = rng.normal(size=(16, 400))
    cells, rows, used = [], [], set()
    for v in range(1, 17):
        for c in [c for c, a in enumerate(answer) if a == v][:3]:
            cells.append(c)
            used.add(c)
            rows.append(shapes[v - 1] + 0.1 * rng.normal(size=400))
    free = [c for c in range(256) if c not in used][:written]
    cells += free
    rows += list(rng.normal(size=(written, 400)))
    features = np.array(rows)
    features /= np.linalg.norm(features, axis=1, keepdims=True)
    return glyphs_of(cells, features), list(range(48, 48 + written))


def test_glyphs_unlike_every_printed_copy_are_written() -> None:
    glyphs, written = printed_and_written(6)
    printed, found = parts(glyphs, DEFAULT_SIXTEEN_CONFIG.symbols)
    assert list(found) == written
    assert list(printed) == list(range(48))


def neat_hand(moved: float) -> tuple[Glyphs, list[int]]:
    """Three printed copies of each of 16 symbols (``printed_and_written(0)``) and six
    glyphs written as neatly as print (copies of the printed shapes of symbols 1-6, each
    in a fourth cell holding its symbol in the solved grid) but standing ``moved`` of
    the cell lower in their cells, and the indices of those six."""
    glyphs, _ = printed_and_written(0)
    _, answer = sixteen_puzzle(7)
    cells = [[c for c, a in enumerate(answer) if a == v][3] for v in range(1, 7)]
    rows = np.arange(6) * 3  # the first printed copy of symbols 1-6
    both = Glyphs(
        np.concatenate([glyphs.cells, cells]),
        np.vstack([glyphs.features, glyphs.features[rows]]),
        np.zeros(54),
        np.full((54, 10), -np.log(10)),
        np.vstack([glyphs.places, glyphs.places[rows] + [0.0, moved, 0.0]]),
    )
    return both, list(range(48, 54))


def test_a_hand_as_neat_as_print_is_told_by_where_it_stands() -> None:
    """Written glyphs shaped exactly as printed ones are print where they stand as print
    does in its cells, written where they stand lower (a hand off-centre)."""
    glyphs, written = neat_hand(0.08)
    printed, found = parts(glyphs, DEFAULT_SYMBOL_CONFIG)
    assert list(found) == written and list(printed) == list(range(48))
    printed, found = parts(glyphs, replace(DEFAULT_SYMBOL_CONFIG, place_weight=0.0))
    assert len(found) == 0 and len(printed) == 54
    glyphs, _ = neat_hand(0.02)
    printed, found = parts(glyphs, DEFAULT_SYMBOL_CONFIG)
    assert len(found) == 0 and len(printed) == 54


def test_a_glyph_s_place_is_its_box_in_the_cell() -> None:
    """A bar drawn low and right in a cell: its height and centre's offsets as shares."""
    cell = np.zeros((100, 100), np.float32)
    cell[50:90, 60:70] = 1.0
    crop, place = placed_crop(cell)
    assert crop.shape == (40, 10)
    assert place == pytest.approx([0.4, 0.2, 0.15])
    assert placed_crop(np.zeros((10, 10)))[1] == pytest.approx([0.0, 0.0, 0.0])


def test_a_few_odd_glyphs_are_not_taken_for_pen() -> None:
    glyphs, _ = printed_and_written(DEFAULT_SIXTEEN_CONFIG.symbols.min_written - 1)
    printed, found = parts(glyphs, DEFAULT_SIXTEEN_CONFIG.symbols)
    assert len(found) == 0 and len(printed) == len(glyphs.cells)


def test_a_written_glyph_is_never_read_surely() -> None:
    refs = load_references()
    glyphs = glyphs_of([0], refs.features[0, refs.symbols.index("C")][None])  # a clean C
    probs = written_probs(glyphs, refs, Naming("ABCDEFGHIJKLMNOP", (), 0.0), DEFAULT_SYMBOL_CONFIG)
    assert probs.shape == (1, 17) and probs[0].argmax() == 3
    assert probs[0, 3] <= DEFAULT_SYMBOL_CONFIG.written_sure
    assert probs.sum() == pytest.approx(1.0)


@pytest.mark.parametrize(("symbols", "seed", "style"), [("letters", 1600, "magazine"),
                                                         ("hex", 1602, "shaded")])  # fmt: skip
def test_a_symbol_page_half_solved_in_pen_is_checked(symbols: str, seed: int, style: str) -> None:
    """A 0-9/A-F or A-P page with pen entries (two wrong): the givens read are the
    printed ones, but for a few taken for entries or, written neatly, for print (right
    ones: the answer holds them), the answer right, no right entry called wrong, most
    entries found as written."""
    made = render.render_sixteen_photo(seed, style, symbols, pen_fill=0.5, pen_mistakes=2,
                                       size=(1600, 1200))  # fmt: skip
    truth = made.photo.truth
    (grid,) = Reader().read(made.photo.image).grids
    assert grid.structure.symbols == render.SIXTEEN_SYMBOLS[symbols]
    read, printed = np.array(digit_values(grid.givens)), np.array(made.puzzle.givens)
    assert np.array_equal(read[read > 0], np.array(made.answer)[read > 0])
    assert ((read > 0) != (printed > 0)).sum() <= 5
    assert grid.solution == digits_of(made.answer)
    pen = truth.pen.ravel()
    found = np.array(digit_values(grid.handwritten))
    assert ((found > 0) & (found == pen)).sum() >= 0.7 * (pen > 0).sum()  # 59 of 78 measured
    assert set(grid.wrong_entries) <= {r * 16 + c for r, c in truth.mistakes}


def coloured_page(pen_colour: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """A 16×16 grid photo (BGR, 30-pixel cells on a warm paper), black print in the first
    cells of every row, pen in ``pen_colour`` in the last ones; its lattice and the pen
    cells."""
    cell, margin = 30, 10
    side = 2 * margin + 16 * cell
    image = np.empty((side, side, 3), np.uint8)
    image[:] = (200, 228, 238)
    ticks = margin + cell * np.arange(17, dtype=np.float64)
    lattice = np.stack(np.meshgrid(ticks, ticks), axis=-1)
    pen = []
    for c in range(256):
        row, col = divmod(c, 16)
        if col % 4 == 3:
            continue  # empty
        colour = (40, 40, 40) if col < 8 else pen_colour
        pen += [c] if col >= 8 else []
        origin = (margin + col * cell + 8, margin + row * cell + 23)
        cv2.putText(image, str(col % 9 + 1), origin, cv2.FONT_HERSHEY_SIMPLEX, 0.7, colour, 2)
    return image, lattice, pen


@pytest.mark.parametrize(("colour", "flips"), [((170, 60, 20), True), ((40, 40, 40), False)])
def test_a_16x16_pen_number_read_as_print_is_told_by_its_blue_ink(
    colour: tuple[int, int, int], flips: bool
) -> None:
    image, lattice, pen_cells = coloured_page(colour)
    values = tuple(0 if c % 16 % 4 == 3 else 5 for c in range(256))
    written = np.zeros(256)
    written[pen_cells] = 0.9999  # sure pen ...
    unsure = pen_cells[0]
    written[unsure] = 0.2  # ... but for one pen number the model takes for print
    reading = printed_reading(one_hot(values), written, pen_odds=1.0)
    assert reading.kinds[unsure] == Kind.PRINTED
    extra = colour_odds(reading, image, lattice, DEFAULT_SIXTEEN_CONFIG.ink_colour)
    again = printed_reading(one_hot(values), written, 1.0, extra)
    assert bool(again.kinds[unsure] == Kind.HANDWRITTEN) == flips
    printed = [c for c in range(256) if values[c] and c not in pen_cells]
    assert all(again.kinds[c] == Kind.PRINTED for c in printed)
    grey = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)[..., :1]
    assert not colour_odds(reading, grey, lattice, DEFAULT_SIXTEEN_CONFIG.ink_colour).any()


def broken_ten(second: str) -> np.ndarray:
    """A cleared, padded cell (96 pixels a side, ink 1) holding a pen 1 and, beside it, a
    narrow 0 written as two arcs, the left one run into the 1 (``second`` "0"), or a 1
    and a 2 apart (``second`` "2")."""
    ink = np.zeros((96, 96), np.uint8)
    cv2.line(ink, (30, 30), (30, 66), 255, 3)  # the 1
    if second == "0":
        cv2.ellipse(ink, (52, 48), (16, 18), 0, 100, 260, 255, 3)  # the left arc ...
        cv2.line(ink, (30, 40), (37, 40), 255, 2)  # ... run into the 1
        cv2.ellipse(ink, (52, 48), (16, 18), 0, -80, 80, 255, 3)  # the right arc, apart
    else:
        cv2.putText(ink, "2", (44, 66), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 255, 3)
    return ink.astype(np.float32) / 255.0


def test_a_narrow_pen_0_in_two_arcs_is_read_as_the_0_of_a_10() -> None:
    config = DEFAULT_SIXTEEN_CONFIG
    cell = broken_ten("0")
    first, second = sum_blobs(cell, replace(config.glyphs, digit_height=0.3))
    assert first.shape[1] > second.shape[1]  # the 1 with the left arc, the right arc
    assert arcs((first, second), config)
    other = broken_zero(0, first, cell, config)
    assert other is not None and other.broken and other.joined
    one, zero = other.parts
    assert one.shape[1] < first.shape[1] and walled(zero, config.pen_numbers.walled_rows)


def test_a_pen_12_is_no_broken_0() -> None:
    config = DEFAULT_SIXTEEN_CONFIG
    cell = broken_ten("2")
    blobs = sum_blobs(cell, replace(config.glyphs, digit_height=0.3))
    assert len(blobs) == 2
    assert not arcs(blobs, config)
    assert broken_zero(0, blobs[0], cell, config) is None
    assert not walled(blobs[1], config.pen_numbers.walled_rows)
