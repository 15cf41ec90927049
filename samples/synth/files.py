"""Writing photos and pages: JPEG, the dataset's .dat format, .pen.dat and .json truth."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .truth import GridTruth, Photo

PAGE_JPEG_QUALITY = 75  # puzzle pages are saved as grey JPEGs


def dat_text(device: str, size: tuple[int, int], grid: np.ndarray) -> str:
    """Ground truth in the shared dataset's .dat format: device, format, 9 rows of digits."""
    rows = "\n".join(" ".join(str(int(v)) for v in row) for row in grid)
    return f"{device}\n{size[0]}x{size[1]}:24 JPG\n{rows}\n"


def grid_text(grid: np.ndarray) -> str:
    """Nine lines of nine digits (the .pen.dat format)."""
    return "\n".join(" ".join(str(int(v)) for v in row) for row in grid) + "\n"


def encode_jpeg(image: np.ndarray, quality: int) -> bytes:
    """JPEG bytes of a BGR (or grey) image."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise OSError("JPEG encoding failed")
    return bytes(data.tobytes())


def write_photo(photo: Photo, folder: Path, name: str) -> list[Path]:
    """Write <name>.jpg, .dat, .json (and .pen.dat when there is pen) into a folder."""
    folder.mkdir(parents=True, exist_ok=True)
    t = photo.truth
    paths = [folder / f"{name}.jpg", folder / f"{name}.dat", folder / f"{name}.json"]
    paths[0].write_bytes(encode_jpeg(photo.image, photo.jpeg_quality))
    paths[1].write_text(dat_text(t.device, t.size, t.givens), encoding="utf-8")
    paths[2].write_text(
        json.dumps(t.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    if t.pen.any():
        paths.append(folder / f"{name}.pen.dat")
        paths[-1].write_text(grid_text(t.pen), encoding="utf-8")
    return paths


def page_meta(seed: int, dpi: int) -> dict[str, Any]:
    """The header of a puzzle page's JSON: its device line, seed and resolution."""
    return {"device": f"sudokucam-render page seed={seed}", "seed": seed, "dpi": dpi}


def write_page(
    image: np.ndarray, truths: list[GridTruth], folder: Path, name: str, meta: dict[str, Any]
) -> list[Path]:
    """Write a puzzle page as a grey JPEG and its truth JSON."""
    folder.mkdir(parents=True, exist_ok=True)
    jpg, js = folder / f"{name}.jpg", folder / f"{name}.json"
    jpg.write_bytes(encode_jpeg(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), PAGE_JPEG_QUALITY))
    data = {
        **meta,
        "jpeg_quality": PAGE_JPEG_QUALITY,
        "size": [image.shape[1], image.shape[0]],
        "grids": [t.to_json() for t in truths],
    }
    js.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return [jpg, js]
