"""Benchmark: two readers (two pairs of model files) on the same labelled folders, image by image.

For each folder, and for all of them pooled, it prints both read F1 figures, their difference and
a 95 % interval of that difference from a paired bootstrap over the images
(``research.reader.evaluation.paired_difference``).
A difference whose interval holds 0 is not told apart from how the pictures happened to fall:
with 60 rendered phone photos the interval is about ±0.01–0.02 wide, wider than the +0.005 a
model rule has asked of a fresh set.

Run: python -m research.benchmarks.compare_readers --before models --after build/q_new FOLDER [FOLDER ...]
(each of --before and --after is a folder holding dicenet.onnx and pipnet.onnx, read by
``research.reader.tunable``'s reader, so a PipNet trained on turned crops is read as it asks;
``--before-sure-unmirrored`` and ``--after-sure-unmirrored`` set how surely PipNet must read a crop
as it is not to read it mirrored too, ``none`` for every crop mirrored;
``--before-focus`` and ``--after-focus`` set the share of the frame under which the detector's full
scale covers only the regions round what its half scale found, ``none`` for the whole frame always;
``--before-quarter-from`` and ``--after-quarter-from`` the half scale's widest candidate (pixels)
from which the quarter scale is run, ``none`` for always)

``--sure`` adds a table of the dice each reader is sure of (those the camera records without
asking, ``camera_game.bridge.unsure``): how many are read right, and how many wrong (a false find
or the wrong pips). A change can lose read F1 only on dice scored under 0.35, dice the camera asks
a player about; this tells such a change from one in the dice it trusts.
"""

import argparse
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from companion.camera_game.bridge import unsure
from companion.commands.parser import share
from companion.vision import DiceReader, SeenDie
from companion.vision.detector import FOCUS_MOST, QUARTER_FROM
from companion.vision.pips import SURE_UNMIRRORED
from research.reader.benchmark import evaluate
from research.reader.dataset import LabelledBox
from research.reader.evaluation import Summary, mistakes, paired_difference
from research.reader.tunable import TunableDiceReader


def reader_of(
    models: Path,
    threads: int,
    sure_unmirrored: float | None = SURE_UNMIRRORED,
    focus_most: float | None = FOCUS_MOST,
    quarter_from: int | None = QUARTER_FROM,
) -> DiceReader:
    """The reader with the two model files of the folder ``models``: its PipNet reads mirrored
    only the crops it reads as they are under ``sure_unmirrored`` (None: every crop); its
    detector's full scale is run over regions of interest when they cover at most ``focus_most`` of
    the frame (None: never); its quarter scale is run when the half scale found something
    ``quarter_from`` pixels wide or nothing (None: always)."""
    return TunableDiceReader(
        models / "dicenet.onnx",
        threads=threads,
        pip_model_path=models / "pipnet.onnx",
        focus_most=focus_most,
        detector={"quarter_from": quarter_from},
        pips={"sure_unmirrored": sure_unmirrored},
    )


def share_or_none(text: str) -> float | None:
    """A ``--…-sure-unmirrored`` or ``--…-focus`` value: a share (as ``share`` reads it), or
    ``none`` (every crop read mirrored too; the whole frame always looked at)."""
    return None if text.strip().lower() == "none" else share(text)


def pixels_or_none(text: str) -> int | None:
    """A ``--…-quarter-from`` value: a whole number of pixels, or ``none`` (the look always made)."""
    if text.strip().lower() == "none":
        return None
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of pixels (1 or more) or 'none'")
    return int(text)


def add_reader_options(parser: argparse.ArgumentParser) -> None:
    """The two readers' options: model folders, threads and the reading knobs judged by a rule."""
    parser.add_argument("--before", type=Path, required=True, help="folder with dicenet.onnx and pipnet.onnx")
    parser.add_argument("--after", type=Path, required=True, help="folder with dicenet.onnx and pipnet.onnx")
    parser.add_argument("--threads", type=int, default=2)
    for which in ("before", "after"):
        parser.add_argument(
            f"--{which}-sure-unmirrored",
            type=share_or_none,
            default=SURE_UNMIRRORED,
            metavar="P",
            help=f"the {which} reader reads mirrored only the crops it reads as they are under P; "
            f"none: every crop (default: the reader's, {SURE_UNMIRRORED})",
        )
        parser.add_argument(
            f"--{which}-focus",
            type=share_or_none,
            default=FOCUS_MOST,
            metavar="S",
            help=f"the {which} reader's full scale covers only the regions round what the half scale "
            f"found when they are at most S of the frame; none: the whole frame (default: {FOCUS_MOST})",
        )
        parser.add_argument(
            f"--{which}-quarter-from",
            type=pixels_or_none,
            default=QUARTER_FROM,
            metavar="N",
            help=f"the {which} reader runs its quarter scale only when its half scale found something "
            f"N pixels wide or nothing; none: always (default: {QUARTER_FROM})",
        )


def readers_from(args: argparse.Namespace) -> tuple[DiceReader, DiceReader, str]:
    """The before and after readers ``add_reader_options``'s options ask for, and a line naming them."""
    before = reader_of(
        args.before,
        args.threads,
        args.before_sure_unmirrored,
        args.before_focus,
        args.before_quarter_from,
    )
    after = reader_of(
        args.after,
        args.threads,
        args.after_sure_unmirrored,
        args.after_focus,
        args.after_quarter_from,
    )
    mirrors = f" (mirrors crops read under {args.before_sure_unmirrored} / {args.after_sure_unmirrored})"
    same = args.before_sure_unmirrored == args.after_sure_unmirrored
    named = f"before: {args.before}, after: {args.after}{'' if same else mirrors}"
    if args.before_focus != args.after_focus:
        named += f" (focus {args.before_focus} / {args.after_focus})"
    if args.before_quarter_from != args.after_quarter_from:
        named += f" (quarter scale from {args.before_quarter_from} / {args.after_quarter_from} px)"
    return before, after, named


def sure_counts(dice: list[SeenDie], truths: list[LabelledBox], pairs: list[tuple[SeenDie, int]]) -> Counter:
    """Of the dice read that the camera would record without asking: how many are ``right``
    (matched to a label, with its pips) and how many ``wrong`` (a false find or the wrong pips)."""
    went_wrong = mistakes(dice, truths, pairs)
    wrong = set(went_wrong.false_finds) | set(went_wrong.wrong_pips)
    counts = Counter(right=0, wrong=0)
    for index, die in enumerate(dice):
        if not unsure(die):
            counts["wrong" if index in wrong else "right"] += 1
    return counts


def counting_into(
    counts: Counter,
) -> Callable[[list[SeenDie], list[LabelledBox], list[tuple[SeenDie, int]]], None]:
    """An ``evaluate`` ``on_read`` that adds each picture's ``sure_counts`` to ``counts``."""
    return lambda dice, truths, pairs: counts.update(sure_counts(dice, truths, pairs))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_reader_options(parser)
    parser.add_argument(
        "--sure", action="store_true", help="also count the dice each reader is sure of, right and wrong"
    )
    parser.add_argument("folders", type=Path, nargs="+", help="YOLO folders (images/, labels/)")
    args = parser.parse_args()
    before, after, named = readers_from(args)
    print(named)
    print("| set | images | read F1 before | read F1 after | difference | 95 % interval |")
    print("|---|---|---|---|---|---|")
    pooled_old, pooled_new = Summary(), Summary()
    sure: dict[str, tuple[Counter, Counter]] = {}
    for folder in args.folders:
        sure_old, sure_new = sure[str(folder)] = (Counter(), Counter())
        old = evaluate(before, [folder], on_read=counting_into(sure_old))
        new = evaluate(after, [folder], on_read=counting_into(sure_new))
        print_row(str(folder), old, new)
        pooled_old.images += old.images
        pooled_new.images += new.images
    if len(args.folders) > 1:
        print_row(f"all {len(args.folders)} together", pooled_old, pooled_new)
        sure[f"all {len(args.folders)} together"] = (
            sum((old for old, _ in sure.values()), Counter()),
            sum((new for _, new in sure.values()), Counter()),
        )
    if args.sure:
        print("\n| set | sure dice right before | after | sure dice wrong before | after |")
        print("|---|---|---|---|---|")
        for name, (old, new) in sure.items():
            print(f"| {name} | {old['right']} | {new['right']} | {old['wrong']} | {new['wrong']} |")


def print_row(name: str, old: Summary, new: Summary) -> None:
    diff, low, high = paired_difference(old.images, new.images)
    print(
        f"| {name} | {len(old.images)} | {old.figures()['read_f1']:.4f} | "
        f"{new.figures()['read_f1']:.4f} | {diff:+.4f} | {low:+.4f} … {high:+.4f} |",
        flush=True,
    )


if __name__ == "__main__":
    main()
