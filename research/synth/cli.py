"""Command-line helpers shared by the renderers' scripts."""

import argparse

from .game_roll import PLAYER_COLOURS
from .palette import OFF_PALETTE_BODIES


def parse_size(text: str) -> tuple[int, int]:
    """``"3264x2448"`` -> (3264, 2448)."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 3264x2448, got {text!r}") from None
    if min(w, h) < 64:
        raise argparse.ArgumentTypeError(f"a frame of {w}x{h} is too small to draw dice in")
    return w, h


def parse_share(text: str) -> float:
    """``"0.4"`` -> 0.4: a share of scenes or dice, from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a share from 0 to 1 such as 0.4, got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"a share is from 0 to 1, got {value:g}")
    return value


def parse_players(text: str) -> tuple[str, ...]:
    """``"orange,red"`` -> ("orange", "red"): the colours a rendered game roll's player may have."""
    known = PLAYER_COLOURS + tuple(OFF_PALETTE_BODIES)
    players = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in players if name not in known]
    if unknown or not players:
        raise argparse.ArgumentTypeError(f"players' colours are some of {', '.join(known)}; got {text!r}")
    return players


def add_players_option(parser: argparse.ArgumentParser) -> None:
    """``--players COLOURS``: the colours a rendered game roll's player may have (``parse_players``;
    default the seven of ``game_roll.PLAYER_COLOURS``, orange only when named)."""
    parser.add_argument(
        "--players",
        type=parse_players,
        default=PLAYER_COLOURS,
        metavar="COLOURS",
        help="the colours a rendered game roll's player may have, comma-separated (default: "
        + ",".join(PLAYER_COLOURS)
        + "; orange too when named)",
    )
