"""Labelled image folders in YOLO format: images/ and labels/ (class = pips − 1, normalised boxes)."""

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from companion.vision.picture_file import FRAME_SUFFIXES


@dataclass(frozen=True)
class LabelledBox:
    """A true die: its pips and its box in pixels (x, y, w, h)."""

    pips: int
    x: float
    y: float
    w: float
    h: float


@dataclass
class LabelledImage:
    image_path: Path
    #: normalised rows (pips, cx, cy, w, h) as written in the label file
    rows: list[tuple[int, float, float, float, float]] = field(default_factory=list)

    def boxes(self, width: int, height: int) -> list[LabelledBox]:
        return [
            LabelledBox(p, (cx - w / 2) * width, (cy - h / 2) * height, w * width, h * height)
            for p, cx, cy, w, h in self.rows
        ]


def read_label_file(path: Path) -> list[tuple[int, float, float, float, float]]:
    rows = []
    if not path.exists():
        return rows
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 5:
            raise ValueError(f"{path}:{number}: expected 'class cx cy w h', got {line!r}")
        cls = int(float(parts[0]))
        if not 0 <= cls <= 5:
            raise ValueError(f"{path}:{number}: class must be 0–5 (pips − 1), got {cls}")
        cx, cy, w, h = map(float, parts[1:])
        rows.append((cls + 1, cx, cy, w, h))
    return rows


def read_yolo_folder(folder: Path) -> Iterator[LabelledImage]:
    """Every image in ``folder/images`` with the rows of its label file (none if missing)."""
    folder = Path(folder)
    images = folder / "images"
    if not folder.is_dir():
        raise FileNotFoundError(f"no such folder: {folder}")
    if not images.is_dir():
        raise FileNotFoundError(f"{folder} has no images/ folder (expected YOLO format: images/, labels/)")
    for image_path in sorted(images.iterdir()):
        if image_path.suffix.lower() in FRAME_SUFFIXES:
            yield LabelledImage(image_path, read_label_file(folder / "labels" / f"{image_path.stem}.txt"))
