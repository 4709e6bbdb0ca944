"""The worth of each placement open to the player with a roll in front of them: the money they
take by the end of the round, by rollouts of the rest of the round (every player rolling and
placing by the greedy policy, all rollouts of a choice stepped at once: ``batch``), with its
standard error and the chance of taking each note."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .batch import finish_many
from .position import Position, RolledDie

#: the opponent model of the rollouts, in words for the page and the CLI
POLICY = (
    "greedy: each player places where the casino's top note plus $10,000 a die placed, "
    "less $5,000 a die they have there already, is highest"
)


@dataclass(frozen=True)
class Worth:
    """One placement: the money it brings the player by the round's end (mean of the rollouts)
    and its standard error, and each note they take with its chance (casino, banknote, chance)."""

    value: int
    casino: str
    money: float
    stderr: float
    notes: tuple[tuple[str, int, float], ...]

    def shown(self) -> int:
        """The money to as many digits as its standard error supports."""
        return supported(self.money, self.stderr)


def worth_of_choices(
    position: Position, dice: Sequence[RolledDie], rollouts: int, rng: random.Random
) -> list[Worth]:
    """Each placement of ``dice`` (the roll of the player whose turn it is), best first."""
    if rollouts < 2:
        raise ValueError("at least two rollouts give a standard error")
    player = position.player
    roll = position.roll_of(dice)
    dice_rng = np.random.default_rng(rng.getrandbits(64))
    worths = []
    for value, casino in position.targets(roll):
        after = position.copy()
        after.place(roll, value, casino)
        money, taken = finish_many(after, player, rollouts, dice_rng)
        notes = []
        for c, name in enumerate(after.notes):
            for note, times in zip(*np.unique(taken[:, c], return_counts=True), strict=True):
                if note:
                    notes.append((name, int(note), times / rollouts))
        notes.sort(key=lambda n: (-n[2], -n[1]))
        stderr = float(money.std(ddof=1)) / math.sqrt(rollouts)
        worths.append(Worth(value, casino, float(money.mean()), stderr, tuple(notes)))
    return sorted(worths, key=lambda w: -w.money)


def supported(money: float, stderr: float) -> int:
    """``money`` rounded to the power of ten its standard error is in ($1 when it is exact)."""
    if stderr <= 0:
        return round(money)
    step = 10 ** math.floor(math.log10(stderr))
    return int(round(money / step) * step)


def advice_json(position: Position, dice: Sequence[RolledDie], rollouts: int, rng: random.Random) -> dict:
    """The worth of each placement as ``companion advise`` prints it and the page shows it."""
    worths = worth_of_choices(position, dice, rollouts, rng)
    return {
        "player": position.player,
        "policy": POLICY,
        "rollouts": rollouts,
        "choices": [
            {
                "value": w.value,
                "casino": w.casino,
                "money": w.shown(),
                "stderr": round(w.stderr),
                "notes": [{"casino": c, "banknote": n, "chance": round(p, 3)} for c, n, p in w.notes],
            }
            for w in worths
        ],
    }
