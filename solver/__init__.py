"""Sudoku solving: grids of any size, parsing, validation, fast backtracking."""
