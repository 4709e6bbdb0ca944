"""Where frames come from: a webcam index, a video file, a folder of images, or a stream URL."""

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from ..vision.native_noise import native_stderr_silenced
from ..vision.picture_file import FRAME_SUFFIXES

# Probing for a webcam that is not there is normal here; the user gets our message, not OpenCV's.
cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)


class SourceError(RuntimeError):
    """A source that cannot be opened; the message says which and what to try."""


class FrameSource(Protocol):
    name: str
    #: frames per second of a recording (None for a live camera)
    fps: float | None

    def read(self) -> np.ndarray | None:
        """The next frame, or None when there is none (end of a file, a camera that failed)."""

    def close(self) -> None: ...


@dataclass
class CaptureSource:
    """OpenCV capture: a webcam index, a video file or a stream URL."""

    name: str
    capture: cv2.VideoCapture
    fps: float | None

    def read(self) -> np.ndarray | None:
        ok, frame = self.capture.read()
        return frame if ok and frame is not None else None

    def close(self) -> None:
        self.capture.release()


class FolderSource:
    """A folder of pictures in name order, as a recording at ``fps``."""

    def __init__(self, folder: Path, fps: float | None = 15.0) -> None:
        self.name = str(folder)
        self.fps = fps
        self.paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in FRAME_SUFFIXES)
        if not self.paths:
            raise SourceError(f"{folder} holds no pictures")
        self._next = 0

    def read(self) -> np.ndarray | None:
        while self._next < len(self.paths):
            with native_stderr_silenced():  # libjpeg's lines about a damaged frame
                frame = cv2.imread(str(self.paths[self._next]), cv2.IMREAD_COLOR)
            self._next += 1
            if frame is not None:
                return frame
        return None

    def close(self) -> None:
        self._next = len(self.paths)


def open_source(camera: int | None = None, source: str | None = None) -> FrameSource:
    """Open ``--camera N`` or ``--source PATH|URL`` (a folder, a video file or a stream)."""
    if camera is not None:
        capture = cv2.VideoCapture(camera)
        if not capture.isOpened():
            raise SourceError(
                f"no camera at index {camera}; check the cable, or use --source with a "
                "recording (samples/ has some)"
            )
        return CaptureSource(f"camera {camera}", capture, None)
    if source is None:
        raise SourceError("say where frames come from: --camera N or --source PATH|URL")
    path = Path(source)
    if "://" not in source:
        if not path.exists():
            raise SourceError(f"no such file or folder: {source}")
        if path.is_dir():
            recording = path / "recording.mp4"
            if recording.exists():
                path = recording
            elif (path / "frames").is_dir():
                return FolderSource(path / "frames", _folder_fps(path))
            else:
                return FolderSource(path)
    with native_stderr_silenced():  # FFmpeg's own lines ("moov atom not found"): ours follow
        capture = cv2.VideoCapture(str(path) if "://" not in source else source)
    if not capture.isOpened():
        raise SourceError(f"cannot open {source} as video or stream")
    fps = capture.get(cv2.CAP_PROP_FPS) or None
    return CaptureSource(str(source), capture, fps if "://" not in source else None)


def _folder_fps(path: Path) -> float:
    import json

    recording = path / "recording.json"
    if recording.exists():
        return float(json.loads(recording.read_text()).get("fps", 15))
    return 15.0


def paced(source: FrameSource, realtime: bool) -> Iterator[tuple[float, np.ndarray]]:
    """(t, frame) pairs: a recording's own clock (frame number / fps), slept to when ``realtime``."""
    start = time.monotonic()
    index = 0
    while (frame := source.read()) is not None:
        t = index / source.fps if source.fps else time.monotonic() - start
        if realtime and source.fps:
            delay = start + t - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        yield t, frame
        index += 1
