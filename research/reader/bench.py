"""`python -m research bench DIR`: measure the reader on a labelled YOLO folder (class = pips − 1)."""

import argparse
import json
import sys
from pathlib import Path

from companion.commands import CommandError
from companion.commands.parser import whole_number
from companion.commands.vision_support import add_reader_options, dice_count, reader_for
from companion.words import counted


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench", help="measure the dice reader on a labelled folder")
    parser.add_argument(
        "folders",
        type=Path,
        nargs="+",
        metavar="DIR",
        help="YOLO folders (images/, labels/; colours.json is used when present)",
    )
    add_reader_options(parser)
    parser.add_argument("--annotate", type=Path, metavar="OUT", help="write pictures with what was read")
    parser.add_argument(
        "--worst",
        type=whole_number(1),
        default=0,
        metavar="N",
        help="also list the N pictures with the most mistakes (dice missed, false finds, wrong pips)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from research.reader.benchmark import evaluate
    from research.reader.evaluation import worst

    for folder in args.folders:
        if (folder / "images").is_dir() and not (folder / "labels").is_dir():
            raise CommandError(
                f"{folder} has no labels/ folder, so there is nothing to score the reader against "
                f"(labels/NAME.txt beside images/NAME.jpg, one line per die: pips − 1, then its box); "
                f"to read the pictures without scoring them: companion read {folder / 'images'}"
            )
    reader = reader_for(args)
    try:
        summary = evaluate(
            reader,
            args.folders,
            args.annotate,
            skipped=lambda message: print(f"python -m research bench: skipped {message}", file=sys.stderr),
        )
    except (FileNotFoundError, ValueError) as err:
        raise CommandError(str(err)) from None
    figures = summary.figures()
    worst_read = [
        {
            "image": r.picture,
            "dice": r.truths,
            "missed": r.missed,
            "false_finds": r.false_finds,
            "wrong_pips": r.wrong_pips,
        }
        for r in worst(summary.images, args.worst)
    ]
    if args.json:
        print(json.dumps(figures | ({"worst": worst_read} if args.worst else {})))
        return 0
    for key, value in figures.items():
        print(f"{key:>24}: {value:.4f}" if isinstance(value, float) else f"{key:>24}: {value}")
    if args.worst:
        print(f"\nthe {len(worst_read)} pictures with the most mistakes:" if worst_read else "\nno mistakes")
        for entry in worst_read:
            print(f"  {entry['image']}: {mistakes_line(entry)}")
    return 0


def mistakes_line(entry: dict) -> str:
    """One picture's mistakes in words: "5 missed, 3 false finds, 1 die with wrong pips (of 16 dice)"."""
    return (
        f"{entry['missed']} missed, {counted(entry['false_finds'], 'false find')}, "
        f"{dice_count(entry['wrong_pips'])} with wrong pips (of {dice_count(entry['dice'])})"
    )
