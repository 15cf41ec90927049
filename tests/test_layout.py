"""The house rules of the codebase, checked on its source (docs/ARCHITECTURE.md says why).

One folder per pipeline stage, batch kept out of the stages, no long functions, the
training code (which imports torch) never installed, one reader of the dataset truth.
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
MAX_FUNCTION_LINES = 60
CODE_FOLDERS = ("vision", "solver", "ui", "models", "samples", "benchmarks")
GENERATED = {".venv", "build", "dist", "__pycache__", ".git"}
# The pipeline's face: everything else in vision/ lives in a stage's folder.
VISION_TOP_LEVEL = {"__init__", "pipeline", "types", "results", "load", "draw", "repair"}
STAGES = ("vision/grid", "vision/read")
# UI modules whose job is the batch run (the others take nothing from vision.batch).
UI_BATCH_MODULES = {"ui/cli/batch.py", "ui/app/pages/batch.py", "ui/app/state/batch_jobs.py"}


def python_files(*folders: str) -> Iterator[Path]:
    """The project's own .py files under ``folders`` (generated folders skipped)."""
    for folder in folders:
        for path in sorted((REPO / folder).rglob("*.py")):
            if not GENERATED & set(path.relative_to(REPO).parts):
                yield path


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, as absolute ``sudokucam.…`` names where relative."""
    tree = ast.parse(path.read_text())
    package = ["sudokucam", *path.relative_to(REPO).parent.parts]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def test_no_function_is_longer_than_sixty_lines() -> None:
    long = [
        f"{path.relative_to(REPO)}:{node.lineno} {node.name} ({length} lines)"
        for path in python_files(*CODE_FOLDERS)
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (length := (node.end_lineno or node.lineno) - node.lineno + 1) > MAX_FUNCTION_LINES
    ]
    assert not long, "functions over 60 lines:\n" + "\n".join(long)


def test_vision_top_level_holds_only_the_pipeline_face() -> None:
    modules = {p.stem for p in (REPO / "vision").glob("*.py")}
    assert modules == VISION_TOP_LEVEL, f"stage modules at the top: {modules - VISION_TOP_LEVEL}"
    stages = {p.name for p in (REPO / "vision").iterdir() if (p / "__init__.py").is_file()}
    assert stages == {"grid", "read", "batch", "check", "live"}


@pytest.mark.parametrize("stage", STAGES)
def test_vision_stages_never_import_batch(stage: str) -> None:
    offenders = [
        str(path.relative_to(REPO))
        for path in python_files(stage)
        if any(m.startswith("sudokucam.vision.batch") for m in imported_modules(path))
    ]
    assert not offenders


def test_ui_takes_nothing_from_batch_but_for_batch_runs() -> None:
    offenders = [
        str(path.relative_to(REPO))
        for path in python_files("ui")
        if str(path.relative_to(REPO)) not in UI_BATCH_MODULES
        and any(m.startswith("sudokucam.vision.batch") for m in imported_modules(path))
    ]
    assert not offenders


def installed_packages() -> list[str]:
    """The packages pyproject.toml installs (``sudokucam.x.y``)."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    packages: list[str] = config["tool"]["setuptools"]["packages"]
    return packages


def test_installed_code_never_imports_torch() -> None:
    packages = installed_packages()
    assert "sudokucam.models.training" not in packages
    folders = [REPO.joinpath(*p.split(".")[1:]) for p in packages]
    torch_users = [
        str(path.relative_to(REPO))
        for folder in folders
        for path in sorted(folder.glob("*.py"))
        if any(m == "torch" or m.startswith("torch.") for m in imported_modules(path))
    ]
    assert not torch_users


def test_every_package_folder_is_installed() -> None:
    """A new package folder that is not listed would be missing from the wheel."""
    listed = set(installed_packages())
    folders = {
        "sudokucam." + ".".join(init.parent.relative_to(REPO).parts)
        for folder in ("vision", "solver", "ui", "models")
        for init in (REPO / folder).rglob("__init__.py")
        if not GENERATED & set(init.relative_to(REPO).parts)
    }
    assert folders - {"sudokucam.models.training"} <= listed


@pytest.mark.parametrize(
    "pattern",
    [r"def read_dat\b", r"def validation_ids\b", r"def read_outlines\b", r"SUDOKUCAM_SHARED"],
)
def test_one_module_reads_the_dataset_truth(pattern: str) -> None:
    places = [
        str(path.relative_to(REPO))
        for path in python_files(*CODE_FOLDERS, "tests")
        if path.name != "test_layout.py" and re.search(pattern, path.read_text())
    ]
    assert places == ["samples/dataset.py"]


def test_sample_renderer_is_imported_not_loaded_by_path() -> None:
    loaders = [
        str(path.relative_to(REPO))
        for path in python_files(*CODE_FOLDERS, "tests")
        if "spec_from_file_location" in path.read_text() and path.name != "test_layout.py"
    ]
    assert not loaders
