"""Scoring one casino at the end of a round: who cancels, who takes which note, what is left.

Two rankings exist. On a numbered casino only the dice count matters and every player whose
count equals another's cancels. On the slot casino players are ranked by dice count, then pip
sum, then their highest die, and only a tie on all three cancels. A Biggy counts as two dice
(and its pips twice). Neutral dice take part as one more, imaginary player.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from .dice import Die
from .editions import SLOT


class Tally(NamedTuple):
    """What one colour has on a casino."""

    colour: str
    dice: int
    pips: int
    highest: int


class Payout(NamedTuple):
    colour: str
    banknote: int


@dataclass(frozen=True)
class CasinoResult:
    """A scored casino. ``tallies`` are ranked best first, cancelled colours included."""

    casino: str
    banknotes: tuple[int, ...]
    dice: tuple[Die, ...]
    tallies: tuple[Tally, ...]
    cancelled: tuple[str, ...]
    payouts: tuple[Payout, ...]
    unclaimed: tuple[int, ...]


def tally(dice: Iterable[Die]) -> list[Tally]:
    """Sum up each colour's dice (Biggy counts twice), in order of first appearance."""
    counts: dict[str, list[int]] = {}
    for die in dice:
        entry = counts.setdefault(die.colour, [0, 0, 0])
        weight = 2 if die.big else 1
        entry[0] += weight
        entry[1] += die.pips * weight
        if die.pips > entry[2]:
            entry[2] = die.pips
    return [Tally(colour, *values) for colour, values in counts.items()]


def ranking_key(casino: str, entry: Tally) -> tuple[int, ...]:
    """What decides the order on this casino; equal keys cancel."""
    if casino == SLOT:
        return (entry.dice, entry.pips, entry.highest)
    return (entry.dice,)


def score_casino(casino: str, banknotes: Iterable[int], dice: Iterable[Die]) -> CasinoResult:
    """Score one casino. Pure: the caller decides where payouts and unclaimed notes go."""
    dice = tuple(dice)
    notes = tuple(sorted(banknotes, reverse=True))
    keyed = sorted(((ranking_key(casino, t), t) for t in tally(dice)), key=lambda kt: kt[1].colour)
    keyed.sort(key=lambda kt: kt[0], reverse=True)  # stable: equal keys stay alphabetical
    key_counts: dict[tuple[int, ...], int] = {}
    for key, _ in keyed:
        key_counts[key] = key_counts.get(key, 0) + 1
    cancelled = tuple(sorted(t.colour for key, t in keyed if key_counts[key] > 1))
    winners = [t for key, t in keyed if key_counts[key] == 1]
    payouts = tuple(Payout(t.colour, note) for t, note in zip(winners, notes, strict=False))
    return CasinoResult(
        casino=casino,
        banknotes=notes,
        dice=dice,
        tallies=tuple(t for _, t in keyed),
        cancelled=cancelled,
        payouts=payouts,
        unclaimed=notes[len(payouts):],
    )
