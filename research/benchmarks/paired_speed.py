"""Benchmark: how much faster one reader is than another, on the same pictures in one process.

Each picture is read by both readers in turn (which goes first alternates), so a slow spell of
the machine (the same reader can take 67–95 ms a picture within an hour) falls on both alike.
It prints each reader's median ms per picture, the ratio of the medians and the median of the
per-picture ratios; the readers' options are compare_readers's.

Run: python -m research.benchmarks.paired_speed --before models --after models \\
    --after-sure-unmirrored 0.9 ../shared/datasets/roboflow-dice/valid [--rounds 3]
"""

import argparse
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from companion.vision.reader import DiceReader
from research.reader.dataset import read_yolo_folder

from .compare_readers import add_reader_options, readers_from
from .machine import cpu_line, runtime_line


def paired_times(
    readers: tuple[DiceReader, DiceReader], pictures: list[np.ndarray], rounds: int
) -> tuple[list[float], list[float]]:
    """Each reader's ms for every picture in every round, the two reading each picture in turn,
    the first reader going first on even pictures and second on odd ones."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        for index, picture in enumerate(pictures):
            order = (0, 1) if index % 2 == 0 else (1, 0)
            for which in order:
                start = time.perf_counter()
                readers[which].read(picture)
                times[which].append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_reader_options(parser)
    parser.add_argument("--rounds", type=int, default=3, help="times each picture is read by each reader")
    parser.add_argument("folders", type=Path, nargs="+", help="YOLO folders (their images/ are read)")
    args = parser.parse_args()
    before, after, named = readers_from(args)
    pictures = [
        picture
        for folder in args.folders
        for item in read_yolo_folder(folder)
        if (picture := cv2.imread(str(item.image_path), cv2.IMREAD_COLOR)) is not None
    ]
    if not pictures:
        parser.error("no pictures in " + ", ".join(map(str, args.folders)))
    for picture in pictures[:3]:  # onnxruntime's first runs are slower
        before.read(picture)
        after.read(picture)
    old, new = paired_times((before, after), pictures, args.rounds)
    print(named)
    print(f"CPU: {cpu_line()}; {runtime_line()}")
    print(f"{len(pictures)} pictures × {args.rounds} rounds, {args.threads} threads")
    print(f"median ms before {statistics.median(old):.1f}, after {statistics.median(new):.1f}")
    print(f"ratio of the medians {statistics.median(new) / statistics.median(old):.3f}")
    ratios = [n / o for o, n in zip(old, new, strict=True)]
    print(f"median of the per-picture ratios {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
