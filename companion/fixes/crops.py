"""The crop of a die kept with its fix: a square of the camera's full-resolution picture round
the die, with room around it, so that a crop can be cut again later in whatever way the next
model reads dice."""

import cv2
import numpy as np

from .store import DieCrop

#: the crop's side in the die box's longer sides: PipNet's own crop is 1.25 (``vision.pips``), a
#: die's neighbours and the top face's shift toward the picture's edge need more
CONTEXT = 2.0
#: JPEG quality of a kept crop: a 100-pixel crop is about 6 KB at 95
QUALITY = 95


def die_crop(frame: np.ndarray, box: tuple[int, int, int, int], context: float = CONTEXT) -> DieCrop | None:
    """The square of ``frame`` centred on ``box`` (x, y, w, h) ``context`` times the box's longer
    side, moved (never padded) to lie inside the frame, and the box inside it; None when the box
    lies outside the frame or OpenCV cannot encode the crop."""
    height, width = frame.shape[:2]
    x, y, w, h = box
    side = min(int(round(max(w, h, 1) * context)), width, height)
    left = min(max(int(round(x + w / 2 - side / 2)), 0), width - side)
    top = min(max(int(round(y + h / 2 - side / 2)), 0), height - side)
    inside = (x - left, y - top, w, h)
    if inside[0] + w <= 0 or inside[1] + h <= 0 or inside[0] >= side or inside[1] >= side:
        return None
    ok, data = cv2.imencode(
        ".jpg", frame[top : top + side, left : left + side], [cv2.IMWRITE_JPEG_QUALITY, QUALITY]
    )
    return DieCrop(data.tobytes(), inside, (side, side)) if ok else None


def picture_boxes(frame_size: tuple[int, int], boxes: list[tuple[int, int, int, int]]) -> list[list[float]]:
    """Each box (x, y, w, h in pixels) as fractions of the picture's width and height: where a
    page draws a die's ring over the picture at whatever size it shows it."""
    width, height = frame_size
    return [
        [round(x / width, 4), round(y / height, 4), round(w / width, 4), round(h / height, 4)]
        for x, y, w, h in boxes
    ]
