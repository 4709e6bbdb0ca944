"""Errors of the game service, each mapped to one HTTP status by the web adapter."""


class GameNotFound(LookupError):
    """No game has this id."""


class Unauthorized(PermissionError):
    """The request needs the game's token and did not carry it."""


class RequestError(ValueError):
    """The request itself is malformed (shape or type), before the rules are even asked."""
