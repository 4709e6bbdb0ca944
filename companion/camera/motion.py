"""Motion per frame (empty / moving / still) and the moment to read: once the dice have been
still for a short while, then not again until something moves.

Works on small blurred copies, so it costs well under a millisecond per frame.
"""

from dataclasses import dataclass
from enum import StrEnum

import cv2
import numpy as np

WORK_WIDTH = 160


class Motion(StrEnum):
    EMPTY = "empty"  # looks like the bare table
    MOVING = "moving"  # something changes: dice rolling, a hand
    STILL = "still"  # nothing changes, and something is there


@dataclass(frozen=True)
class MotionSettings:
    #: share of pixels that must change between frames to count as motion
    moving_share: float = 0.001
    #: grey-level change that counts a pixel as changed (above camera noise)
    pixel_delta: int = 18
    #: seconds of stillness before the dice count as settled
    settle_seconds: float = 0.4
    #: share of pixels that must differ from the bare table for it to be not empty
    present_share: float = 0.002


def small_view(frame: np.ndarray, region: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """A small blurred colour copy of the frame (or of ``region``). Colour, not grey: a hand
    over grey felt can have the felt's brightness but never its colour."""
    if region is not None:
        x, y, w, h = region
        frame = frame[max(0, y) : y + h, max(0, x) : x + w]
    h, w = frame.shape[:2]
    scale = WORK_WIDTH / max(w, 1)
    small = cv2.resize(frame, (WORK_WIDTH, max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (5, 5), 0)


class MotionTracker:
    """Feed frames with their time; ``update`` says the motion state and whether to read now.

    A read is asked for exactly once per settling: after ``settle_seconds`` of stillness with
    something on the table. Then it is locked until motion starts again."""

    def __init__(
        self, settings: MotionSettings | None = None, region: tuple[int, int, int, int] | None = None
    ) -> None:
        self.settings = settings or MotionSettings()
        self.region = region
        self.previous: np.ndarray | None = None
        self.empty_table: np.ndarray | None = None
        self.still_since: float | None = None
        self.locked = False
        self.state = Motion.EMPTY

    def changed_share(self, a: np.ndarray, b: np.ndarray) -> float:
        if a.shape != b.shape:
            return 1.0
        difference = cv2.absdiff(a, b)
        if difference.ndim == 3:
            difference = difference.max(axis=2)
        return float((difference > self.settings.pixel_delta).mean())

    def update(self, frame: np.ndarray, t: float) -> tuple[Motion, bool]:
        view = small_view(frame, self.region)
        moving = self.previous is None or self.changed_share(view, self.previous) > self.settings.moving_share
        self.previous = view
        if moving:
            self.state, self.still_since, self.locked = Motion.MOVING, None, False
            return self.state, False
        if self.still_since is None:
            self.still_since = t
        empty_table = self.empty_table
        if empty_table is not None and self.changed_share(view, empty_table) <= self.settings.present_share:
            self.state = Motion.EMPTY
            self.empty_table = cv2.addWeighted(empty_table, 0.9, view, 0.1, 0)  # follow slow light
            return self.state, False
        self.state = Motion.STILL
        if not self.locked and t - self.still_since >= self.settings.settle_seconds:
            self.locked = True
            return self.state, True
        return self.state, False

    def mark_empty(self) -> None:
        """The reader found no dice in the current still view: remember it as the bare table."""
        self.empty_table = self.previous
        self.state = Motion.EMPTY
