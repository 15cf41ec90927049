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
    lattice: np.ndarray  # (10, 10, 2) grid-line crossings in output pixels
    fonts: dict[str, str]
    effects: dict[str, Any]

    @property
    def corners(self) -> np.ndarray:
        """(4, 2) grid corners TL, TR, BR, BL: centres of the outer border lines."""
        return self.lattice[[0, 0, 9, 9], [0, 9, 9, 0]]

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
        }


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
