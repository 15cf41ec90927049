"""Shared fixtures: where the project and the read-only ../shared data live."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sudokucam.samples.dataset import SHARED

REPO = Path(__file__).resolve().parent.parent


def _shared_subdir(*parts: str) -> Path:
    """A folder of the shared data (samples.dataset.SHARED), or skip saying why."""
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


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
    """`sudokucam ui` on a free port for one test module's browser tests, stopped (with its
    Streamlit child) when done; skips where Chromium is missing."""
    from sudokucam.tests.browser_harness import missing_chromium, served_app

    if missing := missing_chromium():
        pytest.skip(missing)
    with served_app() as app:
        yield app.url
