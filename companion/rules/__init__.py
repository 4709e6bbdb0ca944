"""The rules of Las Vegas as a pure core: no I/O, no clock, randomness only from a passed RNG.

A game is a list of events (``GameStarted``, ``Rolled``, ``Placed``); its state is their fold
(``replay``). Adapters (camera, storage, web) build events and ask the state questions.
"""

from .banknotes import CLASSIC_DECK, build_deck, deck_total
from .chance import roll_virtual, start_game
from .config import GameConfig, Player
from .dice import Die
from .editions import BIGGY, CLASSIC, EDITIONS, NUMBERED_CASINOS, SLOT
from .errors import ConfigError, IllegalMove, Refusal, RulesError
from .events import Event, GameStarted, Placed, Rolled, event_from_dict, event_to_dict
from .game import GameState, Phase, RoundResult, Standing, replay
from .policy import choose_placement
from .scoring import CasinoResult, Payout, Tally, score_casino

__all__ = [
    "BIGGY",
    "CLASSIC",
    "CLASSIC_DECK",
    "EDITIONS",
    "NUMBERED_CASINOS",
    "SLOT",
    "CasinoResult",
    "ConfigError",
    "Die",
    "Event",
    "GameConfig",
    "GameStarted",
    "GameState",
    "IllegalMove",
    "Payout",
    "Phase",
    "Placed",
    "Player",
    "Rolled",
    "Refusal",
    "RoundResult",
    "RulesError",
    "Standing",
    "Tally",
    "build_deck",
    "choose_placement",
    "deck_total",
    "event_from_dict",
    "event_to_dict",
    "replay",
    "roll_virtual",
    "score_casino",
    "start_game",
]
