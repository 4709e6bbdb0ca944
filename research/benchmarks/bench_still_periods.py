"""Benchmark: short still periods on a busy machine. A recording of 24 rolls made from real webcam
photos (each roll still for 1 s, motion between, 15 fps) is played in real time through the
camera loop as `serve --watch` runs it (the newest frame each time the reader is free), alone and
with two other busy processes on the machine. Prints, per run: the rolls read once with the
right pips, the rolls missed, readings that were no roll, and the time from the start of each
still period to its reading. Run: python -m research.benchmarks.bench_still_periods
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.camera.grabber import LatestFrameGrabber
from companion.camera.loop import watcher_for
from companion.camera.sources import open_source
from companion.vision import DiceReader
from research.benchmarks.machine import cpu_line, runtime_line
from research.synth.photo_recording import make_recording

PHOTOS = Path("../shared/datasets/webcam-white-dice/valid")


def play(folder: Path, reader: DiceReader) -> list[tuple[float, list[int]]]:
    """Each settled reading of the recording played in real time: (seconds into it, pips)."""
    watcher = watcher_for(reader)
    grabber = LatestFrameGrabber(lambda: open_source(source=str(folder)), lambda event: None, live=False)
    readings = []
    with grabber:
        start = None
        for captured, frame in grabber.newest_frames():
            start = captured if start is None else start
            seen = watcher.feed(captured - start, frame)
            if seen is not None and seen.dice:
                readings.append((time.monotonic() - start, sorted(d.pips for d in seen.dice)))
    return readings


def judged(readings: list[tuple[float, list[int]]], rolls: list[dict]) -> dict:
    """Each reading matched to the roll whose still period it follows (before the next one's)."""
    read_once, missed, wrong, delays, which = 0, 0, 0, [], []
    for index, roll in enumerate(rolls):
        until = rolls[index + 1]["still_from"] if index + 1 < len(rolls) else float("inf")
        own = [(t, pips) for t, pips in readings if roll["still_from"] <= t < until]
        truth = sorted(d["pips"] for d in roll["dice"])
        right = [t for t, pips in own if pips == truth]
        if len(right) == 1 and len(own) == 1:
            read_once += 1
            delays.append(right[0] - roll["still_from"])
        elif not own:
            missed += 1
        else:
            wrong += 1
            which.append(
                {"roll": index + 1, "photo": roll["photo"], "pips": truth, "read": [pips for _, pips in own]}
            )
    phantom = sum(1 for r in readings if r[0] < rolls[0]["still_from"])
    return {
        "rolls": len(rolls),
        "read once, right": read_once,
        "missed": missed,
        "read wrong or twice": wrong,
        "those rolls": which,
        "readings before the first roll": phantom,
        "still start to reading, median s": round(statistics.median(delays), 2) if delays else None,
        "still start to reading, max s": round(max(delays), 2) if delays else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--photos", type=Path, default=PHOTOS)
    parser.add_argument("--rolls", type=int, default=24)
    parser.add_argument("--still", type=float, default=1.0, help="seconds each roll lies still")
    parser.add_argument("--busy", type=int, nargs="+", default=[0, 2], help="busy processes per run")
    args = parser.parse_args()
    reader = DiceReader()
    print(f"machine: {cpu_line()}, {runtime_line()}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        make_recording(folder, args.photos, args.rolls, "white", seed=24, still_s=args.still)
        rolls = json.loads((folder / "recording.json").read_text())["rolls"]
        for busy in args.busy:
            hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)]
            try:
                result = judged(play(folder, reader), rolls)
            finally:
                for hog in hogs:
                    hog.kill()
            print(f"{busy} busy processes, {args.still:g} s still: " + json.dumps(result))


if __name__ == "__main__":
    main()
