"""Render one player's roll as the table's webcam sees it: the dice a player of Las Vegas throws
at once (their own colour, with the neutral dice they hold and their Biggy in the three-round
edition) lying where they fell, some against each other, seen from near straight above.

The other renders draw dice of any colours anywhere; this is the picture the camera loop reads
most, so ``research/benchmarks/bench_game_rolls.py`` scores whole rolls on it: a roll read right
is one the tablet records without a player's correction.
"""

import math
from dataclasses import dataclass

import numpy as np

from .perspective import (
    BIGGY_SIZE,
    Camera,
    Cube,
    LensOptions,
    TableLook,
    overlap,
    render_cubes,
    sample_lens,
    sample_table_look,
    top_inside,
)
from .scene import Scene, frame_size

#: the colours a player plays (the classic game's five, and two more the page offers)
PLAYER_COLOURS = ("red", "green", "blue", "black", "white", "yellow", "violet")
#: a webcam over the table: a die at the centre 4.5–10 % of the frame's shorter side wide, the
#: lowest camera 60° above the table (most near straight above); plain game dice, a few
#: see-through or with shiny pips, now and then on a patterned cloth or partly out of focus
WEBCAM_LENS = LensOptions(
    lowest=60.0,
    slanted=0.15,
    die_share=(0.045, 0.10),
    busy=0.2,
    defocus=0.1,
    translucent=0.05,
    glossy=0.05,
)
#: the share of rolls (and of tables) that play the three-round edition
BIGGY_EDITION = 0.25
#: the share of dice that come to rest against a die already lying there
TOUCHING = 0.35
#: dice fall within this many die sides of the roll's centre (low, high)
SCATTER = (2.0, 4.5)
#: how far from the picture's middle a roll's centre lies (a standard deviation, as a share of
#: the picture's width and height)
TRAY_SPREAD = 0.12


@dataclass(frozen=True)
class RolledDie:
    colour: str
    pips: int
    big: bool = False


def roll_dice(rng: np.random.Generator, players: tuple[str, ...] = PLAYER_COLOURS) -> list[RolledDie]:
    """A roll a player may make: 1–8 dice of their colour (one of ``players``) in the classic game,
    with up to four white neutral dice (grey when the player is white) in the neutral variant; in
    the three-round edition up to six dice and their Biggy, with up to three grey neutral dice."""
    player = str(players[rng.integers(len(players))])
    biggy_edition = rng.random() < BIGGY_EDITION
    return player_roll(rng, player, biggy_edition, neutral_colour(biggy_edition, (player,)))


def neutral_colour(biggy_edition: bool, players: tuple[str, ...]) -> str:
    """The neutral dice's colour: grey in the three-round edition or when one of ``players``
    plays white, else white."""
    return "grey" if biggy_edition or "white" in players else "white"


def player_roll(rng: np.random.Generator, player: str, biggy_edition: bool, neutral: str) -> list[RolledDie]:
    """A roll of ``player``'s: 1–8 of their dice in the classic game, with 1–4 ``neutral`` dice
    in 40 % of rolls; in the three-round edition 0–6 and their Biggy (70 % of rolls, always
    with none of their own), with 1–3 neutral dice in 40 % of rolls (0 drawn is none)."""
    if biggy_edition:
        own = int(rng.integers(0, 7))
        big = rng.random() < 0.7 or own == 0
        neutrals = int(rng.integers(0, 4)) if rng.random() < 0.4 else 0
    else:
        own, big = int(rng.integers(1, 9)), False
        neutrals = int(rng.integers(1, 5)) if rng.random() < 0.4 else 0
    dice = [RolledDie(player, int(rng.integers(1, 7)), True)] if big else []
    dice += [RolledDie(player, int(rng.integers(1, 7))) for _ in range(own)]
    dice += [RolledDie(neutral, int(rng.integers(1, 7))) for _ in range(neutrals)]
    return dice


def place_roll(rng: np.random.Generator, camera, w: int, h: int, dice: list[RolledDie]) -> list[Cube]:
    """Where the ``dice`` came to rest: scattered round a spot in view, a ``TOUCHING`` share of
    them against a die already lying there, none standing in another, every top face in the
    picture. A die with no room left is not drawn (and so not labelled)."""
    centre = None
    for _ in range(50):  # the camera is set up over the tray: rolls land near the picture's middle
        spot = (w / 2 + rng.normal(0, TRAY_SPREAD * w), h / 2 + rng.normal(0, TRAY_SPREAD * h))
        if (centre := camera.on_table(spot)) is not None:
            break
    if centre is None:
        return []
    radius = rng.uniform(*SCATTER)
    cubes: list[Cube] = []
    for die in dice:
        size = BIGGY_SIZE if die.big else 1.0
        for _ in range(60):
            if cubes and rng.random() < TOUCHING:
                neighbour = cubes[int(rng.integers(len(cubes)))]
                square = rng.random() < 0.6
                side = neighbour.angle + int(rng.integers(4)) * math.pi / 2 + rng.normal(0, 0.05)
                direction = side if square else rng.uniform(0, 2 * math.pi)
                gap = (neighbour.size + size) / 2 * rng.uniform(1.0, 1.12)
                x, y = neighbour.x + gap * math.cos(direction), neighbour.y + gap * math.sin(direction)
                angle = neighbour.angle + rng.normal(0, 0.05) if square else rng.uniform(0, math.pi / 2)
            else:
                distance, bearing = radius * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
                x, y = centre[0] + distance * math.cos(bearing), centre[1] + distance * math.sin(bearing)
                angle = rng.uniform(0, math.pi / 2)
            cube = Cube(float(x), float(y), angle, die.pips, die.colour, size, int(rng.integers(4)))
            if top_inside(cube, camera, w, h) and not any(overlap(cube, other) for other in cubes):
                cubes.append(cube)
                break
    return cubes


def sample_game_roll(
    rng: np.random.Generator, size: tuple[int, int] | None = None, players: tuple[str, ...] = PLAYER_COLOURS
) -> Scene:
    """One player's roll (a player of one of ``players``' colours) on a table, 640×480 to 1280×720
    unless ``size`` is given, seen by a webcam as ``WEBCAM_LENS`` says."""
    w, h = size or frame_size(rng)
    die_pixels, camera = sample_lens(rng, w, h, WEBCAM_LENS)
    cubes = place_roll(rng, camera, w, h, roll_dice(rng, players))
    return render_cubes(rng, camera, (w, h), cubes, die_pixels, WEBCAM_LENS)


#: how many players sit at a table (fewest, most)
SEATS = (2, 5)
#: how many dice of one colour a calibration picture shows (a player's dice alone in the tray)
CALIBRATION_DICE = 8


@dataclass(frozen=True)
class GameTable:
    """One table through a game: its webcam (frame size, camera, how wide a die is), its cloth
    and lamp, the colours its players play, the edition and the neutral dice's colour."""

    size: tuple[int, int]
    camera: Camera
    die_pixels: float
    look: TableLook
    players: tuple[str, ...]
    biggy_edition: bool
    neutral: str

    @property
    def colours(self) -> tuple[str, ...]:
        """Every colour of dice rolled at this table: the players', then the neutral dice's."""
        return (*self.players, self.neutral)


def sample_table(rng: np.random.Generator, players: tuple[str, ...] = PLAYER_COLOURS) -> GameTable:
    """A table of 2–5 players of ``players``' colours (fewer when fewer are given), seen by one
    webcam under one lamp; the neutral dice are grey in the three-round edition or when a player
    plays white, else white."""
    size = frame_size(rng)
    die_pixels, camera = sample_lens(rng, *size, WEBCAM_LENS)
    look = sample_table_look(rng, size, die_pixels, WEBCAM_LENS)
    count = min(len(players), int(rng.integers(SEATS[0], SEATS[1] + 1)))
    seated = tuple(str(c) for c in rng.choice(players, count, replace=False))
    biggy_edition = bool(rng.random() < BIGGY_EDITION)
    neutral = neutral_colour(biggy_edition, seated)
    return GameTable(size, camera, die_pixels, look, seated, biggy_edition, neutral)


def table_roll(rng: np.random.Generator, table: GameTable) -> Scene:
    """A roll of one of the table's players (``player_roll``), as its webcam sees it."""
    player = table.players[int(rng.integers(len(table.players)))]
    return render_at(rng, table, player_roll(rng, player, table.biggy_edition, table.neutral))


def calibration_picture(rng: np.random.Generator, table: GameTable, colour: str) -> Scene:
    """``CALIBRATION_DICE`` dice of one colour alone on the table, as the setup page is shown
    them to learn that colour."""
    dice = [RolledDie(colour, int(rng.integers(1, 7))) for _ in range(CALIBRATION_DICE)]
    return render_at(rng, table, dice)


def render_at(rng: np.random.Generator, table: GameTable, dice: list[RolledDie]) -> Scene:
    """``dice`` rolled at ``table``, as its webcam sees them."""
    w, h = table.size
    cubes = place_roll(rng, table.camera, w, h, dice)
    return render_cubes(rng, table.camera, table.size, cubes, table.die_pixels, WEBCAM_LENS, table.look)
