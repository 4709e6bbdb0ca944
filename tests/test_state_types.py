"""The API's answers are the typed structures of ``service/state_types.py``, and ``docs/api.md``
documents them key by key: real answers have exactly the declared keys, recursively, and every
key declared is documented (the state's under its type's heading, the other answers in the
table of routes) and the other way round."""

import re
import types
import typing
from pathlib import Path

import pytest

from companion.rules import Die
from companion.service import state_types
from companion.web import create_app
from tests.conftest import GameClient, players
from tests.pictures import rendered
from tests.test_setup import TOKEN, TRAY, post, reader, setup  # noqa: F401 (the setup's fixtures)
from tests.test_store_faults import damage

API_DOC = Path(__file__).resolve().parents[1] / "docs" / "api.md"

#: every object type of the API's answers, by name
TYPES = {
    name: value
    for name, value in vars(state_types).items()
    if isinstance(value, type) and typing.is_typeddict(value)
}
#: the answers api.md's table of routes spells out (the route's row, and which object of the
#: row's ``{…}`` is the answer), by type
ROUTE_ANSWERS = {
    "GameListJson": ("`GET /api/games`", 0),
    "DamageJson": ("`GET /api/games`", 1),
    "CreatedJson": ("`POST /api/games`", 0),
    "CorrectionJson": ("`POST /api/games/<id>/corrections`", 0),
    "ChancesJson": ("`GET /api/games/<id>/chances`", 0),
    "ReviewStatusJson": ("`GET /api/games/<id>/review`", 0),
    "SetupStateJson": ("`GET /api/setup`", 0),
    "LearnedJson": ("`POST /api/setup/colours`", 0),
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


def nested(name: str) -> set[str]:
    """The object types ``name`` holds, itself included, however deep."""
    found = {name}
    for hint in typing.get_type_hints(TYPES[name]).values():
        for inner in typed_dicts_in(hint) - found:
            found |= nested(inner)
    return found


def test_every_object_of_the_state_is_documented_and_nothing_else():
    assert set(documented()) == nested("GameStateJson")


def test_every_type_is_the_state_or_an_answer_of_a_route():
    answers = {inner for name in ROUTE_ANSWERS for inner in nested(name)}
    assert set(TYPES) == nested("GameStateJson") | answers


@pytest.mark.parametrize("name", sorted(nested("GameStateJson")))
def test_each_object_of_the_state_is_documented_key_by_key(name):
    doc = documented()[name]
    hints = typing.get_type_hints(TYPES[name])
    assert set(doc) == set(hints), f"api.md's {name} has {sorted(doc)}, the type declares {sorted(hints)}"
    for key, hint in hints.items():
        assert typed_dicts_in(hint) <= doc[key], f"api.md's {name}.{key} does not name {typed_dicts_in(hint)}"


def braces(text: str) -> list[str]:
    """The top-level ``{…}`` of ``text``, in order."""
    found, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char == "{":
            depth, start = depth + 1, index if depth == 0 else start
        elif char == "}":
            depth -= 1
            if depth == 0:
                found.append(text[start : index + 1])
    return found


def keys_of(notation: str) -> dict[str, object]:
    """api.md's shorthand of an object (``{"id", "damaged": {"event"}, "dice": [{"pips"}…]}``)
    as its keys, each with its own object's keys where the shorthand spells them (else None)."""
    tokens = re.findall(r'"(\w+)"|([{}\[\]:,])', notation)
    at = 0

    def take_object() -> dict[str, object]:
        nonlocal at
        keys: dict[str, object] = {}
        at += 1  # {
        while tokens[at][1] != "}":
            word, mark = tokens[at]
            if word:
                keys[word], at = None, at + 1
                if tokens[at][1] == ":":
                    at += 1
                    keys[word] = take_value()
            else:
                at += 1  # a comma
        at += 1
        return keys

    def take_value() -> object:
        nonlocal at
        if tokens[at][1] == "{":
            return take_object()
        if tokens[at][1] == "[":
            at += 1
            inner = take_object() if tokens[at][1] == "{" else None
            while tokens[at][1] != "]":
                at += 1
            at += 1
            return inner
        at += 1
        return None

    return take_object()


def route_answer(row_start: str, which: int) -> dict[str, object]:
    row = next(line for line in API_DOC.read_text().splitlines() if line.startswith(f"| {row_start} |"))
    answer = row.split("|")[2]
    return keys_of(braces(answer[answer.find("→") + 1 :])[which])


def matches(doc: dict[str, object], name: str) -> None:
    hints = typing.get_type_hints(TYPES[name])
    assert set(doc) == set(hints), f"api.md's {name} has {sorted(doc)}, the type declares {sorted(hints)}"
    for key, inner in doc.items():
        if isinstance(inner, dict):
            (held,) = typed_dicts_in(hints[key])
            matches(inner, held)


@pytest.mark.parametrize("name", sorted(ROUTE_ANSWERS))
def test_each_answer_of_a_route_is_documented_key_by_key(name):
    matches(route_answer(*ROUTE_ANSWERS[name]), name)


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
    if hint is typing.Any:
        return
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
    camera = app.extensions["camera"]
    camera.set_status("ok", "camera 0 is giving frames", "camera 0")
    body = {"players": players("red", "blue"), "edition": "biggy", "neutral": True, "slot": True, "seed": 5}
    game = GameClient(client, client.post("/api/games", json=body).get_json())
    seen: dict[str, set[str]] = {}
    states = [game.state(), play_to_round_two(game)]
    rolled = game.post("/rolls/virtual").get_json()
    camera.propose_placement(game.id, rolled["placements"][0])
    states.append(game.state())
    states.append(game.post("/undo").get_json())
    first_roll = states[1]["round_rolls"][0]
    corrected = game.post(
        "/corrections", {"event": first_roll["event"], "dice": first_roll["dice"]}
    ).get_json()
    conforms(corrected, state_types.CorrectionJson, "correction", seen)
    states.append(corrected["state"])
    # a roll the camera is unsure of waits for a player
    hand = states[-1]["expected_roll"]
    dice = tuple(Die(kind["colour"], 3, kind["big"]) for kind in hand for _ in range(kind["count"]))
    boxes = [[0.1, 0.1, 0.05, 0.05]] * len(dice)
    camera.offer_roll(game.id, dice, lambda: None, unsure=(0,), boxes=boxes)
    states.append(game.state())
    while not states[-1]["over"]:
        state = game.post("/rolls/virtual").get_json()
        states.append(game.post("/placements", state["placements"][0]).get_json())
    for number, state in enumerate(states):
        conforms(state, state_types.GameStateJson, f"state {number}", seen)
    # the states met every key of every object (a review's progress shows only while one is made)
    of_state = nested("GameStateJson")
    unmet = {name: set(typing.get_type_hints(TYPES[name])) - seen.get(name, set()) for name in of_state}
    assert {name: keys for name, keys in unmet.items() if keys} == {"ReviewProgressJson": {"done", "total"}}


def test_the_other_answers_have_exactly_the_declared_keys(client, tmp_path):
    seen: dict[str, set[str]] = {}
    made = [
        client.post("/api/games", json={"players": players("red", "blue"), "seed": seed}) for seed in (1, 2)
    ]
    for answer in made:
        conforms(answer.get_json(), state_types.CreatedJson, "created", seen)
    whole, damaged = (GameClient(client, answer.get_json()) for answer in made)
    for game in (whole, damaged):
        state = game.post("/rolls/virtual").get_json()
        game.post("/placements", state["placements"][0])
    damage(tmp_path / "data" / "games.sqlite3", damaged.id, 2, "cut")
    conforms(client.get("/api/games").get_json(), state_types.GameListJson, "games", seen)
    conforms(
        client.get(f"/api/games/{whole.id}/chances").get_json(), state_types.ChancesJson, "chances", seen
    )
    conforms(
        client.get(f"/api/games/{whole.id}/review").get_json(), state_types.ReviewStatusJson, "review", seen
    )
    assert seen["GameSummaryJson"] == set(typing.get_type_hints(state_types.GameSummaryJson))
    assert seen["DamageJson"] == {"event", "reason"}


def test_the_setup_answers_have_exactly_the_declared_keys(tmp_path, setup):  # noqa: F811
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "SETUP_TOKEN": TOKEN})
    app.extensions["setup"] = setup
    client = app.test_client()
    seen: dict[str, set[str]] = {}
    answers = [client.get("/api/setup").get_json()]  # before the first picture
    setup.see(rendered([("red", 4), ("red", 6), ("blue", 2), ("blue", 5)]))
    answers.append(post(client, "/api/setup/areas", {"tray": TRAY, "1": [400, 60, 200, 200]}).get_json())
    neutral_game = {"players": players("red", "blue"), "neutral": True}
    assert client.post("/api/games", json=neutral_game).status_code == 201
    app.extensions["camera"].set_status("ended", "the recording has ended", "demo")
    learned = post(client, "/api/setup/colours", {"colour": "rouge"}).get_json()
    conforms(learned.pop("learned"), state_types.LearnedJson, "learned", seen)
    answers += [learned, client.get("/api/setup").get_json()]
    for number, answer in enumerate(answers):
        conforms(answer, state_types.SetupStateJson, f"setup {number}", seen)
    for name in nested("SetupStateJson") | {"LearnedJson"}:
        assert seen[name] == set(typing.get_type_hints(TYPES[name])), name
