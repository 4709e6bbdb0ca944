"""The pip reader: how many pips are on top of each die the detector found.

A small classifier (PipNet, an ONNX file) looks at a square crop of the original frame around
each box and answers 1–6, or "no die" for something that only looked like one (a painted
number, a pip-like stain). All the crops of a frame go through the model in one batch; those
it reads under ``SURE_UNMIRRORED`` are read again mirrored left to right, and the two answers
averaged: PipNet learnt mirrored crops, and a mirror keeps the top face the upper one.

Seen from above through a lens, a die away from the picture's centre shows the side facing
the centre, and its top face lies on the outer part of its box; so the crop is moved outward,
more the farther the die is from the centre (``toward_top_face``). Without this, PipNet read
the side face's pips of many dice near the edges of a phone photo.
"""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .boxes import Box, centre
from .onnx_model import ModelError, open_session, shipped_model

CROP_SIDE = 48
#: the crop is this many times the box's longer side, so the whole top face is in it
CROP_MARGIN = 1.25
NOT_A_DIE = 0  # class 0; classes 1–6 are the pips
DEFAULT_PIP_MODEL = shipped_model("pipnet.onnx")
#: the ONNX metadata key that says how many quarter turns of each crop the model is read in:
#: "1" for a PipNet trained upright, as the shipped one is (in a photo taken from the side of the
#: table the top face is the upper one, and a turned crop would hide which that is); the reader
#: reads crops upright, and refuses a file that asks for more turns or says nothing
TURNS_KEY = "quarter_turns"
#: how far the crop moves toward a die's top face, in box sides per unit of the die's distance
#: from the picture's centre over the lens's focal length (taken as 0.9 × the longest side);
#: chosen on the training splits and rendered phone photos
TOP_FACE_SHIFT = 0.6
FOCAL_PER_SIDE = 0.9
#: a crop read at least this surely as it is is not read mirrored too: the mirror costs as much
#: again and changes no answer read this surely (docs/decisions.md, "Two small models")
SURE_UNMIRRORED = 0.9


def crop_die(
    image: np.ndarray,
    box: Box,
    side: int = CROP_SIDE,
    margin: float = CROP_MARGIN,
    painted: Callable[[np.ndarray, tuple[int, int]], np.ndarray] | None = None,
) -> np.ndarray:
    """A ``side``×``side`` BGR crop centred on ``box`` (x, y, w, h); edges are repeated past the
    image. ``painted``, given the full-resolution square and the frame pixel of its top-left
    corner, gives the square to shrink instead (training paints other dice out of some crops)."""
    extent = max(box[2], box[3], 1.0) * margin
    cx, cy = centre(box)
    x0, y0 = int(round(cx - extent / 2)), int(round(cy - extent / 2))
    size = max(2, int(round(extent)))
    height, width = image.shape[:2]
    top, bottom, above, below = edges(y0, size, height)
    left, right, before, after = edges(x0, size, width)
    part = image[top:bottom, left:right]
    if part.shape[:2] != (size, size):  # past the border the edge pixels are repeated
        part = cv2.copyMakeBorder(part, above, below, before, after, cv2.BORDER_REPLICATE)
    if painted is not None:
        part = painted(part, (x0, y0))
    shrink = size > side
    return cv2.resize(part, (side, side), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)


def edges(start: int, size: int, length: int) -> tuple[int, int, int, int]:
    """For ``size`` pixels from ``start`` along a side of ``length``: the part inside (first, end)
    and how many repeated edge pixels go before and after it (at least one pixel is inside)."""
    first = min(max(start, 0), length - 1)
    end = min(max(start + size, first + 1), length)
    before = min(max(first - start, 0), size - (end - first))
    return first, end, before, size - (end - first) - before


def toward_top_face(
    box: tuple[float, float, float, float], frame_size: tuple[int, int], shift: float = TOP_FACE_SHIFT
) -> tuple[float, float, float, float]:
    """``box`` moved away from the centre of a ``frame_size`` (w, h) picture to where the die's top
    face is: by ``shift`` × its side × (its distance from the centre / the focal length)."""
    x, y, w, h = box
    move = shift * max(w, h) / (FOCAL_PER_SIDE * max(frame_size))
    return (x + (x + w / 2 - frame_size[0] / 2) * move, y + (y + h / 2 - frame_size[1] / 2) * move, w, h)


def reader_crops(frame: np.ndarray, boxes: list[Box], shift: float = TOP_FACE_SHIFT) -> np.ndarray:
    """The N×48×48×3 crops PipNet reads for ``boxes`` of ``frame``, each moved toward its die's top face."""
    size = (frame.shape[1], frame.shape[0])
    return np.stack([crop_die(frame, toward_top_face(box, size, shift)) for box in boxes])


def turns_mark(path: Path, metadata: dict[str, str]) -> int | None:
    """The quarter turns the PipNet file at ``path`` says (``TURNS_KEY`` of its ``metadata``) it
    is read in; None when it says nothing; a ModelError when it says something else."""
    mark = metadata.get(TURNS_KEY)
    if mark is None:
        return None
    if mark not in {"1", "2", "3", "4"}:
        raise ModelError(f"{path} says {TURNS_KEY}={mark!r}; expected 1–4: export it again with train_pips")
    return int(mark)


def check_upright(path: Path, metadata: dict[str, str]) -> None:
    """A ModelError unless the PipNet file at ``path`` says it was trained on upright crops."""
    turns = turns_mark(path, metadata)
    if turns is None:
        raise ModelError(
            f"{path} does not say how its crops are turned ({TURNS_KEY}): "
            "train it with train_pips --upright, which marks it"
        )
    if turns != 1:
        raise ModelError(
            f"{path} was trained on crops turned every way ({TURNS_KEY}={turns}); the reader reads "
            "crops upright: train it with train_pips --upright"
        )


@dataclass(frozen=True)
class PipReading:
    pips: int | None  # None: the model says this is not a die
    confidence: float  # the model's probability for that answer
    #: that probability less the next likeliest answer's: how little the model hesitated between
    #: two answers (None when not known)
    margin: float | None = None


class PipReader:
    """Load once, then ``read(frame, boxes)`` gives one ``PipReading`` per box."""

    def __init__(self, model_path: Path | None = None, threads: int = 2) -> None:
        path = Path(model_path or DEFAULT_PIP_MODEL)
        self.session = open_session(path, threads, "pip", "--pip-model")
        self.input_name = self.session.get_inputs()[0].name
        self.check_model(path, self.session.get_modelmeta().custom_metadata_map)

    def check_model(self, path: Path, metadata: dict[str, str]) -> None:
        """A ModelError when the model at ``path`` cannot be read as this reader reads crops."""
        check_upright(path, metadata)

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """N×7 probabilities (not a die, 1, …, 6) for N×side×side×3 BGR crops: those read under
        ``SURE_UNMIRRORED`` as they are averaged with their left-right mirror's, read in a second batch."""
        probabilities = self.infer(crops)
        unsure = np.nonzero(probabilities.max(axis=1) < SURE_UNMIRRORED)[0]
        if len(unsure):
            probabilities[unsure] = (probabilities[unsure] + self.infer(crops[unsure, :, ::-1])) / 2
        return probabilities

    def infer(self, crops: np.ndarray) -> np.ndarray:
        """PipNet's N×7 probabilities for N×side×side×3 BGR crops, each read once as it is."""
        tensor = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32)
        return self.session.run(None, {self.input_name: tensor})[0]

    def read(self, frame: np.ndarray, boxes: list[Box]) -> list[PipReading]:
        """One reading per box of ``frame``."""
        if not boxes:
            return []
        rows = self.probabilities(reader_crops(frame, boxes))
        readings = []
        for row in rows:
            second, first = np.sort(row)[-2:]
            best = int(row.argmax())
            pips = None if best == NOT_A_DIE else best
            readings.append(PipReading(pips, float(first), float(first - second)))
        return readings
