"""Nothing leaves the machine: no entry point of sudokucam starts onnxruntime's telemetry.

onnxruntime records usage events (with a device id) under ``~/.cache/Microsoft/`` and
sends them to Microsoft unless ``ORT_DISABLE_TELEMETRY`` is set before it is imported.
Each entry point runs here in a subprocess whose home is a fresh folder; the folder must
stay free of that store. A control run (onnxruntime used directly, without sudokucam)
shows the check would catch it. Where strace is installed, every ``connect`` the CLI and
the app server make is also recorded: none may leave loopback.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from sudokucam.tests.browser_harness import served_app

REPO = Path(__file__).resolve().parent.parent
PHOTO = REPO / "samples" / "printed" / "demo.jpg"
MODEL = REPO / "models" / "digits_v4" / "model.onnx"
TELEMETRY_DIR = Path(".cache") / "Microsoft"
TIMEOUT_S = 300
# connect() to an internet address: AF_INET / AF_INET6 outside loopback (strace's words).
INET_CONNECT = re.compile(r'connect\(\d+, \{sa_family=AF_INET6?, .*?"(?P<addr>[0-9a-f.:]+)"')


def run_home(home: Path, *command: str, strace: Path | None = None) -> None:
    """Run ``command`` with ``home`` as its home folder, under strace when given a log."""
    # onnxruntime records nothing when CI is set: drop it so the check means something there
    dropped = ("ORT_DISABLE_TELEMETRY", "XDG_CACHE_HOME", "CI")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env |= {"HOME": str(home), "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"}
    prefix = ["strace", "-f", "-e", "trace=connect", "-o", str(strace)] if strace else []
    done = subprocess.run([*prefix, *command], env=env, capture_output=True, text=True,
                          timeout=TIMEOUT_S, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]


def internet_connects(strace_log: Path) -> list[str]:
    """The non-loopback addresses a traced run connected to."""
    addresses = [m["addr"] for m in INET_CONNECT.finditer(strace_log.read_text())]
    return [a for a in addresses if not (a.startswith("127.") or a in ("::1", "::ffff:127.0.0.1"))]


@pytest.fixture(scope="module")
def telemetry_recorded_without_sudokucam(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Skip unless this onnxruntime build records telemetry when nothing turns it off."""
    home = tmp_path_factory.mktemp("control_home")
    code = (
        "import onnxruntime as ort\n"
        f"ort.InferenceSession({str(MODEL)!r}, providers=['CPUExecutionProvider'])\n"
    )
    run_home(home, sys.executable, "-c", code)
    if not (home / TELEMETRY_DIR).exists():
        pytest.skip("this onnxruntime build records no telemetry, so there is nothing to catch")


def strace_log(tmp_path: Path) -> Path | None:
    """Where to write strace's record, or None when strace is not installed."""
    return tmp_path / "strace.txt" if shutil.which("strace") else None


@pytest.mark.slow
@pytest.mark.usefixtures("telemetry_recorded_without_sudokucam")
def test_cli_read_records_and_sends_nothing(tmp_path: Path) -> None:
    log = strace_log(tmp_path)
    run_home(tmp_path, sys.executable, "-m", "sudokucam", "read", str(PHOTO), "--json", strace=log)
    assert not (tmp_path / TELEMETRY_DIR).exists()
    if log is not None:
        assert internet_connects(log) == []


@pytest.mark.slow
@pytest.mark.usefixtures("telemetry_recorded_without_sudokucam")
def test_python_api_records_nothing(tmp_path: Path) -> None:
    code = f"from sudokucam.vision.pipeline import read_photo; assert read_photo({str(PHOTO)!r}).ok"
    run_home(tmp_path, sys.executable, "-c", code)
    assert not (tmp_path / TELEMETRY_DIR).exists()


@pytest.mark.slow
@pytest.mark.usefixtures("telemetry_recorded_without_sudokucam")
def test_batch_workers_record_nothing(tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    for name in ("a.jpg", "b.jpg"):
        shutil.copy(PHOTO, inputs / name)
    run_home(tmp_path, sys.executable, "-m", "sudokucam", "batch", str(inputs),
             "--out", str(tmp_path / "out"), "--workers", "2")  # fmt: skip
    assert not (tmp_path / TELEMETRY_DIR).exists()


@pytest.mark.slow
@pytest.mark.usefixtures("telemetry_recorded_without_sudokucam")
def test_app_reading_a_photo_records_nothing(tmp_path: Path) -> None:
    """The app's own code path (Streamlit's AppTest runs the page script) reads a sample."""
    code = (
        "from streamlit.testing.v1 import AppTest\n"
        f"at = AppTest.from_file({str(REPO / 'ui' / 'streamlit_app.py')!r}, default_timeout=120)\n"
        "at.run()\n"
        "at.radio(key='photo_source').set_value('Sample').run()\n"
        "at.selectbox(key='photo_sample').set_value('printed/demo').run()\n"
        "assert not at.exception and at.code, 'the sample was not solved'\n"
    )
    run_home(tmp_path, sys.executable, "-c", code)
    assert not (tmp_path / TELEMETRY_DIR).exists()


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace to watch connections")
def test_app_server_connects_only_to_loopback(tmp_path: Path) -> None:
    log = tmp_path / "strace.txt"
    env = dict(os.environ, HOME=str(tmp_path))
    strace = ("strace", "-f", "-e", "trace=connect", "-o", str(log))
    with served_app(env=env, prefix=strace) as app:
        with urllib.request.urlopen(f"{app.url}/", timeout=30) as reply:
            assert reply.status == 200
        time.sleep(5)  # let anything that would phone home try
    assert internet_connects(log) == []
