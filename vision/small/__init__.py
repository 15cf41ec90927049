"""Small Sudokus from a photo: 4×4, 6×6 (2×3 boxes) and 8×8 grids found and read."""
