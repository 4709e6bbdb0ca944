"""Errors of the game service, each mapped to one HTTP status by the web adapter."""


class GameNotFound(LookupError):
    """No game has this id."""


class Unauthorized(PermissionError):
    """The request needs the game's token and did not carry it."""


class RequestError(ValueError):
    """The request itself is malformed (shape or type), before the rules are even asked."""


class FixRefused(RequestError):
    """A fix of a die of the camera's roll that cannot be applied: ``code`` names why, stable for
    the page's translations, and ``values`` holds what its message names."""

    def __init__(self, message: str, code: str, values: dict | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.values = values or {}
