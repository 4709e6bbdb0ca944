"""Table calibration: the colours of this table's dice, the table area, and (for the camera
loop) the zones of the tray and the casinos. Stored as a small JSON file.

    {"version": 1, "frame": [1280, 720],
     "table": [x, y, w, h] | null,
     "colours": {"red": {"lab": [L, a, b], "spread": [sL, sa, sb], "dark_pips": false, "dice": 8}},
     "zones": {"tray": [x, y, w, h], "1": [...], ..., "slot": [...]}}
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..assets import TABLE_CALIBRATION
from ..words import unknown_field
from .boxes import Box
from .colour import BodyReading, read_body, white_balance_gains

VERSION = 1
#: where ``companion calibrate`` and the table setup page keep a table's calibration by default
DEFAULT_FILE = TABLE_CALIBRATION
#: the zones the camera loop knows: where dice are rolled, the six casinos and the slot casino
ZONES = ("tray", "1", "2", "3", "4", "5", "6", "slot")
Rect = tuple[int, int, int, int]


class CalibrationError(ValueError):
    """A calibration file or photo that cannot be used; the message says which and why."""


@dataclass(frozen=True)
class LearnedColour:
    lab: tuple[float, float, float]
    spread: tuple[float, float, float]
    dark_pips: bool
    dice: int

    def distance(self, reading: BodyReading) -> float:
        """How many spreads away a reading is (lightness counts half: light varies most)."""
        spread = np.maximum(np.array(self.spread), (6.0, 4.0, 4.0))
        delta = (np.array(reading.lab) - np.array(self.lab)) / spread
        delta[0] *= 0.5
        penalty = 0.0 if reading.dark_pips == self.dark_pips else 1.5
        return float(np.linalg.norm(delta)) + penalty


@dataclass
class Calibration:
    colours: dict[str, LearnedColour] = field(default_factory=dict)
    table: Rect | None = None
    zones: dict[str, Rect] = field(default_factory=dict)
    frame: tuple[int, int] | None = None

    def nearest_colour(self, reading: BodyReading, limit: float = 3.5) -> tuple[str, float] | None:
        if not self.colours:
            return None
        name, distance = min(((n, c.distance(reading)) for n, c in self.colours.items()), key=lambda x: x[1])
        if distance > limit:
            return None
        return name, float(max(0.5, 1.0 - distance / (2 * limit)))

    def on_table(self, point: tuple[float, float]) -> bool:
        return self.table is None or _inside(self.table, point)

    def zone_of(self, point: tuple[float, float]) -> str | None:
        for name, rect in self.zones.items():
            if _inside(rect, point):
                return name
        return None

    def fitted_to(self, size: tuple[int, int]) -> "Fitted":
        """This calibration for frames of ``size`` (w, h): its table and zones scaled from the
        frame they were set on when only the resolution differs, cut to the frame; a table or
        zone that misses the frame is left out, and all of them when the frame's shape differs
        (another camera, or a phone photo beside a webcam's), with what was left out and why."""
        if self.table is None and not self.zones:
            return Fitted(self)
        w, h = size
        table, zones = self.table, dict(self.zones)
        if self.frame is not None and tuple(self.frame) != (w, h):
            fw, fh = self.frame
            if abs((w / h) / (fw / fh) - 1) > SAME_SHAPE:
                return Fitted(
                    replace(self, table=None, zones={}),
                    f"the calibration's table and zones were set on {fw}×{fh} pictures and do not fit "
                    f"this {w}×{h} one: they are left out (calibrate again from this camera)",
                )
            table = _scaled(table, w / fw, h / fh) if table else None
            zones = {name: _scaled(rect, w / fw, h / fh) for name, rect in zones.items()}
        missing = [
            name for name, rect in (("table", table), *zones.items()) if rect and not cut_to(rect, size)
        ]
        fitted = replace(
            self,
            table=cut_to(table, size) if table else None,
            zones={name: cut for name, rect in zones.items() if (cut := cut_to(rect, size))},
            frame=(w, h),
        )
        if not missing:
            return Fitted(fitted)
        named = [{"table": "table area", "tray": "tray"}.get(name, f"casino {name} zone") for name in missing]
        return Fitted(
            fitted,
            f"outside this {w}×{h} picture, left out: the calibration's {', '.join(named)} "
            "(calibrate again from this camera)",
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "version": VERSION,
            "frame": list(self.frame) if self.frame else None,
            "table": list(self.table) if self.table else None,
            "colours": {
                n: {
                    "lab": [round(v, 2) for v in c.lab],
                    "spread": [round(v, 2) for v in c.spread],
                    "dark_pips": c.dark_pips,
                    "dice": c.dice,
                }
                for n, c in self.colours.items()
            },
            "zones": {n: list(r) for n, r in self.zones.items()},
        }

    @classmethod
    def from_json(cls, data: Any, source: str = "calibration") -> "Calibration":
        try:
            if data.get("version") != VERSION:
                raise CalibrationError(f"{source}: unknown calibration version {data.get('version')!r}")
            if (mistyped := mistyped_field(data, source)) is not None:
                raise CalibrationError(mistyped)
            colours = {
                str(name): LearnedColour(
                    _triple(c["lab"]),
                    _triple(c["spread"]),
                    bool(c["dark_pips"]),
                    int(c.get("dice", 0)),
                )
                for name, c in (data.get("colours") or {}).items()
            }
            table = _rect(data.get("table")) if data.get("table") else None
            zones = {str(n): _rect(r) for n, r in (data.get("zones") or {}).items()}
            frame = _size(data["frame"]) if data.get("frame") else None
        except CalibrationError:
            raise
        except (AttributeError, KeyError, TypeError, ValueError) as err:
            raise CalibrationError(f"{source} is not a valid calibration file ({err})") from None
        return cls(colours, table, zones, frame)

    def save(self, path: Path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=2))
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> "Calibration":
        try:
            data = json.loads(Path(path).read_text())
        except OSError as err:
            raise CalibrationError(f"cannot read the calibration {path}: {err.strerror}") from None
        except json.JSONDecodeError as err:
            raise CalibrationError(f"{path} is not JSON ({err.msg} at line {err.lineno})") from None
        return cls.from_json(data, str(path))


#: the fields of a calibration file and of each colour in it
CALIBRATION_FIELDS = ("version", "frame", "table", "colours", "zones")
COLOUR_FIELDS = ("lab", "spread", "dark_pips", "dice")


def mistyped_field(data: dict[str, Any], source: str) -> str | None:
    """What is wrong with a calibration file (a hand-edited one) holding a field it does not
    take: a "zone" for "zones" would otherwise be passed over, and the camera would read
    without its zones. None when every field is known."""
    if (problem := unknown_field(data, CALIBRATION_FIELDS, source)) is not None:
        return problem
    for name, colour in (data.get("colours") or {}).items():
        if isinstance(colour, dict) and (
            problem := unknown_field(colour, COLOUR_FIELDS, f"{source}, colour {name}")
        ):
            return problem
    return None


#: frames whose width-to-height ratios differ by at most this share are one camera's at another
#: resolution: a calibration's table and zones are scaled to them
SAME_SHAPE = 0.02


@dataclass(frozen=True)
class Fitted:
    """A calibration fitted to one frame size, and what did not fit (None: all of it did)."""

    calibration: Calibration
    problem: str | None = None


def _scaled(rect: Rect, sx: float, sy: float) -> Rect:
    x, y, w, h = rect
    return round(x * sx), round(y * sy), max(1, round(w * sx)), max(1, round(h * sy))


def cut_to(rect: Rect, size: tuple[int, int]) -> Rect | None:
    """The part of ``rect`` inside a frame of ``size``, or None when it misses the frame."""
    x, y, w, h = rect
    x0, y0, x1, y1 = max(0, x), max(0, y), min(size[0], x + w), min(size[1], y + h)
    return (x0, y0, x1 - x0, y1 - y0) if x1 > x0 and y1 > y0 else None


def body_readings(frame: np.ndarray, boxes: Sequence[Box]) -> list[BodyReading]:
    """The bodies of the dice in ``boxes`` (one colour's dice), white-balanced by those dice alone,
    as a calibration photo of one player's dice is read."""
    gains = white_balance_gains(frame, boxes)
    return [r for r in (read_body(frame, box, gains) for box in boxes) if r is not None]


def learn_colour(readings: list[BodyReading]) -> LearnedColour:
    labs = np.array([r.lab for r in readings], np.float32)
    dark = sum(r.dark_pips for r in readings) * 2 >= len(readings)
    return LearnedColour(
        _triple(np.median(labs, axis=0)),
        _triple(labs.std(axis=0)),
        bool(dark),
        len(readings),
    )


def parse_rect(text: str) -> Rect:
    """'x,y,w,h' → a rectangle; CalibrationError with the text when it is not one."""
    try:
        return _rect([int(v) for v in text.split(",")])
    except ValueError:
        raise CalibrationError(f"a rectangle is x,y,w,h in pixels, got {text!r}") from None


def _triple(values: Any) -> tuple[float, float, float]:
    """Three numbers (a colour in Lab, or its spread); ValueError when there are not three."""
    a, b, c = (float(v) for v in values)
    return a, b, c


def _size(values: Any) -> tuple[int, int]:
    """A frame's width and height; ValueError when there are not two."""
    width, height = (int(v) for v in values)
    return width, height


def _rect(values: Any) -> Rect:
    x, y, w, h = (int(v) for v in values)
    if w <= 0 or h <= 0:
        raise CalibrationError(f"a rectangle needs a positive width and height, got {values!r}")
    return x, y, w, h


def _inside(rect: Rect, point: tuple[float, float]) -> bool:
    x, y, w, h = rect
    return x <= point[0] < x + w and y <= point[1] < y + h
