"""`companion export-fixes DIR`: the dice players fixed on the camera's picture, written as a
labelled set (YOLO images and labels, with the dice's colours and what the reader had read), so
that a table's corrections can train the next model."""

import argparse
from pathlib import Path


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "export-fixes", help="write the dice players fixed on the camera's picture as a labelled set"
    )
    parser.add_argument(
        "folder", metavar="DIR", type=Path, help="the set's folder (created; train/ goes in it)"
    )
    parser.add_argument("--data", type=Path, help="the games' folder (default: the one `serve` uses)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..fixes import FixStore
    from ..fixes.labelled_set import SPLIT, write_labelled_set
    from ..fixes.store import FILE_NAME
    from ..storage import default_folder
    from . import CommandError

    data = args.data or default_folder()
    if not (data / FILE_NAME).exists():
        raise CommandError(
            f"no fixes are kept in {data}: fix a die on the camera's picture during a game first, "
            "or name the folder `serve --data` used"
        )
    fixes = FixStore(data).fixes()
    if not fixes:
        raise CommandError(f"no die has been fixed yet in {data}: nothing to export")
    try:
        written = write_labelled_set(fixes, args.folder)
    except OSError as err:
        raise CommandError(f"cannot write the set to {args.folder}: {err.strerror or err}") from None
    values = ", ".join(f"{n}×{pips}" for pips, n in written.pips.items())
    print(
        f"{written.images} fixed dice ({values}; {written.misread} the reader had read otherwise) "
        f"written to {written.folder / SPLIT}"
    )
    return 0
