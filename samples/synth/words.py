"""Newspaper text: pseudo-words, puzzle titles, instructions, footers, and line wrapping."""

from __future__ import annotations

import numpy as np
from PIL import ImageFont

# fmt: off
SYLLABLES = (
    "la", "re", "mi", "to", "ka", "sen", "dor", "pa", "ni", "que", "ber", "ton", "al", "est",
    "ra", "vin", "cho", "lu", "mon", "ter", "ge", "fa", "lis", "or", "ex", "pe", "ri", "ment",
    "tion", "ble", "ca", "de", "es", "in", "ou", "ar", "ve", "ul", "po", "sa", "ta", "go", "an",
    "dis", "pro", "con",
)
# fmt: on
INSTRUCTIONS = (
    "Fill in the grid so that every row, every column and every 3x3 box contains the "
    "digits 1 to 9.",
    "Complétez la grille sachant que chaque carré de 3x3 doit présenter une seule fois les "
    "chiffres de 1 à 9 ainsi que les lignes horizontales et verticales.",
    "Place a number from 1 to 9 in each empty cell so that each row, column and 3 by 3 "
    "block contains all nine numbers. Solution tomorrow.",
    "Füllen Sie das Gitter so aus, dass jede Zeile, jede Spalte und jedes 3x3-Feld die "
    "Ziffern 1 bis 9 genau einmal enthält.",
)
NUMBER_WORDS = {4: "four", 6: "six", 8: "eight", 9: "nine", 12: "twelve", 16: "sixteen"}


def instructions(size: int, box: tuple[int, int]) -> tuple[str, ...]:
    """The rules printed above a grid of ``size`` cells a side and boxes of ``box`` (rows,
    columns), in the same four languages and order as ``INSTRUCTIONS`` (the 9×9 ones)."""
    if size == 9:
        return INSTRUCTIONS
    rows, cols = box
    count = NUMBER_WORDS.get(size, str(size))
    return (
        f"Fill in the grid so that every row, every column and every {rows}x{cols} box "
        f"contains the digits 1 to {size}.",
        f"Complétez la grille sachant que chaque bloc de {rows}x{cols} doit présenter une "
        f"seule fois les chiffres de 1 à {size} ainsi que les lignes horizontales et "
        "verticales.",
        f"Place a number from 1 to {size} in each empty cell so that each row, column and "
        f"{rows} by {cols} block contains all {count} numbers. Solution tomorrow.",
        f"Füllen Sie das Gitter so aus, dass jede Zeile, jede Spalte und jedes {rows}x{cols}-"
        f"Feld die Zahlen 1 bis {size} genau einmal enthält.",
    )


TITLES = ("SUDOKU", "Sudoku", "LE SUDOKU", "Sudoku classique", "SU DOKU", "Sudoku No {n}")
LEVELS = ("Easy", "Medium", "Hard", "Moyen", "Difficile", "Leicht", "***", "**")
FOOTERS = (
    "Grille No {n}   Difficulté : {d}/3",
    "© Puzzles {n}",
    "Solution in tomorrow's paper",
    "Solution demain   No {n}",
    "Level {d}   Puzzle {n}",
)


def word(rng: np.random.Generator) -> str:
    """A pseudo-word of one to four syllables, now and then capitalised or punctuated."""
    n = int(rng.choice([1, 1, 2, 2, 2, 3, 3, 4]))
    text = "".join(str(s) for s in rng.choice(SYLLABLES, n))
    if rng.random() < 0.1:
        text = text.capitalize()
    if rng.random() < 0.08:
        text += str(rng.choice([",", ".", ";", ":"]))
    return text


def text_line(rng: np.random.Generator, font: ImageFont.FreeTypeFont, width: float) -> str:
    """Words that fit on one line of the given pixel width."""
    words = [word(rng)]
    while True:
        candidate = [*words, word(rng)]
        if font.getlength(" ".join(candidate)) > width:
            return " ".join(words)
        words = candidate


def wrap(text: str, font: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """Greedy line wrapping of a sentence to a pixel width."""
    lines: list[str] = []
    for w in text.split():
        if lines and font.getlength(lines[-1] + " " + w) <= width:
            lines[-1] += " " + w
        else:
            lines.append(w)
    return lines
