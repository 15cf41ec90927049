"""The rules printed above a rendered small or 16×16 grid are that grid's, not a 9×9's."""

from __future__ import annotations

import pytest
from PIL import ImageFont

from sudokucam.samples.synth import newspaper_page, words
from sudokucam.samples.synth.small_drawing import render_small_photo
from sudokucam.samples.synth.words import INSTRUCTIONS, instructions
from sudokucam.solver.geometry import BOX_SHAPES

NINE_WORDS = ("3x3", "3 by 3", "1 to 9", "1 bis 9", "1 à 9", "nine")


@pytest.mark.parametrize("size", [4, 6, 8, 12, 16])
def test_the_rules_of_a_grid_name_its_boxes_and_values(size: int) -> None:
    rows, cols = BOX_SHAPES[size]
    rules = instructions(size, (rows, cols))
    assert len(rules) == len(INSTRUCTIONS)  # one draw of the page's random numbers, as a 9×9's
    for text in rules:
        assert not any(word in text for word in NINE_WORDS), text
        assert f"{rows}x{cols}" in text or f"{rows} by {cols}" in text
        assert str(size) in text


def test_a_9x9_keeps_its_rules() -> None:
    assert instructions(9, (3, 3)) == INSTRUCTIONS


def test_a_rendered_6x6_page_prints_the_rules_of_a_6x6(monkeypatch: pytest.MonkeyPatch) -> None:
    printed: list[str] = []

    def spy(text: str, font: ImageFont.FreeTypeFont, width: float) -> list[str]:
        printed.append(text)
        return words.wrap(text, font, width)

    monkeypatch.setattr(newspaper_page, "wrap", spy)
    render_small_photo(5, 6, "newspaper", size=(480, 360))
    assert len(printed) == 1
    assert printed[0] in instructions(6, (2, 3))
