"""Benchmark: the hints as a player. Whole games in counts (``odds.playout``) where one seat
places by the hints' first choice (the page's rollouts) and every other seat by one opponent
policy: random, greedy, the one-step margin player, or the previous advisor (greedy rollouts
ranked by the player's own money by the round's end). The hints' seat moves round the table
from game to game. Prints each pairing's win share (a shared win counts its share) with its
95 % interval, and the time the hints took per answer (moves with two choices or more).

The whole default run takes about 16 minutes of one core; run it alone on the machine.

Run: python -m research.benchmarks.bench_hints [--games 100] [--others 8] [--rollouts 1000]"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from companion.odds.advisor import worth_of_roll
from companion.odds.batch import choose
from companion.odds.dice_counts import TABLES
from companion.odds.playout import Table
from companion.odds.position import Position, Roll
from companion.odds.standing import Standing
from companion.rules import GameConfig
from companion.service.hints import ADVICE_ROLLOUTS

#: a player: where the seat to move places ``roll``, given the game around the round
Player = Callable[[Position, Roll, Table, random.Random], tuple[int, str]]


def standing_of(table: Table) -> Standing:
    return Standing(
        dict(table.money),
        dict(table.banknotes),
        table.config.round_count - table.rounds_played - 1,
        table.config.edition,
    )


def random_player(position: Position, roll: Roll, table: Table, rng: random.Random) -> tuple[int, str]:
    return rng.choice(position.targets(roll))


def greedy_player(position: Position, roll: Roll, table: Table, rng: random.Random) -> tuple[int, str]:
    """``rules.policy``'s greedy choice in counts, ties to ``rng.choice`` (as ``Position.finish``
    places, kept here as one decision so the figures in docs/benchmarks.md replay)."""
    player, best, best_score = position.player, [], -(10**9)
    for value, name in position.targets(roll):
        own, big, neutral = roll[value]
        notes = position.notes[name]
        mine = position.tallies[name].get(player)
        score = (
            (notes[0] if notes else 0) + 10_000 * (own + 2 * big + neutral) - 5_000 * (mine[0] if mine else 0)
        )
        if score > best_score:
            best, best_score = [(value, name)], score
        elif score == best_score:
            best.append((value, name))
    return best[0] if len(best) == 1 else rng.choice(best)


def roll_hand(position: Position, rng: random.Random) -> Roll:
    """Every die the player whose turn it is holds, rolled: one draw a kind of die held (a hand's
    counts from one draw, ``dice_counts``)."""
    roll: Roll = {}
    for kind, count in enumerate(position.hands[position.seat]):
        if count:
            hand = TABLES[count]
            for value, n in enumerate(hand.counts[hand.pick(rng.random())]):
                if n:
                    roll.setdefault(value, [0, 0, 0])[kind] += n
    return roll


def margin_player(position: Position, roll: Roll, table: Table, rng: random.Random) -> tuple[int, str]:
    return choose(position, roll, "margin", np.random.default_rng(rng.getrandbits(64)), table.money)


def advisor_player(rollouts: int, policy: str, by_money: bool, times: list[float] | None = None) -> Player:
    """A player placing by the advisor's rollouts: ranked by chance to win, or by own money."""

    def play(position: Position, roll: Roll, table: Table, rng: random.Random) -> tuple[int, str]:
        start = time.perf_counter()
        worths = worth_of_roll(position, roll, rollouts, rng, standing_of(table), policy)
        if times is not None:
            times.append(time.perf_counter() - start)
        best = max(worths, key=lambda w: w.money) if by_money else worths[0]
        return best.value, best.casino

    return play


def play_game(config: GameConfig, players: list[Player], seed: int) -> Table:
    """One whole game, each seat placing by its player; a roll with one choice places itself."""
    rng = random.Random(seed)
    table = Table.new(config, rng)
    while not table.over:
        position = table.start_round(rng)
        while not position.over:
            roll = roll_hand(position, rng)
            targets = position.targets(roll)
            move = targets[0] if len(targets) == 1 else players[position.seat](position, roll, table, rng)
            position.place(roll, *move)
        table.score(position)
    return table


def tournament(config: GameConfig, hints: Player, opponent: Player, games: int, seed: int) -> list[float]:
    """The hints' win share in each of ``games`` games, its seat moving round the table."""
    seats = len(config.colours)
    shares = []
    for game in range(games):
        seat = game % seats
        players = [hints if s == seat else opponent for s in range(seats)]
        table = play_game(config, players, seed + game)
        winners = table.winners()
        colour = config.colours[seat]
        shares.append(1 / len(winners) if colour in winners else 0.0)
    return shares


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--games", type=int, default=100, help="games a pairing of 2-player classic (the targets)"
    )
    parser.add_argument("--others", type=int, default=8, help="games of every other pairing")
    parser.add_argument("--rollouts", type=int, default=ADVICE_ROLLOUTS, help="the hints' rollouts a choice")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", help="play only these edition:players, e.g. classic:2,biggy:3")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core of the two
    times: list[float] = []
    hints = advisor_player(args.rollouts, "margin", by_money=False, times=times)
    opponents = {
        "random": random_player,
        "greedy": greedy_player,
        "one-step margin": margin_player,
        "previous advisor": advisor_player(args.rollouts, "greedy", by_money=True),
    }
    print(f"hints at {args.rollouts:,} rollouts a choice; win share with its 95 % interval")
    print("| edition | players | against | games | hints' win share | fair share |")
    print("|---|---|---|---|---|---|")
    for edition in ("classic", "biggy"):
        for players in (2, 3, 5):
            if args.only and f"{edition}:{players}" not in args.only.split(","):
                continue
            config = GameConfig.for_players(players, edition=edition, slot=edition == "biggy")
            games = args.games if (edition, players) == ("classic", 2) else args.others
            for name, opponent in opponents.items():
                start = time.perf_counter()
                shares = tournament(config, hints, opponent, games, args.seed)
                mean = statistics.fmean(shares)
                half = 1.96 * statistics.stdev(shares) / math.sqrt(len(shares))
                print(
                    f"| {edition} | {players} | {name} | {games} | {mean:.1%} ± {half:.1%} "
                    f"({max(mean - half, 0):.1%}–{min(mean + half, 1):.1%}) | {1 / players:.0%} |"
                    f"  <!-- {time.perf_counter() - start:.0f} s -->",
                    flush=True,
                )
    ordered = sorted(times)
    print(
        f"time per answer: median {statistics.median(times):.3f} s, 95th percentile "
        f"{ordered[int(0.95 * (len(ordered) - 1))]:.3f} s, most {ordered[-1]:.3f} s "
        f"over {len(times):,} answers"
    )


if __name__ == "__main__":
    main()
