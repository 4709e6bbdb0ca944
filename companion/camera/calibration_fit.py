"""Telling the table when the calibration's table area or zones do not fit the camera's frames
(calibrated on another camera, or on photos of another shape): they are left out, and the page
says so once for each frame size rather than leaving the players to wonder why no roll is seen."""

from typing import Any

import numpy as np

from ..vision.calibration import Calibration

#: the camera status of frames the calibration's table or zones do not fit
MISFIT = "calibration"


class CalibrationFitWatch:
    """Fed every frame, returns a camera record the first time a frame size shows that the
    calibration's table or zones do not fit it (``Calibration.fitted_to``)."""

    def __init__(self, calibration: Calibration) -> None:
        self.calibration = calibration
        self.size: tuple[int, int] | None = None

    def reset(self) -> None:
        """Forget the frame size (the camera reconnected: its "ok" speaks for the picture now)."""
        self.size = None

    def look(self, t: float, frame: np.ndarray) -> dict[str, Any] | None:
        size = (frame.shape[1], frame.shape[0])
        if size == self.size:
            return None
        self.size = size
        problem = self.calibration.fitted_to(size).problem
        return None if problem is None else {"t": round(t, 3), "camera": MISFIT, "message": problem}
