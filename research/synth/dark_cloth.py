"""Game rolls on a dark speckled cloth: the table where black dice go missing.

A black die on dark granite-like stone shows little but its pips and a rim of light; the
detector trained mostly on plain felt and wood missed about one black die in ten there (session
54, against about one in a hundred on the webcam's usual tables), while dice of every other
colour were found as on any table. Each roll here is one player's, as ``game_roll`` draws it,
on a speckled cloth whose mean tone is under ``DARKEST_CLOTH``, under a random lamp; a
``black_share`` of the rolls are a black player's, the rest the other colours in turn.

    python -m research.synth.dark_cloth OUT --count 1500 --seed 53 [--black-share 0.5] [--max-side 800]
"""

import argparse
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from .busy import speckled
from .cli import parse_share
from .game_roll import BIGGY_EDITION, PLAYER_COLOURS, WEBCAM_LENS, neutral_colour, place_roll, player_roll
from .make_dataset import write_scenes
from .perspective import LAMP_HEIGHT, TableLook, render_cubes, sample_lens, sample_light
from .scene import Scene, frame_size

#: a dark cloth's mean tone (0–255) is under this
DARKEST_CLOTH = 110.0
#: the players who are not black, taken in turn
OTHER_PLAYERS = tuple(c for c in PLAYER_COLOURS if c != "black")


def dark_speckled(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A speckled cloth (``busy.speckled``) drawn again until its mean tone is under ``DARKEST_CLOTH``."""
    while True:
        cloth = speckled(rng, w, h)
        if float(cloth.mean()) < DARKEST_CLOTH:
            return cloth


def dark_cloth_rolls(rng: np.random.Generator, count: int, black_share: float = 0.5) -> Iterator[Scene]:
    """``count`` rolls on dark speckled cloths, a ``black_share`` of them a black player's (the
    three-round edition in a quarter of them, the neutral dice grey there or for a white player)."""
    for index in range(count):
        w, h = frame_size(rng)
        die_pixels, camera = sample_lens(rng, w, h, WEBCAM_LENS)
        look = TableLook(dark_speckled(rng, w, h), sample_light(rng), rng.uniform(*LAMP_HEIGHT))
        player = "black" if rng.random() < black_share else OTHER_PLAYERS[index % len(OTHER_PLAYERS)]
        biggy_edition = bool(rng.random() < BIGGY_EDITION)
        dice = player_roll(rng, player, biggy_edition, neutral_colour(biggy_edition, (player,)))
        cubes = place_roll(rng, camera, w, h, dice)
        yield render_cubes(rng, camera, (w, h), cubes, die_pixels, WEBCAM_LENS, look)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=53)
    parser.add_argument(
        "--black-share", type=parse_share, default=0.5, help="share of rolls a black player's (default 0.5)"
    )
    parser.add_argument("--max-side", type=int, default=800)
    args = parser.parse_args()
    rolls = dark_cloth_rolls(np.random.default_rng(args.seed), args.count, args.black_share)
    write_scenes(args.out, args.seed, rolls, args.max_side)


if __name__ == "__main__":
    main()
