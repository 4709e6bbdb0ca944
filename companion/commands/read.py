"""`companion read IMAGE…`: find every die in pictures, with pips and colour."""

import argparse
import json
import sys
import time
from pathlib import Path

from ..vision.quality import NO_COLOUR, colourless, lighting_problem
from .vision_support import add_reader_options, build_reader, load_image, pictures_in


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("read", help="read the dice in pictures")
    parser.add_argument(
        "images", type=Path, nargs="+", metavar="IMAGE", help="picture files, or folders of them"
    )
    add_reader_options(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    reader = build_reader(args)
    results, failed = [], False
    for path in pictures_in(args.images):
        image, problem, cut_short = load_image(path)
        if image is None:
            failed = True
            results.append({"image": str(path), "error": problem})
            continue
        start = time.perf_counter()
        dice = reader.read(image)
        ms = (time.perf_counter() - start) * 1000
        result = {"image": str(path), "ms": round(ms, 1), "dice": [d.to_json() for d in dice]}
        warnings = [
            cut_short,
            lighting_problem(image) if not dice else None,
            NO_COLOUR if dice and colourless(image) else None,
        ]
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
    return 1 if failed else 0


def _table(result: dict) -> str:
    if "error" in result:
        return f"{result['image']}: ERROR {result['error']}"
    warning = f" ({result['warning']})" if "warning" in result else ""
    lines = [f"{result['image']}: {len(result['dice'])} dice in {result['ms']:.0f} ms{warning}"]
    for die in result["dice"]:
        x, y, w, h = die["box"]
        lines.append(f"  {die['pips']}  {die['colour']:<7} at {x},{y} ({w}×{h})  score {die['score']:.2f}")
    return "\n".join(lines)
