"""The pip reader: how many pips are on top of each die the detector found.

A small classifier (PipNet, an ONNX file) looks at a square crop of the original frame around
each box and answers 1–6, or "no die" for something that only looked like one (a painted
number, a pip-like stain). All the crops of a frame go through the model in one batch.
"""

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from .detector import ModelError

CROP_SIDE = 48
#: the crop is this many times the box's longer side, so the whole top face is in it
CROP_MARGIN = 1.25
NOT_A_DIE = 0  # class 0; classes 1–6 are the pips
PIP_MODEL_NAME = Path("models") / "pipnet.onnx"


def default_pip_model() -> Path:
    """models/pipnet.onnx beside the package (a source checkout), else in the current folder."""
    beside = Path(__file__).resolve().parents[2] / PIP_MODEL_NAME
    return beside if beside.is_file() else Path.cwd() / PIP_MODEL_NAME


def crop_die(
    image: np.ndarray,
    box: tuple[float, float, float, float],
    side: int = CROP_SIDE,
    margin: float = CROP_MARGIN,
) -> np.ndarray:
    """A ``side``×``side`` BGR crop centred on ``box`` (x, y, w, h); edges are repeated past the image."""
    x, y, w, h = box
    extent = max(w, h, 1.0) * margin
    cx, cy = x + w / 2, y + h / 2
    x0, y0 = int(round(cx - extent / 2)), int(round(cy - extent / 2))
    size = max(2, int(round(extent)))
    height, width = image.shape[:2]
    pad = max(0, -x0, -y0, x0 + size - width, y0 + size - height)
    if pad:
        image = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        x0, y0 = x0 + pad, y0 + pad
    part = image[y0 : y0 + size, x0 : x0 + size]
    shrink = size > side
    return cv2.resize(part, (side, side), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)


@dataclass(frozen=True)
class PipReading:
    pips: int | None  # None: the model says this is not a die
    confidence: float  # the model's probability for that answer


class PipReader:
    """Load once, then ``read(frame, boxes)`` gives one ``PipReading`` per box."""

    def __init__(self, model_path: Path | None = None, threads: int = 2) -> None:
        path = Path(model_path or default_pip_model())
        if not path.is_file():
            raise ModelError(f"no pip model at {path}; train one (see models/README.md) or pass --pip-model")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        try:
            self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as err:  # onnxruntime raises its own exception types
            raise ModelError(f"cannot load the pip model {path}: {err}") from None
        self.input_name = self.session.get_inputs()[0].name

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """N×7 probabilities (not a die, 1, …, 6) for N×side×side×3 BGR crops."""
        tensor = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32)
        return self.session.run(None, {self.input_name: tensor})[0]

    def read(self, frame: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> list[PipReading]:
        if not boxes:
            return []
        crops = np.stack([crop_die(frame, box) for box in boxes])
        readings = []
        for row in self.probabilities(crops):
            best = int(row.argmax())
            readings.append(PipReading(None if best == NOT_A_DIE else best, float(row[best])))
        return readings
