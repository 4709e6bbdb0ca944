"""Run a reader over labelled YOLO folders and score it (shared by `python -m research bench` and the
benchmark scripts)."""

import json
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from companion.vision.annotate import annotate
from companion.vision.die import SeenDie
from companion.vision.quality import unreadable
from companion.vision.reader import DiceReader

from .dataset import LabelledBox, read_yolo_folder
from .evaluation import Summary, match, matched, mistakes


def evaluate(
    reader: DiceReader,
    folders: list[Path],
    annotate_to: Path | None = None,
    skipped: Callable[[str], None] = lambda message: None,
    on_read: Callable[[list[SeenDie], list[LabelledBox], list[tuple[SeenDie, int]]], None] | None = None,
) -> Summary:
    """Read every labelled image; colours are checked where a folder has colours.json.
    ``on_read`` is told each picture's dice, labels and the pairs ``matched`` made of them."""
    summary = Summary()
    for folder in folders:
        items = list(read_yolo_folder(folder))
        colour_file = folder / "colours.json"
        colours = json.loads(colour_file.read_text()) if colour_file.exists() else None
        for item in items:
            image = cv2.imread(str(item.image_path), cv2.IMREAD_COLOR)
            if image is None:
                skipped(f"{item.image_path} is not a picture OpenCV can read")
                continue
            if (problem := unreadable(image)) is not None:
                skipped(f"{item.image_path}: {problem}")
                continue
            start = time.perf_counter()
            dice = reader.read(image)
            ms = (time.perf_counter() - start) * 1000
            truths = item.boxes(image.shape[1], image.shape[0])
            pairs = matched(dice, truths)
            if on_read is not None:
                on_read(dice, truths, pairs)
            result = match(dice, truths, colours.get(item.image_path.stem) if colours else None, pairs)
            result.ms = ms
            result.picture = str(item.image_path)
            summary.images.append(result)
            if annotate_to is not None:
                annotate_to.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(
                    str(annotate_to / f"{folder.name}_{item.image_path.stem}.jpg"),
                    annotated(image, dice, truths, pairs),
                )
    return summary


def annotated(
    image: np.ndarray, dice: list[SeenDie], truths: list[LabelledBox], pairs: list[tuple[SeenDie, int]]
) -> np.ndarray:
    """The picture with what was read, the dice read wrong (no label there, or other pips) boxed
    in red and the labelled dice nobody read (``pairs``: what ``matched`` made of them) in amber."""
    wrong = mistakes(dice, truths, pairs)
    return annotate(
        image,
        dice,
        wrong=set(wrong.false_finds + wrong.wrong_pips),
        missed=[((t.x, t.y, t.w, t.h), t.pips) for t in (truths[i] for i in wrong.missed)],
    )
