"""Telling the table when the camera sees nothing: a covered lens, the light off, or a lamp
shining straight into it. Without this the page would only show that no dice are rolled."""

from typing import Any

import numpy as np

from ..vision.quality import lighting_problem

#: the camera status of a picture that is almost black or almost white
BLIND = "blind"


class LightingWatch:
    """Fed every frame, looks at one every ``every`` seconds and returns a camera record when
    the picture goes black or white, and again when it is fine once more."""

    def __init__(self, every: float = 1.0) -> None:
        self.every = every
        self.problem: str | None = None
        self._next = float("-inf")

    def reset(self) -> None:
        """Forget what was seen (the camera reconnected: its "ok" speaks for a new picture)."""
        self.problem, self._next = None, float("-inf")

    def look(self, t: float, frame: np.ndarray) -> dict[str, Any] | None:
        if t < self._next:
            return None
        self._next = t + self.every
        problem = lighting_problem(frame)
        if problem == self.problem:
            return None
        had_problem, self.problem = self.problem is not None, problem
        if problem is not None:
            message = f"{problem} — enter rolls by hand meanwhile"
            return {"t": round(t, 3), "camera": BLIND, "message": message}
        if had_problem:
            return {"t": round(t, 3), "camera": "ok", "message": "the camera sees the table again"}
        return None
