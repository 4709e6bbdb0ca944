"""Telling the table when the calibration's table area or zones do not fit the camera's frames
(calibrated on another camera, or on photos of another shape): they are left out, and the page
says so once for each frame size rather than leaving the players to wonder why no roll is seen."""

from collections.abc import Callable
from typing import Any

import numpy as np

from ..vision.calibration import Calibration

#: the camera status of frames the calibration's table or zones do not fit
MISFIT = "calibration"


class CalibrationFitWatch:
    """Fed every frame, returns a camera record the first time a frame size, or a calibration
    in use (``calibration()``: the setup page may change it), shows that the calibration's
    table or zones do not fit the frames (``Calibration.fitted_to``), and an "ok" once a new
    calibration fits them again."""

    def __init__(self, calibration: Callable[[], Calibration]) -> None:
        self.calibration = calibration
        self.size: tuple[int, int] | None = None
        self.checked_against: Calibration | None = None
        self.misfit = False

    def reset(self) -> None:
        """Forget what was seen (the camera reconnected: its "ok" speaks for the picture now)."""
        self.size, self.checked_against, self.misfit = None, None, False

    def check(self, t: float, frame: np.ndarray) -> dict[str, Any] | None:
        size, calibration = (frame.shape[1], frame.shape[0]), self.calibration()
        if size == self.size and calibration is self.checked_against:
            return None
        self.size, self.checked_against = size, calibration
        problem = calibration.fitted_to(size).problem
        if problem is not None:
            self.misfit = True
            return {"t": round(t, 3), "camera": MISFIT, "message": problem}
        if self.misfit:
            self.misfit = False
            return {"t": round(t, 3), "camera": "ok", "message": "the calibration fits the camera's picture"}
        return None
