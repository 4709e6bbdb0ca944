"""The API's game state is the typed structure of ``service/state_types.py``, and ``docs/api.md``
documents that structure key by key: a real state has exactly the declared keys, recursively,
and every key declared is documented under its type's heading and the other way round."""

import re
import types
import typing
from pathlib import Path

import pytest

from companion.rules import Die
from companion.service import state_types
from tests.conftest import GameClient, players

API_DOC = Path(__file__).resolve().parents[1] / "docs" / "api.md"

#: every object type of the state, by name
TYPES = {
    name: value
    for name, value in vars(state_types).items()
    if isinstance(value, type) and typing.is_typeddict(value)
}


def documented() -> dict[str, dict[str, set[str]]]:
    """The objects api.md describes: for each heading that names a type (``#### A die
    (`DieJson`)``), each documented key and the types its row names."""
    sections: dict[str, dict[str, set[str]]] = {}
    current: dict[str, set[str]] | None = None
    for line in API_DOC.read_text().splitlines():
        if heading := re.match(r"#{2,4} .*\(`(\w+)`\)\s*$", line):
            current = sections.setdefault(heading.group(1), {})
        elif line.startswith("#"):
            current = None
        elif current is not None and line.startswith("| `"):
            keys_cell, said = line.split("|")[1:3]
            named = set(re.findall(r"`(\w+Json)`", said))
            for key in re.findall(r"`(\w+)`", keys_cell):
                current[key] = named
    return sections


def typed_dicts_in(hint: object) -> set[str]:
    """The names of the object types a field's type holds (through lists, maps and null)."""
    if typing.is_typeddict(hint):
        return {hint.__name__}
    return {name for arg in typing.get_args(hint) for name in typed_dicts_in(arg)}


def test_every_object_of_the_state_is_documented_and_nothing_else():
    assert set(documented()) == set(TYPES)


@pytest.mark.parametrize("name", sorted(TYPES))
def test_each_object_is_documented_key_by_key(name):
    doc = documented()[name]
    hints = typing.get_type_hints(TYPES[name])
    assert set(doc) == set(hints), f"api.md's {name} has {sorted(doc)}, the type declares {sorted(hints)}"
    for key, hint in hints.items():
        assert typed_dicts_in(hint) <= doc[key], f"api.md's {name}.{key} does not name {typed_dicts_in(hint)}"


def conforms(value: object, hint: object, where: str, seen: dict[str, set[str]]) -> None:
    """Assert ``value`` has the shape of ``hint``: every object exactly its declared keys (the
    optional ones may be absent), recursively; ``seen`` collects each type's keys met."""
    if typing.is_typeddict(hint):
        assert isinstance(value, dict), f"{where}: {value!r} is no object"
        declared = typing.get_type_hints(hint)
        assert set(value) <= set(declared), f"{where}: undeclared {sorted(set(value) - set(declared))}"
        missing = hint.__required_keys__ - set(value)
        assert not missing, f"{where}: missing {sorted(missing)}"
        seen.setdefault(hint.__name__, set()).update(value)
        for key, item in value.items():
            conforms(item, declared[key], f"{where}.{key}", seen)
        return
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        if value is None and type(None) in args:
            return
        arms = [arm for arm in args if arm is not type(None)]
        assert len(arms) == 1, f"{where}: no union of objects is declared"
        conforms(value, arms[0], where, seen)
    elif origin is list:
        assert isinstance(value, list), f"{where}: {value!r} is no list"
        for index, item in enumerate(value):
            conforms(item, args[0], f"{where}[{index}]", seen)
    elif origin is dict:
        assert isinstance(value, dict), f"{where}: {value!r} is no object"
        for key, item in value.items():
            assert isinstance(key, args[0]), f"{where}: key {key!r}"
            conforms(item, args[1], f"{where}.{key}", seen)
    elif hint is float:
        assert type(value) in (int, float), f"{where}: {value!r} is no number"
    else:
        assert type(value) is hint, f"{where}: {value!r} is no {hint}"


def play_to_round_two(game: GameClient) -> dict:
    """Play the first round out with virtual dice, and one turn of the second."""
    state = game.state()
    while state["round"] == 1 or not state["round_rolls"]:
        state = game.post("/rolls/virtual").get_json()
        state = game.post("/placements", state["placements"][0]).get_json()
    return state


def test_a_played_games_state_has_exactly_the_declared_keys(client, app):
    service = app.extensions["games"]
    service.set_camera_status("ok", "camera 0 is giving frames", "camera 0")
    body = {"players": players("red", "blue"), "edition": "biggy", "neutral": True, "slot": True, "seed": 5}
    game = GameClient(client, client.post("/api/games", json=body).get_json())
    seen: dict[str, set[str]] = {}
    states = [game.state(), play_to_round_two(game)]
    rolled = game.post("/rolls/virtual").get_json()
    service.propose_placement(game.id, rolled["placements"][0])
    states.append(game.state())
    states.append(game.post("/undo").get_json())
    first_roll = states[1]["round_rolls"][0]
    corrected = game.post("/corrections", {"event": first_roll["event"], "dice": first_roll["dice"]})
    states.append(corrected.get_json()["state"])
    # a roll the camera is unsure of waits for a player
    hand = states[-1]["expected_roll"]
    dice = tuple(Die(kind["colour"], 3, kind["big"]) for kind in hand for _ in range(kind["count"]))
    boxes = [[0.1, 0.1, 0.05, 0.05]] * len(dice)
    service.offer_camera_roll(game.id, dice, lambda: None, unsure=(0,), boxes=boxes)
    states.append(game.state())
    while not states[-1]["over"]:
        state = game.post("/rolls/virtual").get_json()
        states.append(game.post("/placements", state["placements"][0]).get_json())
    for number, state in enumerate(states):
        conforms(state, state_types.GameStateJson, f"state {number}", seen)
    # the states met every key of every object (a review's progress shows only while one is made)
    unmet = {name: set(typing.get_type_hints(t)) - seen.get(name, set()) for name, t in TYPES.items()}
    assert {name: keys for name, keys in unmet.items() if keys} == {"ReviewProgressJson": {"done", "total"}}
