"""`companion simulate`: play whole games with virtual dice and the greedy policy, in counts
(``odds.playout``): thousands of games a second."""

import argparse
import json
import random
import sys
from typing import TYPE_CHECKING, Any

from ..rules import ConfigError, GameConfig
from . import CommandError

if TYPE_CHECKING:
    from ..odds.playout import Table


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("simulate", help="play complete games with virtual dice")
    parser.add_argument("--edition", choices=("classic", "biggy"), default="classic")
    parser.add_argument("--players", type=int, default=4, help="2 to 5 (default 4)")
    parser.add_argument("--neutral", action="store_true", help="play with neutral dice")
    parser.add_argument("--slot", action="store_true", help="add the slot casino (biggy)")
    parser.add_argument(
        "--unclaimed",
        choices=("bottom", "discard"),
        default="bottom",
        help="where notes nobody wins go (default: under the deck)",
    )
    parser.add_argument("--seed", type=int, help="seed of the first game (default: random)")
    parser.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise CommandError(f"--games must be at least 1, got {args.games}")
    try:
        config = GameConfig.for_players(
            args.players,
            edition=args.edition,
            neutral=args.neutral,
            slot=args.slot,
            unclaimed=args.unclaimed,
        )
        config.validate()
    except ConfigError as err:
        raise CommandError(str(err)) from None
    from ..odds.playout import play_game

    first = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    results = []
    for seed in range(first, first + args.games):
        game = play_game(config, seed)
        results.append(game_json(game, seed))
        if not args.json:
            print(_summary(game, seed))
    if args.json:
        json.dump({"games": args.games, "results": results}, sys.stdout)
        sys.stdout.write("\n")
    return 0


def game_json(game: "Table", seed: int) -> dict[str, Any]:
    """A simulated game as ``simulate --json`` prints it: each round's casinos as ``companion
    score`` prints a casino, the standings and the winners."""
    return {
        "seed": seed,
        "rounds": [
            {
                "casinos": [
                    {
                        "casino": c.casino,
                        "banknotes": list(c.banknotes),
                        "cancelled": list(c.cancelled),
                        "payouts": [{"colour": colour, "banknote": note} for colour, note in c.payouts],
                        "unclaimed": list(c.unclaimed),
                    }
                    for c in casinos
                ]
            }
            for casinos in game.rounds or ()
        ],
        "standings": [
            {"colour": c, "money": game.money[c], "banknotes": game.banknotes[c]} for c in game.standings()
        ],
        "winners": game.winners(),
    }


def _summary(game: "Table", seed: int) -> str:
    table = ", ".join(f"{c} ${game.money[c]:,} ({game.banknotes[c]})" for c in game.standings())
    return f"seed {seed}: {' & '.join(game.winners())} won — {table}"
