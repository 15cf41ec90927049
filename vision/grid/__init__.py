"""Finding the grid: candidate outlines, the 10 × 10 line lattice, warping, orientation."""
