"""The Sudoku photo synthesiser behind samples/render.py (not part of the sudokucam package)."""
