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
    for colour, pips, big in dice:
        entry = counts.get(colour)
        if entry is None:
            entry = counts[colour] = [0, 0, 0]
        weight = 2 if big else 1
        entry[0] += weight
        entry[1] += pips * weight
        if pips > entry[2]:
            entry[2] = pips
    return [Tally(colour, n, pips, high) for colour, (n, pips, high) in counts.items()]


def ranking_key(casino: str, entry: Tally) -> tuple[int, ...]:
    """What decides the order on this casino; equal keys cancel."""
    if casino == SLOT:
        return (entry.dice, entry.pips, entry.highest)
    return (entry.dice,)


def score_casino(casino: str, banknotes: Iterable[int], dice: Iterable[Die]) -> CasinoResult:
    """Score one casino. Pure: the caller decides where payouts and unclaimed notes go."""
    dice = tuple(dice)
    notes = tuple(sorted(banknotes, reverse=True))
    keyed = [(ranking_key(casino, t), t) for t in tally(dice)]
    # Best first; equal keys (the ones that cancel) in alphabetical order.
    keyed.sort(key=lambda kt: kt[1].colour)
    keyed.sort(key=lambda kt: kt[0], reverse=True)
    keys = [key for key, _ in keyed]
    cancelled = []
    winners = []
    for index, (key, entry) in enumerate(keyed):
        tied = (index > 0 and keys[index - 1] == key) or (index + 1 < len(keys) and keys[index + 1] == key)
        (cancelled if tied else winners).append(entry)
    payouts = tuple(Payout(t.colour, note) for t, note in zip(winners, notes, strict=False))
    return CasinoResult(
        casino=casino,
        banknotes=notes,
        dice=dice,
        tallies=tuple(t for _, t in keyed),
        cancelled=tuple(sorted(t.colour for t in cancelled)),
        payouts=payouts,
        unclaimed=notes[len(payouts) :],
    )
