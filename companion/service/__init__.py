"""The game service: commands on stored games, between the web/camera adapters and the rules."""

from .errors import FixRefused, GameDamaged, GameNotFound, RequestError, Unauthorized
from .games import GameService
from .live_game import LiveGame

__all__ = [
    "FixRefused",
    "GameDamaged",
    "GameNotFound",
    "GameService",
    "LiveGame",
    "RequestError",
    "Unauthorized",
]
