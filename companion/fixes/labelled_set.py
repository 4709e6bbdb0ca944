"""A table's fixes as a labelled set in the layout of the shared real-photo sets: a split folder
of ``images/`` and ``labels/`` in YOLO format (one line per die, ``class cx cy w h`` normalised,
class = pips − 1), here one crop and one die per image, with the dice's colours and what the
reader had read beside them."""

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .store import Fix

#: the split the fixes are written to: a table's corrections are for training; the shared sets'
#: held-out splits keep measuring
SPLIT = "train"


@dataclass(frozen=True)
class WrittenSet:
    folder: Path
    images: int
    pips: dict[int, int]  # how many dice of each value
    misread: int  # how many of them the reader had read otherwise (pips or colour)


def yolo_row(fix: Fix) -> str:
    """The label line of a fix's die: its box clipped to the crop, normalised to it."""
    (x, y, w, h), (width, height) = fix.crop.box, fix.crop.size
    left, top = max(x, 0), max(y, 0)
    right, bottom = min(x + w, width), min(y + h, height)
    cx, cy = (left + right) / 2 / width, (top + bottom) / 2 / height
    return f"{fix.said.pips - 1} {cx:.6f} {cy:.6f} {(right - left) / width:.6f} {(bottom - top) / height:.6f}"


def stem_of(fix: Fix) -> str:
    """A file name for a fix: its game, and the fix's own id (unique, safe in a path)."""
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in fix.id)


def write_labelled_set(fixes: list[Fix], folder: Path) -> WrittenSet:
    """Write ``fixes`` under ``folder/train`` (images, labels) with ``colours.json`` (each image's
    die colours, one list an image, as ``research/labels`` keeps them) and ``fixes.json`` (what
    was read and what the player said, per image) beside it. Files already there of the same
    name are replaced; others are left alone."""
    split = Path(folder) / SPLIT
    (split / "images").mkdir(parents=True, exist_ok=True)
    (split / "labels").mkdir(parents=True, exist_ok=True)
    colours: dict[str, list[str]] = {}
    told: dict[str, dict] = {}
    for fix in fixes:
        stem = stem_of(fix)
        (split / "images" / f"{stem}.jpg").write_bytes(fix.crop.jpeg)
        (split / "labels" / f"{stem}.txt").write_text(yolo_row(fix) + "\n")
        colours[stem] = [fix.said.colour]
        told[stem] = {
            "game": fix.game_id,
            "created": fix.created,
            "read": {"pips": fix.read.pips, "colour": fix.read.colour, "big": fix.read.big},
            "said": {"pips": fix.said.pips, "colour": fix.said.colour, "big": fix.said.big},
        }
    (Path(folder) / "colours.json").write_text(json.dumps(colours, indent=1) + "\n")
    (Path(folder) / "fixes.json").write_text(json.dumps(told, indent=1) + "\n")
    misread = sum(1 for fix in fixes if (fix.read.pips, fix.read.colour) != (fix.said.pips, fix.said.colour))
    return WrittenSet(
        Path(folder), len(fixes), dict(sorted(Counter(f.said.pips for f in fixes).items())), misread
    )
