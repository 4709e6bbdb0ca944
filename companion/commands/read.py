"""`companion read IMAGE…`: find every die in pictures, with pips and colour."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..vision.picture_file import FRAME_SUFFIXES
from . import CommandError
from .vision_support import add_reader_options, dice_count, load_image, pictures_in, reader_for

if TYPE_CHECKING:
    import numpy as np

    from ..vision import SeenDie

#: what an annotated picture's name adds to the picture's own (so it never replaces the photo)
ANNOTATED_SUFFIX = ".read.jpg"


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("read", help="read the dice in pictures")
    parser.add_argument(
        "images", type=Path, nargs="+", metavar="IMAGE", help="picture files, or folders of them"
    )
    add_reader_options(parser)
    parser.add_argument(
        "--annotate",
        type=Path,
        metavar="OUT",
        help="also write each picture with what was read drawn on it (the dice a game would ask about "
        f"boxed in red): to OUT when one picture is read and OUT ends {', '.join(FRAME_SUFFIXES)}; "
        f"else into the folder OUT, as NAME{ANNOTATED_SUFFIX}",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..vision.colour import too_dark_for_colour
    from ..vision.quality import NO_COLOUR, TOO_DARK, colourless, lighting_problem

    pictures = pictures_in(args.images)
    annotate_to = annotated_path(args.annotate, pictures) if args.annotate is not None else None
    reader = reader_for(args)
    results: list[dict[str, object]] = []
    failed, unwritten = False, 0
    # an annotated picture never takes the name of a picture read (or of another one of this run)
    taken = {path.resolve() for path in pictures}
    for path in pictures:
        image, problem, cut_short = load_image(path)
        if image is None:
            failed = True
            results.append({"image": str(path), "error": problem})
            continue
        start = time.perf_counter()
        dice = reader.read(image)
        ms = (time.perf_counter() - start) * 1000
        result: dict[str, object] = {
            "image": str(path),
            "ms": round(ms, 1),
            "dice": [d.to_json() for d in dice],
        }
        warnings = [
            cut_short,
            reader.calibration.fitted_to((image.shape[1], image.shape[0])).problem,
            lighting_problem(image) if not dice else None,
            NO_COLOUR if dice and colourless(image) else None,
            TOO_DARK if dice and too_dark_for_colour(image, [d.box for d in dice]) else None,
        ]
        if args.annotate is not None:
            out = annotate_to or numbered_path(args.annotate, path, taken)
            written = write_annotated(out, image, dice)
            if written is None:
                unwritten += 1
                warnings.append(f"the annotated picture could not be written to {args.annotate}")
            else:
                result["annotated"] = str(written)
        if any(warnings):
            result["warning"] = "; ".join(w for w in warnings if w)
        results.append(result)
    if args.json:
        json.dump(results, sys.stdout)
        sys.stdout.write("\n")
    else:
        for result in results:
            print(_table(result))
    if failed:
        print(
            f"companion read: {sum('error' in r for r in results)} of {len(results)} pictures "
            "could not be read",
            file=sys.stderr,
        )
    if unwritten:
        print(f"companion read: {unwritten} annotated pictures could not be written", file=sys.stderr)
    return 1 if failed or unwritten else 0


def annotated_path(out: Path, pictures: list[Path]) -> Path | None:
    """The one file to draw into when ``out`` names a picture, else None (``out`` is a folder, made
    now); either way a path that cannot be written is said before any reading."""
    if out.suffix.lower() in FRAME_SUFFIXES and not out.is_dir():
        if len(pictures) > 1:
            raise CommandError(
                f"--annotate {out} names one picture, but {len(pictures)} pictures are read: name a folder"
            )
        if pictures and out.resolve() == pictures[0].resolve():
            raise CommandError(f"--annotate {out} is the picture read: name another file, so it stays")
        make_folder(out.parent)
        return out
    make_folder(out)
    return None


def make_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise CommandError(f"--annotate {folder}: that is a file, not a folder") from None
    except OSError as err:
        raise CommandError(f"--annotate {folder}: cannot make that folder ({err.strerror})") from None


def numbered_path(folder: Path, picture: Path, taken: set[Path]) -> Path:
    """The picture's name plus ``ANNOTATED_SUFFIX`` in ``folder``, numbered when that path is
    ``taken`` (a picture read, or drawn already in this run)."""
    out, number = folder / f"{picture.stem}{ANNOTATED_SUFFIX}", 1
    while out.resolve() in taken:
        number += 1
        out = folder / f"{picture.stem}-{number}{ANNOTATED_SUFFIX}"
    taken.add(out.resolve())
    return out


def write_annotated(out: Path, image: np.ndarray, dice: list[SeenDie]) -> Path | None:
    """``image`` with ``dice`` drawn on it (those the camera game would ask about boxed in red, as
    its picture does), written to ``out``; None if it could not be written."""
    import cv2

    from ..vision.annotate import annotate
    from ..vision.sure import is_sure

    try:
        unsure = {index for index, die in enumerate(dice) if not is_sure(die)}
        quality = [cv2.IMWRITE_JPEG_QUALITY, 90] if out.suffix.lower() in (".jpg", ".jpeg") else []
        written = cv2.imwrite(str(out), annotate(image, dice, wrong=unsure), quality)
    except cv2.error:
        written = False
    return out if written else None


def _table(result: dict) -> str:
    if "error" in result:
        return f"{result['image']}: ERROR {result['error']}"
    warning = f" ({result['warning']})" if "warning" in result else ""
    lines = [f"{result['image']}: {dice_count(len(result['dice']))} in {result['ms']:.0f} ms{warning}"]
    if "annotated" in result:
        lines.append(f"  drawn in {result['annotated']}")
    for die in result["dice"]:
        x, y, w, h = die["box"]
        unsure = "" if die["sure"] else "  unsure: a game would ask"
        lines.append(
            f"  {die['pips']}  {die['colour']:<7} at {x},{y} ({w}×{h})  score {die['score']:.2f}{unsure}"
        )
    if len(result["dice"]) > 1:
        lines.append(f"  by colour: {by_colour(result['dice'])}")
    return "\n".join(lines)


def by_colour(dice: list[dict]) -> str:
    """The values read, colour by colour (most dice first), as a player tallies a roll:
    "red 1 3 3 6 · blue 2 5"."""
    values: dict[str, list[int]] = {}
    for die in dice:
        values.setdefault(die["colour"], []).append(die["pips"])
    ordered = sorted(values.items(), key=lambda item: -len(item[1]))
    return " · ".join(f"{colour} {' '.join(map(str, sorted(pips)))}" for colour, pips in ordered)
