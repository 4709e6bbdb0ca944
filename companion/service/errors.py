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
