"""Batches for benchmarks and training: many photos of one kind, or many puzzle pages."""

from __future__ import annotations

from pathlib import Path

from .files import page_meta, write_page, write_photo
from .photo import render_photo
from .puzzle_page import render_page


def render_batch(out: Path, seed: int, kind: str, count: int) -> list[Path]:
    """Render `count` photos of one kind named <kind>_NNNN."""
    written: list[Path] = []
    for i in range(count):
        written += write_photo(
            render_photo(seed * 100_000 + i, kind), out / kind, f"{kind}_{i:04d}"
        )
    return written


def render_pages(out: Path, seed: int, count: int, n_puzzles: int, dpi: int) -> list[Path]:
    """Render `count` puzzle pages named pages/pageN."""
    written: list[Path] = []
    for i in range(count):
        page_seed = seed * 1000 + i
        image, truths = render_page(page_seed, n_puzzles, dpi)
        meta = page_meta(page_seed, dpi)
        written += write_page(image, truths, out / "pages", f"page{i}", meta)
    return written
