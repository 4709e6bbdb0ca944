"""Chance, as the rules engine's one source of randomness: always a seeded RNG passed in."""

import random
from functools import cache

from .banknotes import build_deck
from .config import GameConfig
from .dice import PIP_VALUES, Die
from .events import GameStarted, Rolled
from .game import GameState, Phase


def start_game(config: GameConfig, rng: random.Random) -> GameStarted:
    """Validate the setup and shuffle the deck: the first event of a new game."""
    config.validate()
    deck = build_deck(config.deck)
    rng.shuffle(deck)
    return GameStarted(config=config, deck=tuple(deck))


@cache
def faces(colour: str, big: bool) -> tuple[Die, ...]:
    """The six faces a die of this kind can show (dice are values, so they can be shared)."""
    return tuple(Die(colour, pips, big) for pips in PIP_VALUES)


def roll_virtual(state: GameState, rng: random.Random) -> Rolled:
    """Roll every die the current player holds (or the leftover neutral dice) with ``rng``.

    Asked at the wrong moment (game over, or a roll waiting to be placed) it returns an
    empty roll, which ``state.apply`` refuses with the precise reason.
    """
    player = state.current_player
    if player is None or state.phase is Phase.PLACE:
        return Rolled(player or "", ())
    if state.phase is Phase.NEUTRAL_ROLL:
        neutral = state.neutral or ""
        return Rolled(player, tuple(rng.choices(faces(neutral, False), k=state.leftover_neutral)))
    hand = state.hands[player]
    dice = rng.choices(faces(player, False), k=hand.own)
    if hand.big:
        dice += rng.choices(faces(player, True), k=hand.big)
    if hand.neutral:
        dice += rng.choices(faces(state.neutral or "", False), k=hand.neutral)
    return Rolled(player, tuple(dice))
