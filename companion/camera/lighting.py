"""Telling the table when the camera sees nothing: a covered lens, the light off, or a lamp
shining straight into it. Without this the page would only show that no dice are rolled. And
when it sees the dice but cannot tell their colours, too dark (a dim room) or in a picture with
no colour (a webcam's night mode): then the page says so rather than leaving the players to
wonder why their rolls are read in the wrong colours or asked about."""

from typing import Any

import numpy as np

from ..vision.boxes import Box
from ..vision.colour import too_dark_for_colour
from ..vision.quality import NO_COLOUR, TOO_DARK, colourless, lighting_problem

#: the camera status of a picture that is almost black or almost white
BLIND = "blind"
#: the camera status of rolls whose dice are too dark for their colours to be told
DIM = "dim"
#: the camera status of rolls seen in a picture without colour (black and white)
COLOURLESS = "colourless"
#: what to do about a picture without colour
NIGHT_MODE = "a webcam gives such pictures in its night mode: more light, or its night mode off, helps"


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

    def check(self, t: float, frame: np.ndarray) -> dict[str, Any] | None:
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


class DiceColourWatch:
    """Fed each settled roll, returns a camera record when its dice's colours cannot be told,
    because they are too dark (a dim room) or because the picture has no colour at all (a
    black-and-white camera, or a webcam gone to its night mode in a dim room), and again when a
    roll shows its colours once more. Too dark is said first: more light helps either way."""

    def __init__(self) -> None:
        self.problem: str | None = None

    def reset(self) -> None:
        """Forget what was seen (another camera record spoke since: say it again if still so)."""
        self.problem = None

    def check(self, t: float, frame: np.ndarray | None, boxes: list[Box]) -> dict[str, Any] | None:
        if frame is None or not boxes:
            return None
        problem = DIM if too_dark_for_colour(frame, boxes) else COLOURLESS if colourless(frame) else None
        if problem == self.problem:
            return None
        before, self.problem = self.problem, problem
        if problem == DIM:
            return {"t": round(t, 3), "camera": DIM, "message": f"{TOO_DARK}; check each roll's colours"}
        if problem == COLOURLESS:
            message = f"{NO_COLOUR}; {NIGHT_MODE}; check each roll's colours"
            return {"t": round(t, 3), "camera": COLOURLESS, "message": message}
        message = "the dice are light enough again" if before == DIM else "the picture has its colours again"
        return {"t": round(t, 3), "camera": "ok", "message": message}
