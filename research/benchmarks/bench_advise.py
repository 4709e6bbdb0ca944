"""Benchmark: the advisor's rollouts (``companion.odds``) on a 5-player classic position with all
six values open: rollouts a second, and the time to answer with N rollouts per value.

Run: python -m research.benchmarks.bench_advise [--rollouts 1000] [--repeats 3]"""

import argparse
import random
import statistics
import time

from companion.odds.advisor import worth_of_choices
from companion.odds.position import Position
from companion.rules import GameConfig, replay, start_game


def six_values_open(seed: int = 0) -> tuple[Position, list]:
    """The first roll of a 5-player classic game whose eight dice show all six values."""
    state = replay([start_game(GameConfig.for_players(5), random.Random(seed))])
    rng = random.Random(seed)
    while True:
        dice = [("red", rng.randint(1, 6), False) for _ in range(8)]
        if len({pips for _, pips, _ in dice}) == 6:
            return Position.from_state(state), dice


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rollouts", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    position, dice = six_values_open()
    times = []
    for repeat in range(args.repeats):
        start = time.perf_counter()
        worths = worth_of_choices(position, dice, args.rollouts, random.Random(repeat))
        times.append(time.perf_counter() - start)
    answer = statistics.median(times)
    print(f"5-player classic, first roll, {len(worths)} choices, {args.rollouts} rollouts each")
    print(f"answer: median {answer:.3f} s of {args.repeats} ({', '.join(f'{t:.3f}' for t in times)})")
    print(f"rollouts: {len(worths) * args.rollouts / answer:,.0f} a second (one core)")


if __name__ == "__main__":
    main()
