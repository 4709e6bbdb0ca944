"""Benchmark: whole games as `companion simulate` plays them (5-player classic, in counts), with
numbered casinos scored by count alone (``odds.playout.score_counts``, what ships) against every
casino scored by the rules' ``scoring.rank``. The two alternate in one process on one core, so a
slow spell of the machine falls on both; prints each one's median games a second and the median
of the paired ratios (prints figures, asserts nothing).

Run: python -m research.benchmarks.bench_scoring [--games 1000] [--pairs 16]"""

import argparse
import os
import statistics
import time

from companion.odds import playout
from companion.rules import GameConfig
from companion.rules.scoring import rank


def by_rank(name: str, notes: tuple[int, ...], tally: dict[str, list[int]]) -> playout.ScoredCasino:
    """``score_counts`` with every casino ranked by ``scoring.rank``."""
    _, cancelled, winners = rank(name, [(colour, *entry) for colour, entry in tally.items()])
    payouts = tuple(zip(winners, notes, strict=False))
    return playout.ScoredCasino(name, notes, tuple(sorted(cancelled)), payouts, notes[len(payouts) :])


def games_per_second(games: int) -> float:
    config = GameConfig.for_players(5)
    start = time.perf_counter()
    for seed in range(games):
        playout.play_game(config, seed)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--pairs", type=int, default=16)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core of the two
    shipped = playout.score_counts
    scorers = {"count alone (ships)": shipped, "scoring.rank": by_rank}
    rates: dict[str, list[float]] = {label: [] for label in scorers}
    for pair in range(args.pairs):
        order = list(scorers) if pair % 2 == 0 else list(reversed(scorers))
        for label in order:
            playout.score_counts = scorers[label]
            rates[label].append(games_per_second(args.games))
    playout.score_counts = shipped
    for label, runs in rates.items():
        print(
            f"{label}: median {statistics.median(runs):,.0f} games/s ({', '.join(f'{r:,.0f}' for r in runs)})"
        )
    ratios = [a / b for a, b in zip(rates["scoring.rank"], rates["count alone (ships)"], strict=True)]
    print(f"scoring.rank / count alone, paired: median {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
