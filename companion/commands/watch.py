"""`companion watch`: print one JSON line per settled roll (and per camera event). No server."""

import argparse
import json
import sys

from . import CommandError
from .vision_support import add_reader_options, reader_for, table_calibration

#: said once when no calibration is found: what that means for the reading, and the way out
UNCALIBRATED = (
    "No calibration for this table: the whole frame is read (a die anywhere in view counts) and "
    "colours are read with the default palette. To mark the tray and learn your dice's colours, "
    "run `companion calibrate` or the setup page of `companion serve --camera N`, then "
    "watch again (or give --calibration FILE)."
)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("watch", help="watch a camera or recording and print each settled roll")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--camera", type=int, metavar="N", help="webcam index")
    where.add_argument("--source", metavar="PATH|URL", help="video file, folder of frames, sample, stream")
    add_reader_options(parser)
    parser.add_argument(
        "--realtime",
        action="store_true",
        help="play a recording at its own speed, skipping frames like a live camera",
    )
    parser.add_argument("--json", action="store_true", help="print JSON lines (the default is text)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..camera.loop import watch_source
    from ..camera.sources import SourceError

    args.calibration, note = table_calibration(args.calibration, args.camera, args.source)
    if args.calibration is None:
        note = UNCALIBRATED
    reader = reader_for(args)
    untold = [note] if note else []  # said once the camera gives pictures, not before an error

    def emit(record: dict) -> None:
        while untold:
            print(untold.pop(), file=sys.stderr, flush=True)
        if args.json:
            print(json.dumps(record), flush=True)
        elif "dice" in record:
            dice = ", ".join(f"{d['pips']} {d['colour']}" for d in record["dice"])
            corrects = f" (corrects the roll at {record['replaces']:.2f} s)" if "replaces" in record else ""
            print(f"{record['t']:8.2f} s  roll: {dice}{corrects}", flush=True)
        else:
            print(f"{record['t']:8.2f} s  camera {record['camera']}: {record['message']}", flush=True)

    try:
        watch_source(reader, emit, camera=args.camera, source=args.source, realtime=args.realtime)
    except SourceError as err:
        raise CommandError(str(err)) from None
    except KeyboardInterrupt:
        pass  # Ctrl-C is how a watch of a live camera ends: a normal exit, not an error
    sys.stdout.flush()
    return 0
