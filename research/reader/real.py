"""`python -m research real`: the reader on every real held-out split, one line a set, by centre.

The sets: Roboflow valid+test (pooled), webcam valid, table-dice valid. A read matches a label
when each box holds the other's centre (one read a label, surest first). Per set: the dice
found, the false finds (reads that match no label; on table-dice a read of a die its annotators
marked unclear is neither right nor wrong and is left out), the pips right among the found, and
the read F1. Then, on the solid-coloured dice of each set (``table_feel``), what a game feels:
dice unsure (by the game's rule) and read wrong while sure, and the chance that a roll of 8 dice
waits for a tap or goes in wrong silently. Then the dice colour on table-dice valid, against
the hand labels kept in ``research/labels/``: per colour, with the reader's palette, and with a
calibration learned from the set's own photos (two halves: each half read with the colours
learned from the other)."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from companion.commands import CommandError
from companion.commands.vision_support import add_reader_options, reader_for

from .dataset import LabelledBox, read_label_file, read_yolo_folder
from .evaluation import matched_by_centre, read_f1
from .table_feel import ROLL_DICE, TableFeel, solid_dice

LABELS = Path(__file__).resolve().parent.parent / "labels"
COLOUR_LABELS = LABELS / "table-dice-valid-colours.json"
#: the colours a game's dice have (the reader's palette): the colour figure is over these
GAME_COLOURS = ("red", "green", "blue", "black", "white", "yellow", "grey", "violet")
#: each held-out set and its folders under the datasets folder
SETS = {
    "roboflow valid+test": ("roboflow-dice/valid", "roboflow-dice/test"),
    "webcam valid": ("webcam-white-dice/valid",),
    "table-dice valid": ("table-dice/valid",),
}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("real", help="the reader on every real held-out split, by centre")
    parser.add_argument(
        "--datasets",
        type=Path,
        default=Path("../shared/datasets"),
        help="the shared datasets folder (default ../shared/datasets)",
    )
    add_reader_options(parser)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(run=run)


@dataclass
class SetFigures:
    photos: int = 0
    dice: int = 0
    reads: int = 0  # reads counted: those on an unclear die left out
    found: int = 0
    right: int = 0
    ms: list[float] = field(default_factory=list)

    def as_json(self) -> dict:
        return {
            "photos": self.photos,
            "dice": self.dice,
            "found": round(self.found / self.dice, 4) if self.dice else 0.0,
            "false_finds": round((self.reads - self.found) / self.reads, 4) if self.reads else 0.0,
            "pips_right_among_found": round(self.right / self.found, 4) if self.found else 0.0,
            "read_f1": round(read_f1(self.right, self.reads, self.dice), 4),
            "median_ms": round(statistics.median(self.ms), 1) if self.ms else 0.0,
        }


@dataclass
class ColourTally:
    """Per labelled colour: dice found, and those whose colour was read right."""

    checked: Counter = field(default_factory=Counter)
    right: Counter = field(default_factory=Counter)
    read_as: dict = field(default_factory=dict)  # per colour: Counter of the names read

    def add(self, label: str, read: str) -> None:
        self.checked[label] += 1
        self.right[label] += read == label
        self.read_as.setdefault(label, Counter())[read] += 1

    def as_json(self) -> dict:
        game = [c for c in self.checked if c in GAME_COLOURS]
        checked = sum(self.checked[c] for c in game)
        return {
            "game_colours": round(sum(self.right[c] for c in game) / checked, 4) if checked else 0.0,
            "game_dice": checked,
            "per_colour": {
                c: {
                    "dice": n,
                    "right": round(self.right[c] / n, 3),
                    "read_as": dict(self.read_as[c].most_common()),
                }
                for c, n in sorted(self.checked.items(), key=lambda item: -item[1])
            },
        }


#: the report's entry of what a game at the table feels, on the solid-coloured dice
SOLID = "solid-coloured dice, as a game feels them"


def print_table_feel(feel: dict) -> None:
    """The solid-coloured dice of each set: found, pips, unsure, wrong while sure, roll chances."""
    print(f"\n{SOLID}: unsure and wrong+sure among the dice found; a roll of {ROLL_DICE} dice")
    print("waits for a tap, waits for a missed die alone, goes in wrong silently (silent):")
    heads = (
        ("dice", 6),
        ("found", 8),
        ("pips", 8),
        ("unsure", 8),
        ("wrong+sure", 12),
        ("waits", 8),
        ("missed", 8),
        ("silent", 8),
    )
    print(f"{'held-out set':<22}" + "".join(f"{head:>{width}}" for head, width in heads))
    for name, f in feel.items():
        if not f["dice"]:
            print(f"{name:<22}{0:>6}")
            continue
        print(
            f"{name:<22}{f['dice']:>6}{f['found']:>8.3f}{f['pips_right_among_found']:>8.3f}"
            f"{f['unsure_among_found']:>8.3f}{f['wrong_while_sure_among_found']:>12.4f}"
            f"{f['roll_waits']:>8.3f}{f['roll_waits_for_misses']:>8.3f}{f['roll_wrong_silently']:>8.3f}"
        )


def unclear_boxes(
    folder: Path, stem: str, width: int, height: int
) -> list[tuple[float, float, float, float]]:
    """The boxes of the dice the annotators could not read (``unclear/``), in pixels."""
    rows = read_label_file(folder / "unclear" / f"{stem}.txt")
    return [((cx - w / 2) * width, (cy - h / 2) * height, w * width, h * height) for _, cx, cy, w, h in rows]


def inside_any(point: tuple[float, float], boxes: list[tuple[float, float, float, float]]) -> bool:
    return any(x <= point[0] <= x + w and y <= point[1] <= y + h for x, y, w, h in boxes)


#: which labelled dice of a photo (its folder, stem and label count) are solid-coloured ones
SolidDice = Callable[[Path, str, int], "list[bool] | None"]


def measure(
    reader,
    folders: list[Path],
    colours: dict | None = None,
    tally: ColourTally | None = None,
    feel: TableFeel | None = None,
    solid: SolidDice | None = None,
) -> SetFigures:
    """Read every labelled photo of ``folders``; colours checked into ``tally`` where labelled;
    the solid-coloured dice (``solid``) into ``feel``."""
    import cv2

    figures = SetFigures()
    for folder in folders:
        for item in read_yolo_folder(folder):
            image = cv2.imread(str(item.image_path), cv2.IMREAD_COLOR)
            if image is None:
                raise CommandError(f"{item.image_path} is not a picture OpenCV can read")
            start = time.perf_counter()
            dice = reader.read(image)
            figures.ms.append((time.perf_counter() - start) * 1000)
            truths: list[LabelledBox] = item.boxes(image.shape[1], image.shape[0])
            pairs = matched_by_centre(dice, truths)
            paired = {id(die) for die, _ in pairs}
            unclear = unclear_boxes(folder, item.image_path.stem, image.shape[1], image.shape[0])
            ignored = sum(1 for d in dice if id(d) not in paired and inside_any(d.centre, unclear))
            figures.photos += 1
            figures.dice += len(truths)
            figures.reads += len(dice) - ignored
            figures.found += len(pairs)
            figures.right += sum(die.pips == truths[index].pips for die, index in pairs)
            flags = solid(folder, item.image_path.stem, len(truths)) if solid is not None else None
            if feel is not None and flags is not None:
                feel.add(flags, [t.pips for t in truths], pairs)
            labels = (colours or {}).get(item.image_path.stem)
            if labels is not None and tally is not None:
                for die, index in pairs:
                    tally.add(labels[index], die.colour)
    return figures


def learned_calibration(folders: list[Path], colours: dict, stems: set[str]):
    """A calibration of the game colours learned from the labelled dice of the photos ``stems``,
    each photo's dice of one colour read as a calibration photo of that colour is."""
    import cv2

    from companion.vision.calibration import Calibration, body_readings, learn_colour

    readings: dict[str, list] = {}
    for folder in folders:
        for item in read_yolo_folder(folder):
            stem = item.image_path.stem
            if stem not in stems or stem not in colours:
                continue
            image = cv2.imread(str(item.image_path), cv2.IMREAD_COLOR)
            truths = item.boxes(image.shape[1], image.shape[0])
            for colour in set(colours[stem]) & set(GAME_COLOURS):
                boxes = [
                    (t.x, t.y, t.w, t.h) for t, c in zip(truths, colours[stem], strict=True) if c == colour
                ]
                readings.setdefault(colour, []).extend(body_readings(image, boxes))
    return Calibration(colours={c: learn_colour(r) for c, r in readings.items() if r})


def run(args: argparse.Namespace) -> int:
    from companion.commands.vision_support import build_reader

    folders = {name: [args.datasets / f for f in parts] for name, parts in SETS.items()}
    missing = [str(f) for parts in folders.values() for f in parts if not f.is_dir()]
    if missing:
        raise CommandError(f"no such folder: {', '.join(missing)} (name the shared datasets with --datasets)")
    colours = json.loads(COLOUR_LABELS.read_text())
    reader = reader_for(args)
    report: dict = {}
    palette = ColourTally()
    found = right = 0
    feels: dict[str, TableFeel] = {}
    for name, parts in folders.items():
        feels[name] = TableFeel()
        solid = partial(solid_dice, name, table_colours=colours)
        figures = measure(
            reader, parts, colours if name == "table-dice valid" else None, palette, feels[name], solid
        )
        report[name] = figures.as_json()
        found, right = found + figures.found, right + figures.right
    pooled_feel = TableFeel.pooled(list(feels.values()))
    report[SOLID] = {name: feel.figures() for name, feel in feels.items()} | {"pooled": pooled_feel.figures()}
    report["pips right among found, pooled"] = {
        "found": found,
        "right": right,
        "share": round(right / found, 4),
    }
    report["colour on table-dice valid, palette"] = palette.as_json()

    # a calibration learned from the set's own photos: each half read with the other half's colours
    table = folders["table-dice valid"]
    stems = sorted(colours)
    halves = [set(stems[0::2]), set(stems[1::2])]
    calibrated = ColourTally()
    for learn_from, read in ((halves[0], halves[1]), (halves[1], halves[0])):
        learned = build_reader(
            None, args.model, args.pip_model, args.threads, getattr(args, "threshold", None), args.whole_frame
        )
        learned.calibration = learned_calibration(table, colours, learn_from)
        measure(learned, table, {s: c for s, c in colours.items() if s in read}, calibrated)
    report["colour on table-dice valid, calibrated from its own photos"] = calibrated.as_json()

    if args.json:
        json.dump(report, sys.stdout)
        sys.stdout.write("\n")
        return 0
    heads = ("photos", 7), ("dice", 6), ("found", 8), ("false", 8), ("pips", 8), ("read F1", 9), ("ms", 7)
    print(f"{'held-out set':<22}" + "".join(f"{head:>{width}}" for head, width in heads))
    for name in SETS:
        f = report[name]
        print(
            f"{name:<22}{f['photos']:>7}{f['dice']:>6}{f['found']:>8.3f}{f['false_finds']:>8.3f}"
            f"{f['pips_right_among_found']:>8.3f}{f['read_f1']:>9.3f}{f['median_ms']:>7.1f}"
        )
    pooled = report["pips right among found, pooled"]
    share, right, found = pooled["share"], pooled["right"], pooled["found"]
    print(f"pips right among found, the three pooled: {share:.3f} ({right} of {found})")
    print_table_feel(report[SOLID])
    for title in (
        "colour on table-dice valid, palette",
        "colour on table-dice valid, calibrated from its own photos",
    ):
        tally = report[title]
        print(f"\n{title}: {tally['game_colours']:.3f} of {tally['game_dice']} dice of the game's colours")
        for colour, entry in tally["per_colour"].items():
            mark = "" if colour in GAME_COLOURS else "  (not a game colour)"
            read_as = ", ".join(f"{name} {n}" for name, n in entry["read_as"].items())
            print(
                f"  {colour:<8}{entry['dice']:>4} dice  {entry['right']:.3f} right  read as: {read_as}{mark}"
            )
    return 0
