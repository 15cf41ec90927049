"""One synthetic photo: parameters, puzzle, pen, page, camera and sensor, with its truth."""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any

import numpy as np

from .camera import photograph
from .marks import MarkedPage, Marks, choose_notes, marks_rng
from .newspaper_page import compose_page
from .params import sample_params
from .pen import choose_pen_entries
from .puzzles import make_puzzle
from .sensor import develop
from .truth import Photo, PhotoTruth, jsonable


def render_photo(
    seed: int, kind: str = "printed", marks: Marks | None = None, **overrides: Any
) -> Photo:
    """Render one synthetic photo of a kind; `overrides` set PhotoParams fields by name.

    ``marks``: candidate notes, pencil, erasures and margin writing (drawn with their own
    generator, so the rest of the photo is as it would be without them).
    """
    rng = np.random.default_rng(seed)
    params = replace(sample_params(kind, rng), **overrides)
    givens, solution = make_puzzle(rng, params.clues)
    pen, mistakes = choose_pen_entries(rng, givens, solution, params.pen_fill, params.pen_mistakes)
    marked = None
    if marks is not None:
        mrng = marks_rng(seed)
        notes, notes_wrong = choose_notes(mrng, (givens > 0) | (pen > 0), solution, marks)
        marked = MarkedPage(mrng, notes, marks)
    page = compose_page(rng, givens, pen, params, marked)
    rgb, lattice = photograph(rng, page, params)
    image = develop(rng, rgb, params)
    truth = PhotoTruth(
        seed=seed,
        kind=kind,
        size=params.size,
        givens=givens,
        solution=solution,
        pen=pen,
        mistakes=tuple(mistakes),
        lattice=lattice,
        fonts=page.fonts,
        effects=jsonable(asdict(params) | ({"marks": asdict(marks)} if marks else {})),
        notes=None if marked is None else marked.notes,
        notes_wrong=() if marks is None else tuple(notes_wrong),
        crossed_out=page.crossed_out,
    )
    return Photo(image=image, truth=truth, jpeg_quality=params.jpeg_quality)
