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


def intersection(a: Box, b: Box) -> float:
    """The area two boxes share (0 when they do not touch)."""
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def iou(a: Box, b: Box) -> float:
    """Intersection over union of two boxes (0 when they do not touch)."""
    inter = intersection(a, b)
    if inter == 0:
        return 0.0
    return inter / (a[2] * a[3] + b[2] * b[3] - inter)


def inside_share(inner: Box, outer: Box) -> float:
    """The share of box ``inner``'s area that lies inside box ``outer``."""
    return intersection(inner, outer) / max(inner[2] * inner[3], 1e-9)
