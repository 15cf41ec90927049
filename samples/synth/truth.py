"""Ground truth of rendered photos and pages, and its JSON-ready form."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(frozen=True)
class PhotoTruth:
    """What a rendered photo shows, exactly."""

    seed: int
    kind: str
    size: tuple[int, int]  # width, height
    givens: np.ndarray  # (9, 9) printed digits, 0 = empty
    solution: np.ndarray  # (9, 9)
    pen: np.ndarray  # (9, 9) pen digits, 0 = none
    mistakes: tuple[tuple[int, int], ...]  # (row, col), 0-based, pen digits that are wrong
    lattice: np.ndarray  # (10, 10, 2) grid-line crossings in output pixels (n + 1 for n × n)
    fonts: dict[str, str]
    effects: dict[str, Any]
    notes: np.ndarray | None = None  # (9, 9) noted digits ("" none); None: no marks drawn
    notes_wrong: tuple[tuple[int, int], ...] = ()  # notes cells leaving out the answer
    crossed_out: tuple[tuple[int, int], ...] = ()  # empty cells holding a struck-through digit

    @property
    def corners(self) -> np.ndarray:
        """(4, 2) grid corners TL, TR, BR, BL: centres of the outer border lines."""
        return self.lattice[[0, 0, -1, -1], [0, -1, -1, 0]]

    @property
    def contents(self) -> list[list[str]]:
        """(9, 9) what each cell holds: "empty", "printed", "written", "notes" or
        "crossed_out" (a digit struck through: no entry)."""
        notes = np.full(self.givens.shape, "", dtype=object) if self.notes is None else self.notes
        crossed = set(self.crossed_out)
        return [
            [
                "printed" if g else "written" if w else "notes" if n else
                "crossed_out" if (r, c) in crossed else "empty"
                for c, (g, w, n) in enumerate(zip(gr, wr, nr, strict=True))
            ]
            for r, (gr, wr, nr) in enumerate(zip(self.givens, self.pen, notes, strict=True))
        ]  # fmt: skip

    @property
    def device(self) -> str:
        """The first line of the .dat file."""
        return f"sudokucam-render seed={self.seed} kind={self.kind}"

    def to_json(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {
            "device": self.device,
            "seed": self.seed,
            "kind": self.kind,
            "size": list(self.size),
            "givens": self.givens.tolist(),
            "pen": self.pen.tolist(),
            "mistakes": [list(rc) for rc in self.mistakes],
            "solution": self.solution.tolist(),
            "corners": np.round(self.corners, 2).tolist(),
            "lattice": np.round(self.lattice, 2).tolist(),
            "fonts": self.fonts,
            "effects": self.effects,
        } | self.marks_json()

    def marks_json(self) -> dict[str, Any]:
        """The notes and contents of each cell, for photos rendered with marks."""
        if self.notes is None:
            return {}
        crossed = {"crossed_out": [list(rc) for rc in self.crossed_out]} if self.crossed_out else {}
        return {
            "notes": [[str(n) for n in row] for row in self.notes],
            "notes_wrong": [list(rc) for rc in self.notes_wrong],
            "contents": self.contents,
        } | crossed


@dataclass(frozen=True)
class Photo:
    """A rendered photo (BGR uint8) and its ground truth."""

    image: np.ndarray
    truth: PhotoTruth
    jpeg_quality: int = field(default=90)


@dataclass(frozen=True)
class GridTruth:
    """One Sudoku on a scanned page."""

    givens: np.ndarray
    solution: np.ndarray
    lattice: np.ndarray  # (10, 10, 2) in page-image pixels
    font: str

    @property
    def corners(self) -> np.ndarray:
        """(4, 2) TL, TR, BR, BL: centres of the outer border lines."""
        return self.lattice[[0, 0, 9, 9], [0, 9, 9, 0]]

    def to_json(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {
            "givens": self.givens.tolist(),
            "solution": self.solution.tolist(),
            "corners": np.round(self.corners, 2).tolist(),
            "lattice": np.round(self.lattice, 2).tolist(),
            "font": self.font,
        }


def jsonable(value: Any) -> Any:
    """Tuples to lists and numpy scalars to Python numbers, recursively."""
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, float):
        return round(value, 4)
    return value
