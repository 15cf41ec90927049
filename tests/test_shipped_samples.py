"""The sample photos the app offers are package data: a wheel ships them, and the app
installed from it offers *Sample* on *Solve a photo*."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from sudokucam.ui.app.widgets.photo_input import APP_SAMPLES, SAMPLES_DIR

REPO = Path(__file__).resolve().parent.parent
MAX_SAMPLE_BYTES = 300_000  # each shipped photo stays small

OFFERED = """
import sys
from streamlit.testing.v1 import AppTest
import sudokucam
from sudokucam.ui.app import layout
assert sudokucam.__file__.startswith(sys.argv[1]), sudokucam.__file__
app = AppTest.from_file(sys.argv[2], default_timeout=120)
app.session_state[layout.MODE_KEY] = layout.PHOTO
app.run()
app.radio(key="photo_source").set_value("Sample").run()
print("|".join(app.radio(key="photo_source").options))
print("|".join(app.selectbox(key="photo_sample").options))
"""


def test_pyproject_ships_the_samples_the_app_offers() -> None:
    data = tomllib.loads((REPO / "pyproject.toml").read_text())
    shipped = data["tool"]["setuptools"]["package-data"]["sudokucam"]
    assert sorted(f"samples/{name}" for name in APP_SAMPLES) == sorted(
        s for s in shipped if s.startswith("samples/")
    )
    for name in APP_SAMPLES:
        size = (SAMPLES_DIR / name).stat().st_size
        assert size <= MAX_SAMPLE_BYTES, (name, size)


@pytest.mark.slow
def test_installed_wheel_offers_the_samples(tmp_path: Path) -> None:
    pip = [sys.executable, "-m", "pip", "-q"]
    subprocess.run([*pip, "wheel", str(REPO), "--no-deps", "-w", str(tmp_path)], check=True)
    (wheel,) = tmp_path.glob("sudokucam-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"sudokucam/samples/{name}" for name in APP_SAMPLES} <= names
    target = tmp_path / "site"
    subprocess.run([*pip, "install", "--no-deps", "--target", str(target), str(wheel)], check=True)
    app = target / "sudokucam" / "ui" / "streamlit_app.py"
    done = subprocess.run(
        [sys.executable, "-c", OFFERED, str(target), str(app)],
        env={"PYTHONPATH": str(target), "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"},
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    sources, samples = done.stdout.strip().splitlines()[-2:]
    assert sources.split("|") == ["Upload", "Camera", "Sample"]
    assert "printed/demo" in samples.split("|")
