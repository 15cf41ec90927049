"""Type aliases shared by the renderer's modules."""

from __future__ import annotations

RGB = tuple[float, float, float]
Range = tuple[float, float]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1
