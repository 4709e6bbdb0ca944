"""Benchmark: die colour on real photos, each die's colour named by eye.

`roboflow_colours.json` names the body colour of every labelled die of roboflow-dice valid and
test, in label order, as a person sees it in a crop of the photo. ``null`` is a
die nobody could name for sure (a cream or tan body, a die half hidden in a pile, a blurred
crop); orange dice are named but left out of the score, as the palette has no orange.

The colour is read on the *labelled* box, so this scores the colour reading alone, not the
detector. valid was used to look at errors and set thresholds; test is the figure to quote.
Every die of webcam-white-dice is white; its boxes frame the pip pattern (a 1 is a box round
one pip), so there the reader's own finds are scored.

A second table reads the same photos under other light: every value scaled down
(a dim room) or each channel scaled (a colour cast), then saved as JPEG again, as a camera would.

A third is one table under one lamp: Roboflow's photos dice_385 to dice_441 (valid
and test) show one set of red, white and black dice on one cloth. Under each light, each colour
is learned from the first photo's dice of that colour (the white balance from those dice alone,
as `companion calibrate` sees a photo of one player's dice), and the other photos are read with
the default palette and with that calibration.

Run: python -m research.benchmarks.bench_colour
"""

import argparse
import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from companion.vision.calibration import Calibration, body_readings, learn_colour
from companion.vision.colour import PALETTE, white_balance_gains
from companion.vision.reader import DiceReader
from research.reader.dataset import read_yolo_folder
from research.synth.cli import parse_share

from .bench_vision import SHARED

ROBOFLOW = SHARED / "roboflow-dice"
NAMED = Path(__file__).with_name("roboflow_colours.json")


#: the other lights: BGR factors on every value (sRGB, as a camera saves them)
LIGHTS = {
    "dim (× 0.4)": (0.4, 0.4, 0.4),
    "dimmer (× 0.25)": (0.25, 0.25, 0.25),
    "warm cast (0.8, 0.95, 1.1)": (0.8, 0.95, 1.1),
    "tungsten-like cast (0.6, 0.85, 1.1)": (0.6, 0.85, 1.1),
    "cold cast (1.1, 1.0, 0.87)": (1.1, 1.0, 0.87),
}


def under_light(image: np.ndarray, factors: tuple[float, float, float] | None) -> np.ndarray:
    """The photo as under another light (None: as it is), saved as JPEG again."""
    if factors is None:
        return image
    lit = np.clip(image.astype(np.float32) * np.float32(factors) + 0.5, 0, 255).astype(np.uint8)
    return cv2.imdecode(cv2.imencode(".jpg", lit, [cv2.IMWRITE_JPEG_QUALITY, 90])[1], cv2.IMREAD_COLOR)


#: each light of ``LIGHTS`` by its first word (``--light warm``)
LIGHTS_BY_WORD = {name.split()[0]: factors for name, factors in LIGHTS.items()}


def add_light_option(parser: argparse.ArgumentParser) -> None:
    """``--light NAME``: every picture read under one of ``LIGHTS`` (``under_light``), as a table
    lamp would give it, named by its first word (``light_factors`` gives its channel factors)."""
    parser.add_argument("--light", choices=sorted(LIGHTS_BY_WORD), help="every picture under this light")


def light_factors(name: str | None) -> tuple[float, float, float] | None:
    """The channel factors of the light ``--light`` named (None: the pictures as they are)."""
    return LIGHTS_BY_WORD[name] if name else None


def add_saturation_option(parser: argparse.ArgumentParser) -> None:
    """``--saturation S``: each picture read with its colour (chroma) scaled by S and its
    brightness kept (a dim room, a washed-out webcam; 0: a black-and-white camera;
    ``research.synth.pale.paled``)."""
    parser.add_argument(
        "--saturation",
        type=parse_share,
        default=1.0,
        metavar="S",
        help="scale each picture's colour by S (0–1; 0: grey) before reading it, its brightness kept "
        "(default 1: as it is)",
    )


def score(
    reader: DiceReader,
    split: str,
    named: dict[str, list[str | None]],
    light: tuple[float, float, float] | None = None,
) -> tuple[int, int, Counter]:
    """(dice scored, read right, confusions true -> read) for one split, under ``light``."""
    scored = right = 0
    confusions: Counter = Counter()
    for item in read_yolo_folder(ROBOFLOW / split):
        colours = named.get(f"{split}/{item.image_path.stem}")
        if not colours:
            continue
        image = under_light(cv2.imread(str(item.image_path)), light)
        boxes = [(b.x, b.y, b.w, b.h) for b in item.boxes(image.shape[1], image.shape[0])]
        gains = white_balance_gains(image, boxes)
        for box, truth in zip(boxes, colours, strict=True):
            if truth not in PALETTE:
                continue
            read = reader.colour_of(image, box, gains)
            scored += 1
            right += read == truth
            if read != truth:
                confusions[(truth, read)] += 1
    return scored, right, confusions


def all_white(
    reader: DiceReader, folder: Path, light: tuple[float, float, float] | None = None
) -> tuple[int, Counter]:
    """(dice found, colours read) over a folder of white dice, under ``light``."""
    colours: Counter = Counter()
    for item in read_yolo_folder(folder):
        image = under_light(cv2.imread(str(item.image_path)), light)
        colours.update(die.colour for die in reader.read(image))
    return sum(colours.values()), colours


#: Roboflow's photos of one set of dice on one cloth (numbers in their names), and its colours
ONE_TABLE, ONE_TABLE_COLOURS = range(385, 442), ("red", "white", "black")


def one_table_under_one_lamp(
    reader: DiceReader, named: dict[str, list[str | None]], light: tuple[float, float, float] | None
) -> tuple[int, int, int]:
    """(dice scored, right with the default palette, right calibrated from the first photo) over
    the photos of ``ONE_TABLE`` after the first, all under ``light``."""
    photos = []
    for split in ("valid", "test"):
        for item in read_yolo_folder(ROBOFLOW / split):
            number = int(item.image_path.stem.split("_")[1])
            if number in ONE_TABLE:
                image = under_light(cv2.imread(str(item.image_path)), light)
                boxes = [(b.x, b.y, b.w, b.h) for b in item.boxes(image.shape[1], image.shape[0])]
                photos.append((number, image, boxes, named[f"{split}/{item.image_path.stem}"]))
    photos.sort(key=lambda photo: photo[0])
    _, image, boxes, colours = photos[0]
    calibration = Calibration()
    for colour in ONE_TABLE_COLOURS:
        mine = [box for box, named_as in zip(boxes, colours, strict=True) if named_as == colour]
        calibration.colours[colour] = learn_colour(body_readings(image, mine))
    scored, right = 0, {"palette": 0, "calibrated": 0}
    for _, image, boxes, colours in photos[1:]:
        gains = white_balance_gains(image, boxes)
        for box, truth in zip(boxes, colours, strict=True):
            if truth not in ONE_TABLE_COLOURS:
                continue
            scored += 1
            for name, used in (("palette", Calibration()), ("calibrated", calibration)):
                reader.calibration = used
                right[name] += reader.colour_of(image, box, gains) == truth
    reader.calibration = Calibration()
    return scored, right["palette"], right["calibrated"]


def main() -> None:
    argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    ).parse_args()
    reader = DiceReader(threads=1)
    named = json.loads(NAMED.read_text())
    print("| photos | dice named by eye | colour right | most frequent errors |\n|---|---|---|---|")
    for split in ("valid", "test"):
        scored, right, confusions = score(reader, split, named)
        errors = ", ".join(f"{t} as {r} ×{n}" for (t, r), n in confusions.most_common(4))
        print(f"| roboflow-dice {split} | {scored} | {right / scored:.3f} | {errors or '–'} |", flush=True)
    found, colours = all_white(reader, SHARED / "webcam-white-dice" / "valid")
    errors = ", ".join(f"white as {c} ×{n}" for c, n in colours.most_common() if c != "white")
    share = colours["white"] / found
    print(f"| webcam-white-dice valid (dice found) | {found} | {share:.3f} | {errors or '–'} |")
    print("\n| light | valid colour right | test colour right | most frequent errors (both) | webcam white |")
    print("|---|---|---|---|---|")
    for name, factors in LIGHTS.items():
        results = [score(reader, split, named, factors) for split in ("valid", "test")]
        confusions = results[0][2] + results[1][2]
        errors = ", ".join(f"{t} as {r} ×{n}" for (t, r), n in confusions.most_common(3))
        shares = " | ".join(f"{right / scored:.3f}" for scored, right, _ in results)
        found, colours = all_white(reader, SHARED / "webcam-white-dice" / "valid", factors)
        white = f"{colours['white'] / found:.3f} of {found}"
        print(f"| {name} | {shares} | {errors or '–'} | {white} |", flush=True)
    print("\n| light | one table, one lamp: dice | default palette | calibrated from the first photo |")
    print("|---|---|---|---|")
    for name, factors in {"as photographed": None, **LIGHTS}.items():
        scored, palette, calibrated = one_table_under_one_lamp(reader, named, factors)
        print(f"| {name} | {scored} | {palette / scored:.3f} | {calibrated / scored:.3f} |", flush=True)


if __name__ == "__main__":
    main()
