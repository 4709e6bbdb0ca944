"""The game service: commands on stored games, between the web/camera adapters and the rules.

``GameService`` and ``LiveGame`` load on first use, so a module that needs only the service's
errors (request parsing) starts without the advisor's numpy."""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .errors import FixRefused, GameDamaged, GameNotFound, RequestError, Unauthorized

if TYPE_CHECKING:
    from .games import GameService
    from .live_game import LiveGame

#: where each name that loads on first use lives
_HOMES = {"GameService": "games", "LiveGame": "live_game"}

__all__ = [
    "FixRefused",
    "GameDamaged",
    "GameNotFound",
    "GameService",
    "LiveGame",
    "RequestError",
    "Unauthorized",
]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_HOMES[name]}", __name__), name)
