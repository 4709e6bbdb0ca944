"""`companion calibrate`: learn this table's dice colours from one photo per colour."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from ..assets import TABLE_CALIBRATION
from ..words import nearest
from . import CommandError
from .parser import whole_number
from .vision_support import add_model_options, dice_count, load_image, reader_for

if TYPE_CHECKING:  # numpy, OpenCV and onnxruntime load when the command runs, not at start-up
    import numpy as np

    from ..vision.calibration import Calibration
    from ..vision.colour import BodyReading
    from ..vision.reader import DiceReader


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "calibrate",
        help="learn the table's dice colours (one photo of each player's dice)",
        description="Learn the colours of this table's dice from one photo of each player's dice, "
        "and of the neutral dice (white or grey) when the game uses them (their rolls are read far "
        "worse when only the players' colours are learned), "
        "taken from the camera's place under the light you will play in (a strong warm lamp turns white "
        "dice yellow to the default palette; a calibration made under it does not). Calibrate "
        "again when the light changes. With a camera, the table setup page of `companion serve` does the "
        "same on the camera's own picture.",
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
    parser.add_argument(
        "--out",
        type=Path,
        default=TABLE_CALIBRATION,
        help="where to write the calibration (default: calibration/table.json)",
    )
    add_model_options(parser)
    parser.add_argument(
        "--threads", type=whole_number(1), default=2, help="CPU threads for the model (default 2)"
    )
    parser.set_defaults(run=run, calibration=None)


def run(args: argparse.Namespace) -> int:
    from ..vision.calibration import Calibration, CalibrationError, learn_colour, parse_rect
    from ..vision.calibration_checks import alike_colours, alike_warning, photo_warnings

    if not args.photo:
        raise CommandError("give at least one --photo COLOUR=IMAGE (a photo of that colour's dice)")
    reader = reader_for(args)
    calibration = Calibration()
    try:
        if args.table:
            calibration.table = parse_rect(args.table)
        for spec in args.zone:
            name, _, rect = spec.partition("=")
            calibration.zones[zone_name(name)] = parse_rect(rect)
    except CalibrationError as err:
        raise CommandError(str(err)) from None
    photos = photos_by_colour(args.photo)  # every name checked before any photo is read
    for colour, (paths, note) in photos.items():
        readings = []
        for path in paths:
            image, problem, cut_short = load_image(Path(path))
            if image is None:
                raise CommandError(problem)
            if cut_short is not None:
                raise CommandError(f"{path}: {cut_short}; copy the photo again to learn colours from it")
            calibration.frame = (image.shape[1], image.shape[0])
            found = learn_readings(reader, image)
            if not found:
                raise CommandError(f"no dice found in {path}; take the photo from above, dice well lit")
            readings += found
        calibration.colours[colour] = learn_colour(readings)
        print(f"{colour}: learned from {dice_count(len(readings))} in {', '.join(paths)}{note}")
        for warning in photo_warnings(colour, readings, calibration.colours[colour], paths):
            print(f"  warning: {warning}")
    refuse_areas_outside(calibration)
    for first, second in alike_colours(calibration.colours):
        print(f"  warning: {alike_warning(first, second, {c: paths for c, (paths, _) in photos.items()})}")
    calibration.save(args.out)
    print(f"calibration written to {args.out}")
    return 0


def photos_by_colour(specs: list[str]) -> dict[str, tuple[list[str], str]]:
    """The photos of each colour (two photos of one colour are learned from together) and the
    note for its name, from ``--photo COLOUR=IMAGE`` options. One photo given for two colours
    is refused: each colour is learned from its own dice."""
    photos: dict[str, tuple[list[str], str]] = {}
    colour_of_photo: dict[Path, str] = {}
    for spec in specs:
        given, _, path = spec.partition("=")
        if not given.strip() or not path:
            raise CommandError(f"--photo takes COLOUR=IMAGE, got {spec!r}")
        colour, note = colour_name(given)
        earlier = colour_of_photo.setdefault(Path(path).resolve(), colour)
        if earlier != colour:
            raise CommandError(
                f"{path} is given for both {earlier} and {colour}: each colour needs a photo of its own dice"
            )
        photos.setdefault(colour, ([], note))[0].append(path)
    return photos


def colour_name(given: str) -> tuple[str, str]:
    """``reader_colour`` for ``--photo``: a name that looks like a typo is a CommandError."""
    from ..vision.colour_names import ColourNameError, reader_colour

    try:
        return reader_colour(given)
    except ColourNameError as err:
        raise CommandError(f"--photo {given}=…: {err}") from None


def refuse_areas_outside(calibration: Calibration) -> None:
    """A CommandError for a --table or --zone that misses the photos (a typo: 2000 for 200),
    before anything is written: in play every die, or every die of that zone, would be missed."""
    from ..vision.calibration import cut_to

    def text(rect: tuple[int, ...]) -> str:
        return ",".join(map(str, rect))

    areas = ([(f"--table {text(calibration.table)}", calibration.table)] if calibration.table else []) + [
        (f"--zone {name}={text(rect)}", rect) for name, rect in calibration.zones.items()
    ]
    frame = calibration.frame
    if frame is None:  # no photo gave the frame's size: nothing to hold the areas against
        return
    for option, rect in areas:
        if cut_to(rect, frame) is None:
            w, h = frame
            raise CommandError(
                f"{option} lies outside the {w}×{h} photos: give it in the photos' pixels "
                "(x,y from the top left corner)"
            )


def zone_name(given: str) -> str:
    """A zone's name as the camera loop knows it, or a CommandError saying which names there are."""
    from ..vision.calibration import ZONES

    name = given.strip().lower()
    if name in ZONES:
        return name
    close = nearest(name, list(ZONES))
    hint = f" — did you mean '{close}'?" if close else ""
    raise CommandError(f"--zone {given}=…: no zone {given!r}{hint} (zones: {', '.join(ZONES)})")


def learn_readings(reader: DiceReader, image: np.ndarray) -> list[BodyReading]:
    """The bodies of the dice the reader finds in ``image`` (the pip reader vouches for them),
    white-balanced by those dice alone, as a calibration photo is read."""
    from ..vision.calibration import body_readings

    return body_readings(image, [found.box for found in reader.find(image)])
