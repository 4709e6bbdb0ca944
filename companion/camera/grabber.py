"""A background reader that keeps only the newest frame, and a watchdog that notices a camera
that stops giving frames (or repeats the very same frame, as unplugged cameras often do),
reports it, and reopens it with back-off."""

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from .sources import FrameSource, SourceError


@dataclass(frozen=True)
class CameraEvent:
    kind: str  # "ok", "lost", "ended"
    message: str
    t: float


def frame_fingerprint(frame: np.ndarray) -> bytes:
    """A cheap exact fingerprint: live sensors never give two identical frames."""
    return frame[::17, ::13].tobytes()


class LatestFrameGrabber:
    """Reads frames in a thread; ``latest`` hands out the newest one not seen yet."""

    def __init__(
        self,
        open_source: Callable[[], FrameSource],
        on_event: Callable[[CameraEvent], None],
        live: bool = True,
        stall_seconds: float = 2.0,
        frozen_seconds: float = 3.0,
        max_backoff: float = 10.0,
    ) -> None:
        self._open = open_source
        self._on_event = on_event
        self.live = live
        self.stall_seconds = stall_seconds
        self.frozen_seconds = frozen_seconds
        self.max_backoff = max_backoff
        self._condition = threading.Condition()
        self._frame: np.ndarray | None = None
        self._seq = 0
        self._t = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="frame-grabber", daemon=True)
        self.ended = False
        self.healthy = False

    def __enter__(self) -> "LatestFrameGrabber":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        with self._condition:
            self._condition.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def latest(self, after: int, timeout: float = 1.0) -> tuple[int, float, np.ndarray] | None:
        """The newest frame with a sequence number above ``after`` (waits up to ``timeout``)."""
        with self._condition:
            self._condition.wait_for(lambda: self._seq > after or self.ended or self._stop.is_set(), timeout)
            if self._seq > after and self._frame is not None:
                return self._seq, self._t, self._frame
            return None

    def newest_frames(self, stop: Callable[[], bool] = lambda: False) -> Iterator[tuple[float, np.ndarray]]:
        """(capture time, frame) for the newest frame each time the consumer is ready, skipping
        the ones it was too slow for, until the recording ends or ``stop()``."""
        seq = 0
        while not stop():
            got = self.latest(seq, timeout=0.5)
            if got is None:
                if self.ended:
                    return
                continue
            seq, captured, frame = got
            yield captured, frame

    def _report(self, kind: str, message: str) -> None:
        self.healthy = kind == "ok"
        self._on_event(CameraEvent(kind, message, time.monotonic()))

    def _run(self) -> None:
        backoff = 0.5
        while not self._stop.is_set():
            try:
                source = self._open()
            except SourceError as err:
                self._report("lost", f"{err}; trying again in {backoff:.0f} s")
                self._stop.wait(backoff)
                backoff = min(self.max_backoff, backoff * 2)
                continue
            try:
                problem = self._pump(source)
            finally:
                source.close()
            if problem is None:  # a recording that ended
                self.ended = True
                self._report("ended", "the recording ended")
                with self._condition:
                    self._condition.notify_all()
                return
            if self._stop.is_set():
                return
            self._report(
                "lost", f"{problem}; reconnecting in {backoff:.0f} s (enter rolls by hand meanwhile)"
            )
            self._stop.wait(backoff)
            backoff = min(self.max_backoff, backoff * 2)

    def _pump(self, source: FrameSource) -> str | None:
        """Read until the source fails; return why (None: a recording reached its end)."""
        last_new = time.monotonic()
        last_print = None
        same_since = None
        interval = 1 / source.fps if (source.fps and not self.live) else 0.0
        started = time.monotonic()
        count = 0
        while not self._stop.is_set():
            frame = source.read()
            now = time.monotonic()
            if frame is None:
                if not self.live:
                    return None
                if now - last_new > self.stall_seconds:
                    return f"{source.name} gives no frames"
                time.sleep(0.01)
                continue
            if self.live:
                fingerprint = frame_fingerprint(frame)
                if fingerprint == last_print:
                    same_since = same_since or now
                    if now - same_since > self.frozen_seconds:
                        return f"{source.name} repeats the same frame (unplugged?)"
                    continue
                last_print, same_since = fingerprint, None
            if not self.healthy:
                self._report("ok", f"{source.name} is giving frames")
            last_new = now
            count += 1
            with self._condition:
                self._frame, self._seq, self._t = frame, self._seq + 1, now
                self._condition.notify_all()
            if interval:  # a recording played at its own speed, like a camera would
                delay = started + count * interval - time.monotonic()
                if delay > 0:
                    self._stop.wait(delay)
        return "stopped"
