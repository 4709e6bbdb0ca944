"""The dice a table fixed, written by `companion export-fixes`, read back by the research tools
as a labelled YOLO folder: each image one die, its class the pips the player said, its box where
the die lies in the crop."""

import json

import cv2
import numpy as np

from companion.fixes import DieCrop, Fix
from companion.fixes.labelled_set import write_labelled_set
from companion.rules import Die
from research.reader.dataset import read_yolo_folder


def crop_of_a_die(box: tuple[int, int, int, int], side: int = 80) -> DieCrop:
    """A grey square with a white die at ``box``, as JPEG."""
    picture = np.full((side, side, 3), 60, np.uint8)
    x, y, w, h = box
    picture[max(y, 0) : y + h, max(x, 0) : x + w] = 240
    return DieCrop(cv2.imencode(".jpg", picture)[1].tobytes(), box, (side, side))


def test_the_research_tools_read_an_exported_set_of_fixes_back(tmp_path):
    fixes = [
        Fix(
            "a1-x-2",
            "a1",
            "2026-01-01T10:00:00",
            Die("red", 3),
            Die("red", 5),
            crop_of_a_die((20, 20, 40, 40)),
        ),
        Fix(
            "a1-y-0",
            "a1",
            "2026-01-01T10:02:00",
            Die("grey", 2),
            Die("white", 2),
            crop_of_a_die((0, 30, 30, 40)),
        ),
        # a die cut by the frame's edge: its label is clipped to the crop
        Fix(
            "b2-z-7",
            "b2",
            "2026-01-02T09:00:00",
            Die("blue", 6),
            Die("blue", 4),
            crop_of_a_die((60, -10, 30, 30)),
        ),
    ]
    written = write_labelled_set(fixes, tmp_path / "fixes")
    assert (written.images, written.pips, written.misread) == (3, {2: 1, 4: 1, 5: 1}, 3)

    images = list(read_yolo_folder(tmp_path / "fixes" / "train"))
    assert [image.image_path.stem for image in images] == ["a1-x-2", "a1-y-0", "b2-z-7"]
    for image, fix in zip(images, fixes, strict=True):
        picture = cv2.imread(str(image.image_path))
        height, width = picture.shape[:2]
        (box,) = image.boxes(width, height)
        assert box.pips == fix.said.pips
        x, y, w, h = fix.crop.box
        left, top = max(x, 0), max(y, 0)
        right, bottom = min(x + w, width), min(y + h, height)
        assert np.allclose(
            (box.x, box.y, box.x + box.w, box.y + box.h), (left, top, right, bottom), atol=0.01
        )
        centre = picture[int(box.y + box.h / 2), int(box.x + box.w / 2)]
        assert centre.mean() > 200, "the label's box is on the die"
    colours = json.loads((tmp_path / "fixes" / "colours.json").read_text())
    assert colours == {"a1-x-2": ["red"], "a1-y-0": ["white"], "b2-z-7": ["blue"]}
    told = json.loads((tmp_path / "fixes" / "fixes.json").read_text())
    assert told["a1-y-0"]["read"] == {"pips": 2, "colour": "grey", "big": False}
