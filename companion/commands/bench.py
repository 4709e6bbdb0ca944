"""`companion bench DIR`: measure the reader on a labelled YOLO folder (class = pips − 1)."""

import argparse
import json
import sys
import time
from pathlib import Path

from .errors import CommandError
from .vision_support import add_reader_options, build_reader, load_image


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
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    from ..vision.annotate import annotate
    from ..vision.dataset import read_yolo_folder
    from ..vision.evaluation import Summary, match

    reader = build_reader(args)
    summary = Summary()
    for folder in args.folders:
        try:
            items = list(read_yolo_folder(folder))
        except (FileNotFoundError, ValueError) as err:
            raise CommandError(str(err)) from None
        colour_file = folder / "colours.json"
        colours = json.loads(colour_file.read_text()) if colour_file.exists() else None
        for item in items:
            image, problem = load_image(item.image_path)
            if image is None:
                print(f"companion bench: skipped {problem}", file=sys.stderr)
                continue
            start = time.perf_counter()
            dice = reader.read(image)
            ms = (time.perf_counter() - start) * 1000
            truths = item.boxes(image.shape[1], image.shape[0])
            truth_colours = colours.get(item.image_path.stem) if colours else None
            result = match(dice, truths, truth_colours)
            result.ms = ms
            summary.images.append(result)
            if args.annotate:
                args.annotate.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(
                    str(args.annotate / f"{folder.name}_{item.image_path.stem}.jpg"), annotate(image, dice)
                )
    figures = summary.figures()
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>24}: {value:.4f}" if isinstance(value, float) else f"{key:>24}: {value}")
    return 0
