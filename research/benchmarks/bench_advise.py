"""Benchmark: the advisor's rollouts (``companion.odds``) on a 5-player classic position with all
six values open, in round 1 of 4: rollouts a second and the time to answer with N rollouts per
value, by the hints' margin policy and by the greedy one, and the greedy rollouts one by one in
the scalar engine (``Position.finish``) beside; then the review of a whole 4-player
classic game (every move with a choice, win chances after each round) as the server makes it.
One core.

Run: python -m research.benchmarks.bench_advise [--rollouts 1000] [--repeats 3]"""

import argparse
import os
import random
import statistics
import time

from companion.odds.advisor import worth_of_choices
from companion.odds.position import Position
from companion.odds.review import review_game
from companion.odds.standing import Standing
from companion.rules import Die, GameConfig, choose_placement, replay, roll_virtual, start_game


def six_values_open(seed: int = 0) -> tuple[Position, list[Die]]:
    """The first roll of a 5-player classic game whose eight dice show all six values."""
    state = replay([start_game(GameConfig.for_players(5), random.Random(seed))])
    rng = random.Random(seed)
    while True:
        dice = [Die("red", rng.randint(1, 6)) for _ in range(8)]
        if len({die.pips for die in dice}) == 6:
            return Position.from_state(state), dice


def scalar_rollouts(position: Position, dice: list[Die], rollouts: int) -> float:
    """Seconds to play each placement of ``dice`` to the round's end ``rollouts`` times, one
    rollout after another with ``Position.finish`` (what ``simulate`` plays)."""
    roll = position.roll_of(dice)
    start = time.perf_counter()
    for value, casino in position.targets(roll):
        after = position.copy()
        after.place(roll, value, casino)
        for run in range(rollouts):
            after.copy().finish(random.Random(run))
    return time.perf_counter() - start


def whole_game(players: int, seed: int) -> list:
    """The events of a whole classic game played with virtual dice and the greedy policy."""
    rng = random.Random(seed)
    events = [start_game(GameConfig.for_players(players), rng)]
    state = replay(events)
    while not state.is_over:
        for make in (roll_virtual, choose_placement):
            event = make(state, rng)
            state.apply(event)
            events.append(event)
    return events


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rollouts", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core of the two
    position, dice = six_values_open()
    standing = Standing.fresh(position.colours, rounds_left=3)
    for policy in ("margin", "greedy"):
        times = []
        for repeat in range(args.repeats):
            start = time.perf_counter()
            worths = worth_of_choices(position, dice, args.rollouts, random.Random(repeat), standing, policy)
            times.append(time.perf_counter() - start)
        answer = statistics.median(times)
        print(f"5-player classic, first roll, {len(worths)} choices, {args.rollouts} rollouts each, {policy}")
        print(f"answer: median {answer:.3f} s of {args.repeats} ({', '.join(f'{t:.3f}' for t in times)})")
        print(f"rollouts: {len(worths) * args.rollouts / answer:,.0f} a second (one core)")
    times = [scalar_rollouts(position, dice, args.rollouts) for _ in range(args.repeats)]
    answer = statistics.median(times)
    print(
        f"the same greedy rollouts one by one in the scalar engine (Position.finish), {len(worths)} choices"
    )
    print(f"answer: median {answer:.3f} s of {args.repeats} ({', '.join(f'{t:.3f}' for t in times)})")
    print(f"rollouts: {len(worths) * args.rollouts / answer:,.0f} a second (one core)")
    for seed in range(args.repeats):
        events = whole_game(4, seed)
        start = time.perf_counter()
        review = review_game(events, seed, rollouts=args.rollouts)
        took = time.perf_counter() - start
        print(
            f"review of a whole 4-player game (seed {seed}): {len(review.moves)} moves with a choice, "
            f"{len(review.rounds)} rounds' win chances, {args.rollouts} rollouts each: {took:.1f} s"
        )


if __name__ == "__main__":
    main()
