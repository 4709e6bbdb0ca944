"""Whole games with virtual dice and the simple policy: for `simulate` and the benchmark."""

import random

from .rules import GameConfig, GameState, Phase, choose_placement, replay, roll_virtual, start_game


def play_game(config: GameConfig, seed: int) -> GameState:
    """Play one complete game; the same config and seed always give the same game."""
    rng = random.Random(seed)
    state = replay([start_game(config, rng)])
    while not state.is_over:
        state.apply(roll_virtual(state, rng))
        if state.phase is Phase.PLACE:  # a leftover neutral roll places itself
            state.apply(choose_placement(state, rng))
    return state
