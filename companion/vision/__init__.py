"""The vision adapter: find every die in a camera frame, read its pips and its colour."""

from .calibration import Calibration, CalibrationError
from .detector import DiceDetector
from .die import SeenDie
from .onnx_model import ModelError
from .reader import DiceReader

__all__ = ["Calibration", "CalibrationError", "DiceDetector", "DiceReader", "ModelError", "SeenDie"]
