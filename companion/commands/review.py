"""`companion review GAME_ID`: the review of a stored game (each move's choice against the best
one, the chance to win and money it gave up, each player's chance to win after every round),
kept with the game and printed as a table of the costliest moves or (``--json``) as JSON."""

import argparse
import json
import sys
from pathlib import Path

from . import CommandError
from .parser import whole_number


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("review", help="review a stored game: each move against the best one")
    parser.add_argument("game", metavar="GAME_ID", help="the game's id (as in its page's address /games/ID)")
    parser.add_argument("--data", type=Path, help="the games' folder (default: the one `serve` uses)")
    parser.add_argument(
        "--rollouts",
        type=whole_number(2, 100_000),
        help="rollouts per choice and per round's win chances (default 1000)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print every move's review as JSON instead of a table"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..odds.review import ROLLOUTS
    from ..service import GameDamaged, GameNotFound, GameService
    from ..storage import EventStore, StoreError
    from .odds_tables import review_table
    from .stored_games import games_folder, unknown_game

    folder = games_folder(args.data)
    try:
        games = GameService(EventStore(folder), review_rollouts=args.rollouts or ROLLOUTS)
    except StoreError as err:
        raise CommandError(str(err)) from None
    try:
        live = games.get(args.game)
    except GameNotFound:
        ids = [record.id for record in games.store.games()]
        raise CommandError(unknown_game(args.game, folder, ids)) from None
    except GameDamaged as err:
        raise CommandError(str(err)) from None

    def progressed(done: int, total: int) -> None:
        if sys.stderr.isatty():
            end = "" if done < total else "\n"
            print(f"\rreviewing: {done}/{total}", end=end, file=sys.stderr, flush=True)

    review = games.reviews.review_now(live.record.id, progressed)
    names = {p.colour: p.name for p in live.state.config.players}
    answer = {"game": live.record.id, "players": names} | review.as_json()
    if args.json:
        json.dump(answer, sys.stdout)
        sys.stdout.write("\n")
    else:
        print(review_table(answer))
    return 0
