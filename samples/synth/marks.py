"""What a person leaves on a puzzle besides pen entries: candidate notes, pencil, erasures,
crossed-out digits, writing in the margin.

Every mark is drawn with its own generator (``marks_rng``), after everything else, so a
photo rendered without marks is the same, pixel for pixel, as before marks existed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np
from PIL.ImageFont import FreeTypeFont

from .fonts import PEN_FONTS, PEN_STROKE, font_for_height, resolve_font
from .hand import HandVariation, hand_rng, write_glyph
from .pen import PenStyle
from .sheet import Sheet
from .types import RGB

PENCIL_GREY: RGB = (0.42, 0.42, 0.44)
NOTE_LAYOUTS = ("grid", "free")  # a 3×3 spot per digit, or a row anywhere in the cell
NOTE_HEIGHT = 0.2  # a note digit's height, fraction of a cell
NOTE_SPOTS = (-0.3, 0.0, 0.3)  # 3×3 layout: offsets of the spots from the cell centre
ERASED_STRENGTH = 0.06  # ink left by a rubbed-out digit, per smear
ERASED_SMEARS = 6  # how many shifted copies make the smudge
ERASED_SPREAD = 0.07  # how far the copies lie apart (standard deviation), fraction of a cell
# notes are a fifth of a cell high: a pixel more or less of stroke, or pressure as uneven
# as an entry's, would make some of them blots and others vanish; their shapes vary alike
NOTES_HAND = HandVariation(stroke_px=0, pressure=0.85)
MARKS_STREAM = 13  # the marks' generator: seeded with (photo seed, this)
CROSS_WIDTH = 0.035  # the width of a stroke crossing a digit out, fraction of a cell
CROSS_STYLES = ("slash", "x", "strike")  # one diagonal, two, or a horizontal line
# A horizontal line through these is how many people write them (a barred 7, a crossed 4
# or 1): struck through, they would look like a plain entry, so they get a diagonal.
BARRED_DIGITS = "147"


@dataclass(frozen=True)
class Marks:
    """The marks on one photo besides pen entries (all off by default).

    notes_fill: fraction of the cells left empty by the pen that get candidate notes.
    notes_wrong: how many notes cells leave out the answer on purpose.
    notes_layout: "grid" (each digit in its 3×3 spot) or "free" (a row, anywhere).
    notes_font: the handwriting of the notes; notes_pencil: notes in pencil grey.
    pencil: the entries in pencil instead of pen ink, in ``pencil_ink`` (a lighter grey:
        pencil so faint it is nearly invisible).
    erasures: how many empty cells hold a rubbed-out digit (still empty).
    margin_writing: digits and sums scribbled beside the grid.
    crossed_out: how many empty cells hold a digit the person crossed out (still empty).
    """

    notes_fill: float = 0.0
    notes_wrong: int = 0
    notes_layout: str = "grid"
    notes_font: str = "dkg"
    notes_pencil: bool = True
    pencil: bool = False
    pencil_ink: RGB = PENCIL_GREY
    erasures: int = 0
    margin_writing: bool = False
    crossed_out: int = 0

    def __post_init__(self) -> None:
        """Check the layout and the fractions."""
        if self.notes_layout not in NOTE_LAYOUTS:
            raise ValueError(f"notes_layout must be one of {NOTE_LAYOUTS}")
        if not 0.0 <= self.notes_fill <= 1.0:
            raise ValueError(f"notes_fill must be in [0, 1], got {self.notes_fill}")


@dataclass(frozen=True)
class DrawnMarks:
    """What drawing the marks chose: the faces used, by role, and the crossed-out cells."""

    fonts: dict[str, str]
    crossed_out: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class MarkedPage:
    """What the page printer needs to draw the marks: their generator, the notes, the marks."""

    rng: np.random.Generator
    notes: np.ndarray  # (n, n) strings of noted digits, "" where none
    marks: Marks


def marks_rng(seed: int) -> np.random.Generator:
    """The generator of one photo's marks, apart from the photo's own."""
    return np.random.default_rng([seed, MARKS_STREAM])


def choose_notes(
    rng: np.random.Generator, taken: np.ndarray, solution: np.ndarray, marks: Marks
) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """(n, n) strings of noted digits in free cells, and the cells leaving out the answer.

    ``taken``: (n, n) bool, cells holding a given or an entry (n = 9, or a small grid's 4,
    6 or 8: its digits 1 to n). Each notes cell holds its answer and one to three other
    digits, ascending; a wrong one holds two or three digits that are not its answer.
    """
    n = taken.shape[0]
    notes = np.full(taken.shape, "", dtype=object)
    free = np.argwhere(~taken)
    chosen = free[rng.permutation(len(free))[: round(marks.notes_fill * len(free))]]
    wrong = {(int(r), int(c)) for r, c in chosen[: marks.notes_wrong]}
    for r, c in chosen:
        others = [d for d in range(1, n + 1) if d != solution[r, c]]
        picked = list(rng.choice(others, size=int(rng.integers(1, 4)), replace=False))
        if (r, c) in wrong and len(picked) == 1:  # a wrong cell notes two digits at least
            picked.append(others[int(rng.integers(len(others)))])
        elif (r, c) not in wrong:
            picked.append(int(solution[r, c]))
        notes[r, c] = "".join(str(d) for d in sorted(set(map(int, picked))))
    return notes, sorted(wrong)


def note_spots(rng: np.random.Generator, noted: str, layout: str) -> list[tuple[str, float, float]]:
    """Where each noted digit goes: (digit, dx, dy) as fractions of a cell from its centre."""
    if layout == "grid":
        return [(d, NOTE_SPOTS[(int(d) - 1) % 3], NOTE_SPOTS[(int(d) - 1) // 3]) for d in noted]
    x0 = float(rng.uniform(-0.32, 0.32 - 0.2 * (len(noted) - 1)))
    y = float(rng.choice([-0.3, 0.3])) if rng.random() < 0.7 else float(rng.uniform(-0.3, 0.3))
    return [(d, x0 + 0.2 * i, y) for i, d in enumerate(noted)]


def draw_notes(
    sheet: Sheet, rng: np.random.Generator, lattice: np.ndarray, notes: np.ndarray, marks: Marks
) -> str:
    """Small handwritten candidate digits in the noted cells; the face used."""
    font_name = resolve_font(marks.notes_font, PEN_FONTS)
    ink = PENCIL_GREY if marks.notes_pencil else (0.14, 0.22, 0.62)
    cell = float(np.linalg.norm(lattice[0, 1] - lattice[0, 0]))
    stroke = max(0, round(PEN_STROKE.get(font_name.split(" ")[0], 0.004) * cell * 0.4))
    hand = hand_rng(rng)
    for r, c in np.argwhere(notes != ""):
        cx, cy = lattice[r : r + 2, c : c + 2].reshape(4, 2).mean(axis=0)
        for digit, dx, dy in note_spots(rng, str(notes[r, c]), marks.notes_layout):
            height = NOTE_HEIGHT * cell * float(rng.uniform(0.85, 1.15))
            jitter = rng.uniform(-0.03, 0.03, 2) * cell
            centre = (cx + dx * cell + jitter[0], cy + dy * cell + jitter[1])
            font = font_for_height(font_name, height)
            angle, strength = float(rng.uniform(-8, 8)), float(rng.uniform(0.75, 1.0))
            write_glyph(sheet, hand, centre, digit, font, ink, angle, stroke, strength, NOTES_HAND)
    return font_name


def draw_erasures(
    sheet: Sheet,
    rng: np.random.Generator,
    lattice: np.ndarray,
    free: np.ndarray,
    count: int,
    style: PenStyle,
) -> list[tuple[int, int]]:
    """Rubbed-out digits (faint smudges) in ``count`` of the ``free`` (9, 9) cells; where."""
    chosen, cell, font = free_cells(rng, lattice, free, count, style)
    for (cx, cy), digit in written_digits(rng, lattice, chosen):
        for _ in range(ERASED_SMEARS):
            dx, dy = rng.normal(0.0, ERASED_SPREAD, 2) * cell
            angle = float(rng.uniform(-10, 10))
            sheet.glyph((cx + dx, cy + dy), digit, font, PENCIL_GREY, angle, 2, ERASED_STRENGTH)
    return chosen


def draw_crossed_out(
    sheet: Sheet,
    rng: np.random.Generator,
    lattice: np.ndarray,
    free: np.ndarray,
    count: int,
    style: PenStyle,
) -> list[tuple[int, int]]:
    """Digits written and then struck through in ``count`` of the ``free`` (9, 9) cells; where."""
    chosen, cell, font = free_cells(rng, lattice, free, count, style)
    hand = hand_rng(rng)
    for (cx, cy), digit in written_digits(rng, lattice, chosen):
        write_glyph(sheet, hand, (cx, cy), digit, font, style.ink, float(rng.uniform(-8, 8)))
        styles = CROSS_STYLES[:2] if digit in BARRED_DIGITS else CROSS_STYLES
        kind = styles[int(rng.integers(len(styles)))]
        for (x0, y0), (x1, y1) in cross_strokes(kind, rng):
            sheet.line((cx + x0 * cell, cy + y0 * cell), (cx + x1 * cell, cy + y1 * cell),
                       CROSS_WIDTH * cell, style.ink)  # fmt: skip
    return chosen


def free_cells(
    rng: np.random.Generator, lattice: np.ndarray, free: np.ndarray, count: int, style: PenStyle
) -> tuple[list[tuple[int, int]], float, FreeTypeFont]:
    """``count`` random cells of the ``free`` (9, 9) ones, the cell side, the writer's font."""
    cells = np.argwhere(free)
    chosen = [(int(r), int(c)) for r, c in cells[rng.permutation(len(cells))[:count]]]
    cell = float(np.linalg.norm(lattice[0, 1] - lattice[0, 0]))
    return chosen, cell, font_for_height(style.font, style.height * cell)


def written_digits(
    rng: np.random.Generator, lattice: np.ndarray, chosen: list[tuple[int, int]]
) -> Iterator[tuple[tuple[float, float], str]]:
    """Each chosen cell's centre and a random digit for it, drawn as the caller goes on."""
    for r, c in chosen:
        cx, cy = lattice[r : r + 2, c : c + 2].reshape(4, 2).mean(axis=0)
        yield (float(cx), float(cy)), str(int(rng.integers(1, 10)))


def cross_strokes(
    kind: str, rng: np.random.Generator
) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The strokes crossing a digit out, as (start, end) offsets from the cell centre."""
    reach = float(rng.uniform(0.25, 0.38))
    tilt = float(rng.uniform(-0.08, 0.08))
    if kind == "strike":
        return [((-reach, tilt), (reach, -tilt))]
    slash = ((-reach, reach + tilt), (reach, -reach + tilt))
    if kind == "slash":
        return [slash]
    return [slash, ((-reach, -reach - tilt), (reach, reach - tilt))]


def draw_margin(
    sheet: Sheet, rng: np.random.Generator, lattice: np.ndarray, style: PenStyle
) -> None:
    """A person's scribbles beside the grid: candidate digits, a sum, a question."""
    cell = float(np.linalg.norm(lattice[0, 1] - lattice[0, 0]))
    font = font_for_height(style.font, 0.45 * cell)
    right, left = lattice[:, -1, 0].max(), lattice[:, 0, 0].min()
    for i, text in enumerate(("1 4 7", "3+6=9", "r5?")):
        y = lattice[0, 0, 1] + (1.5 + 3 * i) * cell
        x = right + 1.4 * cell if i != 1 else left - 1.6 * cell
        for j, ch in enumerate(text):
            if ch != " ":
                centre = (x + 0.4 * cell * (j - len(text) / 2), y)
                sheet.glyph(centre, ch, font, style.ink, float(rng.uniform(-6, 6)))


def pencilled(style: PenStyle, marks: Marks | None) -> PenStyle:
    """The writer's style, in pencil grey when the marks say so."""
    return replace(style, ink=marks.pencil_ink) if marks is not None and marks.pencil else style


def draw_marks(
    sheet: Sheet,
    rng: np.random.Generator,
    lattice: np.ndarray,
    taken: np.ndarray,
    notes: np.ndarray,
    marks: Marks,
    style: PenStyle,
) -> DrawnMarks:
    """Notes, erasures, margin writing and crossed-out digits on the page; what was chosen.

    ``taken``: (9, 9) bool, cells holding a given or an entry; erasures go to cells that
    hold neither an entry nor notes.
    """
    fonts = {}
    if (notes != "").any():
        fonts["notes"] = draw_notes(sheet, rng, lattice, notes, marks)
    erased = draw_erasures(sheet, rng, lattice, ~taken & (notes == ""), marks.erasures, style)
    if marks.margin_writing:
        draw_margin(sheet, rng, lattice, style)
    if not marks.crossed_out:  # drawn last: pages without them stay as they were
        return DrawnMarks(fonts)
    free = ~taken & (notes == "")
    for r, c in erased:
        free[r, c] = False
    crossed = draw_crossed_out(sheet, rng, lattice, free, marks.crossed_out, style)
    return DrawnMarks(fonts, tuple(crossed))
