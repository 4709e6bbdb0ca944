"""Dark frames: a table whose cloth is dark (granite-like stone, black felt) under a dim lamp.

The detector passes by some black dice on such a table (one in ten to twenty on a rendered
dark speckled cloth, one in a hundred elsewhere); on a brightened copy of the frame it finds some
of them. The camera looks at one only when a roll still reads short of the dice rolled
(``camera.watcher``), so no other reading changes."""

import cv2
import numpy as np

from .quality import every_few_pixels

#: a frame whose median luma (0–255) is under this is dark
DARK_FRAME_BELOW = 100
#: the gamma a dark frame is brightened with (of 0.7, 0.5 and 0.4, the one that found most black
#: dice on rendered dark-cloth tables)
BRIGHTEN_GAMMA = 0.5
_BRIGHTENING = np.array([round(255 * (value / 255) ** BRIGHTEN_GAMMA) for value in range(256)], np.uint8)


def is_dark(frame: np.ndarray) -> bool:
    """Whether a BGR frame is dark: its median luma, on a sparse copy (``every_few_pixels``), is
    under ``DARK_FRAME_BELOW``."""
    grey = cv2.cvtColor(every_few_pixels(frame), cv2.COLOR_BGR2GRAY)
    return float(np.median(grey)) < DARK_FRAME_BELOW


def brightened(frame: np.ndarray) -> np.ndarray:
    """A copy of a BGR frame with its dark tones lifted (gamma ``BRIGHTEN_GAMMA``), its white kept."""
    return cv2.LUT(frame, _BRIGHTENING)
