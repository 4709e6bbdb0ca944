"""Drawing what was read on a picture (reading and drawing are kept apart)."""

import cv2
import numpy as np

from .boxes import Box
from .die import SeenDie

INK = {
    "red": (40, 40, 230),
    "green": (60, 180, 60),
    "blue": (230, 120, 40),
    "black": (20, 20, 20),
    "white": (245, 245, 245),
    "yellow": (40, 210, 240),
    "grey": (150, 150, 150),
    "violet": (170, 60, 140),
}


#: a die this wide (pixels) gets a label of OpenCV's font scale 1: about as wide as the die
LABEL_DIE_SIDE = 110
#: the label of a die whose colour is not named (``other``)
UNNAMED = (90, 90, 90)


#: the box of a die read wrong, and of a labelled die nobody read (BGR)
WRONG = (0, 0, 255)
MISSED = (0, 215, 255)


def annotate(
    image: np.ndarray,
    dice: list[SeenDie],
    wrong: set[int] | None = None,
    missed: list[tuple[Box, int]] | None = None,
) -> np.ndarray:
    """A copy of ``image`` with each die's box and "pips colour" label (on a patch of that colour,
    in black or white, whichever shows); ``wrong`` ones (indices into ``dice``) boxed in red,
    and each ``missed`` die (a labelled box and its pips that no die read matched) in amber."""
    out = image.copy()
    frame_scale = max(0.4, min(out.shape[:2]) / 900)
    thickness = max(1, round(2 * frame_scale))
    for box, pips in missed or []:
        x, y, w, h = (int(round(v)) for v in box)
        cv2.rectangle(out, (x, y), (x + w, y + h), MISSED, thickness + 1)
        scale = max(0.4, min(frame_scale, max(w, h) / LABEL_DIE_SIDE))
        cv2.putText(
            out,
            f"missed {pips}",
            (x, min(y + h + round(14 * scale), out.shape[0] - 2)),  # under the box, inside the picture
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            MISSED,
            max(1, round(scale)),
            cv2.LINE_AA,
        )
    for index, die in enumerate(dice):
        x, y, w, h = die.box
        is_wrong = wrong is not None and index in wrong
        colour = WRONG if is_wrong else (0, 230, 0)
        cv2.rectangle(out, (x, y), (x + w, y + h), colour, thickness + is_wrong)
        # as large as the frame allows, but not much wider than the die (dice close together)
        scale = max(0.4, min(frame_scale, max(w, h) / LABEL_DIE_SIDE))
        label = f"{die.pips} {die.colour}"
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        top = max(th + 4, y - 2)
        patch = INK.get(die.colour, UNNAMED)
        cv2.rectangle(out, (x, top - th - 4), (x + tw + 4, top + 2), patch, -1)
        # outlined, so a white patch shows on a white table
        cv2.rectangle(out, (x, top - th - 4), (x + tw + 4, top + 2), colour, 1)
        cv2.putText(
            out,
            label,
            (x + 2, top - 2),
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            text_on(patch),
            max(1, round(scale)),
            cv2.LINE_AA,
        )
    return out


def text_on(patch: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black text on a light patch (BGR), white on a dark one."""
    blue, green, red = patch
    return (0, 0, 0) if 0.114 * blue + 0.587 * green + 0.299 * red > 140 else (255, 255, 255)


def jpeg(picture: np.ndarray, quality: int = 85) -> bytes | None:
    """The picture as JPEG bytes for a page to show (None if OpenCV cannot encode it)."""
    ok, data = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return data.tobytes() if ok else None
