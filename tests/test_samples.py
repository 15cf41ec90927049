"""The sample renderer (samples/render.py) and the committed sample photos it made."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from sudokucam.samples import make_y4m, render
from sudokucam.solver import as_grid, count_solutions, is_solution
from sudokucam.vision.load import load_image

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
DAT_FILES = sorted(p for p in SAMPLES.rglob("*.dat") if not p.name.endswith(".pen.dat"))
FORMAT_LINE = re.compile(r"^(\d+)x(\d+):\s*24 (JPG|HEIC)$")


def units(grid: np.ndarray) -> list[np.ndarray]:
    """The 27 rows, columns and boxes of a 9×9 grid."""
    boxes = [grid[r : r + 3, c : c + 3].ravel() for r in (0, 3, 6) for c in (0, 3, 6)]
    return [*grid, *grid.T, *boxes]


def assert_no_duplicates(grid: np.ndarray) -> None:
    """No digit appears twice in a row, column or box (zeros ignored)."""
    for unit in units(grid):
        digits = unit[unit > 0]
        assert len(digits) == len(set(digits.tolist())), f"duplicate in {unit}"


def assert_solution_of(solution: np.ndarray, givens: np.ndarray) -> None:
    """The solution is complete, valid and agrees with every given."""
    for unit in units(solution):
        assert sorted(unit.tolist()) == list(range(1, 10))
    assert np.array_equal(solution[givens > 0], givens[givens > 0])
    assert is_solution(as_grid(solution.ravel().tolist()), as_grid(givens.ravel().tolist()))


def assert_pen_truth(
    truth_pen: np.ndarray, mistakes: list, givens: np.ndarray, solution: np.ndarray
) -> None:
    """Pen digits sit in empty cells; the listed mistakes are wrong and all others right."""
    assert not np.any((truth_pen > 0) & (givens > 0)), "pen digit written over a given"
    wrong = {tuple(rc) for rc in mistakes}
    for r, c in np.argwhere(truth_pen > 0):
        if (r, c) in wrong:
            assert truth_pen[r, c] != solution[r, c]
        else:
            assert truth_pen[r, c] == solution[r, c]
    assert all(truth_pen[r, c] > 0 for r, c in wrong)


def read_grid(lines: list[str]) -> np.ndarray:
    """Nine lines of nine space-separated digits."""
    grid = np.array([[int(v) for v in line.split()] for line in lines], dtype=np.int64)
    assert grid.shape == (9, 9)
    assert grid.min() >= 0 and grid.max() <= 9
    return grid


def line_contrast(gray: np.ndarray, lattice: np.ndarray, givens: np.ndarray) -> tuple[float, float]:
    """Mean grey at grid-line midpoints and at the centres of empty cells."""
    mids_h = (lattice[:, :-1] + lattice[:, 1:]) / 2
    mids_v = (lattice[:-1, :] + lattice[1:, :]) / 2
    mids = np.concatenate([mids_h.reshape(-1, 2), mids_v.reshape(-1, 2)])
    centres = (lattice[:-1, :-1] + lattice[1:, 1:]) / 2
    empty = centres[givens == 0]

    def sample(points: np.ndarray) -> float:
        xy = np.round(points).astype(int)
        return float(gray[xy[:, 1], xy[:, 0]].mean())

    return sample(mids), sample(empty)


# ----------------------------------------------------------------------------- renderer


def test_count_solutions_counts() -> None:
    rng = np.random.default_rng(1)
    solved = render.solved_grid(rng)
    assert render.count_solutions(solved) == 1
    assert render.count_solutions(np.zeros((9, 9), np.int64)) == 2
    clash = solved.copy()
    clash[0, 0] = clash[0, 1]
    assert render.count_solutions(clash) == 0


def test_puzzles_are_unique_and_seeded() -> None:
    givens, solution = render.make_puzzle(np.random.default_rng(7), clues=28)
    again, _ = render.make_puzzle(np.random.default_rng(7), clues=28)
    assert np.array_equal(givens, again)
    assert_solution_of(solution, givens)
    assert render.count_solutions(givens) == 1
    assert 24 <= np.count_nonzero(givens) <= 36


@pytest.mark.slow
def test_render_is_deterministic() -> None:
    a = render.render_photo(5, "progress", size=(640, 480))
    b = render.render_photo(5, "progress", size=(640, 480))
    assert a.image.shape == (480, 640, 3) and a.image.dtype == np.uint8
    assert np.array_equal(a.image, b.image)
    assert a.truth.to_json() == b.truth.to_json()
    c = render.render_photo(6, "progress", size=(640, 480))
    assert not np.array_equal(a.image, c.image)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(render.KINDS))
def test_truth_is_consistent(kind: str) -> None:
    overrides: dict[str, Any] = (
        {"pen_fill": 0.6, "pen_mistakes": 2} if kind in ("progress", "webcam") else {}
    )
    photo = render.render_photo(11, kind, **overrides)
    t = photo.truth
    h, w = photo.image.shape[:2]
    assert (w, h) == t.size
    assert_solution_of(t.solution, t.givens)
    assert render.count_solutions(t.givens) == 1
    assert_pen_truth(t.pen, list(t.mistakes), t.givens, t.solution)
    if overrides:
        assert len(t.mistakes) == 2 and np.count_nonzero(t.pen) > 2
    assert t.corners.shape == (4, 2) and t.lattice.shape == (10, 10, 2)
    assert (
        np.all(t.lattice >= 0) and np.all(t.lattice[..., 0] < w) and np.all(t.lattice[..., 1] < h)
    )
    # The truth lies where the ink is: grid lines are darker than empty cell centres
    # (lighter on a screen in dark mode).
    gray = cv2.cvtColor(photo.image, cv2.COLOR_BGR2GRAY)
    on_lines, in_cells = line_contrast(gray, t.lattice, t.givens + t.pen)
    if kind == "screen":
        on_lines, in_cells = in_cells, on_lines
    assert on_lines < in_cells - 25, (on_lines, in_cells)


def test_bent_page_is_not_a_homography() -> None:
    t = render.render_photo(3, "bent", bend="wave", bend_depth=0.1).truth
    ideal = np.stack(np.meshgrid(np.arange(10.0), np.arange(10.0)), axis=-1).reshape(-1, 2)
    hom, _ = cv2.findHomography(ideal, t.lattice.reshape(-1, 2), 0)
    residual = np.linalg.norm(
        cv2.perspectiveTransform(ideal[None], hom)[0] - t.lattice.reshape(-1, 2), axis=1
    )
    cell = np.linalg.norm(t.corners[1] - t.corners[0]) / 9
    assert residual.max() > 0.1 * cell


def test_bad_kind_and_missing_font_are_clear(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with pytest.raises(ValueError, match="kind"):
        render.render_photo(0, "polaroid")
    table = {"Nimbus Sans": render.PRINT_FONTS["Nimbus Sans"], "Gone": "truetype/nope/Gone.ttf"}
    assert render.resolve_font("Gone", table) == "Nimbus Sans"
    monkeypatch.setattr(render, "FONT_ROOT", tmp_path)
    with pytest.raises(render.FontMissingError, match="fonts-urw-base35"):
        render.resolve_font("Nimbus Sans", render.PRINT_FONTS)


def test_render_page_has_truth_for_each_grid() -> None:
    image, grids = render.render_page(4, n_puzzles=2, dpi=100)
    h, w = image.shape[:2]
    assert (w, h) == (round(210 * 100 / 25.4), round(297 * 100 / 25.4))
    assert len(grids) == 2
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    for g in grids:
        assert_solution_of(g.solution, g.givens)
        assert (
            np.all(g.lattice >= 0)
            and np.all(g.lattice[..., 0] < w)
            and np.all(g.lattice[..., 1] < h)
        )
        on_lines, in_cells = line_contrast(gray, g.lattice, g.givens)
        assert on_lines < in_cells - 40
    with pytest.raises(ValueError, match="n_puzzles"):
        render.render_page(0, n_puzzles=7)


def test_cli_writes_a_batch(tmp_path: Path) -> None:
    assert (
        render.main(["--out", str(tmp_path), "--kind", "webcam", "--count", "1", "--seed", "2"])
        == 0
    )
    names = sorted(p.name for p in (tmp_path / "webcam").iterdir())
    assert names == ["webcam_0000.dat", "webcam_0000.jpg", "webcam_0000.json"]


# ----------------------------------------------------------------------------- committed samples


def test_committed_set_is_complete_and_small() -> None:
    jpgs = sorted(SAMPLES.rglob("*.jpg"))
    expected = {f"{s.kind}/{s.name}.jpg" for s in render.SAMPLES} | {"pages/page0.jpg"}
    # render.py --variants writes these folders
    expected |= {"killer/dashed.jpg", "killer/tinted.jpg", "small/six_book.jpg"}
    expected |= {"sixteen/magazine.jpg"}
    expected |= {"small/twelve_newspaper.jpg"}
    expected |= {"sixteen/hex_bold.jpg", "sixteen/letters_shaded.jpg"}
    expected |= {f"variants/{name}.jpg" for name in ("x_shaded", "jigsaw_thick")}
    expected |= {f"lookalikes/{name}.jpg" for name in ("crossword", "kakuro", "kenken", "samurai")}
    assert {p.relative_to(SAMPLES).as_posix() for p in jpgs} == expected
    heics = [p.relative_to(SAMPLES).as_posix() for p in SAMPLES.rglob("*.heic")]
    assert heics == ["phone/nearly_done.heic"]  # made from progress/ by make_heic.py
    assert all(p.stat().st_size < 250_000 for p in [*jpgs, *SAMPLES.rglob("*.heic")])
    # about 5.2 MB of pictures (2.0 MB of them the variants, the two Killers, the 6×6, the
    # 12×12, the three 16×16s and the look-alikes) plus the ~1 MB live-camera clip
    # (samples/video/pan.mp4)
    assert sum(p.stat().st_size for p in SAMPLES.rglob("*") if p.is_file()) < 6_300_000


@pytest.mark.parametrize("dat", DAT_FILES, ids=lambda p: p.relative_to(SAMPLES).as_posix())
def test_committed_sample_truth(dat: Path) -> None:
    lines = dat.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("sudokucam-render seed=")
    size = FORMAT_LINE.match(lines[1])
    assert size is not None
    givens = read_grid(lines[2:11])
    assert len(lines) == 11
    assert_no_duplicates(givens)
    suffix = ".heic" if size[3] == "HEIC" else ".jpg"
    image = load_image(dat.with_suffix(suffix))
    assert (image.shape[1], image.shape[0]) == (int(size[1]), int(size[2]))
    truth = json.loads(dat.with_suffix(".json").read_text(encoding="utf-8"))
    assert np.array_equal(np.array(truth["givens"]), givens)
    solution, pen = np.array(truth["solution"]), np.array(truth["pen"])
    assert_solution_of(solution, givens)
    assert count_solutions(givens.ravel().tolist()) == 1  # the project's own solver agrees
    assert_pen_truth(pen, truth["mistakes"], givens, solution)
    pen_dat = dat.with_name(dat.stem + ".pen.dat")
    assert pen_dat.exists() == bool(pen.any())
    if pen_dat.exists():
        assert np.array_equal(read_grid(pen_dat.read_text(encoding="utf-8").splitlines()), pen)
    corners = np.array(truth["corners"])
    assert (
        corners.shape == (4, 2)
        and np.all(corners >= 0)
        and np.all(corners < [int(size[1]), int(size[2])])
    )


def test_committed_progress_samples_have_mistakes() -> None:
    for js in sorted((SAMPLES / "progress").glob("*.json")):
        truth = json.loads(js.read_text(encoding="utf-8"))
        assert truth["mistakes"] and np.count_nonzero(truth["pen"]) > len(truth["mistakes"])


def test_committed_page_truth() -> None:
    data = json.loads((SAMPLES / "pages" / "page0.json").read_text(encoding="utf-8"))
    image = cv2.imread(str(SAMPLES / "pages" / "page0.jpg"))
    assert image is not None and [image.shape[1], image.shape[0]] == data["size"]
    assert len(data["grids"]) == 3
    for g in data["grids"]:
        givens = np.array(g["givens"])
        assert_no_duplicates(givens)
        assert_solution_of(np.array(g["solution"]), givens)
        assert np.all(np.array(g["corners"]) >= 0)


@pytest.mark.slow
def test_committed_demo_regenerates() -> None:
    spec = next(s for s in render.SAMPLES if s.name == "demo")
    photo = render.fit_quality(
        render.render_photo(spec.offset, spec.kind, **spec.overrides), render.SAMPLE_MAX_BYTES
    )
    committed = json.loads((SAMPLES / "printed" / "demo.json").read_text(encoding="utf-8"))
    fresh = photo.truth.to_json()
    for key in ("device", "size", "givens", "pen", "mistakes", "solution", "fonts"):
        assert fresh[key] == committed[key], key
    assert np.allclose(fresh["lattice"], committed["lattice"], atol=0.05)
    image = cv2.imread(str(SAMPLES / "printed" / "demo.jpg"))
    assert image is not None
    assert float(np.abs(image.astype(float) - photo.image.astype(float)).mean()) < 3.0


# ----------------------------------------------------------------------------- y4m


def test_y4m_writer(tmp_path: Path) -> None:
    image = cv2.imread(str(SAMPLES / "printed" / "demo.jpg"))
    assert image is not None
    path = make_y4m.write_y4m(image, tmp_path / "demo.y4m", (640, 480), frames=5, fps=10)
    data = path.read_bytes()
    header, _, rest = data.partition(b"\n")
    assert header == b"YUV4MPEG2 W640 H480 F10:1 Ip A1:1 C420jpeg"
    frame_bytes = 640 * 480 * 3 // 2
    assert len(rest) == 5 * (len(b"FRAME\n") + frame_bytes)
    for i in range(5):
        assert rest[i * (6 + frame_bytes) :].startswith(b"FRAME\n")
    luma = np.frombuffer(rest[6 : 6 + 640 * 480], np.uint8).reshape(480, 640)
    gray = cv2.cvtColor(make_y4m.fit_frame(image, 640, 480), cv2.COLOR_BGR2GRAY)
    expected = 16 + gray.astype(float) * 219 / 255  # BT.601 video range, as Chromium reads it
    assert float(np.abs(luma.astype(float) - expected.astype(float)).mean()) < 3.0
    with pytest.raises(ValueError, match="size"):
        make_y4m.write_y4m(image, tmp_path / "odd.y4m", (641, 480))


# ----------------------------------------------------------------------------- marks: notes, pencil


def test_marks_that_draw_nothing_leave_the_photo_as_it_was() -> None:
    """Marks come from their own generator: all off, the photo is the same pixel for pixel."""
    plain = render.render_photo(11, "progress", size=(480, 360), pen_fill=0.4)
    marked = render.render_photo(
        11, "progress", size=(480, 360), pen_fill=0.4, marks=render.Marks()
    )
    assert np.array_equal(plain.image, marked.image)
    assert plain.truth.notes is None and marked.truth.notes is not None
    assert not (marked.truth.notes != "").any()


@pytest.mark.parametrize("layout", ["grid", "free"])
def test_notes_hold_the_answer_except_the_wrong_ones(layout: str) -> None:
    marks = render.Marks(notes_fill=0.6, notes_wrong=2, notes_layout=layout, erasures=2)
    photo = render.render_photo(12, "progress", size=(480, 360), pen_fill=0.3, marks=marks)
    t = photo.truth
    assert t.notes is not None, "marks drawn, so the truth has notes"
    plain = render.render_photo(12, "progress", size=(480, 360), pen_fill=0.3)
    assert not np.array_equal(plain.image, photo.image)  # the notes are drawn
    noted = np.argwhere(t.notes != "")
    assert len(noted) > 10
    assert len(t.notes_wrong) == 2
    for r, c in noted:
        assert t.givens[r, c] == 0 and t.pen[r, c] == 0, "notes in a filled cell"
        digits = str(t.notes[r, c])
        assert digits == "".join(sorted(set(digits))) and 1 <= len(digits) <= 4
        assert (str(t.solution[r, c]) in digits) != ((r, c) in t.notes_wrong)
    doc = t.to_json()
    assert doc["contents"][noted[0][0]][noted[0][1]] == "notes"
    assert sum(row.count("notes") for row in doc["contents"]) == len(noted)


def test_pencil_entries_are_grey() -> None:
    """Pencil fill-ins are drawn in grey, not in the pen's coloured ink."""
    kw: dict[str, Any] = {"size": (640, 480), "pen_fill": 0.8, "pen_font": "Comic Neue"}
    pen = render.render_photo(13, "progress", **kw)
    pencil = render.render_photo(13, "progress", marks=render.Marks(pencil=True), **kw)
    assert np.array_equal(pen.truth.pen, pencil.truth.pen)
    diff = np.abs(pen.image.astype(int) - pencil.image.astype(int)).sum(axis=2) > 30
    assert diff.any()
    colour = pencil.image[diff].astype(int)
    # grey: the channels of the changed pixels stay close to one another
    assert float(np.median(colour.max(axis=1) - colour.min(axis=1))) < 25


@pytest.mark.parametrize("name", ["notes_half", "pencil"])
def test_committed_marked_samples(name: str) -> None:
    truth = json.loads((SAMPLES / "progress" / f"{name}.json").read_text(encoding="utf-8"))
    notes, contents = truth["notes"], truth["contents"]
    givens, pen = np.array(truth["givens"]), np.array(truth["pen"])
    for r in range(9):
        for c in range(9):
            expected = (
                "printed" if givens[r, c] else "written" if pen[r, c] else
                "notes" if notes[r][c] else "empty"
            )  # fmt: skip
            assert contents[r][c] == expected
    marks = truth["effects"]["marks"]
    if name == "pencil":
        assert marks["pencil"] and not any(n for row in notes for n in row)
    else:
        assert sum(row.count("notes") for row in contents) >= 10
        assert truth["notes_wrong"] and all(notes[r][c] for r, c in truth["notes_wrong"])


# ----------------------------------------------------------------------------- text


@pytest.mark.parametrize("y", [100.0, 100.33, 100.5, 100.98])
def test_text_prints_every_row_of_its_glyphs(y: float) -> None:
    """A glyph prints the same ink wherever its origin falls within a pixel (Pillow cut
    the first row of text drawn from an origin above its canvas: a small printed 7 lost
    its bar and read as a 1)."""
    from sudokucam.samples.synth.fonts import load_font
    from sudokucam.samples.synth.sheet import Sheet

    font = load_font("DejaVu Sans Bold", 15)

    def darkness(at: float) -> float:
        sheet = Sheet(60, 160)
        sheet.text(20.0, at, "7", font)
        return float((1.0 - sheet.ink).sum())

    assert darkness(y) == pytest.approx(darkness(100.0), rel=0.01)
