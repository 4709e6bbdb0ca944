"""Each player's chance to win the game from where it stands, by rollouts of the rest of the
game in counts (``playout``): the round in play finished and every round left dealt and played
by the greedy policy. A shared win counts as a share (two joint winners: half each)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ..rules import GameState
from .playout import Table, position_in_play


@dataclass(frozen=True)
class WinChances:
    """Per colour: the chance to win and its standard error (0 when the game is decided)."""

    chances: dict[str, float]
    stderr: dict[str, float]
    rollouts: int


def win_chances(state: GameState, rollouts: int, rng: random.Random) -> WinChances:
    """The chance of each player of ``state`` to win, by ``rollouts`` plays of the rest of the game."""
    colours = state.colours
    if state.is_over:
        winners = state.winners()
        share = {c: (1 / len(winners) if c in winners else 0.0) for c in colours}
        return WinChances(share, dict.fromkeys(colours, 0.0), 0)
    if rollouts < 2:
        raise ValueError("at least two rollouts give a standard error")
    start = Table.from_state(state)
    wins = dict.fromkeys(colours, 0.0)
    squares = dict.fromkeys(colours, 0.0)
    for _ in range(rollouts):
        table = start.copy()
        table.play_to_end(rng, position_in_play(state, rng))
        winners = table.winners()
        for colour in winners:
            wins[colour] += 1 / len(winners)
            squares[colour] += 1 / len(winners) ** 2
    chances = {c: wins[c] / rollouts for c in colours}
    stderr = {
        c: math.sqrt(max(squares[c] / rollouts - chances[c] ** 2, 0.0) / (rollouts - 1)) for c in colours
    }
    return WinChances(chances, stderr, rollouts)
