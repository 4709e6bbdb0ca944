"""The command-line options both trainings share, their seeded start and their progress lines."""

import argparse
import random
from pathlib import Path

import torch

from research.synth.cli import parse_share


def training_parser(doc: str, out: str, minutes: float, batch: int) -> argparse.ArgumentParser:
    """A parser with the options every training takes; each adds its own after these."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path(out))
    parser.add_argument("--data", type=Path, nargs="*", default=[], help="real YOLO training folders")
    parser.add_argument("--synthetic", type=Path, nargs="*", default=[], help="rendered YOLO folders")
    parser.add_argument("--minutes", type=float, default=minutes)
    parser.add_argument("--batch", type=int, default=batch)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2, help="CPU threads for torch")
    parser.add_argument(
        "--resume", type=Path, help="a checkpoint (.pt) or an exported model (.onnx) to go on from"
    )
    return parser


def add_keep_options(parser: argparse.ArgumentParser, teacher: str) -> None:
    """--keep-from (the ``teacher`` file whose answers on real data the net keeps, described so)
    and --keep-weight, as both trainings take them."""
    parser.add_argument("--keep-from", type=Path, help=teacher)
    parser.add_argument("--keep-weight", type=float, default=1.0, help="weight of the --keep-from loss")


def add_blur_options(parser: argparse.ArgumentParser, blurred: str, sharp: str) -> None:
    """--motion-blur (the share of the ``blurred`` training pictures smeared along a line) and
    --keep-sharp (the keep loss on every picture left sharp, not only the ``sharp`` real ones),
    as both trainings take them."""
    parser.add_argument(
        "--motion-blur",
        type=parse_share,
        default=0.0,
        help=f"share of the {blurred} blurred along a line (default 0)",
    )
    parser.add_argument(
        "--keep-sharp",
        action="store_true",
        help=f"the --keep-from loss covers every picture left sharp, not only the {sharp}",
    )


def whole_numbers(text: str, count: int) -> tuple[int, ...] | None:
    """``count`` whole numbers of 1 or more written with commas between ("1,1,2,2"), or None when
    ``text`` is not that."""
    try:
        numbers = tuple(int(part) for part in text.split(","))
    except ValueError:
        return None
    return numbers if len(numbers) == count and min(numbers) >= 1 else None


def parsed(parser: argparse.ArgumentParser) -> argparse.Namespace:
    """The training's arguments, refusing a --resume file that is not there and --keep-sharp
    without the --keep-from it widens."""
    args = parser.parse_args()
    if args.resume and not args.resume.is_file():
        parser.error(f"--resume {args.resume}: no such file")
    if args.keep_sharp and not args.keep_from:
        parser.error("--keep-sharp widens the --keep-from loss: name a teacher with --keep-from")
    return args


def seeded_start(args: argparse.Namespace) -> random.Random:
    """Seed torch, set its threads, and return the run's own random source."""
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    return random.Random(args.seed)


def smoothed_value(smoothed: float | None, value: float) -> float:
    """A running average of a loss for the progress lines (the first value as it is)."""
    return value if smoothed is None else 0.98 * smoothed + 0.02 * value
