"""The table setup behind the calibration page: the camera's newest frame, and changes to the
calibration the camera loop reads with (its table area and zones, and each player's colour
learned from the dice on the table now), kept in a file and used at once.

The same calibration ``companion calibrate`` writes from photos; here the camera's own frame is
the photo, so the areas are given in its pixels."""

import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from ..vision import DiceReader
from ..vision.annotate import jpeg
from ..vision.boxes import centre
from ..vision.calibration import ZONES, Calibration, Fitted, body_readings, cut_to, learn_colour
from ..vision.calibration_checks import alike_colours, alike_warning, photo_warnings
from ..vision.colour_names import ColourNameError, reader_colour

#: the areas a calibration holds: the table, where rolls are read (tray), the casinos
AREAS = ("table", *ZONES)


class SetupError(ValueError):
    """A setup request that cannot be carried out; the message says why and what to do."""


class TableSetup:
    """Shared by the camera loop (``see`` each frame) and the page (read, change, save)."""

    def __init__(self, reader: DiceReader, path: Path, camera: str) -> None:
        self.reader, self.path, self.camera = reader, Path(path), camera
        self._frame: np.ndarray | None = None
        self._lock = threading.Lock()
        #: what each learned colour was learned from, for the player's warnings
        self._learned_at: dict[str, list[str]] = {}

    def see(self, frame: np.ndarray) -> None:
        """The camera loop's newest frame (kept by reference: the loop never writes into it)."""
        self._frame = frame

    def frame(self) -> np.ndarray:
        frame = self._frame
        if frame is None:
            raise SetupError(
                f"{self.camera} has given no picture yet: check the cable and the lens, then retry"
            )
        return frame

    def jpeg(self) -> bytes:
        data = jpeg(self.frame())
        if data is None:
            raise SetupError("the camera's picture could not be encoded")
        return data

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
                raise SetupError(f"no area {name!r}: the areas are {', '.join(AREAS)}")
            if value is None:
                continue
            rect = area(name, value)
            if cut_to(rect, size) is None:
                raise SetupError(f"{name} {list(rect)} lies outside the camera's {size[0]}×{size[1]} picture")
            rects[name] = rect
        with self._lock:
            calibration = self._on_this_camera(size)
            self._save(replace(calibration, table=rects.pop("table", None), zones=rects, frame=size))
        return self.state()

    def learn(self, colour: str) -> dict[str, Any]:
        """Learn ``colour`` from the dice in the tray now (on the table when no tray is set; only
        that colour's dice should lie there), save, and say what looks wrong with it."""
        if not colour.strip() or len(colour) > 20:
            raise SetupError("name the colour of the dice in the tray (red, blue, …)")
        try:
            colour, note = reader_colour(colour)
        except ColourNameError as err:
            raise SetupError(str(err)) from None
        frame = self.frame()
        size = (frame.shape[1], frame.shape[0])
        with self._lock:
            calibration = self._on_this_camera(size)
            tray = "tray" in calibration.zones
            boxes = [found.box for found in self.reader.find(frame)]
            if tray:  # mid-game, dice lie on the casinos too: the tray's are the player's, as in a roll
                boxes = [box for box in boxes if calibration.zone_of(centre(box)) == "tray"]
            readings = body_readings(frame, boxes)
            if not readings:
                where = "in the tray" if tray else "on the table"
                raise SetupError(f"no dice seen {where}: put that colour's dice there, well lit, and retry")
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
            raise SetupError(f"cannot write {self.path}: {err.strerror}; nothing changed") from None
        self.reader.calibration = calibration


def area(name: str, value: Any) -> tuple[int, int, int, int]:
    """``value`` as a rectangle [x, y, w, h] of whole pixels, or a SetupError naming ``name``."""
    try:
        x, y, w, h = (round(float(v)) for v in value)
    except (TypeError, ValueError):
        raise SetupError(f"{name}: an area is [x, y, w, h] in pixels, got {value!r}") from None
    if w <= 0 or h <= 0:
        raise SetupError(f"{name}: an area needs a width and a height, got {value!r}")
    return x, y, w, h
