"""Benchmark: whole rolls at one table under one lamp, read with the default palette and with
the table's calibration.

``bench_game_rolls`` renders every roll at a table and under a light of its own, so no
calibration can be tested there. Here each table (``research.synth.game_roll.sample_table``:
2–5 players' colours, one edition, one webcam, one cloth, one lamp) is first calibrated as the
setup page calibrates it: one picture of each colour's dice alone on the table (each player's
and the neutral dice's), learned from the dice the reader finds there
(``companion.commands.calibrate.learn_readings``). Then its rolls are read twice, with the
default palette and with that calibration, and the camera bridge names each as in a game.
``--light NAME`` puts every picture, calibration pictures too, under one of ``bench_colour``'s
lights: the lamp a calibration is meant for. ``--players-only`` leaves the neutral dice's colour
out of each calibration, as a table that learned only its players' dice.

The outcomes are ``bench_game_rolls``'s, for the rolls of one colour and those with neutral
dice apart; per die, the share of dice found whose colour was read right before the bridge.

Run: python -m research.benchmarks.bench_calibrated_rolls [--tables 20] [--rolls 15] [--seed 204]
    [--light NAME] [--players COLOURS] [--players-only]
"""

import argparse
from collections import Counter
from dataclasses import dataclass

import numpy as np

from companion.commands.calibrate import learn_readings
from companion.vision.calibration import Calibration, learn_colour
from companion.vision.reader import DiceReader
from research.reader.dataset import LabelledBox
from research.reader.evaluation import match, matched
from research.synth.cli import add_players_option
from research.synth.game_roll import calibration_picture, sample_table, table_roll
from research.synth.scene import Scene

from .bench_colour import add_light_option, light_factors, under_light
from .bench_game_rolls import OUTCOMES, shown_outcome

#: how the rolls are read
READINGS = ("palette", "calibrated")
#: the rolls apart
KINDS = ("one colour", "with neutral dice")
#: how many kinds of colour mistake the last lines name
WORST_NAMED = 6


@dataclass
class Table:
    """A rendered table: a picture of each colour's dice alone, then its rolls (under the light)."""

    neutral: str
    calibration_pictures: dict[str, np.ndarray]
    rolls: list[Scene]


def rendered_tables(
    seed: int, tables: int, rolls: int, players: tuple[str, ...], light: tuple[float, float, float] | None
) -> list[Table]:
    """``tables`` tables of ``rolls`` rolls each, rendered from ``seed``, under ``light``."""
    rng = np.random.default_rng(seed)
    rendered = []
    for _ in range(tables):
        table = sample_table(rng, players)
        pictures = {c: under_light(calibration_picture(rng, table, c).image, light) for c in table.colours}
        scenes = [table_roll(rng, table) for _ in range(rolls)]
        for scene in scenes:
            scene.image = under_light(scene.image, light)
        rendered.append(Table(table.neutral, pictures, scenes))
    return rendered


def calibrated(
    reader: DiceReader, pictures: dict[str, np.ndarray], leave_out: tuple[str, ...] = ()
) -> tuple[Calibration, list[str]]:
    """The table's calibration learned from each colour's picture but those of ``leave_out``, and
    the colours it could not learn (no die found in their picture)."""
    calibration, unlearned = Calibration(), []
    for colour, image in pictures.items():
        if colour in leave_out:
            continue
        readings = learn_readings(reader, image)
        if readings:
            calibration.colours[colour] = learn_colour(readings)
        else:
            unlearned.append(colour)
    return calibration, unlearned


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rolls", type=int, default=15, help="rolls read at each table (default 15)")
    parser.add_argument("--seed", type=int, default=204, help="a seed no training set used (default 204)")
    add_players_option(parser)
    add_light_option(parser)
    parser.add_argument(
        "--players-only",
        action="store_true",
        help="learn the players' colours only, not the neutral dice's (as a table that skipped them)",
    )
    args = parser.parse_args()
    reader = DiceReader()
    tables = rendered_tables(args.seed, args.tables, args.rolls, args.players, light_factors(args.light))
    outcomes: Counter = Counter()
    colour_right: Counter = Counter()
    confused: Counter = Counter()  # (reading, true colour, colour read) of each die found read wrong
    unlearned_colours = 0
    for table in tables:
        left_out = (table.neutral,) if args.players_only else ()
        calibration, unlearned = calibrated(reader, table.calibration_pictures, left_out)
        unlearned_colours += len(unlearned)
        for scene in table.rolls:
            truth = [(d.colour, d.pips) for d in scene.dice]
            labels = [LabelledBox(d.pips, *d.box) for d in scene.dice]
            kind = KINDS[any(colour == table.neutral for colour, _ in truth)]
            for reading, used in zip(READINGS, (Calibration(), calibration), strict=True):
                reader.calibration = used
                dice = reader.read(scene.image)
                _, outcome = shown_outcome(truth, dice)
                for group in (kind, "all rolls"):
                    outcomes[reading, group, "rolls"] += 1
                    outcomes[reading, group, outcome] += 1
                pairs = matched(dice, labels)
                result = match(dice, labels, [c for c, _ in truth], pairs)
                confused.update((reading, truth[i][0], d.colour) for d, i in pairs if d.colour != truth[i][0])
                colour_right[reading, kind, "found"] += result.colour_checked
                colour_right[reading, kind, "right"] += result.colour_right
    lamp = f", under the {args.light} light" if args.light else ", as rendered"
    learned = ", the players' colours learned only" if args.players_only else ""
    print(f"\n{args.tables} tables × {args.rolls} rolls (seed {args.seed}){lamp}{learned}")
    if unlearned_colours:
        print(f"{unlearned_colours} colours could not be learned (no die found in their picture)")
    print("\n| read with | rolls | count | " + " | ".join(OUTCOMES) + " | colour right per die |")
    print("|---" * (len(OUTCOMES) + 4) + "|")
    for reading in READINGS:
        for group in ("all rolls", *KINDS):
            n = outcomes[reading, group, "rolls"]
            if not n:
                continue
            groups = KINDS if group == "all rolls" else (group,)
            found = sum(colour_right[reading, g, "found"] for g in groups)
            right = sum(colour_right[reading, g, "right"] for g in groups)
            share = f"{right / found:.3f}" if found else "–"
            counts = " | ".join(str(outcomes[reading, group, k]) for k in OUTCOMES)
            print(f"| {reading} | {group} | {n} | {counts} | {share} |")
    for reading in READINGS:
        worst = sorted(((n, t, r) for (how, t, r), n in confused.items() if how == reading), reverse=True)
        named = ", ".join(f"{t} read {r} {n}" for n, t, r in worst[:WORST_NAMED]) or "none"
        print(f"\ncolours read wrong most, {reading}: {named}")


if __name__ == "__main__":
    main()
