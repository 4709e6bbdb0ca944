"""Boxes in pixels as (x, y, w, h): their centre, containment and overlap."""

Box = tuple[float, float, float, float]


def centre(box: Box) -> tuple[float, float]:
    x, y, w, h = box
    return x + w / 2, y + h / 2


def contains(box: Box, point: tuple[float, float]) -> bool:
    x, y, w, h = box
    return x <= point[0] <= x + w and y <= point[1] <= y + h


def centres_inside(a: Box, b: Box) -> bool:
    """Each box's centre lies inside the other: the same die whatever part of it was boxed."""
    return contains(a, centre(b)) and contains(b, centre(a))


def iou(a: Box, b: Box) -> float:
    """Intersection over union of two boxes (0 when they do not touch)."""
    ax0, ay0, aw, ah = a
    bx0, by0, bw, bh = b
    w = min(ax0 + aw, bx0 + bw) - max(ax0, bx0)
    h = min(ay0 + ah, by0 + bh) - max(ay0, by0)
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    return inter / (aw * ah + bw * bh - inter)
