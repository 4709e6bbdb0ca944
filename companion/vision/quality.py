"""Whether a picture can be read at all, and what is wrong with one that shows no dice.

A player who points the camera at the table with the lens covered, or takes a photo against a
lamp, should be told so, not just "0 dice"; and one whose picture has no colour (a black-and-white
photo, a webcam's night mode) that the dice's colours cannot be told from it."""

import cv2
import numpy as np

#: the smallest picture side the reader takes (a die needs some pixels to show its pips)
MIN_FRAME_SIDE = 16
#: the brightest hundredth of a picture below this (0–255) is a picture of nothing: it is black
DARK_BELOW = 40
#: the darkest hundredth above this is washed out: white all over
WASHED_OUT_ABOVE = 235
#: a picture whose channels differ by at most this (0–255) nearly everywhere has no colour: a
#: colour sensor's noise alone parts them further, even on grey felt under neutral light
COLOURLESS_SPREAD = 1
#: the share of pixels that may part further in a picture without colour (JPEG rounding)
COLOURLESS_EXCEPT = 0.001
NO_COLOUR = "the picture has no colour (black and white): the dice's colours cannot be told"
#: said of a picture whose dice were found but are too dark to name their colours surely
#: (``colour.too_dark_for_colour``): a dim room, a die in a deep shadow
TOO_DARK = "the dice are too dark for their colours to be told for sure: more light on the table helps"


def unreadable(frame: np.ndarray | None) -> str | None:
    """Why the reader cannot take this frame (None: it can)."""
    if frame is None or frame.ndim != 3 or frame.shape[2] != 3:
        return "a frame must be a colour image (height × width × 3)"
    height, width = frame.shape[:2]
    if min(height, width) < MIN_FRAME_SIDE:
        return (
            f"the picture is {width}×{height} pixels; a die needs at least {MIN_FRAME_SIDE}×{MIN_FRAME_SIDE}"
        )
    return None


def lighting_problem(frame: np.ndarray) -> str | None:
    """What is wrong with the light of a frame that is almost black or almost white (None: fine)."""
    height, width = frame.shape[:2]
    scale = min(1.0, 160 / max(height, width))
    small = cv2.resize(
        frame, (max(1, round(width * scale)), max(1, round(height * scale))), interpolation=cv2.INTER_AREA
    )
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    if np.percentile(grey, 99) < DARK_BELOW:
        return "the picture is almost black: is the lens covered, or the light off?"
    if np.percentile(grey, 1) > WASHED_OUT_ABOVE:
        return "the picture is almost white: the camera is dazzled by a lamp or the sun"
    return None


def every_few_pixels(frame: np.ndarray) -> np.ndarray:
    """A frame's every Nth pixel in each direction, N its longest side over 160 (at least 1): a
    copy under 320 px on its longest side, enough to judge the whole picture, made without
    averaging (a die's pixels keep their colour)."""
    height, width = frame.shape[:2]
    step = max(1, max(height, width) // 160)
    return np.ascontiguousarray(frame[::step, ::step])


def colourless(frame: np.ndarray) -> bool:
    """Whether a BGR frame is grey all over (saved black and white, or a night mode): its three
    channels are the same but for rounding."""
    blue, green, red = cv2.split(every_few_pixels(frame))
    spread = cv2.max(cv2.max(cv2.absdiff(blue, green), cv2.absdiff(green, red)), cv2.absdiff(blue, red))
    parted = cv2.countNonZero(cv2.threshold(spread, COLOURLESS_SPREAD, 255, cv2.THRESH_BINARY)[1])
    return parted <= COLOURLESS_EXCEPT * spread.size
