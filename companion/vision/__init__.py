"""The vision adapter: find every die in a camera frame, read its pips and its colour.

The names below load on first use, so a command that only needs a light module of this
package (``picture_file``, ``boxes``) starts without numpy, OpenCV or onnxruntime."""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .calibration import Calibration, CalibrationError
    from .detector import DiceDetector
    from .die import SeenDie
    from .onnx_model import ModelError
    from .reader import DiceReader

#: where each name of the package lives
_HOMES = {
    "Calibration": "calibration",
    "CalibrationError": "calibration",
    "DiceDetector": "detector",
    "DiceReader": "reader",
    "ModelError": "onnx_model",
    "SeenDie": "die",
}

__all__ = ["Calibration", "CalibrationError", "DiceDetector", "DiceReader", "ModelError", "SeenDie"]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_HOMES[name]}", __name__), name)
