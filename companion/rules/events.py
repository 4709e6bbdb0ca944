"""The events a game is made of. A game is a list of these; its state is their fold.

Chance enters only through events: the shuffled deck is written into ``GameStarted`` and
every roll, whether from the camera, a tap on the tablet or a seeded RNG, is a ``Rolled``.
"""

from dataclasses import dataclass
from typing import Any, NamedTuple, TypedDict

from .config import GameConfig
from .dice import Die, die_of
from .errors import IllegalMove


@dataclass(frozen=True)
class GameStarted:
    """The setup and the deck order, top card first."""

    config: GameConfig
    deck: tuple[int, ...]


class Rolled(NamedTuple):
    """``player`` rolled these dice (own, Biggy and neutral ones alike)."""

    player: str
    dice: tuple[Die, ...]


class Placed(NamedTuple):
    """``player`` put every rolled die showing ``value`` on ``casino`` ("1".."6" or "slot")."""

    player: str
    value: int
    casino: str


# Rolled and Placed happen a hundred times a game, so they are light NamedTuples.
Event = GameStarted | Rolled | Placed


#: the fields of a die in JSON (``die_to_dict``, ``die_from_dict``)
DIE_FIELDS = ("colour", "pips", "big")


class DieJson(TypedDict):
    colour: str
    pips: int
    big: bool


def die_to_dict(die: Die) -> DieJson:
    return {"colour": die.colour, "pips": die.pips, "big": die.big}


def die_from_dict(data: Any) -> Die:
    """Read one die from JSON-like data; IllegalMove with the reason when it is malformed."""
    if not isinstance(data, dict):
        raise IllegalMove(f"a die must be an object with a colour and pips, got {data!r}")
    try:
        return die_of(data.get("colour"), data.get("pips"), data.get("big", False))
    except ValueError as err:
        raise IllegalMove(str(err)) from None


def event_to_dict(event: Event) -> dict[str, Any]:
    match event:
        case GameStarted(config, deck):
            return {"type": "game_started", "config": config.to_dict(), "deck": list(deck)}
        case Rolled(player, dice):
            return {"type": "rolled", "player": player, "dice": [die_to_dict(d) for d in dice]}
        case Placed(player, value, casino):
            return {"type": "placed", "player": player, "value": value, "casino": casino}
    raise TypeError(f"not an event: {event!r}")


def event_from_dict(data: dict[str, Any]) -> Event:
    kind = data.get("type")
    if kind == "game_started":
        return GameStarted(GameConfig.from_dict(data["config"]), tuple(data["deck"]))
    if kind == "rolled":
        return Rolled(data["player"], tuple(die_from_dict(d) for d in data["dice"]))
    if kind == "placed":
        return Placed(data["player"], data["value"], data["casino"])
    raise ValueError(f"unknown event type {kind!r}")
