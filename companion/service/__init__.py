"""The game service: commands on stored games, between the web/camera adapters and the rules."""

from .errors import GameNotFound, RequestError, Unauthorized
from .games import GameService, LiveGame

__all__ = ["GameNotFound", "GameService", "LiveGame", "RequestError", "Unauthorized"]
