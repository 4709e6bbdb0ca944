"""The worth of each placement open to the player with a roll in front of them: their chance to
win the game, with the money they take by the end of the round and their margin over their
strongest rival beside it.

Every choice is played to the round's end by the same rollouts on the same dice (``batch``,
common random numbers), every player then placing by the one-step margin policy; the rest of the
game is valued from the standings at the round's end (``standing``). Choices are ranked by the
chance to win, ties by the margin; a choice whose chance (or, when the chances are exact, margin)
differs from the best one's by less than twice the error of the difference is "about the same"."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..rules import Die, GameState, Phase
from .batch import POLICIES, CommonDice, RoundEnds, play_out
from .position import Position, Roll
from .standing import Standing, chances_at_round_end

#: the rollouts' policy: every player places for the best margin over their strongest rival
POLICY = "margin"
#: how many standard errors of the difference make two choices differ
SAME_WITHIN = 2.0


@dataclass(frozen=True)
class Worth:
    """One placement. Means over the rollouts with their standard errors: the player's money by
    the round's end, their chance to win the game, their money minus the strongest rival's at the
    round's end (earlier rounds counted); each note they take with its chance (casino, banknote,
    chance); and against the best choice on the same dice, the chance it gives up with its error
    and whether the two are about the same."""

    value: int
    casino: str
    money: float
    stderr: float
    notes: tuple[tuple[str, int, float], ...]
    chance: float
    chance_stderr: float
    margin: float
    margin_stderr: float
    gap: float
    gap_stderr: float
    same_as_best: bool

    def shown(self) -> int:
        """The money to as many digits as its standard error supports."""
        return supported(self.money, self.stderr)


@dataclass(frozen=True)
class Playouts:
    """Each choice's rollouts: where it places, and per rollout the player's money, notes taken
    per casino, margin over the strongest rival and every player's chance to win."""

    targets: list[tuple[int, str]]
    ends: RoundEnds
    chances: np.ndarray  # (rows, seats)
    margins: np.ndarray  # (rows,) of the player
    seat: int


def play_choices(
    position: Position,
    roll: Roll,
    standing: Standing,
    rollouts: int,
    rng: np.random.Generator,
    policy: str = POLICY,
) -> Playouts:
    """Every placement of ``roll`` played to the round's end ``rollouts`` times on the same dice."""
    if rollouts < 2:
        raise ValueError("at least two rollouts give a standard error")
    targets = position.targets(roll)
    afters = []
    for value, casino in targets:
        after = position.copy()
        after.place(roll, value, casino)
        afters.append(after)
    dice = CommonDice.draw(rng, rollouts, afters)
    ends = play_out(afters, dice, policy, [standing.money] * len(afters))
    seats = position.colours
    chances = chances_at_round_end(ends, seats, standing)
    money = np.array([[standing.money.get(c, 0) for c in seats]]) + np.stack(
        [ends.money(c) for c in seats], axis=1
    )
    rivals = np.delete(money, position.seat, axis=1)
    margins = money[:, position.seat] - rivals.max(axis=1)
    return Playouts(targets, ends, chances, margins, position.seat)


def worth_of_choices(
    position: Position,
    dice: Sequence[Die],
    rollouts: int,
    rng: random.Random,
    standing: Standing | None = None,
    policy: str = POLICY,
) -> list[Worth]:
    """Each placement of ``dice`` (the roll of the player whose turn it is), best first.
    ``standing``: the game around the round (default: a one-round game, nobody paid yet)."""
    return worth_of_roll(position, position.roll_of(dice), rollouts, rng, standing, policy)


def worth_of_roll(
    position: Position,
    roll: Roll,
    rollouts: int,
    rng: random.Random,
    standing: Standing | None = None,
    policy: str = POLICY,
) -> list[Worth]:
    """``worth_of_choices`` for a roll in counts."""
    standing = standing or Standing.fresh(position.colours, 0)
    dice_rng = np.random.default_rng(rng.getrandbits(64))
    return ranked(play_choices(position, roll, standing, rollouts, dice_rng, policy), position)


def ranked(played: Playouts, position: Position) -> list[Worth]:
    """The worth of each choice of ``played``, best first."""
    ends, player = played.ends, position.player
    k = ends.colours.index(player)
    rollouts = ends.rollouts
    chance_rows = [played.chances[ends.of(i), played.seat] for i in range(len(played.targets))]
    margin_rows = [played.margins[ends.of(i)] for i in range(len(played.targets))]
    order = sorted(range(len(played.targets)), key=lambda i: (-chance_rows[i].mean(), -margin_rows[i].mean()))
    best = order[0]
    worths = []
    for i in order:
        taken = ends.paid[ends.of(i), :, k]
        money = taken.sum(axis=1)
        gap, gap_stderr = paired(chance_rows[best], chance_rows[i])
        margin_gap, margin_gap_stderr = paired(margin_rows[best], margin_rows[i])
        if gap_stderr > 0 or gap > 0:
            same = gap <= SAME_WITHIN * gap_stderr
        else:  # the chances are exact and equal: the margin decides
            same = margin_gap <= SAME_WITHIN * margin_gap_stderr
        value, casino = played.targets[i]
        worths.append(
            Worth(
                value,
                casino,
                float(money.mean()),
                stderr_of(money),
                notes_taken(taken, position, rollouts),
                chance=float(chance_rows[i].mean()),
                chance_stderr=stderr_of(chance_rows[i]),
                margin=float(margin_rows[i].mean()),
                margin_stderr=stderr_of(margin_rows[i]),
                gap=max(gap, 0.0),
                gap_stderr=gap_stderr,
                same_as_best=bool(same),
            )
        )
    return worths


def notes_taken(taken: np.ndarray, position: Position, rollouts: int) -> tuple[tuple[str, int, float], ...]:
    """Each note the player takes in the rollouts ``taken`` (rollouts, casinos), with its chance."""
    notes = []
    for c, name in enumerate(position.notes):
        for note, times in zip(*np.unique(taken[:, c], return_counts=True), strict=True):
            if note:
                notes.append((name, int(note), times / rollouts))
    notes.sort(key=lambda n: (-n[2], -n[1]))
    return tuple(notes)


def stderr_of(rows: np.ndarray) -> float:
    return float(rows.std(ddof=1)) / math.sqrt(len(rows))


def paired(best: np.ndarray, other: np.ndarray) -> tuple[float, float]:
    """The mean of ``best − other`` over rollouts on the same dice, and its standard error."""
    difference = best - other
    return float(difference.mean()), stderr_of(difference)


def supported(money: float, stderr: float) -> int:
    """``money`` rounded to the power of ten its standard error is in ($1 when it is exact)."""
    if stderr <= 0:
        return round(money)
    step = 10 ** math.floor(math.log10(stderr))
    return int(round(money / step) * step)


def advice_of_state(state: GameState, rollouts: int, rng: random.Random) -> dict:
    """``advice_json`` for the roll waiting in ``state``, the game around its round counted.
    Raises ValueError when no roll waits to be placed."""
    if state.phase is not Phase.PLACE or not state.last_roll:
        raise ValueError("no roll waits to be placed: the worth of each value is for a roll")
    position = Position.from_state(state)
    return advice_json(position, state.last_roll, rollouts, rng, Standing.from_state(state))


def advice_json(
    position: Position,
    dice: Sequence[Die],
    rollouts: int,
    rng: random.Random,
    standing: Standing | None = None,
) -> dict:
    """The worth of each placement as ``companion advise`` prints it and the page shows it."""
    worths = worth_of_choices(position, dice, rollouts, rng, standing)
    return {
        "player": position.player,
        "policy": POLICIES[POLICY],
        "policy_id": POLICY,
        "rollouts": rollouts,
        "choices": [
            {
                "value": w.value,
                "casino": w.casino,
                "money": w.shown(),
                "stderr": round(w.stderr),
                "chance": round(w.chance, 3),
                "chance_stderr": round(w.chance_stderr, 3),
                "margin": supported(w.margin, w.margin_stderr),
                "margin_stderr": round(w.margin_stderr),
                "gap": round(w.gap, 3),
                "gap_stderr": round(w.gap_stderr, 3),
                "about_the_same": w.same_as_best,
                "notes": [{"casino": c, "banknote": n, "chance": round(p, 3)} for c, n, p in w.notes],
            }
            for w in worths
        ],
    }
