"""`companion calibrate`: learn this table's dice colours from one photo per colour."""

import argparse
from pathlib import Path

from .errors import CommandError
from .vision_support import build_reader, load_image


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "calibrate", help="learn the table's dice colours (one photo of each player's dice)"
    )
    parser.add_argument(
        "--photo",
        action="append",
        default=[],
        metavar="COLOUR=IMAGE",
        help="a photo showing only dice of COLOUR (repeat for each colour)",
    )
    parser.add_argument(
        "--table", metavar="X,Y,W,H", help="the table area in pixels; dice outside are ignored"
    )
    parser.add_argument(
        "--zone",
        action="append",
        default=[],
        metavar="NAME=X,Y,W,H",
        help="a zone: tray, 1..6 or slot (repeatable)",
    )
    parser.add_argument("--out", type=Path, default=Path("calibration/table.json"))
    parser.add_argument("--model", type=Path, help="an ONNX dice model (default: models/dicenet.onnx)")
    parser.add_argument("--pip-model", type=Path, help="an ONNX pip model (default: models/pipnet.onnx)")
    parser.add_argument("--threads", type=int, default=2)
    parser.set_defaults(run=run, calibration=None)


def run(args: argparse.Namespace) -> int:
    from ..vision.calibration import Calibration, CalibrationError, learn_colour, parse_rect

    if not args.photo:
        raise CommandError("give at least one --photo COLOUR=IMAGE (a photo of that colour's dice)")
    reader = build_reader(args)
    calibration = Calibration()
    try:
        if args.table:
            calibration.table = parse_rect(args.table)
        for spec in args.zone:
            name, _, rect = spec.partition("=")
            calibration.zones[name.strip()] = parse_rect(rect)
    except CalibrationError as err:
        raise CommandError(str(err)) from None
    for spec in args.photo:
        colour, _, path = spec.partition("=")
        if not colour or not path:
            raise CommandError(f"--photo takes COLOUR=IMAGE, got {spec!r}")
        image, problem, cut_short = load_image(Path(path))
        if image is None:
            raise CommandError(problem)
        if cut_short is not None:
            raise CommandError(f"{path}: {cut_short}; copy the photo again before learning colours from it")
        calibration.frame = (image.shape[1], image.shape[0])
        readings = learn_readings(reader, image)
        if not readings:
            raise CommandError(f"no dice found in {path}; take the photo from above, dice well lit")
        calibration.colours[colour.strip().lower()] = learn_colour(readings)
        print(f"{colour}: learned from {len(readings)} dice in {path}")
    calibration.save(args.out)
    print(f"calibration written to {args.out}")
    return 0


def learn_readings(reader, image):
    from ..vision.colour import read_body, white_balance_gains

    # dice the pip reader vouches for, their bodies read once, as the reader reads them in play
    boxes = [box for box, _, _ in reader.find(image)]
    gains = white_balance_gains(image, boxes)
    return [r for r in (read_body(image, box, gains) for box in boxes) if r is not None]
