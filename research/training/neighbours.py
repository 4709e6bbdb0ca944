"""Other dice painted out of a die's crop: a die pressed against another has the other's pips in
its crop's margin, and what of the crop lies in another die's box (not its own) is painted the
colour of the table round it. PipNet's training paints some crops so (``--paint-neighbours``)."""

from collections.abc import Callable

import cv2
import numpy as np

from companion.vision.boxes import Box

#: a crop with fewer pixels than this in no die's box takes the table's colour from the whole frame
FEW_TABLE_PIXELS = 10


def box_mask(boxes: list[Box], origin: tuple[int, int], shape: tuple[int, int]) -> np.ndarray:
    """A mask of ``shape`` (height, width), True where any of ``boxes`` (frame pixels, corners
    taken whole) covers the part of the frame whose top-left pixel is ``origin``."""
    mask = np.zeros(shape, np.uint8)
    for x, y, w, h in boxes:
        corner = (int(x) - origin[0], int(y) - origin[1])
        far = (int(x + w) - origin[0], int(y + h) - origin[1])
        cv2.rectangle(mask, corner, far, 1, thickness=-1)
    return mask.astype(bool)


class NeighbourPainter:
    """Paints a die's crop where other dice's boxes lie; made once a frame with every die's box."""

    def __init__(self, frame: np.ndarray, boxes: list[Box]) -> None:
        self.frame = frame
        self.boxes = boxes
        self.frame_table: np.ndarray | None = None  # the table's colour over the whole frame, once needed

    def hider_for(self, own: Box) -> Callable[[np.ndarray, tuple[int, int]], np.ndarray]:
        """What ``crop_die`` calls to paint the crop of the die in ``own`` (one of the boxes)."""
        others = [box for box in self.boxes if box != own]
        return lambda part, origin: self.hide_neighbours(part, origin, own, others)

    def hide_neighbours(
        self, part: np.ndarray, origin: tuple[int, int], own: Box, others: list[Box]
    ) -> np.ndarray:
        """``part`` (a square of the frame whose top-left pixel is ``origin``) with its pixels in
        one of ``others`` and not in ``own`` painted the table's colour: the median of its
        pixels in no die's box, or of the whole frame's when it has too few."""
        in_others, in_own = box_mask(others, origin, part.shape[:2]), box_mask([own], origin, part.shape[:2])
        hidden = in_others & ~in_own
        if not hidden.any():
            return part
        table = ~(in_others | in_own)  # own is one of the painter's boxes, the others the rest
        colour = np.median(part[table], axis=0) if table.sum() > FEW_TABLE_PIXELS else self.table_colour()
        painted = part.copy()
        painted[hidden] = colour.astype(np.uint8)
        return painted

    def table_colour(self) -> np.ndarray:
        """The median colour of the frame's pixels in no die's box (worked out once)."""
        if self.frame_table is None:
            outside = ~box_mask(self.boxes, (0, 0), self.frame.shape[:2])
            pixels = self.frame[outside] if outside.any() else self.frame.reshape(-1, 3)
            self.frame_table = np.median(pixels, axis=0)
        return self.frame_table
