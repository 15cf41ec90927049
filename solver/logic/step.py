"""One step of a logical solve: what a technique found, what it changes, and why."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..geometry import Cell, Shape, cell_name


class Technique(StrEnum):
    """The solving techniques, easiest first; the value is the name a person reads."""

    HIDDEN_SINGLE = "Hidden single"
    NAKED_SINGLE = "Naked single"
    POINTING = "Locked candidates (pointing)"
    CLAIMING = "Locked candidates (claiming)"
    NAKED_PAIR = "Naked pair"
    HIDDEN_PAIR = "Hidden pair"
    NAKED_TRIPLE = "Naked triple"
    HIDDEN_TRIPLE = "Hidden triple"
    NAKED_QUAD = "Naked quad"
    HIDDEN_QUAD = "Hidden quad"
    X_WING = "X-Wing"
    SWORDFISH = "Swordfish"
    JELLYFISH = "Jellyfish"
    XY_WING = "XY-Wing"
    XYZ_WING = "XYZ-Wing"
    W_WING = "W-Wing"
    SIMPLE_COLOURING = "Simple colouring"
    UNIQUE_RECTANGLE = "Unique rectangle (type 1)"
    X_CHAIN = "X-chain"
    XY_CHAIN = "XY-chain"
    AIC = "Alternating inference chain"
    FORCING_CHAIN = "Forcing chain"
    FORCING_NET = "Forcing net"
    NESTED_FORCING = "Nested forcing chain"
    GUESS = "Guess"


@dataclass(frozen=True)
class Step:
    """One deduction: values it places, candidates it removes, the pattern, and why.

    placements: (cell, value) pairs written in.
    eliminations: (cell, value) pairs struck from the pencil marks.
    cells: the cells of the pattern that justifies the step.
    units: the rows, columns or boxes (unit indices of the Shape) the pattern lives in.
    explanation: what happened and why, in words a person can follow.
    """

    technique: Technique
    placements: tuple[tuple[Cell, int], ...]
    eliminations: tuple[tuple[Cell, int], ...]
    cells: tuple[Cell, ...]
    units: tuple[int, ...]
    explanation: str

    def to_dict(self, shape: Shape) -> dict[str, object]:
        """Plain data for JSON output, with cells named r1c1-style."""
        n = shape.size
        return {
            "technique": self.technique.value,
            "placements": [{"cell": cell_name(c, n), "value": v} for c, v in self.placements],
            "eliminations": [{"cell": cell_name(c, n), "value": v} for c, v in self.eliminations],
            "cells": [cell_name(c, n) for c in self.cells],
            "units": [shape.unit_name(u) for u in self.units],
            "explanation": self.explanation,
        }

    def __str__(self) -> str:
        return f"{self.technique.value}: {self.explanation}"
