"""Record what `sudokucam read --json` says about a fixed set of photos, and compare two records.

A refactor must not change what sudokucam reads. This script runs the real console command
(`python -m sudokucam read --json`) on every committed sample photo and on the validation
photos of the shared dataset (both versions), drops the timings, and writes one JSON file.
Comparing two such files lists every photo whose reading differs; keys present only in
the newer file (additions to the JSON contract) are allowed, and so are photos only the
newer file holds (samples added since: listed as new, to be re-recorded).

    .venv/bin/python benchmarks/read_snapshot.py --out /tmp/before.json
    ... change the code ...
    .venv/bin/python benchmarks/read_snapshot.py --out /tmp/after.json --compare /tmp/before.json
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from sudokucam.benchmarks.common import json_text, script_parser
from sudokucam.samples.dataset import REPO, SHARED, photo_path, validation_ids

PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png", ".heic", ".webp"}
MULTI_GRID_FOLDERS = {"pages"}  # samples of several puzzles, listed after the others
CHUNK = 20  # photos per command, so that a long list does not outgrow the command line


def sample_photos() -> list[Path]:
    """Every committed sample photo, in a fixed order."""
    samples = REPO / "samples"
    return sorted(p for p in samples.rglob("*") if p.suffix.lower() in PHOTO_SUFFIXES)


def validation_photos() -> list[Path]:
    """The validation photos of the shared dataset (printed and pen-filled), if present."""
    photos = [photo_path(i, version) for version in ("v2", "mixed") for i in validation_ids()]
    return [p for p in photos if p.is_file()]


def read_json(photos: list[Path]) -> list[dict[str, Any]]:
    """What `sudokucam read --json` (every puzzle on a photo) prints, timings removed."""
    records: list[dict[str, Any]] = []
    for start in range(0, len(photos), CHUNK):
        chunk = [str(p) for p in photos[start : start + CHUNK]]
        command = [sys.executable, "-m", "sudokucam", "read", "--json"]
        done = subprocess.run([*command, *chunk], capture_output=True, text=True, check=False)
        if done.returncode not in (0, 1):
            raise SystemExit(f"read failed ({done.returncode}): {done.stderr.strip()}")
        records.extend(json.loads(done.stdout))
    for record in records:
        record.pop("timings", None)
        record["image"] = short_name(Path(record["image"]))
    return records


def short_name(path: Path) -> str:
    """A photo's path inside the repository or the shared data, the same from any checkout."""
    for root in (REPO, SHARED):
        if path.resolve().is_relative_to(root.resolve()):
            return str(path.resolve().relative_to(root.resolve()))
    return str(path)


def snapshot(with_validation: bool) -> list[dict[str, Any]]:
    """The readings of every sample photo, and of the validation photos if asked."""
    single = [p for p in sample_photos() if p.parent.name not in MULTI_GRID_FOLDERS]
    multi = [p for p in sample_photos() if p.parent.name in MULTI_GRID_FOLDERS]
    validation = validation_photos() if with_validation else []
    return read_json(single) + read_json(multi) + read_json(validation)


def differences(old: Any, new: Any, where: str = "", tolerance: float = 0.0) -> list[str]:
    """Where ``new`` differs from ``old``; keys only ``new`` has are additions, not changes.

    Numbers that are not integers may differ by ``tolerance`` (0: they must be equal).
    """
    if isinstance(old, dict) and isinstance(new, dict):
        found = [f"{where}.{k}: missing" for k in old if k not in new]
        for key in (k for k in old if k in new):
            found += differences(old[key], new[key], f"{where}.{key}", tolerance)
        return found
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        pairs = enumerate(zip(old, new, strict=True))
        return [d for i, (a, b) in pairs for d in differences(a, b, f"{where}[{i}]", tolerance)]
    if isinstance(old, float) and isinstance(new, float) and abs(old - new) <= tolerance:
        return []
    return [] if old == new else [f"{where}: {old!r} -> {new!r}"[:200]]


def compare(
    records: list[dict[str, Any]], earlier: Path, tolerance: float, heic_tolerance: float
) -> int:
    """Print the photos read differently from the snapshot in ``earlier``; how many.

    HEIC photos' numbers may differ by ``heic_tolerance`` instead: their pixels depend on
    the libheif that pi-heif's wheel brings, which changes between releases.
    """
    old = {r["image"]: r for r in json.loads(earlier.read_text())}
    changed = 0
    for record in records:
        if record["image"] not in old:  # a sample added since: an addition, not a change
            print(f"  {record['image']}: new, not in {earlier} (re-record to keep its reading)")
            continue
        allowed = heic_tolerance if record["image"].endswith(".heic") else tolerance
        found = differences(old.get(record["image"]), record, tolerance=allowed)
        changed += bool(found)
        for line in found[:5]:
            print(f"  {record['image']}{line}")
    missing = sorted(set(old) - {r["image"] for r in records})
    for name in missing:
        print(f"  {name}: in {earlier} but not read now")
    print(f"{changed} of {len(records)} photos read differently from {earlier}")
    return changed + len(missing)


def main() -> int:
    """Write a snapshot; with --compare, list the photos whose reading changed."""
    parser = script_parser(__doc__)
    parser.add_argument("--out", type=Path, required=True, help="where to write the snapshot")
    parser.add_argument("--compare", type=Path, help="an earlier snapshot to compare with")
    parser.add_argument("--samples-only", action="store_true", help="skip the shared photos")
    parser.add_argument(
        "--tolerance", type=float, default=0.0, help="allowed change of non-integer numbers"
    )
    parser.add_argument(
        "--heic-tolerance", type=float, default=None, help="the same for HEIC photos"
    )
    args = parser.parse_args()
    with_validation = not args.samples_only and bool(validation_photos())
    records = snapshot(with_validation)
    args.out.write_text(json_text(records))
    shared = "with" if with_validation else f"without (no {SHARED} or --samples-only)"
    print(f"{len(records)} photos read {shared} the validation photos -> {args.out}")
    if args.compare is None:
        return 0
    heic = args.tolerance if args.heic_tolerance is None else args.heic_tolerance
    return 1 if compare(records, args.compare, args.tolerance, heic) else 0


if __name__ == "__main__":
    raise SystemExit(main())
