"""Fit the unsure rule on real labelled photos, and judge it on the held-out ones.

The rule's two bounds (the detector's least score, the pip reader's least margin) are chosen on
a grid to minimise the cost P(a roll of 8 waits for a tap) + ``SILENT_WEIGHT`` × P(it is
recorded wrong silently) on the fitting folders (table-dice train by default: photos the shipped
models never trained on); then every held-out split is read and its solid-coloured dice scored
with today's rule and the fitted one.

Run: python -m research.reader.fit_sure --datasets ../shared/datasets [--crops 5]
"""

from __future__ import annotations

import argparse
import itertools
import json
from functools import partial
from pathlib import Path

import numpy as np

from companion.vision.sure import UNSURE_FOUND, UNSURE_MARGIN, is_sure

from .real import COLOUR_LABELS, SETS, measure
from .table_feel import ROLL_DICE, TableFeel, solid_dice

#: a roll recorded wrong silently weighs as much as this many rolls waiting for a tap: the
#: ratio of the targets (waits ≤ 15 %, silently wrong ≤ 1 %)
SILENT_WEIGHT = 15.0
FOUND_GRID = np.round(np.arange(0.25, 0.701, 0.05), 2)
MARGIN_GRID = np.round(np.arange(0.30, 0.951, 0.05), 2)


def cost(figures: dict) -> float:
    """What a rule costs a table: rolls waiting, and rolls gone in wrong weighted ``SILENT_WEIGHT``."""
    return figures["roll_waits"] + SILENT_WEIGHT * figures["roll_wrong_silently"]


def fitted_bounds(feel: TableFeel) -> tuple[float, float]:
    """The (least found score, least margin) of the grid with the least cost on ``feel``."""
    pairs = itertools.product(FOUND_GRID, MARGIN_GRID)
    return min(
        pairs,
        key=lambda pair: (
            cost(feel.figures(partial(is_sure, least_found=pair[0], least_margin=pair[1]))),
            pair,
        ),
    )


def cost_difference(
    before: np.ndarray, after: np.ndarray, rounds: int = 2000, seed: int = 0
) -> tuple[float, float, float]:
    """The cost of ``after`` less that of ``before`` (``TableFeel.per_photo`` of the same photos,
    in the same order), with a 95 % interval from a paired bootstrap over the photos."""
    if before.shape != after.shape:
        raise ValueError(f"{len(before)} and {len(after)} photos: not the same set")

    def costs(drawn: np.ndarray) -> np.ndarray:
        dice, asked, sure_right = drawn.sum(axis=-2).transpose()
        none_asked = (1 - asked / dice) ** ROLL_DICE
        return 1 - none_asked + SILENT_WEIGHT * (none_asked - (sure_right / dice) ** ROLL_DICE)

    draws = np.random.default_rng(seed).integers(0, len(before), (rounds, len(before)))
    spread = costs(after[draws]) - costs(before[draws])
    low, high = np.percentile(spread, [2.5, 97.5])
    return float(costs(after) - costs(before)), float(low), float(high)


def all_solid(folder: Path, stem: str, labels: int) -> list[bool]:
    """Every labelled die of a table-dice photo: the set has no marbled or translucent dice."""
    return [True] * labels


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--datasets", type=Path, default=Path("../shared/datasets"))
    parser.add_argument(
        "--fit", nargs="+", default=["table-dice/train"], help="folders to fit on (train splits)"
    )
    parser.add_argument("--crops", type=int, default=1, help="crops each die is read from (1: today's)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--against", type=Path, help="a --json of an earlier run: the costs compared, photo by photo"
    )
    args = parser.parse_args()

    from companion.vision import DiceReader

    from .several_crops import several_crops

    reader = DiceReader(threads=args.threads)
    if args.crops > 1:
        several_crops(reader, args.crops, args.threads)
    train = TableFeel()
    measure(reader, [args.datasets / f for f in args.fit], feel=train, solid=all_solid)
    bounds = fitted_bounds(train)
    today = (UNSURE_FOUND, UNSURE_MARGIN)
    rules = {"today": today, "fitted": bounds}
    report: dict = {"fitted": bounds, "fit on": {}}
    for name, pair in rules.items():
        report["fit on"][name] = train.figures(partial(is_sure, least_found=pair[0], least_margin=pair[1]))
    colours = json.loads(COLOUR_LABELS.read_text())
    feels, ms = {}, {}
    for name, parts in SETS.items():
        feels[name] = TableFeel()
        ms[name] = measure(
            reader,
            [args.datasets / p for p in parts],
            feel=feels[name],
            solid=partial(solid_dice, name, table_colours=colours),
        ).as_json()["median_ms"]
    report["median ms a photo"] = ms
    feels["pooled"] = TableFeel.pooled(list(feels.values()))
    for name, feel in feels.items():
        report[name] = {
            rule: feel.figures(partial(is_sure, least_found=p[0], least_margin=p[1]))
            for rule, p in rules.items()
        }
    print(
        f"fitted on {', '.join(args.fit)} ({train.dice} dice, {args.crops} crop(s) a die): "
        f"least found {bounds[0]:.2f}, least margin {bounds[1]:.2f}"
    )
    print("median ms a photo: " + ", ".join(f"{name} {value:.1f}" for name, value in ms.items()))
    for name in ["fit on", *feels]:
        for rule in rules:
            f = report[name][rule]
            print(
                f"{name:<22}{rule:<8} found {f['found']:.3f} pips {f['pips_right_among_found']:.3f} "
                f"unsure {f['unsure_among_found']:.3f} wrong+sure {f['wrong_while_sure_among_found']:.4f} "
                f"waits {f['roll_waits']:.3f} silent {f['roll_wrong_silently']:.4f} cost {cost(f):.3f}"
            )
    photos = {
        rule: feels["pooled"].per_photo(partial(is_sure, least_found=p[0], least_margin=p[1]))
        for rule, p in rules.items()
    }
    difference, low, high = cost_difference(photos["today"], photos["fitted"])
    print(
        f"pooled cost, fitted less today: {difference:+.3f} "
        f"(95 % of a bootstrap over photos: {low:+.3f} to {high:+.3f})"
    )
    report["pooled per photo"] = {rule: rows.tolist() for rule, rows in photos.items()}
    if args.against is not None:
        earlier = json.loads(args.against.read_text())["pooled per photo"]
        for rule, rows in photos.items():
            for old_rule, old_rows in earlier.items():
                difference, low, high = cost_difference(np.array(old_rows), rows)
                print(
                    f"pooled cost, {rule} here less {old_rule} of {args.against.name}: {difference:+.3f} "
                    f"({low:+.3f} to {high:+.3f})"
                )
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
