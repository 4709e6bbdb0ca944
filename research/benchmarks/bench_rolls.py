"""Benchmark: how often a roll read by the camera fits the roller's hand, as read and after the
camera bridge undoes the reader's known colour mistakes (``companion.camera_game.bridge``).

A roll is simulated from a labelled picture: the dice of one colour the reader found (matched as
`python -m research bench` matches them: IoU ≥ 0.5, surest first, each label once), alone, or with the
dice of a neutral colour (white, as in the classic game, or grey, as in the
three-round edition) when the picture has both. It fits when every colour's count is what the
labels say; "a colour wrong" counts rolls that fit although a die's colour is not its own (the
dangerous case: a roll recorded without a word). Rendered folders need colours.json; the real
Roboflow valid and test photos use the colours named by eye (``roboflow_colours.json``; orange and
unnamed dice left out), one colour per roll. ``--light`` reads every picture under one of
``bench_colour``'s other lights (a warm cast, say), as a table lamp would give it;
``--saturation S`` with its colour scaled by S, its brightness kept (a dim room, a washed-out
webcam).

Run: python -m research.benchmarks.bench_rolls [FOLDER ...] [--roboflow] [--light warm] [--saturation S]
"""

import argparse
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import cv2

from companion.camera_game.roll_colours import to_rules_dice
from companion.vision.die import SeenDie
from companion.vision.reader import DiceReader
from research.reader.dataset import read_yolo_folder
from research.reader.evaluation import matched
from research.synth.pale import paled

from .bench_colour import (
    NAMED,
    ROBOFLOW,
    add_light_option,
    add_saturation_option,
    light_factors,
    under_light,
)

NEUTRALS = (None, "white", "grey")


def found_with_colours(
    reader: DiceReader,
    folder: Path,
    colours_of: dict[str, list[str | None]],
    light: tuple[float, float, float] | None = None,
    saturation: float = 1.0,
) -> Iterator[list[tuple[str, SeenDie]]]:
    """For each labelled picture, (true colour, die read) of every labelled die the reader found,
    the picture seen under ``light`` (None: as it is) with its colour scaled by ``saturation``
    (``paled``)."""
    for item in read_yolo_folder(folder):
        colours = colours_of.get(item.image_path.stem)
        if not colours:
            continue
        frame = paled(under_light(cv2.imread(str(item.image_path)), light), saturation)
        truths = item.boxes(frame.shape[1], frame.shape[0])
        pairs = matched(reader.read(frame), truths)
        yield [(colours[index], die) for die, index in pairs if colours[index] not in (None, "orange")]


def tally_rolls(found: list[tuple[str, SeenDie]], neutrals: tuple[str | None, ...], tally: Counter) -> None:
    """Add the rolls one picture gives, by kind, as read and after the bridge's renaming."""
    present = {colour for colour, _ in found}
    for player in sorted(present):
        for neutral in neutrals:
            if neutral == player or (neutral is not None and neutral not in present):
                continue
            roll = [(colour, die) for colour, die in found if colour in (player, neutral)]
            truth = [colour for colour, _ in roll]
            hand = {(colour, False): n for colour, n in Counter(truth).items()}
            as_read = [die.colour for _, die in roll]
            renamed = [die.colour for die in to_rules_dice(tuple(die for _, die in roll), hand)]
            kind = "one colour" if neutral is None else f"with {neutral} neutral dice"
            tally[kind, "rolls"] += 1
            for when, names in (("as read", as_read), ("renamed", renamed)):
                fits = Counter(names) == Counter(truth)
                tally[kind, f"fit {when}"] += fits
                tally[kind, f"fit {when}, a colour wrong"] += fits and names != truth


def print_table(title: str, tally: Counter) -> None:
    print(f"\n{title}\n")
    print("| rolls | count | fit as read | fit after renaming | fit with a colour wrong (read / renamed) |")
    print("|---|---|---|---|---|")
    for kind in sorted({kind for kind, _ in tally}, key=lambda k: (k != "one colour", k)):
        n = tally[kind, "rolls"]
        print(
            f"| {kind} | {n} | {tally[kind, 'fit as read']} ({tally[kind, 'fit as read'] / n:.3f}) "
            f"| {tally[kind, 'fit renamed']} ({tally[kind, 'fit renamed'] / n:.3f}) "
            f"| {tally[kind, 'fit as read, a colour wrong']} / {tally[kind, 'fit renamed, a colour wrong']} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("folders", type=Path, nargs="*", help="rendered YOLO folders with colours.json")
    parser.add_argument("--roboflow", action="store_true", help="also the real photos, colours named by eye")
    add_light_option(parser)
    add_saturation_option(parser)
    args = parser.parse_args()
    light = light_factors(args.light)
    under = f" under the {args.light} light" if args.light else ""
    under += f", saturation x{args.saturation:g}" if args.saturation < 1 else ""
    reader = DiceReader()
    if args.folders:
        tally: Counter = Counter()
        for folder in args.folders:
            colours = json.loads((folder / "colours.json").read_text())
            for found in found_with_colours(reader, folder, colours, light, args.saturation):
                tally_rolls(found, NEUTRALS, tally)
        print_table("rendered: " + ", ".join(str(f) for f in args.folders) + under, tally)
    if args.roboflow:
        named = json.loads(NAMED.read_text())
        tally = Counter()
        for split in ("valid", "test"):
            colours = {key.split("/", 1)[1]: v for key, v in named.items() if key.startswith(f"{split}/")}
            for found in found_with_colours(reader, ROBOFLOW / split, colours, light, args.saturation):
                tally_rolls(found, (None,), tally)
        print_table(f"roboflow-dice valid+test (colours named by eye){under}", tally)


if __name__ == "__main__":
    main()
