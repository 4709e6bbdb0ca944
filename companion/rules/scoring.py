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


def _best_first(casino: str):
    """Sort key: best rank first; equal ranks (the ones that cancel) alphabetically."""
    if casino == SLOT:
        return lambda t: (-t.dice, -t.pips, -t.highest, t.colour)
    return lambda t: (-t.dice, t.colour)


def rank(casino: str, tallies: Iterable[Tally]) -> tuple[list[Tally], list[str], list[str]]:
    """The tallies best first, the colours that cancel, and the others in the order they are paid."""
    ranked = sorted(tallies, key=_best_first(casino))
    keys = [ranking_key(casino, t) for t in ranked]
    last = len(keys) - 1
    cancelled, winners = [], []
    for index, entry in enumerate(ranked):
        key = keys[index]
        tied = (index > 0 and keys[index - 1] == key) or (index < last and keys[index + 1] == key)
        (cancelled if tied else winners).append(entry.colour)
    return ranked, cancelled, winners


def score_casino(casino: str, banknotes: Iterable[int], dice: Iterable[Die]) -> CasinoResult:
    """Score one casino. Pure: the caller decides where payouts and unclaimed notes go."""
    dice = tuple(dice)
    notes = tuple(sorted(banknotes, reverse=True))
    ranked, cancelled, winners = rank(casino, tally(dice))
    payouts = tuple(Payout(colour, note) for colour, note in zip(winners, notes, strict=False))
    return CasinoResult(
        casino=casino,
        banknotes=notes,
        dice=dice,
        tallies=tuple(ranked),
        cancelled=tuple(sorted(cancelled)),
        payouts=payouts,
        unclaimed=notes[len(payouts) :],
    )
