"""Scoring one casino at the end of a round: who cancels, who takes which note, what is left.

Two rankings exist. On a numbered casino only the dice count matters and every player whose
count equals another's cancels. On the slot casino players are ranked by dice count, then pip
sum, then their highest die, and only a tie on all three cancels. A Biggy counts as two dice
(and its pips twice). Neutral dice take part as one more, imaginary player.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from operator import itemgetter
from typing import NamedTuple, TypeVar

from .dice import Die
from .editions import SLOT


class Tally(NamedTuple):
    """What one colour has on a casino."""

    colour: str
    dice: int
    pips: int
    highest: int


#: a tally as a plain tuple: (colour, dice, pips, highest)
TallyTuple = tuple[str, int, int, int]
#: a ``Tally`` or a plain tuple in its order: ``rank`` gives back what it is given
T = TypeVar("T", bound=TallyTuple)


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


#: what decides the order on a casino, best first (sorted in reverse): the dice count; on the
#: slot, then the pip sum and the highest die. Equal keys cancel.
_COUNT_KEY = itemgetter(1)
_SLOT_KEY = itemgetter(1, 2, 3)


def rank(casino: str, tallies: Iterable[T]) -> tuple[list[T], list[str], list[str]]:
    """The tallies best first (equal ranks, the ones that cancel, alphabetically), the colours
    that cancel, and the others in the order they are paid. A tally may be a plain tuple in the
    order of ``Tally``: the round in counts builds them by the thousand."""
    key = _SLOT_KEY if casino == SLOT else _COUNT_KEY
    # by colour first, then (stable, so colours stay in order among equals) by rank
    ranked = sorted(sorted(tallies), key=key, reverse=True)
    keys = [key(t) for t in ranked]
    last = len(keys) - 1
    cancelled: list[str] = []
    winners: list[str] = []
    for index, entry in enumerate(ranked):
        this = keys[index]
        tied = (index > 0 and keys[index - 1] == this) or (index < last and keys[index + 1] == this)
        (cancelled if tied else winners).append(entry[0])
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
