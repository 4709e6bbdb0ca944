"""Running the watcher on a source: every frame of a recording (deterministic), or the newest
frame of a live camera (never falling behind), with camera events reported as they happen."""

import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ..vision import DiceReader
from .calibration_fit import CalibrationFitWatch
from .grabber import CameraEvent, LatestFrameGrabber
from .lighting import DiceColourWatch, LightingWatch
from .motion import MotionTracker
from .sources import FrameSource, open_source, paced
from .watcher import RollWatcher, Settled


def watcher_for(reader: DiceReader, rolled: Callable[[], int | None] = lambda: None) -> RollWatcher:
    """The watcher reading with ``reader``; ``rolled``: how many dice the roller rolls now (None: unknown)."""
    return RollWatcher(reader.read, MotionTracker(), lambda: reader.calibration, rolled=rolled)


def roll_record(seen: Settled) -> dict[str, Any]:
    """A roll as ``watch`` prints it; a better look at a roll already printed names its t."""
    record: dict[str, Any] = {"t": round(seen.t, 3), "dice": [d.to_json() for d in seen.dice]}
    if seen.replaces is not None:
        record["replaces"] = round(seen.replaces, 3)
    return record


def event_record(event: CameraEvent, t: float) -> dict[str, Any]:
    return {"t": round(t, 3), "camera": event.kind, "message": event.message}


def watch_source(
    reader: DiceReader,
    emit: Callable[[dict], None],
    camera: int | None = None,
    source: str | None = None,
    realtime: bool = False,
    on_settled: Callable[[Settled], None] | None = None,
    stop: Callable[[], bool] = lambda: False,
    on_frame: Callable[[np.ndarray], None] | None = None,
    rolled: Callable[[], int | None] = lambda: None,
    read_again: threading.Event | None = None,
) -> None:
    """Watch until the recording ends (or ``stop()`` says so, for a live camera).

    Each settled reading goes to ``on_settled``; those with new dice in the tray (a roll, or
    a better look at the roll reported before: ``replaces``) are also emitted as records. Every
    frame looked at goes to ``on_frame`` (the setup page's picture). ``rolled`` says how many
    dice the roller rolls now (None: unknown): a tray read with fewer is read again with the
    whole frame looked at. ``read_again``, once set, has the table read again as if it had just
    settled (it is cleared then)."""
    watcher = watcher_for(reader, rolled)
    lighting = LightingWatch()
    dice_colours = DiceColourWatch()
    fit = CalibrationFitWatch(lambda: reader.calibration)

    def handle(seen: Settled | None) -> None:
        if seen is None:
            return
        if seen.new_dice:  # not the roll already reported, seen again after a hand left
            emit(roll_record(seen))
            if (record := dice_colours.check(seen.t, seen.frame, [d.box for d in seen.dice])) is not None:
                emit(record)
        if on_settled:
            on_settled(seen)

    def follow(frames: Iterable[tuple[float, np.ndarray]]) -> float:
        """Feed each (t, frame) until ``stop()``; when the frames run out on their own (a
        recording ended), look at the last one until it settles. Returns the last t looked at."""
        t, last = 0.0, None
        for t, last in frames:
            if read_again is not None and read_again.is_set():
                read_again.clear()
                watcher.read_again()
            if on_frame is not None:
                on_frame(last)
            if (record := fit.check(t, last)) is not None:
                emit(record)
            handle(watcher.feed(t, last))
            if (record := lighting.check(t, last)) is not None:
                emit(record)
                dice_colours.reset()  # the status it set speaks for the picture now
            if stop():
                break
        if last is not None and not stop():
            seen = watcher.finish(t, last)
            handle(seen)
            if seen is not None:  # read after the last frame, as the table stays: the end is later
                t = seen.t
        return t

    opened: FrameSource = open_source(camera, source)
    if camera is None and not realtime and opened.fps:
        # A recording, read frame by frame on its own clock: the same answer on any machine.
        emit({"t": 0.0, "camera": "ok", "message": f"{opened.name} is giving frames"})
        try:
            t = follow(paced(opened, realtime=False))
        finally:
            opened.close()
        emit({"t": round(t, 3), "camera": "ended", "message": "the recording ended"})
        return
    opened.close()  # the grabber opens it itself, and reopens it after a failure
    start = time.monotonic()
    live = camera is not None or "://" in (source or "")

    def report(event: CameraEvent) -> None:
        if event.kind == "ok":
            lighting.reset()  # a reconnected camera: look at its picture afresh
            dice_colours.reset()
            fit.reset()
        emit(event_record(event, event.t - start))

    grabber = LatestFrameGrabber(lambda: open_source(camera, source), report, live=live)
    with grabber:
        # newest_frames ends only on stop() or when the recording has ended
        follow((captured - start, frame) for captured, frame in grabber.newest_frames(stop))
