"""`companion advise STATE.json|-`: what each placement of the roll in front of the player is
worth (a state as `GET /api/games/<id>` gives it): the chance to win the game, the money by the
round's end and the margin over the strongest rival, as a table or (``--json``) as the API's JSON."""

import argparse
import json
import random
import sys
from pathlib import Path

from . import CommandError
from .parser import whole_number


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "advise", help="what each value of the roll is worth: the chance to win, the money by the round's end"
    )
    parser.add_argument(
        "state", help="a game's state as GET /api/games/<id> gives it, or - for standard input"
    )
    parser.add_argument(
        "--rollouts", type=whole_number(2, 1_000_000), default=1000, help="rollouts per choice (default 1000)"
    )
    parser.add_argument("--seed", type=int, help="seed of the rollouts' dice (default: a fresh one)")
    parser.add_argument(
        "--json", action="store_true", help="print the JSON the API answers instead of a table"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..odds.advisor import advice_json
    from ..odds.position import Position
    from ..odds.standing import Standing
    from .odds_tables import advice_table

    state = read_state(args.state)
    if state.get("phase") != "place" or not state.get("last_roll"):
        raise CommandError("no roll waits to be placed in this state: advise needs its phase to be 'place'")
    try:
        position = Position.from_json(state)
        standing = Standing.from_json(state)
        dice = [(d["colour"], d["pips"], bool(d.get("big"))) for d in state["last_roll"]["dice"]]
        names = {p["colour"]: p["name"] for p in state["players"]}
    except (KeyError, TypeError, ValueError) as err:
        raise CommandError(f"this is not a game's state as the API gives it ({err})") from None
    answer = advice_json(position, dice, args.rollouts, random.Random(args.seed), standing)
    if args.json:
        json.dump(answer, sys.stdout)
        sys.stdout.write("\n")
    else:
        print(advice_table(answer, names.get(position.player, position.player)))
    return 0


def read_state(source: str) -> dict:
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text()
    except OSError as err:
        raise CommandError(f"cannot read {source}: {err.strerror}") from None
    try:
        state = json.loads(text)
    except ValueError:
        raise CommandError(f"{source} is not JSON: save the answer of GET /api/games/<id>") from None
    if not isinstance(state, dict):
        raise CommandError(f"{source} is not a game's state (a JSON object)")
    return state
