"""`sudokucam read --json` on every committed sample photo says what it said when recorded.

``tests/data/read_samples.json`` is the recorded reading (timings aside). A change that
means to read differently re-records it on purpose:
``.venv/bin/python benchmarks/read_snapshot.py --samples-only --out tests/data/read_samples.json``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
RECORDED = REPO / "tests" / "data" / "read_samples.json"
# Confidences are rounded to 4 places; another CPU's float rounding may move the last one.
FLOAT_TOLERANCE = 2e-4
# A HEIC sample's pixels come from the libheif in pi-heif's wheel, which changes between
# releases: its digits, kinds and answer must not change, its numbers may move a little.
HEIC_TOLERANCE = 0.5


@pytest.mark.slow
def test_samples_read_as_recorded(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "read_snapshot.py"), "--samples-only",
         "--out", str(tmp_path / "now.json"), "--compare", str(RECORDED),
         "--tolerance", str(FLOAT_TOLERANCE), "--heic-tolerance", str(HEIC_TOLERANCE)],
        capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^0 of \d+ photos read differently", done.stdout, re.MULTILINE)
