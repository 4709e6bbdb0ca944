"""`companion advise GAME_ID|GAME.json|-`: what each placement of the roll in front of the
player is worth: the chance to win the game, the money by the round's end and the margin over the
strongest rival, as a table or (``--json``) as the API's JSON.

A game is read as the service reads it: a stored game (by its id, in the data folder) and an
export (``GET /api/games/<id>/export.json``) are event logs, replayed through the rules. A state
as ``GET /api/games/<id>`` gives it holds no event log; it is turned into the round in counts
here, once, at the edge."""

import argparse
import json
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import CommandError
from .parser import whole_number

if TYPE_CHECKING:
    from ..odds.position import Position
    from ..odds.standing import Standing
    from ..rules import Die, GameState

NO_ROLL = "no roll waits to be placed in this state: advise needs its phase to be 'place'"


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "advise", help="what each value of the roll is worth: the chance to win, the money by the round's end"
    )
    parser.add_argument(
        "state",
        metavar="GAME",
        help="a stored game's id, a game's state as GET /api/games/<id> gives it or its export.json, "
        "or - for standard input",
    )
    parser.add_argument("--data", type=Path, help="the games' folder (default: the one `serve` uses)")
    parser.add_argument(
        "--rollouts", type=whole_number(2, 1_000_000), default=1000, help="rollouts per choice (default 1000)"
    )
    parser.add_argument("--seed", type=int, help="seed of the rollouts' dice (default: a fresh one)")
    parser.add_argument(
        "--json", action="store_true", help="print the JSON the API answers instead of a table"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..odds.advisor import advice_json, advice_of_state
    from .odds_tables import advice_table

    rng = random.Random(args.seed)
    data = None if names_a_game(args.state) else read_json(args.state)
    if data is None or isinstance(data.get("events"), list):
        state = stored_game(args.state, args.data) if data is None else replayed_export(data, args.state)
        try:
            answer = advice_of_state(state, args.rollouts, rng)
        except ValueError:
            raise CommandError(NO_ROLL) from None
        names = {p.colour: p.name for p in state.config.players}
    else:
        position, standing, dice, names = read_api_state(data)
        answer = advice_json(position, dice, args.rollouts, rng, standing)
    if args.json:
        json.dump(answer, sys.stdout)
        sys.stdout.write("\n")
    else:
        print(advice_table(answer, names.get(answer["player"], answer["player"])))
    return 0


def names_a_game(source: str) -> bool:
    """Whether ``source`` is a game's id rather than a file: no such file, and no folder or
    suffix in the name that would make it one."""
    path = Path(source)
    return source != "-" and not path.exists() and path.name == source and not path.suffix


def stored_game(game_id: str, data: Path | None) -> "GameState":
    """A stored game's state, as the service replays its events."""
    from ..service import GameDamaged, GameNotFound, GameService
    from ..storage import EventStore, StoreError
    from .stored_games import games_folder, unknown_game

    folder = games_folder(data)
    try:
        games = GameService(EventStore(folder))
    except StoreError as err:
        raise CommandError(str(err)) from None
    try:
        return games.get(game_id).state
    except GameNotFound:
        ids = [record.id for record in games.store.games()]
        raise CommandError(f"no file {game_id!r}, and {unknown_game(game_id, folder, ids)}") from None
    except GameDamaged as err:
        raise CommandError(str(err)) from None


def read_json(source: str) -> dict[str, Any]:
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text()
    except OSError as err:
        raise CommandError(f"cannot read {source}: {err.strerror}") from None
    try:
        data = json.loads(text)
    except ValueError:
        raise CommandError(f"{source} is not JSON: save the answer of GET /api/games/<id>") from None
    if not isinstance(data, dict):
        raise CommandError(f"{source} is not a game's state (a JSON object)")
    return data


def replayed_export(export: dict[str, Any], source: str) -> "GameState":
    """The game of an export, its events replayed through the rules as the service replays a
    stored game."""
    from ..service.stored_log import replay_stored

    rows = [(number, json.dumps(event)) for number, event in enumerate(export["events"])]
    replayed = replay_stored(rows)
    if replayed.damage is not None or replayed.state is None:
        damage = replayed.damage
        where = f"event {damage.event} {damage.reason}" if damage else "it has no events"
        raise CommandError(f"{source} is an export whose events do not replay: {where}")
    return replayed.state


def read_api_state(state: dict[str, Any]) -> tuple["Position", "Standing", list["Die"], dict[str, str]]:
    """The round in play of a state as ``GET /api/games/<id>`` gives it, in counts; the game
    around it; the roll waiting; and each colour's player name."""
    from ..rules import IllegalMove
    from ..rules.events import die_from_dict

    if "phase" not in state:
        raise CommandError(
            "this is neither a game's state as GET /api/games/<id> gives it nor its export.json"
        )
    if state.get("phase") != "place" or not state.get("last_roll"):
        raise CommandError(NO_ROLL)
    try:
        position = position_of(state)
        standing = standing_of(state)
        dice = [die_from_dict(d) for d in state["last_roll"]["dice"]]
        names = {p["colour"]: p["name"] for p in state["players"]}
    except (KeyError, TypeError, ValueError, IllegalMove) as err:
        raise CommandError(f"this is not a game's state as the API gives it ({err})") from None
    return position, standing, dice, names


def position_of(state: dict[str, Any]) -> "Position":
    """The round in play: seats, hands, each casino's notes and each colour's dice there."""
    from ..odds.position import Position, add_die
    from ..rules.editions import SLOT

    colours = tuple(p["colour"] for p in sorted(state["players"], key=lambda p: p["seat"]))
    tallies: dict[str, dict[str, list[int]]] = {}
    slot_values: set[int] = set()
    for casino in state["casinos"]:
        tallies[casino["casino"]] = {}
        for group in casino["dice"]:
            for index, pips in enumerate(group["pips"]):  # a colour's Biggy dice come first
                add_die(tallies[casino["casino"]], group["colour"], pips, index < group["big"])
                if casino["casino"] == SLOT:
                    slot_values.add(pips)
    hands = [
        [state["hands"][c]["own"], state["hands"][c]["big"], state["hands"][c]["neutral"]] for c in colours
    ]
    return Position(
        colours=colours,
        seat=colours.index(state["current_player"]),
        hands=hands,
        neutral=state["neutral"],
        notes={c["casino"]: tuple(sorted(c["banknotes"], reverse=True)) for c in state["casinos"]},
        tallies=tallies,
        slot_values=slot_values,
    )


def standing_of(state: dict[str, Any]) -> "Standing":
    """Each player's money and notes from the rounds before, and the rounds after this one."""
    from ..odds.standing import Standing

    winnings = state["winnings"]
    return Standing(
        {c: sum(notes) for c, notes in winnings.items()},
        {c: len(notes) for c, notes in winnings.items()},
        max(state["rounds_total"] - len(state["rounds"]) - 1, 0),
        state["edition"],
    )
