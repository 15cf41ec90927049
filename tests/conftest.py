"""Shared fixtures: where the project and the read-only ../shared data live."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("SUDOKUCAM_SHARED", REPO.parent / "shared"))


def _shared_subdir(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.is_dir():
        pytest.skip(f"needs the shared data at {path} (absent on this machine)")
    return path


@pytest.fixture(scope="session")
def repo_dir() -> Path:
    """The repository root."""
    return REPO


@pytest.fixture(scope="session")
def puzzles_dir() -> Path:
    """../shared/data/puzzles, or skip."""
    return _shared_subdir("data", "puzzles")


@pytest.fixture(scope="session")
def photos_dir() -> Path:
    """../shared/data/sudoku_dataset, or skip."""
    return _shared_subdir("data", "sudoku_dataset")


@pytest.fixture(scope="session")
def samples_dir() -> Path:
    """The project's own rendered sample photos."""
    return REPO / "samples"
