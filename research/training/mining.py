"""Hard negatives: where a detector finds a die that no label knows of."""

from collections.abc import Callable

import numpy as np

from companion.vision.boxes import Box, centres_inside, iou
from companion.vision.detector import Detection

from .data import Sample


def false_finds(sample: Sample, detect: Callable[[np.ndarray], list[Detection]]) -> list[Box]:
    """Boxes (x, y, w, h) ``detect`` finds in ``sample`` away from every label (IoU < 0.1):
    painted numbers on a board, text, a single large pip. They train the pip reader's
    "not a die". A find whose centre and a label's centre lie inside each other's boxes is
    that die under another box convention (the webcam set boxes a 1 around its pip), so it
    is never one of them."""
    labels = [(x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in sample.boxes.tolist()]
    return [
        found.box
        for found in detect(sample.image)
        if all(iou(found.box, label) < 0.1 and not centres_inside(found.box, label) for label in labels)
    ]
