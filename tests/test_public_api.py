"""The public face: ``from sudokucam import Reader, read_photo, solve`` (README, api.py)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import sudokucam
from sudokucam import Reader, read_photo, solve
from sudokucam.solver import Grid, Outcome, is_solution
from sudokucam.vision.results import PhotoResult

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "samples" / "printed" / "demo.jpg"
NORVIG_HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_import_stays_light_and_switches_telemetry_off_first(tmp_path: Path) -> None:
    """``import sudokucam`` loads no numpy, OpenCV or onnxruntime; the lazy names do, and
    ``ORT_DISABLE_TELEMETRY`` is set before onnxruntime is imported."""
    probe = (
        "import os, sys, json\n"
        "seen = []\n"
        "class Watch:\n"  # notes the setting at the moment onnxruntime is first imported
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'onnxruntime':\n"
        "            seen.append(os.environ.get('ORT_DISABLE_TELEMETRY'))\n"
        "sys.meta_path.insert(0, Watch())\n"
        "import sudokucam\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'numpy', 'cv2', 'onnxruntime'})\n"
        "from sudokucam import Reader\n"
        "Reader().classifier\n"
        "print(json.dumps({'heavy': heavy, 'telemetry_at_ort_import': seen[:1]}))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
    )
    assert json.loads(done.stdout) == {"heavy": [], "telemetry_at_ort_import": ["1"]}


def _private_imports(path: Path) -> list[str]:
    """The private names (``_x``, not ``__x__``) that a module imports from the package."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level == 0 and not (node.module or "").startswith("sudokucam"):
            continue
        found += [
            f"{node.module}.{a.name}"
            for a in node.names
            if a.name.startswith("_") and not a.name.startswith("__")
        ]
    return found


def test_no_module_imports_another_modules_private_names() -> None:
    """What two modules share is public (with a docstring) in one of them, or in a module
    of its own (``samples/synth/boxed_grids.py`` for the small and 16×16 renderers)."""
    skipped = {"tests", ".venv", "build"}
    offenders = {
        str(p.relative_to(REPO)): names
        for p in sorted(REPO.rglob("*.py"))
        if not skipped & set(p.relative_to(REPO).parts)
        for names in [_private_imports(p)]
        if names
    }
    assert offenders == {}


def test_public_names_are_listed_and_typed() -> None:
    assert {"Reader", "read_photo", "solve"} <= set(sudokucam.__all__)
    assert read_photo.__annotations__["return"] == "PhotoResult"
    assert solve.__annotations__["return"] == "SolveResult"
    with pytest.raises(AttributeError, match="no attribute 'reed_photo'"):
        sudokucam.reed_photo  # noqa: B018


def test_solve_gives_the_solvers_result() -> None:
    result = solve(NORVIG_HARD)
    assert result.status is Outcome.SOLVED
    assert result.solution is not None
    assert is_solution(result.solution, Grid.parse(NORVIG_HARD))


def test_solve_reports_expected_outcomes_as_statuses() -> None:
    assert solve("." * 81).status is Outcome.MULTIPLE_SOLUTIONS
    assert solve("11" + "." * 79).status is Outcome.INVALID


def test_read_photo_reads_and_solves_the_demo() -> None:
    result = read_photo(DEMO)
    truth = json.loads(DEMO.with_suffix(".json").read_text())  # the renderer's own truth
    answer = "".join(str(d) for row in truth["solution"] for d in row)
    assert isinstance(result, PhotoResult)
    assert result.status is Outcome.SOLVED
    assert result.grids[0].solution == answer
    assert read_photo(str(DEMO)).grids[0].solution == answer


def test_read_photo_names_a_missing_file() -> None:
    result = read_photo(REPO / "no-such-photo.jpg")
    assert result.status is Outcome.ERROR
    assert result.error is not None and "does not exist" in result.error


def test_read_photo_refuses_what_is_not_a_path() -> None:
    with pytest.raises(TypeError, match="path must be a str or Path"):
        read_photo(b"bytes")  # type: ignore[arg-type]


def test_reader_is_the_pipelines_reader() -> None:
    from sudokucam.vision.pipeline import Reader as PipelineReader

    assert Reader is PipelineReader
