"""Benchmark: how large the crop kept with each fixed die is, on the dice the shipped reader finds
in a folder of real frames (a fix keeps one crop per die a player tells).

Run: python -m research.benchmarks.bench_fix_crops samples/webcam-real/frames
"""

import argparse
import statistics
from pathlib import Path

import cv2

from companion.fixes.crops import die_crop
from companion.vision.picture_file import FRAME_SUFFIXES
from companion.vision.reader import DiceReader


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a folder of frames")
    args = parser.parse_args()
    reader = DiceReader()
    sizes, sides = [], []
    frames = sorted(p for p in args.folder.iterdir() if p.suffix.lower() in FRAME_SUFFIXES)
    for path in frames:
        frame = cv2.imread(str(path))
        for die in reader.read(frame):
            crop = die_crop(frame, die.box)
            if crop is not None:
                sizes.append(len(crop.jpeg))
                sides.append(crop.size[0])
    if not sizes:
        raise SystemExit(f"no die was found in the {len(frames)} frames of {args.folder}")
    print(
        f"{len(frames)} frames, {len(sizes)} dice: crop {statistics.median(sides):.0f} px a side (median), "
        f"{statistics.median(sizes) / 1000:.1f} KB median, {max(sizes) / 1000:.1f} KB at most"
    )


if __name__ == "__main__":
    main()
