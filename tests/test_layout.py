"""The house rules of the codebase, checked on its source (docs/ARCHITECTURE.md says why).

One folder per pipeline stage, batch kept out of the stages, no long functions, the
training code (which imports torch) never installed, one reader of the dataset truth,
every config in ARCHITECTURE's tunables table and read through its fields, no test
skipping for a committed part, nothing on ``sys.path``.
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
VISION_TOP_LEVEL = {"__init__", "pipeline", "types", "results", "load", "pages", "draw", "repair"}
STAGES = ("vision/grid", "vision/read", "vision/structure")
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
    assert stages == {"grid", "read", "structure", "small", "batch", "check", "live"}


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


def config_classes(tree: ast.Module) -> dict[str, set[str]]:
    """The module's ``*Config`` classes and the names of their fields."""
    return {
        node.name: {
            item.target.id
            for item in node.body
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
        }
        for node in tree.body
        if isinstance(node, ast.ClassDef) and node.name.endswith("Config")
    }


def tunables_table() -> set[str]:
    """Every `Name` in the first column of ARCHITECTURE's "Where the tunables live" table."""
    text = (REPO / "docs" / "ARCHITECTURE.md").read_text()
    section = text.split("## Where the tunables live", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`(\w+)`", row)}


def test_every_config_class_is_in_the_tunables_table() -> None:
    listed = tunables_table()
    missing = [
        f"{path.relative_to(REPO)}: {name}"
        for path in python_files(*CODE_FOLDERS)
        for name in config_classes(ast.parse(path.read_text()))
        if name not in listed
    ]
    assert not missing, "add to docs/ARCHITECTURE.md's tunables table:\n" + "\n".join(missing)


def module_name(path: Path) -> str:
    """``sudokucam.a.b`` for ``a/b.py`` (and for ``a/b/__init__.py``)."""
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(["sudokucam", *parts]).removesuffix(".__init__")


def shadowing_constants(tree: ast.Module) -> set[str]:
    """UPPER_CASE module constants whose lowercased name is a field of a ``*Config`` of the
    same module (``NOTES_FROM`` beside ``KindDecisionConfig.notes_from``)."""
    fields = {f for names in config_classes(tree).values() for f in names}
    constants = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name) and target.id.isupper()
    }
    return {c for c in constants if c.lower() in fields}


def bound_names(path: Path, tree: ast.Module) -> tuple[dict[str, str], dict[str, str]]:
    """What the module's imports bind: name -> ``module.NAME`` and alias -> module."""
    package = module_name(path).split(".")[: -1 if path.name != "__init__.py" else None]
    names: dict[str, str] = {}
    modules: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                names[alias.asname or alias.name] = f"{module}.{alias.name}"
                modules[alias.asname or alias.name] = f"{module}.{alias.name}"
        elif isinstance(node, ast.Import):
            modules.update({a.asname or a.name: a.name for a in node.names})
    return names, modules


def shadow_reads(path: Path, tree: ast.Module, shadows: set[str]) -> Iterator[str]:
    """``file:line function reads module.CONST`` for each read of a shadowing constant in
    a function (its body or its parameters' defaults), of this module or imported."""
    own = module_name(path)
    names, modules = bound_names(path, tree)
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            read, line = None, getattr(node, "lineno", 0)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                read = f"{own}.{node.id}" if node.id.isupper() else None
                read = names.get(node.id, read)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                module = modules.get(node.value.id)
                read = f"{module}.{node.attr}" if module else None
            if read in shadows:
                yield f"{path.relative_to(REPO)}:{line} {function.name} reads {read}"


# Known reads of constants that shadow a config field, each to be replaced by the config's
# field passed down (issue 28: one ReadConfig reachable from PipelineConfig). They sit in
# code other people are changing (vision/read/ is the lead's, models/training/ the model
# helper's); remove a line here when its read goes: a stale entry fails this test too.
KNOWN_SHADOW_READS = {
    # ModelConfig.class_names is read from config.json and checked against the three
    # class lists a model may have: not a tunable, but a shadow by this test's rule.
    "vision/read/classifier.py read_model_config reads vision.read.classifier.CLASS_NAMES",
}


def test_no_module_constant_shadows_a_config_field() -> None:
    """A tunable is read from its config, never from the constant that is its default.

    A shadow: an UPPER_CASE module constant whose lowercased name is a field of a
    ``*Config`` dataclass of the same module, read in a function (its body or a
    parameter's default; here or where it is imported) rather than only as the field's
    default. Such a read ignores the config a caller passed.
    """
    trees = {path: ast.parse(path.read_text()) for path in python_files(*CODE_FOLDERS)}
    shadows = {
        f"{module_name(path)}.{constant}"
        for path, tree in trees.items()
        for constant in shadowing_constants(tree)
    }
    reads = {
        re.sub(r":\d+ ", " ", read).replace(" reads sudokucam.", " reads ")
        for path, tree in trees.items()
        for read in shadow_reads(path, tree, shadows)
    }
    assert not reads - KNOWN_SHADOW_READS, "constants read instead of the config's field:\n" + (
        "\n".join(sorted(reads - KNOWN_SHADOW_READS))
    )
    assert not KNOWN_SHADOW_READS - reads, "fixed: remove from KNOWN_SHADOW_READS:\n" + (
        "\n".join(sorted(KNOWN_SHADOW_READS - reads))
    )


# A test that skips where the committed model or sample photos are missing hides a broken
# package; only the shared data (../shared) and system tools may be absent.
SKIP_FOR_MISSING_PART = re.compile(
    r"not (built|trained|rendered) yet|model\.onnx|\bMODEL\b|no committed samples", re.I
)


def skip_conditions(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """The source of every ``skipif(...)`` call and every ``if`` that calls ``pytest.skip``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("skipif"):
            yield node.lineno, ast.unparse(node)
        elif isinstance(node, ast.If) and "pytest.skip(" in ast.unparse(node.body[0]):
            yield node.lineno, ast.unparse(node.test) + " " + ast.unparse(node.body[0])


def test_no_test_skips_for_a_missing_model_or_sample() -> None:
    skips = [
        f"{path.relative_to(REPO)}:{line} {source}"
        for path in python_files("tests")
        if path.name != "test_layout.py"
        for line, source in skip_conditions(ast.parse(path.read_text()))
        if SKIP_FOR_MISSING_PART.search(source)
    ]
    assert not skips, "the model and samples are committed: fail, do not skip:\n" + (
        "\n".join(skips)
    )


def test_nothing_changes_the_import_path() -> None:
    """Scripts import their neighbours as ``sudokucam.…`` (the editable install maps the
    repository there), never by putting a folder on ``sys.path``."""
    changers = [
        str(path.relative_to(REPO))
        for path in python_files(*CODE_FOLDERS, "tests", "docs")
        if path.name != "test_layout.py"
        and re.search(r"sys\.path\.(insert|append)", path.read_text())
    ]
    assert not changers
