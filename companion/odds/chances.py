"""Each player's chance to win the game from where it stands, with the advisor's machinery: the
round in play finished by rollouts (``batch``, the margin policy), the rest of the game valued
from the standings at the round's end (``standing``). A roll waiting to be placed is placed by
each choice in turn, and the chances are those of the choice best for its player. A shared win
counts as a share (two joint winners: half each)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from ..rules import GameState, Phase
from .advisor import POLICY, play_choices, ranked
from .batch import CommonDice, play_out
from .playout import roll_leftover_neutral
from .position import Position
from .standing import Standing, chances_at_round_end


@dataclass(frozen=True)
class WinChances:
    """Per colour: the chance to win and its standard error (0 when the game is decided)."""

    chances: dict[str, float]
    stderr: dict[str, float]
    rollouts: int


def win_chances(state: GameState, rollouts: int, rng: random.Random) -> WinChances:
    """The chance of each player of ``state`` to win, by ``rollouts`` plays of the rest of the round."""
    colours = state.colours
    if state.is_over:
        winners = state.winners()
        share = {c: (1 / len(winners) if c in winners else 0.0) for c in colours}
        return WinChances(share, dict.fromkeys(colours, 0.0), 0)
    if rollouts < 2:
        raise ValueError("at least two rollouts give a standard error")
    standing = Standing.from_state(state)
    dice_rng = np.random.default_rng(rng.getrandbits(64))
    rows = round_end_chances(state, standing, rollouts, rng, dice_rng)
    return WinChances(
        {c: float(rows[:, i].mean()) for i, c in enumerate(colours)},
        {c: float(rows[:, i].std(ddof=1)) / math.sqrt(len(rows)) for i, c in enumerate(colours)},
        rollouts,
    )


def round_end_chances(
    state: GameState, standing: Standing, rollouts: int, rng: random.Random, dice_rng: np.random.Generator
) -> np.ndarray:
    """(rollouts, seats): each player's chance to win in each rollout of the round in play."""
    seats = tuple(state.colours)
    if state.phase is Phase.NEUTRAL_ROLL:  # the leftover neutral dice fall differently each time
        positions = []
        for _ in range(rollouts):
            position = Position.as_dealt(state)
            roll_leftover_neutral(position, state.leftover_neutral, rng)
            positions.append(position)
        dice = CommonDice.draw(dice_rng, rollouts, positions)
        ends = play_out(positions, dice, POLICY, [standing.money] * rollouts, rollouts=1)
        return chances_at_round_end(ends, seats, standing)
    position = Position.from_state(state)
    if state.phase is Phase.PLACE and state.last_roll:
        roll = position.roll_of(state.last_roll)
        played = play_choices(position, roll, standing, rollouts, dice_rng)
        best = ranked(played, position)[0]
        index = played.targets.index((best.value, best.casino))
        return played.chances[played.ends.of(index)]
    dice = CommonDice.draw(dice_rng, rollouts, [position])
    ends = play_out([position], dice, POLICY, [standing.money])
    return chances_at_round_end(ends, seats, standing)
