"""Reading photos: load, find the grid, warp, split cells, classify, draw."""
