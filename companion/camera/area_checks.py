"""Areas drawn on the camera's picture that cannot be right: too small to hold a die, a casino
or tray outside the table, a casino over the tray or over another casino. Pure: rectangles in,
the first problem found out, with its words for the player and the values they name."""

from dataclasses import dataclass, field
from typing import Any

Rect = tuple[int, int, int, int]

#: an area's shorter side must be at least this share of the picture's shorter side: a die seen
#: from a webcam above a table is 30–60 px of a 480 px picture, so under 4 % holds no die
LEAST_SIDE = 0.04
#: a tray or casino must lie this share inside the table area: dice outside it are never read
LEAST_INSIDE_TABLE = 0.8
#: two areas may share this share of the smaller one's surface (a sloppy edge), no more: a die
#: there would be both a roll and a placement, or on two casinos
MOST_SHARED = 0.2


@dataclass(frozen=True)
class AreaProblem:
    """Why an area cannot be right: the player's words, a stable code and the values they name."""

    message: str
    code: str
    values: dict[str, Any] = field(default_factory=dict)


def label(name: str) -> str:
    """The area as a player calls it: the table area, the tray, casino 4, the slot."""
    return {"table": "the table area", "tray": "the tray", "slot": "the slot"}.get(name, f"casino {name}")


def surface(rect: Rect) -> int:
    return max(0, rect[2]) * max(0, rect[3])


def shared(a: Rect, b: Rect) -> int:
    """The surface two rectangles share."""
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(0, w) * max(0, h)


def area_problem(rects: dict[str, Rect], size: tuple[int, int]) -> AreaProblem | None:
    """The first thing wrong with the areas ``rects`` ({name: (x, y, w, h)}) drawn on a picture of
    ``size`` (w, h), or None."""
    least = max(8, round(LEAST_SIDE * min(size)))
    for name, (_, _, w, h) in rects.items():
        if min(w, h) < least:
            return AreaProblem(
                f"{label(name)} is {w}×{h} pixels, too small to hold a die (at least {least}×{least}): "
                "drag across all of it",
                "area_too_small",
                {"area": name, "width": w, "height": h, "least": least},
            )
    table = rects.get("table")
    zones = {name: rect for name, rect in rects.items() if name != "table"}
    if table is not None:
        for name, rect in zones.items():
            inside = shared(rect, table) / surface(rect)
            if inside < LEAST_INSIDE_TABLE:
                return AreaProblem(
                    f"{label(name)} lies {round(100 * (1 - inside))} % outside the table area, where "
                    "dice are never read: draw it inside the table area, or the table area larger",
                    "area_outside_table",
                    {"area": name, "outside": round(100 * (1 - inside))},
                )
    names = list(zones)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            common = shared(zones[first], zones[second])
            if common > MOST_SHARED * min(surface(zones[first]), surface(zones[second])):
                under = "tray" if "tray" in (first, second) else first
                over = second if under == first else first
                return AreaProblem(
                    f"{label(over)} lies over {label(under)}: a die there would count in both; "
                    "draw them apart",
                    "area_overlap",
                    {"area": over, "other": under},
                )
    return None
