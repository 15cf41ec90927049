"""Solving like a person: techniques that explain each step, hints, grades, new puzzles.

>>> from sudokucam.solver import Grid
>>> from sudokucam.solver.logic import hint, grade_puzzle
>>> puzzle = Grid.parse(
...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
... )
>>> print(hint(puzzle).step)
Hidden single: r2c2 must be 6: it is the only cell in box 1 where 6 can go
>>> grade_puzzle(puzzle)[0].level.label
'Easy'
"""

from .candidates import Candidates, Layout, layout_for
from .generate import GenerateConfig, Generated, GenerationTimeoutError, generate, random_solution
from .grade import TIER, WEIGHT, Grade, GradeConfig, Level, grade_solve, grade_steps
from .solving import (
    Hint,
    check_entries,
    grade_puzzle,
    hint,
    hint_all,
    logical_solve,
    merge_entries,
    unique_solution,
)
from .step import Step, Technique
from .strategy import ALL_TECHNIQUES, FINDERS, LogicSolve, next_step, solve_steps

__all__ = [
    "ALL_TECHNIQUES",
    "FINDERS",
    "TIER",
    "WEIGHT",
    "Candidates",
    "GenerateConfig",
    "Generated",
    "GenerationTimeoutError",
    "Grade",
    "GradeConfig",
    "Hint",
    "Layout",
    "Level",
    "LogicSolve",
    "Step",
    "Technique",
    "check_entries",
    "generate",
    "grade_puzzle",
    "grade_solve",
    "grade_steps",
    "hint",
    "hint_all",
    "layout_for",
    "logical_solve",
    "merge_entries",
    "next_step",
    "random_solution",
    "solve_steps",
    "unique_solution",
]
