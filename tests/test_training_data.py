"""The digit model's training data: fontsource faces, styled handwriting, Times kinds.

No network, no torch, no shared data: fontsource is checked against an empty cache, the
glyph styling on a drawn glyph, the kind derivation on a known symmetric puzzle.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sudokucam.models.training import fontsource
from sudokucam.models.training.progress_cells import EITHER, with_kinds
from sudokucam.models.training.synth import (
    HandDraw,
    flagged_one,
    short_barred_seven,
    styled_glyph,
)
from sudokucam.models.training.times_kinds import derive_givens
from sudokucam.solver.solve import count_solutions, solve

# A classic puzzle (givens symmetric under a half turn, one solution).
PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def test_faces_are_pinned_and_held_out_faces_are_real() -> None:
    """Every face names a version; held-out names are faces of the lists, hand and print."""
    faces = (*fontsource.HAND_FACES, *fontsource.PRINT_FACES)
    assert all(f.version.count(".") == 2 for f in faces)
    names = {f.name for f in faces}
    assert len(names) == len(faces)
    assert names >= fontsource.HELD_OUT
    assert fontsource.HELD_OUT & {f.name for f in fontsource.HAND_FACES}
    assert fontsource.HELD_OUT & {f.name for f in fontsource.PRINT_FACES}


def test_fonts_missing_from_the_cache_name_the_fetch_command(tmp_path: Path) -> None:
    """An empty cache is an error that says how to fetch, never an empty font list."""
    with pytest.raises(FileNotFoundError, match=r"fontsource"):
        fontsource.fonts(fontsource.HAND_FACES, tmp_path)


def test_fonts_split_training_and_held_out_faces(tmp_path: Path) -> None:
    """Cached files are listed per face; held-out faces only when asked for."""
    for face in fontsource.PRINT_FACES:
        for style in face.styles:
            path = tmp_path / face.name / fontsource.file_name(face, style)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(b"x")
    train = fontsource.fonts(fontsource.PRINT_FACES, tmp_path)
    held = fontsource.fonts(fontsource.PRINT_FACES, tmp_path, held_out=True)
    assert not {p.parent.name for p in train} & fontsource.HELD_OUT
    assert {p.parent.name for p in held} <= fontsource.HELD_OUT
    assert held and len(train) + len(held) == sum(len(f.styles) for f in fontsource.PRINT_FACES)


def seven() -> np.ndarray:
    """A plain 7: a top bar and a diagonal, uint8 ink."""
    import cv2

    g = np.zeros((40, 28), np.uint8)
    cv2.line(g, (2, 3), (25, 3), 255, 3)
    cv2.line(g, (25, 3), (10, 38), 255, 3)
    return g


def test_barred_seven_slant_and_pencil_grain() -> None:
    """A barred 7 gains ink mid-height; a slant widens the glyph; pencil grain lightens it."""
    rng = np.random.default_rng(0)
    g = seven()
    barred = styled_glyph(rng, g, 7, HandDraw(barred_seven_share=1.0))
    assert barred[16:26].sum() > g[16:26].sum()
    slanted = styled_glyph(rng, g, 7, HandDraw(slant=0.3))
    assert slanted.shape[1] > g.shape[1]
    grainy = styled_glyph(rng, g, 7, HandDraw(grain=0.5))
    assert 0 < grainy.sum() < g.sum()
    assert np.array_equal(styled_glyph(rng, g, 3, HandDraw(barred_seven_share=1.0)), g)


def stroke() -> np.ndarray:
    """A plain 1: one upright stroke, uint8 ink."""
    g = np.zeros((40, 6), np.uint8)
    g[:, 2:5] = 255
    return g


def test_a_european_one_has_a_flag_down_to_the_left() -> None:
    """The flag leaves the stroke's top leftwards and reaches lower than it starts (a 7's
    bar runs level): the glyph widens to the left, its top row stays the stroke's."""
    one = flagged_one(np.random.default_rng(1), stroke())
    assert one.shape[0] == 40 and one.shape[1] > 6
    ys, xs = np.nonzero(one > 127)
    left = xs.min()
    assert ys[xs == left].min() >= 40 * 0.2 * np.sin(np.radians(25)) - 2
    assert (one[:, -4:] > 127).sum() >= 40 * 3 - 6  # the stroke itself kept


def test_a_short_barred_seven_has_a_level_bar_at_the_top() -> None:
    """The bar leaves the stroke's top leftwards nearly level: its far end stays near the
    top, 0.3-0.6 of the height away."""
    seven_ = short_barred_seven(np.random.default_rng(2), stroke())
    ys, xs = np.nonzero(seven_ > 127)
    left = xs.min()
    assert seven_.shape[1] - left >= 40 * 0.3 * np.cos(np.radians(12)) - 2
    assert ys[xs == left].max() <= seven_.shape[0] - 40 + 40 * 0.6 * np.sin(np.radians(12)) + 4


def labels_with_entries() -> tuple[np.ndarray, np.ndarray]:
    """The puzzle's givens plus 10 written entries (from its answer), and the givens mask."""
    givens = np.array([c != "." for c in PUZZLE])
    answer = np.array([int(c) for c in solve(PUZZLE)])
    written = np.flatnonzero(~givens)[:10]
    labels = np.where(givens, answer, 0)
    labels[written] = answer[written]
    return labels, givens


def test_derived_givens_are_the_printed_symmetric_cells() -> None:
    """Givens called printed and entries called written come back as the printed mask."""
    labels, givens = labels_with_entries()
    odds = np.where(givens, 2.0, np.where(labels > 0, -2.0, 0.0))
    odds[np.flatnonzero(givens)[0]] = -0.5  # one unsure given: its partner outvotes it
    derived = derive_givens(labels, odds)
    assert derived is not None and np.array_equal(derived, givens)


def test_derivation_that_is_no_proper_puzzle_is_refused() -> None:
    """Too few givens, or givens with several solutions, give None (the either-kind target)."""
    labels, givens = labels_with_entries()
    assert derive_givens(labels, np.full(81, -1.0)) is None
    odds = np.where(givens, 2.0, -2.0)
    dropped = np.flatnonzero(givens)[:2]
    odds[dropped] = odds[80 - dropped] = -2.0  # two pairs fewer: 28 givens, 2+ solutions
    assert derive_givens(labels, odds) is None
    odds[dropped[1:]] = odds[80 - dropped[1:]] = 2.0  # one pair fewer: 30, still unique
    derived = derive_givens(labels, odds)
    assert derived is not None and int(derived.sum()) == int(givens.sum()) - 2


def test_a_redundant_pair_unlike_the_printed_glyph_is_taken_out() -> None:
    """Two written digits read as a symmetric printed pair (a hand's cursive 2s) are taken
    out when the rest is still the puzzle; a pair it needs, or one like the print, stays."""
    givens = np.array([c != "." for c in PUZZLE])
    labels = np.array([int(c) for c in solve(PUZZLE)])  # a finished page
    extra = next(c for c in range(81) if not givens[c] and not givens[80 - c])
    odds = np.where(givens | glyph_pair(extra), 2.0, -2.0)  # the pair surely "printed"
    matches = np.where(givens, 0.9, np.nan)
    with_pair = givens | glyph_pair(extra)
    assert np.array_equal(derive_givens(labels, odds), with_pair)  # type: ignore[arg-type]
    matches[[extra, 80 - extra]] = (0.6, np.nan)  # unlike the print; the partner: no glyph
    assert np.array_equal(derive_givens(labels, odds, matches), givens)  # type: ignore[arg-type]
    matches[80 - extra] = 0.85  # the partner looks printed: the pair stays
    assert np.array_equal(derive_givens(labels, odds, matches), with_pair)  # type: ignore[arg-type]
    matches[[extra, 80 - extra]] = np.nan
    needed = next(int(c) for c in np.flatnonzero(givens) if not unique_without(givens, int(c)))
    matches[[needed, 80 - needed]] = 0.5  # unlike, but the puzzle needs them
    assert np.array_equal(derive_givens(labels, odds, matches), with_pair)  # type: ignore[arg-type]


def unique_without(givens: np.ndarray, cell: int) -> bool:
    """Whether PUZZLE without ``cell`` and its partner still has one solution."""
    fewer = givens & ~glyph_pair(cell)
    puzzle = "".join(c if keep else "." for c, keep in zip(PUZZLE, fewer, strict=True))
    return count_solutions(puzzle, limit=2) == 1


def glyph_pair(cell: int) -> np.ndarray:
    """(81,) bool, True at ``cell`` and its half-turn partner."""
    mask = np.zeros(81, dtype=bool)
    mask[[cell, 80 - cell]] = True
    return mask


def test_with_kinds_makes_derived_puzzles_exact() -> None:
    """Either-kind digits of a derived puzzle become printed or written; others stay."""
    row = np.zeros(81, np.int64)
    row[:3] = EITHER + np.array([4, 5, 6])
    row[3] = 19  # notes stay notes
    printed = np.zeros(81, bool)
    printed[0] = True
    out = with_kinds(np.concatenate([row, row]), ["a", "b"], {"a": printed})
    assert list(out[:4]) == [4, 14, 15, 19]
    assert np.array_equal(out[81:], row)
