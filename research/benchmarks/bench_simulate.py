"""Benchmark: complete 5-player classic games per second on one core (prints figures, asserts nothing).

Run: python -m research.benchmarks.bench_simulate [--games N]
"""

import argparse
import json
import os
import platform
import statistics
import time

from companion.commands.simulate import game_json
from companion.rules import GameConfig
from companion.simulation import play_game


def measure(games: int, with_json: bool) -> float:
    config = GameConfig.for_players(5)
    start = time.perf_counter()
    for seed in range(games):
        state = play_game(config, seed)
        if with_json:
            json.dumps(game_json(state, seed))
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as the target says
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; pinned to one core"
    )
    for label, with_json in (("games only", False), ("games + JSON as `simulate --json`", True)):
        rates = [measure(args.games, with_json) for _ in range(args.repeats)]
        print(
            f"{label}: median {statistics.median(rates):,.0f} games/s "
            f"(runs: {', '.join(f'{r:,.0f}' for r in rates)}; {args.games} games each)"
        )


if __name__ == "__main__":
    main()
