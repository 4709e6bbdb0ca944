"""A simple player for virtual games: good enough to make simulated games look played."""

import random

from .editions import NUMBERED_CASINOS, SLOT
from .events import Placed
from .game import GameState


def choose_placement(state: GameState, rng: random.Random) -> Placed:
    """Place where the best note is within reach, preferring to place many dice at once.

    Each legal move scores the casino's top note, plus $10,000 for each die it places, minus
    $5,000 for each die the player already has there. Ties go to ``rng``.
    """
    player = state.current_player
    values = state.rolled_values()
    if player is None or not values:
        raise ValueError("there is nothing to place: the current player has not rolled")
    placing = dict.fromkeys(values, 0)
    for die in state.last_roll or ():
        placing[die.pips] += 2 if die.big else 1
    targets = [(v, NUMBERED_CASINOS[v - 1]) for v in values]
    if state.config.slot:
        taken = state.slot_values()
        targets += [(v, SLOT) for v in values if v not in taken]
    casinos = state.casinos
    best: list[tuple[int, str]] = []
    best_score = -(10**9)
    for target in targets:
        casino = casinos[target[1]]
        # in dollars: the top note, $10,000 a die placed, less $5,000 a die already there
        score = casino.top + 10_000 * placing[target[0]] - 5_000 * casino.weights.get(player, 0)
        if score > best_score:
            best, best_score = [target], score
        elif score == best_score:
            best.append(target)
    value, name = best[0] if len(best) == 1 else rng.choice(best)
    return Placed(player, value, name)
