"""`companion simulate`: play whole games with virtual dice and a simple policy."""

import argparse
import json
import random
import sys
from typing import Any

from ..report import round_json, standings_json
from ..rules import ConfigError, GameConfig, GameState
from ..simulation import play_game
from . import CommandError


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
    first = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    results = []
    for seed in range(first, first + args.games):
        state = play_game(config, seed)
        results.append(game_json(state, seed))
        if not args.json:
            print(_summary(state, seed))
    if args.json:
        json.dump({"games": args.games, "results": results}, sys.stdout)
        sys.stdout.write("\n")
    return 0


def game_json(state: GameState, seed: int) -> dict[str, Any]:
    return {
        "seed": seed,
        "rounds": [round_json(r) for r in state.rounds],
        "standings": standings_json(state),
        "winners": state.winners(),
    }


def _summary(state: GameState, seed: int) -> str:
    table = ", ".join(f"{s.colour} ${s.money:,} ({s.banknotes})" for s in state.standings())
    return f"seed {seed}: {' & '.join(state.winners())} won — {table}"
