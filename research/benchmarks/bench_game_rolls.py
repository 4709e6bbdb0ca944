"""Benchmark: whole rolls as the table's webcam sees them. Each picture is one player's roll
(``research.synth.game_roll``: their dice, with neutral dice or a Biggy now and then, some
lying against each other, a camera 60–90° above the table), rendered from a seed kept out of
training. It counts the rolls the reader reads right as a whole (every die found, with its pips
and colour), the rolls the camera bridge records right once it has named each die with the
roller's colours (``companion.camera_game.bridge.to_rules_dice``), the rolls it would record
wrong without asking (the colours fit the roller's hand but a die is wrong: the dangerous
case), the rolls that fit but that it shows a player first because it is unsure of a die
(``unsure_dice``; below the table, what they would have been), and why the others fail.
Per-die figures as `python -m research bench` gives them, and the median time per picture, follow.

``--saturation S`` scales each picture's colour (chroma) by S before it is read, its
brightness kept (a dim room or a washed-out webcam; 0: a black-and-white camera): the reader
names pale dice grey or white, and the bridge must tell whose they are.

``--light warm`` (or ``tungsten-like``, ``cold``, ``dim``, ``dimmer``) reads each picture under one of
``bench_colour``'s lights, as a table lamp would give it.

``--players orange`` renders rolls of those players' colours only (orange, a player colour of
the tablet page the reader's palette lacks, only when named).

``--dark-cloth SHARE`` renders the rolls on dark speckled cloths instead, SHARE of them a black
player's (``research.synth.dark_cloth``: the table where black dice go missing).
The dice found, by colour, follow the table.

``--folder`` may name real photos of one colour's dice with no colours.json: ``--colour white``
makes each photo a roll of that colour (webcam-white-dice).

Run: python -m research.benchmarks.bench_game_rolls [--count 300] [--seed 123] [--folder DIR] [--models DIR]
    [--players COLOURS] [--dark-cloth SHARE] [--colour COLOUR] [--saturation S] [--light NAME]
    [--sure-unmirrored P|none]
"""

import argparse
import json
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from companion.assets import MODELS
from companion.camera.watcher import read_counted
from companion.camera_game.bridge import unsure_dice
from companion.camera_game.roll_colours import to_rules_dice
from companion.vision.boxes import intersection
from companion.vision.detector import FOCUS_MOST, QUARTER_FROM
from companion.vision.die import SeenDie
from companion.vision.pips import SURE_UNMIRRORED
from research.reader.dataset import read_yolo_folder
from research.reader.evaluation import Summary, match, matched, mistakes
from research.synth.cli import add_players_option, parse_share
from research.synth.dark_cloth import dark_cloth_rolls
from research.synth.game_roll import PLAYER_COLOURS
from research.synth.make_dataset import write_dataset, write_scenes
from research.synth.pale import paled

from .bench_colour import add_light_option, add_saturation_option, light_factors, under_light
from .compare_readers import pixels_or_none, reader_of, share_or_none

#: kinds of roll, by how many dice lie in it
SIZES = {f"{low}–{high} dice": range(low, high + 1) for low, high in ((1, 4), (5, 8), (9, 12))}
#: what ``roll_outcome`` says of a roll, in the table's order
OUTCOMES = (
    "right",
    "right after naming",
    "recorded wrong",
    "unsure, asked",
    "dice missing",
    "dice too many",
    "pips wrong",
    "colours wrong",
)


Dice = list[tuple[str, int]]  # (colour, pips) of each die of a roll


def roll_outcome(truth: Dice, read: Dice, recorded: Dice) -> str:
    """What the table gets from one roll: "right" (read right as it is), "right after naming"
    (the bridge's colour names make it right), "recorded wrong" (it fits the roller's hand, so
    it would be recorded without a question, but a die is wrong), or why the tablet asks:
    "dice missing", "dice too many", "pips wrong" or "colours wrong"."""
    if Counter(read) == Counter(truth):
        return "right"
    if Counter(recorded) == Counter(truth):
        return "right after naming"
    if Counter(c for c, _ in recorded) == Counter(c for c, _ in truth):
        return "recorded wrong"
    if len(recorded) != len(truth):
        return "dice missing" if len(recorded) < len(truth) else "dice too many"
    if Counter(p for _, p in recorded) != Counter(p for _, p in truth):
        return "pips wrong"
    return "colours wrong"


#: the outcomes of a roll that fits the roller's hand: one the reader is unsure of is asked instead
FITTING = ("right", "right after naming", "recorded wrong")


def shown_outcome(truth: Dice, dice: list[SeenDie]) -> tuple[str, str]:
    """What the table gets from a roll read as ``dice``: its ``roll_outcome`` once the camera
    bridge has named the dice by the roller's hand (the colours of ``truth``), and what the
    tablet shows of it: "unsure, asked" for a roll that fits but holds a die the reader is
    unsure of (``unsure_dice``), else the outcome itself."""
    hand = {(colour, False): n for colour, n in Counter(c for c, _ in truth).items()}
    recorded = [(d.colour, d.pips) for d in to_rules_dice(tuple(dice), hand)]
    outcome = roll_outcome(truth, [(d.colour, d.pips) for d in dice], recorded)
    return outcome, "unsure, asked" if outcome in FITTING and unsure_dice(tuple(dice)) else outcome


def touching(boxes: list[tuple[float, float, float, float]]) -> bool:
    """Whether two dice lie against each other: their boxes (round the faces seen) overlap."""
    return any(intersection(a, b) > 0 for i, a in enumerate(boxes) for b in boxes[i + 1 :])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=123, help="a seed no training set used (default 123)")
    parser.add_argument("--folder", type=Path, help="the renders' folder (default build/game_rolls_SEED)")
    parser.add_argument("--models", type=Path, help="folder with dicenet.onnx, pipnet.onnx")
    parser.add_argument("--colour", help="the colour of every die, for a folder without colours.json")
    add_players_option(parser)
    parser.add_argument(
        "--dark-cloth",
        type=parse_share,
        metavar="SHARE",
        help="render the rolls on dark speckled cloths, SHARE of them a black player's "
        "(default folder build/dark_rolls_SEED)",
    )
    add_saturation_option(parser)
    add_light_option(parser)
    parser.add_argument(
        "--sure-unmirrored",
        type=share_or_none,
        default=SURE_UNMIRRORED,
        metavar="P",
        help=f"PipNet reads mirrored only the crops it reads as they are under P; none: every crop "
        f"(default {SURE_UNMIRRORED})",
    )
    parser.add_argument(
        "--focus",
        type=share_or_none,
        default=FOCUS_MOST,
        metavar="S",
        help=f"the detector's full scale covers only the regions round what its half scale found when "
        f"they are at most S of the frame; none: the whole frame (default {FOCUS_MOST})",
    )
    parser.add_argument(
        "--quarter-from",
        type=pixels_or_none,
        default=QUARTER_FROM,
        metavar="N",
        help=f"the detector runs its quarter scale only when its half scale found something N pixels "
        f"wide or nothing; none: always (default {QUARTER_FROM})",
    )
    parser.add_argument(
        "--read-short-again",
        action="store_true",
        help="a roll read with fewer dice than were rolled is read again with the whole frame looked "
        "at, and a dark one still short also brightened, as the camera does in a game (read_counted)",
    )
    args = parser.parse_args()
    if args.dark_cloth is not None and args.players != PLAYER_COLOURS:
        parser.error("--dark-cloth draws its own players (black, the others in turn): leave out --players")
    light = light_factors(args.light)
    kind = "game_rolls" if args.dark_cloth is None else "dark_rolls"
    folder = args.folder or Path(f"build/{kind}_{args.seed}")
    if not (folder / "images").exists():
        print(f"rendering {args.count} rolls (seed {args.seed}) into {folder} ...", flush=True)
        if args.dark_cloth is None:
            write_dataset(folder, args.count, args.seed, None, game_rolls=1.0, players=args.players)
        else:
            rolls = dark_cloth_rolls(np.random.default_rng(args.seed), args.count, args.dark_cloth)
            write_scenes(folder, args.seed, rolls, None)
    if (folder / "colours.json").exists():
        colours = json.loads((folder / "colours.json").read_text())
    elif args.colour:
        colours = {item.image_path.stem: [args.colour] * len(item.rows) for item in read_yolo_folder(folder)}
    else:
        parser.error(f"{folder} has no colours.json: name its dice's colour with --colour")
    reader = (
        reader_of(args.models, 2, args.sure_unmirrored, args.focus, args.quarter_from)
        if args.models
        else reader_of(MODELS, 2, args.sure_unmirrored, args.focus, args.quarter_from)
    )
    outcomes: Counter = Counter()
    held_back: Counter = Counter()  # what the rolls shown to a player as unsure would have been
    summary = Summary()
    dice_of: Counter = Counter()  # colour -> dice rolled
    found_of: Counter = Counter()  # colour -> of those, found
    for item in read_yolo_folder(folder):
        image = paled(under_light(cv2.imread(str(item.image_path)), light), args.saturation)
        start = time.perf_counter()
        labels = item.boxes(image.shape[1], image.shape[0])
        dice = (
            read_counted(reader.read, image, len(labels))[0] if args.read_short_again else reader.read(image)
        )
        ms = (time.perf_counter() - start) * 1000
        truth_colours = colours[item.image_path.stem]
        pairs = matched(dice, labels)
        summary.images.append(match(dice, labels, truth_colours, pairs))
        missed = set(mistakes(dice, labels, pairs).missed)
        dice_of.update(truth_colours)
        found_of.update(colour for index, colour in enumerate(truth_colours) if index not in missed)
        summary.images[-1].ms = ms
        truth = [(colour, label.pips) for colour, label in zip(truth_colours, labels, strict=True)]
        would_be, outcome = shown_outcome(truth, dice)
        if outcome != would_be:
            held_back[would_be] += 1
        size = next(label for label, counts in SIZES.items() if len(truth) in counts)
        lying = "dice touching" if touching([(b.x, b.y, b.w, b.h) for b in labels]) else "none touching"
        for kind in ("all rolls", size, lying):
            outcomes[kind, "rolls"] += 1
            outcomes[kind, outcome] += 1
    rendered = f" (seed {args.seed})" if args.folder is None else ""
    seen_as = f", saturation x{args.saturation:g}" if args.saturation < 1 else ""
    seen_as += f", under the {args.light} light" if args.light else ""
    print(f"\ngame rolls: {folder}{rendered}{seen_as}\n")
    print("| rolls | count | " + " | ".join(OUTCOMES) + " |")
    print("|---" * (len(OUTCOMES) + 2) + "|")
    for kind in ["all rolls", *SIZES, "none touching", "dice touching"]:
        n = outcomes[kind, "rolls"]
        if n:
            print(f"| {kind} | {n} | " + " | ".join(f"{outcomes[kind, k]}" for k in OUTCOMES) + " |")
    print(
        "\nthe rolls asked as unsure would have been: "
        + ", ".join(f"{n} {kind}" for kind, n in sorted(held_back.items()))
        if held_back
        else "\nno roll that fits was asked as unsure"
    )
    print(
        "\nfound, by colour: "
        + ", ".join(f"{colour} {found_of[colour] / n:.3f} of {n}" for colour, n in sorted(dice_of.items()))
    )
    figures = summary.figures()
    print(
        f"\nper die: {figures['dice']} dice, recall {figures['recall']:.3f}, precision "
        f"{figures['precision']:.3f}, pips right among found {figures['pips_right_among_found']:.3f}, "
        f"read F1 {figures['read_f1']:.3f}, colour right {figures.get('colour_right', 0):.3f}; "
        f"median {figures['median_ms']:.1f} ms per picture"
    )


if __name__ == "__main__":
    main()
