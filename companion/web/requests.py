"""Request bodies into the service's typed arguments. A field the API does not know, or a player
colour that looks like a typo of one it does, is refused with the nearest right name, rather than
silently ignored (an ``editon`` that leaves the game classic) or kept (a player of colour ``rde``,
whose dice the camera can never name)."""

import json
from typing import Any

from flask import request
from werkzeug.exceptions import RequestEntityTooLarge

from ..rules import ConfigError, Die, GameConfig, IllegalMove
from ..rules.colours import COLOURS, OTHER_NAMES
from ..rules.events import DIE_FIELDS, die_from_dict
from ..service import RequestError
from ..words import slips_from, unknown_field

#: the most dice a roll request may hold (a game has at most 8 per player and the neutral ones)
MAX_DICE_IN_A_ROLL = 40
#: the largest request body taken: a game's largest honest request (five players with a deck of
#: their own, a roll of 40 dice) is under 4 KB
MAX_BODY_BYTES = 64 * 1024
#: how deep a body's objects and lists may nest: the deepest honest one is 3 levels
MAX_NESTING = 8

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
HINTS_FIELDS = ("on",)
CAMERA_FIX_FIELDS = ("version", "die", *DIE_FIELDS)
#: the colours the game names, and the other names a player may give them
KNOWN_COLOURS = (*COLOURS, *OTHER_NAMES)


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


def json_body() -> Any:
    """The request's JSON body ({} when it has none), or a RequestError saying what is wrong with
    it; a body over ``MAX_BODY_BYTES`` is a 413 (``RequestEntityTooLarge``) that says the limit."""
    too_large = RequestEntityTooLarge(
        f"the request body is over {MAX_BODY_BYTES // 1024} KB; a game's requests are a few KB"
    )
    try:
        raw = request.get_data(cache=True)
    except RequestEntityTooLarge:
        raise too_large from None
    if len(raw) >= MAX_BODY_BYTES:  # a body sent in chunks, without a length, is cut at the limit
        raise too_large
    if not raw:
        return {}
    too_deep = RequestError(f"the request body nests objects and lists deeper than {MAX_NESTING} levels")
    try:
        data = json.loads(raw)
    except RecursionError:  # the decoder gives up about a thousand levels down
        raise too_deep from None
    except ValueError:
        raise RequestError("the request body is not valid JSON") from None
    if nesting(data) > MAX_NESTING:
        raise too_deep
    return data


def nesting(data: Any) -> int:
    """How many levels of objects and lists ``data`` holds (0 for a number or a string)."""
    deepest, level = 0, [(data, 1)]
    while level:
        item, depth = level.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, depth)
            level.extend((child, depth + 1) for child in children)
    return deepest


def new_game(body: Any) -> tuple[GameConfig, int | None]:
    """The settings of a new game and its seed (None: the service draws one)."""
    if not isinstance(body, dict):
        raise RequestError("send the new game as a JSON object")
    check_fields(body, NEW_GAME_FIELDS, "a new game")
    for number, player in enumerate(body.get("players") or [], start=1):
        if isinstance(player, dict):
            check_fields(player, PLAYER_FIELDS, f"player {number}")
            check_colour_name(player.get("colour"), number)
    seed = body.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63):
        raise RequestError(f"'seed' must be a whole number from 0, got {seed!r}")
    try:
        return GameConfig.from_dict(body), seed
    except ConfigError as err:
        raise RequestError(str(err), err.code, **err.values) from None


def placement(body: Any) -> tuple[int, str]:
    """The value placed and the casino it goes to (its own number's, unless the slot is named)."""
    if not isinstance(body, dict):
        raise RequestError('send the placement as {"value": 4} or {"value": 4, "casino": "slot"}')
    check_fields(body, PLACEMENT_FIELDS, "a placement")
    value = body.get("value")
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(f"'value' must be a whole number from 1 to 6, got {value!r}")
    return value, str(body.get("casino", str(value)))


def roll(body: Any) -> tuple[Die, ...]:
    return dice_of(body, ROLL_FIELDS, "a roll")


def correction(body: Any) -> tuple[Any, tuple[Die, ...]]:
    """The number of the event a correction replaces (checked by the service) and its new dice."""
    dice = dice_of(body, CORRECTION_FIELDS, "a correction")
    return body.get("event"), dice


def camera_fix(body: Any) -> tuple[Any, Any, Die]:
    """The camera offer a fix is for (its ``version``), the number of its die, and what the
    player says the die is (checked by the service against the offer, by the rules at record)."""
    if not isinstance(body, dict):
        raise RequestError('send the fix as {"version": 1, "die": 2, "colour": "red", "pips": 4}')
    check_fields(body, CAMERA_FIX_FIELDS, "a fix of a die")
    try:
        die = die_from_dict({name: body[name] for name in DIE_FIELDS if name in body})
    except IllegalMove as err:
        raise RequestError(str(err)) from None
    return body.get("version"), body.get("die"), die


def hints(body: Any) -> bool:
    """Whether the table wants the worth of each value shown: {"on": true} or {"on": false}."""
    if not isinstance(body, dict) or not isinstance(body.get("on"), bool):
        raise RequestError('send {"on": true} to show the worth of each value, {"on": false} to hide it')
    check_fields(body, HINTS_FIELDS, "the hints switch")
    return body["on"]


def dice_of(body: Any, fields: tuple[str, ...], what: str) -> tuple[Die, ...]:
    """The dice of a roll or correction request (``what``, whose body takes ``fields``), checked
    for shape (the rules check the rest)."""
    if not isinstance(body, dict) or not isinstance(body.get("dice"), list):
        raise RequestError('send the roll as {"dice": [{"colour": "red", "pips": 4}, …]}')
    check_fields(body, fields, what)
    if len(body["dice"]) > MAX_DICE_IN_A_ROLL:
        raise RequestError(f"a roll has at most {MAX_DICE_IN_A_ROLL} dice, got {len(body['dice'])}")
    for number, die in enumerate(body["dice"], start=1):
        if isinstance(die, dict):
            check_fields(die, DIE_FIELDS, f"die {number}")
    try:
        return tuple(die_from_dict(d) for d in body["dice"])
    except IllegalMove as err:
        raise RequestError(str(err)) from None
