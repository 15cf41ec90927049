"""The renderer's hand: each written digit varied on its own, printed digits exact copies."""

from __future__ import annotations

import numpy as np
import pytest
from PIL.ImageFont import FreeTypeFont

from sudokucam.samples.synth.fonts import PEN_FONTS, FontMissingError, font_for_height
from sudokucam.samples.synth.hand import HandVariation, hand_rng, write_glyph
from sudokucam.samples.synth.sheet import INK, Sheet
from sudokucam.vision.read.copies import similarity

SIDE = 80  # pixels per glyph box


def font(name: str) -> FreeTypeFont:
    """A handwriting face at a pen digit's height, or a skip when it is not installed."""
    try:
        return font_for_height(name, 40)
    except FontMissingError as exc:
        pytest.skip(f"handwriting font missing: {exc}")


def glyph_boxes(sheet: Sheet, count: int) -> list[np.ndarray]:
    """The ink (0..1) of each of ``count`` boxes side by side along the sheet."""
    ink = 1.0 - sheet.ink.mean(axis=2)
    return [ink[:, i * SIDE : (i + 1) * SIDE] for i in range(count)]


@pytest.mark.parametrize("name", sorted(PEN_FONTS))
def test_written_copies_of_one_digit_differ_printed_ones_do_not(name: str) -> None:
    face = font(name)
    written, printed = Sheet(6 * SIDE, SIDE), Sheet(6 * SIDE, SIDE)
    rng = np.random.default_rng(3)
    for i in range(6):
        centre = (i * SIDE + SIDE / 2, SIDE / 2)
        write_glyph(written, rng, centre, "7", face, INK)
        printed.glyph(centre, "7", face, INK)
    hand, type_ = glyph_boxes(written, 6), glyph_boxes(printed, 6)
    pairs = [(a, b) for a in range(6) for b in range(a + 1, 6)]
    assert all(similarity(type_[a], type_[b], 3) > 0.999 for a, b in pairs)
    alike = [similarity(hand[a], hand[b], 3) for a, b in pairs]
    assert max(alike) < 0.97 and float(np.median(alike)) < 0.93


def test_a_hand_writes_the_same_page_again_from_the_same_seed() -> None:
    face = font("Comic Neue")
    sheets = []
    for _ in range(2):
        sheet, rng = Sheet(SIDE, SIDE), hand_rng(np.random.default_rng(7))
        write_glyph(sheet, rng, (SIDE / 2, SIDE / 2), "4", face, INK, 5.0, 1, 0.9)
        sheets.append(sheet.ink)
    assert np.array_equal(sheets[0], sheets[1])
    main = np.random.default_rng(7)
    hand_rng(main)
    assert main.random() == np.random.default_rng(7).random()  # the page's own draws stay


def test_a_hand_without_variation_writes_the_faces_glyph() -> None:
    face = font("Comic Neue")
    still = HandVariation(
        slant_deg=0.0, scale=0.0, squash=0.0, stroke_px=0, pressure=1.0, warp=0.0, baseline=0.0
    )
    written, printed = Sheet(SIDE, SIDE), Sheet(SIDE, SIDE)
    write_glyph(written, np.random.default_rng(1), (40, 40), "5", face, INK, hand=still)
    printed.glyph((40, 40), "5", face, INK)
    assert similarity(glyph_boxes(written, 1)[0], glyph_boxes(printed, 1)[0], 1) > 0.99
