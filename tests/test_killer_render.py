"""The Killer renderer: cages cover the grid, sums are the answer's, styles differ, truth kept."""

from __future__ import annotations

import numpy as np
import pytest

from sudokucam.samples import render
from sudokucam.samples.synth.killer_drawing import (
    cage_segments,
    dashes,
    fill_colours,
    killer_puzzle,
    owners,
    sample_killer_style,
)
from sudokucam.solver.variant import Cage, Variant, VariantPuzzle
from sudokucam.solver.variant_json import puzzle_from_json


@pytest.mark.parametrize("style", [*render.KILLER_STYLES, render.TINTED])
def test_killer_photo_truth_is_a_unique_killer(style: str) -> None:
    photo = render.render_killer(7, style, size=(640, 480))
    t = photo.truth
    assert isinstance(t, render.KillerTruth) and t.style == style
    assert photo.image.shape == (480, 640, 3) and photo.image.dtype == np.uint8
    cells = sorted(c for cage in t.cages for c in cage.cells)
    assert cells == list(range(81))
    assert sum(cage.total for cage in t.cages) == 405
    givens = tuple(int(v) for v in t.givens.ravel())
    puzzle = VariantPuzzle(9, givens, Variant.KILLER, cages=t.cages)
    assert puzzle.is_solution([int(v) for v in t.solution.ravel()])
    data = t.to_json()
    assert data["variant"] == "killer" and len(data["cages"]) == len(t.cages)
    assert data["cages"][0]["cells"][0] == "r1c1"
    assert data["puzzle"]["cages"] == data["cages"]  # the grid FILE.json form, as variants'
    assert puzzle_from_json(data["puzzle"]) == puzzle


def test_killer_photos_are_seeded() -> None:
    a = render.render_killer(3, "dotted", size=(640, 480))
    b = render.render_killer(3, "dotted", size=(640, 480))
    assert np.array_equal(a.image, b.image)
    other = render.render_killer(4, "dotted", size=(640, 480)).truth.to_json()
    assert other["cages"] != a.truth.to_json()["cages"]


def test_the_tinted_style_fills_its_cages_and_draws_no_outline() -> None:
    effects = render.render_killer(7, render.TINTED, size=(640, 480)).truth.effects
    assert effects["killer"]["fill"] is True and effects["killer"]["outlined"] is False
    drawn = render.render_killer(7, None, size=(640, 480)).truth.effects["killer"]
    assert drawn["outlined"] is True  # never drawn at random: the four styles keep their seeds


def test_tinted_cages_sharing_a_side_never_share_a_colour() -> None:
    """Where the colours do not go round every touching cage, the tinted style still gives
    cages sharing a side different colours (its cages are told by colour alone)."""
    rng = np.random.default_rng(5)
    for seed in range(6):
        puzzle, _, _ = killer_puzzle(seed, sample_killer_style(rng, render.TINTED), rng)
        colours = fill_colours(puzzle.cages, rng, sided=True)
        owner = owners(puzzle.cages)
        for cell in range(81):
            r, c = divmod(cell, 9)
            for other in ([cell + 1] if c < 8 else []) + ([cell + 9] if r < 8 else []):
                if owner[cell] != owner[other]:
                    assert colours[owner[cell]] != colours[owner[other]]


def test_unknown_style_is_refused() -> None:
    with pytest.raises(ValueError, match="style must be one of"):
        render.render_killer(0, "neon")


def test_an_l_shaped_cage_outline_turns_inside_its_corner() -> None:
    singles = tuple(Cage(1, (c,)) for c in range(81) if c not in (0, 1, 9))
    cages = (Cage(6, (0, 1, 9)), *singles)
    segs = cage_segments(cages[0], owners(cages), 0.1)
    assert len(segs) == 8  # an L of three cells shows eight cell sides
    rounded = {tuple((round(x, 6), round(y, 6)) for x, y in seg) for seg in segs}
    assert ((0.9, 0.9), (1.9, 0.9)) in rounded  # cell 1's bottom from the inner corner
    assert ((0.9, 0.9), (0.9, 1.9)) in rounded  # cell 9's right side from the same corner
    assert ((0.1, 0.1), (1.0, 0.1)) in rounded  # cell 0's top runs on into cell 1's


def test_dashes_stay_on_their_segment() -> None:
    out = dashes(((0.0, 0.0), (1.0, 0.0)), 0.1, 0.05)
    assert len(out) == 7
    assert all(0.0 <= a[0] < b[0] <= 1.0 for a, b in out)


def test_variant_and_killer_pages_take_pen_fill() -> None:
    """``pen_fill`` writes that share of the empty cells in by pen (truth ``pen``); without
    it the page is drawn as before (no draw from the generator)."""
    from sudokucam.samples.synth.variant_drawing import render_variant_photo

    photo = render.render_killer(7, "dashed", size=(640, 480), pen_fill=0.5, pen_mistakes=1)
    empty = int((photo.truth.givens == 0).sum())
    assert int((photo.truth.pen > 0).sum()) == round(0.5 * empty)
    assert len(photo.truth.mistakes) == 1 and "pen" in photo.truth.fonts
    plain = render.render_killer(7, "dashed", size=(640, 480))
    assert not plain.truth.pen.any() and not np.array_equal(plain.image, photo.image)
    jigsaw = render_variant_photo(3, "jigsaw", "thick", pen_fill=0.4).photo.truth
    assert jigsaw.pen.any() and not (jigsaw.pen * jigsaw.givens).any()
    assert (jigsaw.pen[jigsaw.pen > 0] == jigsaw.solution[jigsaw.pen > 0]).all()
