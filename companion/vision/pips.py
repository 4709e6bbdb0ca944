"""The pip reader: how many pips are on top of each die the detector found.

A small classifier (PipNet, an ONNX file) looks at a square crop of the original frame around
each box and answers 1–6, or "no die" for something that only looked like one (a painted
number, a pip-like stain). All the crops of a frame go through the model in one batch; those
it reads under ``SURE_UNMIRRORED`` are read again mirrored left to right, and the two answers
averaged (``MIRRORED``).

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
import onnxruntime as ort

from .boxes import Box, centre
from .onnx_model import ModelError, open_session, shipped_model

CROP_SIDE = 48
#: the crop is this many times the box's longer side, so the whole top face is in it
CROP_MARGIN = 1.25
NOT_A_DIE = 0  # class 0; classes 1–6 are the pips
DEFAULT_PIP_MODEL = shipped_model("pipnet.onnx")
#: the ONNX metadata key that says how many quarter turns of each crop the model is read in:
#: "1" for a PipNet trained upright, as the shipped one is (in a photo taken from the side of the
#: table the top face is the upper one, and a turned crop would hide which that is), "4" for one
#: trained on crops turned every way
TURNS_KEY = "quarter_turns"
#: the turns a PipNet trained on crops turned every way is read in, averaged (Roboflow valid
#: 0.794 -> 0.801 over one turn); one trained upright is read once
TURNED_TRAINING_TURNS = 4
#: the turns of a PipNet without that key: the older exports wrote none, and were trained turned
UNMARKED_TURNS = TURNED_TRAINING_TURNS
#: with more than one turn, a crop read at least this surely upright is not turned: each turn
#: costs about 0.7 ms a crop on a 2-core laptop, 35 ms for a roll of 12 dice read four times
SURE_UPRIGHT = 0.8
#: how far the crop moves toward a die's top face, in box sides per unit of the die's distance
#: from the picture's centre over the lens's focal length (taken as 0.9 × the longest side);
#: chosen on the training splits and rendered phone photos
TOP_FACE_SHIFT = 0.6
FOCAL_PER_SIDE = 0.9
#: read each crop as it is and mirrored left to right, and average the two: PipNet learnt
#: mirrored crops, and a mirror keeps the top face the upper one
MIRRORED = True
#: with ``MIRRORED``, a crop read at least this surely as it is is not read mirrored too: the
#: mirror costs as much again, and on 1,652 such crops of the training splits it changed no
#: answer; Roboflow, webcam and fresh rendered sets read the same to the digit, a Roboflow photo
#: in 0.95× the time. None: every crop is read mirrored too
SURE_UNMIRRORED: float | None = 0.9


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


def trained_turns(session: ort.InferenceSession, path: Path) -> int:
    """How many quarter turns the PipNet in ``session`` (loaded from ``path``) is read in, from
    its metadata (``TURNS_KEY``); ``UNMARKED_TURNS`` when it has none."""
    mark = session.get_modelmeta().custom_metadata_map.get(TURNS_KEY)
    if mark is None:
        return UNMARKED_TURNS
    if mark not in {"1", "2", "3", "4"}:
        raise ModelError(f"{path} says {TURNS_KEY}={mark!r}; expected 1–4: export it again with train_pips")
    return int(mark)


@dataclass(frozen=True)
class PipReading:
    pips: int | None  # None: the model says this is not a die
    confidence: float  # the model's probability for that answer
    #: that probability less the next likeliest answer's: how little the model hesitated between
    #: two answers (None when not known)
    margin: float | None = None


class PipReader:
    """Load once, then ``read(frame, boxes)`` gives one ``PipReading`` per box."""

    def __init__(
        self,
        model_path: Path | None = None,
        threads: int = 2,
        turns: int | None = None,
        sure_upright: float | None = SURE_UPRIGHT,
        top_face_shift: float = TOP_FACE_SHIFT,
        mirrored: bool = MIRRORED,
        sure_unmirrored: float | None = SURE_UNMIRRORED,
    ) -> None:
        """``turns`` None: as the model file says it was trained (``TURNS_KEY``); ``sure_upright``
        None: every crop is read in all ``turns``; ``top_face_shift`` 0: every crop is centred on its box;
        ``mirrored`` False: each crop is read once, not also mirrored; ``sure_unmirrored`` None:
        with ``mirrored``, every crop is read mirrored too, not only those read under it."""
        if turns is not None and not 1 <= turns <= 4:
            raise ValueError(f"turns must be 1–4 (quarter turns of each crop), got {turns}")
        path = Path(model_path or DEFAULT_PIP_MODEL)
        self.session = open_session(path, threads, "pip", "--pip-model")
        self.input_name = self.session.get_inputs()[0].name
        self.turns = turns or trained_turns(self.session, path)
        self.sure_upright = sure_upright
        self.top_face_shift = top_face_shift
        self.mirrored = mirrored
        self.sure_unmirrored = sure_unmirrored

    def run(self, crops: np.ndarray) -> np.ndarray:
        """N×7 probabilities for N×side×side×3 BGR crops, as they are, or (``mirrored``) the mean
        of each crop's and its left-right mirror's: in one batch, or (``sure_unmirrored``) the
        mirrors of the crops read under it in a second."""
        if not self.mirrored:
            return self.infer(crops)
        if self.sure_unmirrored is None:
            both = self.infer(np.concatenate([crops, crops[:, :, ::-1]]))
            return (both[: len(crops)] + both[len(crops) :]) / 2
        probabilities = self.infer(crops)
        unsure = np.nonzero(probabilities.max(axis=1) < self.sure_unmirrored)[0]
        if len(unsure):
            probabilities[unsure] = (probabilities[unsure] + self.infer(crops[unsure, :, ::-1])) / 2
        return probabilities

    def infer(self, crops: np.ndarray) -> np.ndarray:
        """PipNet's N×7 probabilities for N×side×side×3 BGR crops, each read once as it is."""
        tensor = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32)
        return self.session.run(None, {self.input_name: tensor})[0]

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """N×7 probabilities (not a die, 1, …, 6) for N×side×side×3 BGR crops, averaged over
        ``turns`` quarter turns of each crop; a crop read upright at ``sure_upright`` or more
        is not turned."""
        upright = self.run(crops)
        line = np.inf if self.sure_upright is None else self.sure_upright
        unsure = np.nonzero(upright.max(axis=1) < line)[0]
        if len(unsure) and self.turns > 1:
            turned = np.concatenate([np.rot90(crops[unsure], k, axes=(1, 2)) for k in range(1, self.turns)])
            others = self.run(turned).reshape(self.turns - 1, len(unsure), -1)
            upright[unsure] = (upright[unsure] + others.sum(axis=0)) / self.turns
        return upright

    def read(self, frame: np.ndarray, boxes: list[Box]) -> list[PipReading]:
        """One reading per box of ``frame``."""
        if not boxes:
            return []
        rows = self.probabilities(reader_crops(frame, boxes, self.top_face_shift))
        readings = []
        for row in rows:
            second, first = np.sort(row)[-2:]
            best = int(row.argmax())
            pips = None if best == NOT_A_DIE else best
            readings.append(PipReading(pips, float(first), float(first - second)))
        return readings
