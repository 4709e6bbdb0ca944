"""A roll of n dice as counts per value, drawn with one random number.

Rolling die by die costs a draw and a few steps a die; the rollouts roll hundreds of thousands
of hands, so each hand size has its table of every outcome (how many 1s, 2s, ... 6s) with its
multinomial chance, and one uniform draw picks an outcome by bisection. The chances are exact;
a test compares them with die-by-die rolls."""

from bisect import bisect_right
from itertools import accumulate, combinations_with_replacement
from math import factorial

from ..rules.editions import EDITIONS

#: counts per value, indexed by the value (index 0 unused): (0, ones, twos, ..., sixes)
Counts = tuple[int, ...]
NO_DICE: Counts = (0,) * 7


class HandTable:
    """Every outcome of rolling ``dice`` dice: its counts, the values it shows, its cumulative chance."""

    def __init__(self, dice: int) -> None:
        self.counts: list[Counts] = []
        chances = []
        for faces in combinations_with_replacement(range(1, 7), dice):
            counts = [0] * 7
            for face in faces:
                counts[face] += 1
            ways = factorial(dice)
            for n in counts:
                ways //= factorial(n)
            self.counts.append(tuple(counts))
            chances.append(ways / 6**dice)
        self.chances = chances
        self.cumulative = list(accumulate(chances))
        self.cumulative[-1] = 1.0  # a draw is below 1; rounding must not leave a gap at the top
        self.shown = [tuple(v for v in range(1, 7) if counts[v]) for counts in self.counts]

    def pick(self, draw: float) -> int:
        """The outcome a uniform draw in [0, 1) falls on."""
        return bisect_right(self.cumulative, draw)


#: a table per hand size, up to the most dice of one kind a player holds in any edition
MOST_DICE = max(rules.dice_per_player for rules in EDITIONS.values())
TABLES = [HandTable(dice) for dice in range(MOST_DICE + 1)]
