"""Benchmark: the camera loop on a 1280×720, 30 fps recording played in real time.

Prints: frames offered and processed (skipping is fine, falling behind is not), the time from
the frame that completes a settled reading to the game state being published, and whether
every true roll was read exactly once. Run: python -m research.benchmarks.bench_camera
"""

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

import cv2

from companion.camera.grabber import LatestFrameGrabber
from companion.camera.loop import watcher_for
from companion.camera.sources import open_source
from companion.camera_game.bridge import CameraBridge
from companion.camera_game.demo import start_sample_game
from companion.camera_game.session import CameraSession
from companion.service import GameService
from companion.storage import EventStore
from companion.vision import Calibration, DiceReader
from research.benchmarks.machine import cpu_line, runtime_line

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "classic-two-players"


def upscale(sample: Path, out: Path, size=(1280, 720), fps=30) -> tuple[Path, dict]:
    """The sample at 1280×720 and 30 fps (each frame twice), with its calibration scaled."""
    source = open_source(source=str(sample))
    writer = cv2.VideoWriter(str(out / "recording.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
    first = None
    while (frame := source.read()) is not None:
        first = first or frame.shape[:2]
        big = cv2.resize(frame, size, interpolation=cv2.INTER_LINEAR)
        writer.write(big)
        writer.write(big)
    writer.release()
    sx, sy = size[0] / first[1], size[1] / first[0]
    calibration = json.loads((sample / "calibration.json").read_text())
    calibration["zones"] = {
        n: [round(r[0] * sx), round(r[1] * sy), round(r[2] * sx), round(r[3] * sy)]
        for n, r in calibration["zones"].items()
    }
    calibration["frame"] = list(size)
    (out / "calibration.json").write_text(json.dumps(calibration))
    (out / "recording.json").write_text((sample / "recording.json").read_text())
    return out, json.loads((sample / "recording.json").read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder, session = upscale(SAMPLE, Path(tmp))
        calibration = Calibration.load(folder / "calibration.json")
        reader = DiceReader(args.model, calibration)
        games = GameService(EventStore(Path(tmp) / "data"))
        game = start_sample_game(games, folder)
        bridge = CameraBridge(CameraSession(games), "bench", accept_placements=True)
        watcher = watcher_for(reader)
        offered = processed = 0
        lags, latencies, rolls = [], [], []

        def counting_open():
            source = open_source(source=str(folder))
            original = source.read

            def read():
                nonlocal offered
                frame = original()
                offered += frame is not None
                return frame

            source.read = read
            return source

        grabber = LatestFrameGrabber(counting_open, lambda e: None, live=False)
        start = time.monotonic()
        with grabber:
            for captured, frame in grabber.newest_frames():
                processed += 1
                seen = watcher.feed(captured - start, frame)
                if seen is not None:
                    before = len(games.get(game.record.id).events)
                    bridge.on_settled(seen)
                    published = time.monotonic()
                    latencies.append((published - captured) * 1000)
                    if seen.dice:
                        rolls.append(sorted(d.pips for d in seen.dice))
                    assert len(games.get(game.record.id).events) >= before
                lags.append((time.monotonic() - captured) * 1000)
        truth = [sorted(d["pips"] for d in r["dice"]) for r in session["rolls"]]
        state = games.get(game.record.id).state
        print(f"machine: {cpu_line()}, {runtime_line()}; 1280×720 at 30 fps")
        print(
            f"frames offered {offered}, processed {processed} ({processed / max(1, offered):.0%}); "
            f"the rest were skipped as newer frames arrived"
        )
        print(
            f"per-frame lag behind the camera: median {statistics.median(lags):.1f} ms, "
            f"max {max(lags):.1f} ms"
        )
        print(
            f"settled reading → game state published: median {statistics.median(latencies):.0f} ms, "
            f"max {max(latencies):.0f} ms ({len(latencies)} settlings)"
        )
        print(f"rolls read {len(rolls)} of {len(truth)} true rolls; identical: {rolls == truth}")
        events = len(games.get(game.record.id).events)
        print(f"game after the recording: round {state.round_number}, {events} events")


if __name__ == "__main__":
    main()
