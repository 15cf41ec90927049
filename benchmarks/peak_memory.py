"""Peak memory of a command: all its processes together, and the largest one alone.

Resident memory is sampled every 20 ms with psutil (a batch's workers included), so a
peak shorter than that may be missed; ``/usr/bin/time -v`` gives the exact peak of one
process. With ``--huge-pdf`` it first writes the 551-byte PDF of one 100×100-inch page
that the README's memory figure is about, and measures `read` and `batch` on it.

    .venv/bin/python benchmarks/peak_memory.py --huge-pdf
    .venv/bin/python benchmarks/peak_memory.py -- .venv/bin/sudokucam read photo.jpg
"""

from __future__ import annotations

import io
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from sudokucam.benchmarks.common import script_parser

SAMPLE_S = 0.02
MB = 2**20


def peak_of(command: list[str]) -> tuple[int, float, float]:
    """Exit status, peak MB of all the command's processes together, and of the largest."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    watched = psutil.Process(process.pid)
    together = largest = 0
    while process.poll() is None:
        try:
            family = [watched, *watched.children(recursive=True)]
            sizes = [member.memory_info().rss for member in family]
        except psutil.Error:  # a worker ended between the listing and the look
            continue
        together, largest = max(together, sum(sizes)), max(largest, max(sizes))
        time.sleep(SAMPLE_S)
    return process.returncode, together / MB, largest / MB


def huge_pdf(folder: Path) -> Path:
    """A PDF of one blank 100 × 100-inch page (551 bytes)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument.new()
    document.new_page(7200, 7200)
    buffer = io.BytesIO()
    document.save(buffer)
    document.close()
    path = folder / "huge.pdf"
    path.write_bytes(buffer.getvalue())
    return path


def main() -> None:
    """Measure the command given, or `read` and `batch` on the huge PDF page."""
    parser = script_parser(__doc__)
    parser.add_argument("--huge-pdf", action="store_true", help="measure read and batch on it")
    parser.add_argument("command", nargs="*", help="the command to measure (after --)")
    args = parser.parse_args()
    script = Path(sys.executable).with_name("sudokucam")
    with tempfile.TemporaryDirectory() as folder:
        commands = {"command": args.command} if args.command else {}
        if args.huge_pdf:
            pdf = huge_pdf(Path(folder))
            print(f"{pdf.name}: {pdf.stat().st_size} bytes")
            commands["read huge.pdf"] = [str(script), "read", str(pdf)]
            out = str(Path(folder) / "out")
            commands["batch huge.pdf -w 1"] = [
                str(script),
                "batch",
                str(pdf),
                "--out",
                out,
                "-w",
                "1",
            ]
        print("| command | exit | peak, all processes (MB) | peak, largest process (MB) |")
        print("|---|---|---|---|")
        for label, command in commands.items():
            status, together, largest = peak_of(command)
            print(f"| {label} | {status} | {together:.0f} | {largest:.0f} |", flush=True)


if __name__ == "__main__":
    main()
