"""Reading the cells: cut them out, classify them, and settle printed, pen or empty."""
