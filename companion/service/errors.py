"""Errors of the game service, each mapped to one HTTP status by the web adapter."""

from ..rules import Refusal


class GameNotFound(Refusal, LookupError):
    """No game has this id."""

    code = "game_not_found"


class Unauthorized(Refusal, PermissionError):
    """The request needs the game's token and did not carry it."""

    code = "unauthorized"


class RequestError(Refusal, ValueError):
    """The request itself is malformed (shape or type), before the rules are even asked."""

    code = "bad_request"


class GameDamaged(RuntimeError):
    """A stored game's events no longer replay: the first one that fails, and why."""

    def __init__(self, game_id: str, event: int, reason: str) -> None:
        self.game_id = game_id
        self.event = event
        self.reason = reason
        super().__init__(
            f"game {game_id} cannot be read: its event {event} {reason}. The other games are "
            f"unharmed; its events as stored are in its export, and `companion repair {game_id}` "
            "keeps those before that one"
        )


class FixRefused(RequestError):
    """A fix of a die of the camera's roll that cannot be applied: its ``code`` says why."""
