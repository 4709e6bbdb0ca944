"""Benchmark: complete 5-player classic games per second as `companion simulate` plays them, on
one core (prints figures, asserts nothing). Beside: the rules engine's games, event by event, and
the same games one at a time in the batch engine (``odds.batch``, one row, greedy players).

Run: python -m research.benchmarks.bench_simulate [--games N]
"""

import argparse
import json
import os
import platform
import random
import statistics
import time

import numpy as np

from companion.commands.simulate import game_json
from companion.odds.batch import CommonDice, play_out
from companion.odds.playout import Table, play_game
from companion.rules import GameConfig
from companion.simulation import play_game as play_game_by_events
from research.odds.fit_win_table import score_paid


def measure(games: int, with_json: bool) -> float:
    config = GameConfig.for_players(5)
    start = time.perf_counter()
    for seed in range(games):
        game = play_game(config, seed)
        if with_json:
            json.dumps(game_json(game, seed))
    return games / (time.perf_counter() - start)


def measure_events(games: int) -> float:
    config = GameConfig.for_players(5)
    start = time.perf_counter()
    for seed in range(games):
        play_game_by_events(config, seed)
    return games / (time.perf_counter() - start)


def measure_batch(games: int) -> float:
    """Whole games one at a time in arrays: each round one row of ``batch.play_out``."""
    config = GameConfig.for_players(5)
    start = time.perf_counter()
    for seed in range(games):
        rng, dice_rng = random.Random(seed), np.random.default_rng(seed)
        table = Table.new(config, rng)
        while not table.over:
            position = table.start_round(rng)
            ends = play_out([position], CommonDice.draw(dice_rng, 1, [position]), "greedy")
            score_paid(table, position.notes, ends.paid[0], ends.colours)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core of the two
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; pinned to one core"
    )
    runs = {
        "games in counts": lambda: measure(args.games, False),
        "games in counts + JSON as `simulate --json`": lambda: measure(args.games, True),
        "games through the rules engine (events)": lambda: measure_events(args.games // 5),
        "games one at a time in the batch engine (one row)": lambda: measure_batch(args.games // 10),
    }
    for label, run in runs.items():
        rates = [run() for _ in range(args.repeats)]
        print(
            f"{label}: median {statistics.median(rates):,.0f} games/s, best {max(rates):,.0f} "
            f"(runs: {', '.join(f'{r:,.0f}' for r in rates)})"
        )


if __name__ == "__main__":
    main()
