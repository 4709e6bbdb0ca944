"""Telling the table when the camera sees nothing: a covered lens, the light off, or a lamp
shining straight into it. Without this the page would only show that no dice are rolled. And
when it sees the dice, but too dark to tell their colours (a dim room): then the page says so
rather than leaving the players to wonder why their rolls are read in the wrong colours."""

from typing import Any

import numpy as np

from ..vision.boxes import Box
from ..vision.colour import too_dark_for_colour
from ..vision.quality import TOO_DARK, lighting_problem

#: the camera status of a picture that is almost black or almost white
BLIND = "blind"
#: the camera status of rolls whose dice are too dark for their colours to be told
DIM = "dim"


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


class DarkDiceWatch:
    """Fed each settled roll, returns a camera record when its dice are too dark for their
    colours to be told, and again when a roll is light enough once more."""

    def __init__(self) -> None:
        self.dark = False

    def reset(self) -> None:
        """Forget what was seen (another camera record spoke since: say it again if still dark)."""
        self.dark = False

    def look(self, t: float, frame: np.ndarray | None, boxes: list[Box]) -> dict[str, Any] | None:
        if frame is None or not boxes:
            return None
        dark = too_dark_for_colour(frame, boxes)
        if dark == self.dark:
            return None
        self.dark = dark
        if dark:
            return {"t": round(t, 3), "camera": DIM, "message": f"{TOO_DARK}; check each roll's colours"}
        return {"t": round(t, 3), "camera": "ok", "message": "the dice are light enough again"}
