"""Every benchmark script answers ``--help`` (exit 0, a usage line): its arguments parse
and its imports work, without the shared data or the bench extras being needed to ask."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
# Modules the scripts import, not scripts themselves.
LIBRARIES = {"common.py", "norvig_reference.py"}
SCRIPTS = sorted(p.name for p in BENCHMARKS.glob("*.py") if p.name not in LIBRARIES)


def runs_as_a_script(path: Path) -> bool:
    """True when the module ends in an ``if __name__ == "__main__":`` block."""
    return any(
        isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)
        for node in ast.parse(path.read_text()).body
    )


def test_every_benchmark_is_a_script_or_a_listed_library() -> None:
    assert SCRIPTS, "no benchmark scripts found"
    assert [s for s in SCRIPTS if not runs_as_a_script(BENCHMARKS / s)] == []
    assert all(not runs_as_a_script(BENCHMARKS / lib) for lib in LIBRARIES)


@pytest.mark.parametrize("script", SCRIPTS)
def test_benchmark_help(script: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: {script}"), done.stdout[:200]
    summary = ast.get_docstring(ast.parse((BENCHMARKS / script).read_text())) or ""
    assert summary.split("\n\n")[0] in done.stdout, "the docstring's first paragraph is shown"
