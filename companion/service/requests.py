"""What a request may hold: a field the service does not know, or a player colour that looks like
a typo of one it does, is refused with the nearest right name, rather than silently ignored (an
``editon`` that leaves the game classic) or kept (a player of colour ``rde``, whose dice the
camera can never name)."""

from typing import Any

from ..vision.colour_names import OTHER_NAMES
from ..words import slips_from, unknown_field
from .errors import RequestError

#: the fields of each kind of request body
NEW_GAME_FIELDS = (
    "players",
    "edition",
    "neutral",
    "neutral_colour",
    "slot",
    "unclaimed",
    "deck",
    "rounds",
    "seed",
)
PLAYER_FIELDS = ("name", "colour")
PLACEMENT_FIELDS = ("value", "casino")
ROLL_FIELDS = ("dice",)
CORRECTION_FIELDS = ("event", "dice")
#: the player colours the tablet page offers or draws, and the other names a player may give them
KNOWN_COLOURS = (
    *("red", "green", "blue", "black", "white", "yellow", "violet", "orange", "grey", "pink", "brown"),
    *OTHER_NAMES,
)


def check_fields(data: dict[str, Any], fields: tuple[str, ...], what: str) -> None:
    """RequestError naming the first field of ``data`` that ``what`` does not take."""
    if (problem := unknown_field(data, fields, what)) is not None:
        raise RequestError(problem)


def check_colour_name(colour: Any, player: int) -> None:
    """RequestError when player number ``player``'s colour is a single slip from a known colour
    name (``rde``, ``gren``), naming the colours it may have meant. Any other name (pink, teal,
    lilac) is a colour of the player's own and is kept."""
    if not isinstance(colour, str):
        return  # the rules say what is wrong with its shape
    name = colour.strip().lower()
    if name in KNOWN_COLOURS:
        return
    meant = list(dict.fromkeys(OTHER_NAMES.get(slip, slip) for slip in slips_from(name, list(KNOWN_COLOURS))))
    if meant:
        choices = " or ".join(f"'{m}'" for m in meant)
        raise RequestError(f"player {player} has no colour {colour!r} — did you mean {choices}?")
