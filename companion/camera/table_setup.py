"""The table setup behind the calibration page: the camera's newest frame, and changes to the
calibration the camera loop reads with (its table area and zones, and each player's colour
learned from the dice on the table now), kept in a file and used at once.

The same calibration ``companion calibrate`` writes from photos; here the camera's own frame is
the photo, so the areas are given in its pixels."""

import threading
from collections import OrderedDict
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from ..rules import Refusal
from ..vision import DiceReader
from ..vision.annotate import jpeg
from ..vision.boxes import centre
from ..vision.calibration import ZONES, Calibration, Fitted, body_readings, cut_to, learn_colour
from ..vision.calibration_checks import (
    MIXED_APART,
    alike_colours,
    alike_warning,
    palette_name,
    parting,
    photo_warnings,
)
from ..vision.colour_names import ColourNameError, reader_colour
from .area_checks import area_problem

#: the areas a calibration holds: the table, where rolls are read (tray), the casinos
AREAS = ("table", *ZONES)


#: the pictures last shown on setup pages, kept to learn from the one a player looks at: a page
#: asks for a new one every 3 s, so 6 outlast a slow tap on two tablets at once
PICTURES_KEPT = 6


class SetupError(Refusal, ValueError):
    """A setup request that cannot be carried out; the message says why and what to do, ``code``
    names the problem for the page's translations and ``values`` what its words name."""

    code = "setup_refused"

    def __init__(self, message: str, code: str | None = None, values: dict[str, str | int] | None = None):
        super().__init__(message, code, **(values or {}))


class TableSetup:
    """Shared by the camera loop (``see`` each frame) and the page (read, change, save)."""

    def __init__(self, reader: DiceReader, path: Path, camera: str) -> None:
        self.reader, self.path, self.camera = reader, Path(path), camera
        self._frame: np.ndarray | None = None
        self._lock = threading.Lock()
        self._shown: OrderedDict[int, np.ndarray] = OrderedDict()  # pictures given out, by number
        self._next_picture = 1
        #: what each learned colour was learned from, for the player's warnings
        self._learned_at: dict[str, list[str]] = {}

    def see(self, frame: np.ndarray) -> None:
        """The camera loop's newest frame (kept by reference: the loop never writes into it)."""
        self._frame = frame

    def frame(self) -> np.ndarray:
        frame = self._frame
        if frame is None:
            raise SetupError(
                f"{self.camera} has given no picture yet: check the cable and the lens, then retry",
                "no_picture",
                {"camera": self.camera},
            )
        return frame

    def picture(self) -> tuple[int, bytes]:
        """The camera's newest frame as a JPEG for a page to show, and its number: learning a
        colour by that number learns from what the player saw."""
        frame = self.frame()
        data = jpeg(frame)
        if data is None:
            raise SetupError("the camera's picture could not be encoded", "picture_unencodable")
        with self._lock:
            number, self._next_picture = self._next_picture, self._next_picture + 1
            self._shown[number] = frame
            while len(self._shown) > PICTURES_KEPT:
                self._shown.popitem(last=False)
        return number, data

    def jpeg(self) -> bytes:
        return self.picture()[1]

    def shown(self, number: int | None) -> np.ndarray:
        """The picture a page was given as ``number`` (None: the newest frame)."""
        if number is None:
            return self.frame()
        with self._lock:
            frame = self._shown.get(number)
        if frame is None:
            raise SetupError(
                "the picture on screen is too old to learn from: take a new picture, then learn again",
                "picture_gone",
            )
        return frame

    def state(self) -> dict[str, Any]:
        """What the page shows: the areas in the pixels of the camera's picture (scaled from the
        frame they were set on, or left out with the ``problem`` when they do not fit it)."""
        frame = self._frame
        size = (frame.shape[1], frame.shape[0]) if frame is not None else None
        fitted = self.reader.calibration.fitted_to(size) if size else Fitted(self.reader.calibration)
        areas = fitted.calibration
        return {
            "camera": self.camera,
            "file": str(self.path),
            "frame": list(size) if size else None,
            "problem": fitted.problem,
            "table": list(areas.table) if areas.table else None,
            "zones": {name: list(rect) for name, rect in areas.zones.items()},
            "colours": sorted(areas.colours),
        }

    def set_areas(self, areas: dict[str, Any]) -> dict[str, Any]:
        """Replace the table area and zones with ``areas`` ({name: [x, y, w, h] or null}, in the
        pixels of the camera's frame), save, and use them from the next frame on."""
        frame = self.frame()
        size = (frame.shape[1], frame.shape[0])
        rects: dict[str, tuple[int, int, int, int]] = {}
        for name, value in areas.items():
            if name not in AREAS:
                raise SetupError(
                    f"no area {name!r}: the areas are {', '.join(AREAS)}", "area_unknown", {"area": name}
                )
            if value is None:
                continue
            rect = area(name, value)
            if cut_to(rect, size) is None:
                raise SetupError(
                    f"{name} {list(rect)} lies outside the camera's {size[0]}×{size[1]} picture",
                    "area_outside_picture",
                    {"area": name, "width": size[0], "height": size[1]},
                )
            rects[name] = rect
        if (problem := area_problem(rects, size)) is not None:
            raise SetupError(problem.message, problem.code, problem.values)
        with self._lock:
            calibration = self._on_this_camera(size)
            self._save(replace(calibration, table=rects.pop("table", None), zones=rects, frame=size))
        return self.state()

    def learn(self, colour: str, picture: int | None = None) -> dict[str, Any]:
        """Learn ``colour`` from the dice in the tray (on the table when no tray is set; only that
        colour's dice should lie there) of the picture a page showed as ``picture`` (None: the
        newest frame), save, and say what looks wrong with it. Dice of two colours are refused:
        learned together they would teach a colour between the two."""
        if not colour.strip() or len(colour) > 20:
            raise SetupError("name the colour of the dice in the tray (red, blue, …)", "colour_unnamed")
        try:
            colour, note = reader_colour(colour)
        except ColourNameError as err:
            raise SetupError(str(err), "colour_unknown", {"colour": colour}) from None
        frame = self.shown(picture)
        size = (frame.shape[1], frame.shape[0])
        with self._lock:
            calibration = self._on_this_camera(size)
            tray = "tray" in calibration.zones
            boxes = [found.box for found in self.reader.find(frame)]
            if tray:  # mid-game, dice lie on the casinos too: the tray's are the player's, as in a roll
                boxes = [box for box in boxes if calibration.zone_of(centre(box)) == "tray"]
            readings = body_readings(frame, boxes)
            if not readings:
                place = "in the tray" if tray else "on the table"
                raise SetupError(
                    f"no dice seen {place}: put the {colour} dice there, well lit, and retry",
                    "no_dice_seen_tray" if tray else "no_dice_seen_table",
                    {"colour": colour},
                )
            mixed(colour, readings)
            learned = learn_colour(readings)
            colours = {**calibration.colours, colour: learned}
            self._learned_at[colour] = seen_as = ["the camera's picture"]
            self._save(replace(calibration, colours=colours, frame=size))
            warnings = photo_warnings(colour, readings, learned, seen_as)
            where = {name: self._learned_at.get(name, [str(self.path)]) for name in colours}
            warnings += [alike_warning(a, b, where) for a, b in alike_colours(colours) if colour in (a, b)]
        learned_now = {
            "colour": colour,
            "dice": len(readings),
            "boxes": [list(box) for box in boxes],
            "frame": list(size),
            "note": note.strip(" ()"),
            "warnings": warnings,
        }
        return {**self.state(), "learned": learned_now}

    def _on_this_camera(self, size: tuple[int, int]) -> Calibration:
        """The calibration with its areas in the pixels of this camera's frames (scaled, or left
        out when they do not fit)."""
        return self.reader.calibration.fitted_to(size).calibration

    def _save(self, calibration: Calibration) -> None:
        try:
            calibration.save(self.path)
        except OSError as err:
            raise SetupError(
                f"cannot write {self.path}: {err.strerror}; nothing changed",
                "setup_unwritable",
                {"file": str(self.path), "why": err.strerror or str(err)},
            ) from None
        self.reader.calibration = calibration


def mixed(colour: str, readings: list) -> None:
    """A SetupError when the dice ``readings`` were taken from are of two colours (their bodies
    part by ``MIXED_APART`` or more), naming how many look which."""
    split = parting(readings)
    if split.apart < MIXED_APART:
        return
    rest = [i for i in range(len(readings)) if i not in split.fewer]
    groups = sorted(
        ((len(part), palette_name([readings[i] for i in part])) for part in (split.fewer, rest)),
        key=lambda group: -group[0],
    )
    (many, many_look), (few, few_look) = groups
    looks = f"{many} look {many_look}, {few} {few_look}" if many_look != few_look else f"{few} stand apart"
    raise SetupError(
        f"the dice are not all one colour ({looks}): leave only the {colour} dice there and learn "
        "again; nothing was learned",
        "dice_mixed",
        {"colour": colour, "many": many, "many_look": many_look, "few": few, "few_look": few_look},
    )


def area(name: str, value: Any) -> tuple[int, int, int, int]:
    """``value`` as a rectangle [x, y, w, h] of whole pixels, or a SetupError naming ``name``."""
    try:
        x, y, w, h = (round(float(v)) for v in value)
    except (TypeError, ValueError):
        raise SetupError(
            f"{name}: an area is [x, y, w, h] in pixels, got {value!r}", "area_malformed", {"area": name}
        ) from None
    if w <= 0 or h <= 0:
        raise SetupError(
            f"{name}: an area needs a width and a height, got {value!r}", "area_malformed", {"area": name}
        )
    return x, y, w, h
