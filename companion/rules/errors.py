"""Errors raised by the rules core. Each leaves the game exactly as it was.

Beside its English message an error carries a ``code`` that names the kind of refusal (stable:
the pages translate by it) and the ``values`` that message needs: a colour, a die's value, a count.
"""


class Refusal(Exception):
    """An error a person reads: its English message, its ``code`` and the ``values`` it names."""

    code = "refused"

    def __init__(self, message: str, code: str | None = None, **values: str | int) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.values = values


class RulesError(Refusal, ValueError):
    """A move or a setting the rules do not allow; the message says what to do instead."""


class ConfigError(RulesError):
    """A game cannot be set up this way (players, colours, edition, variants)."""

    code = "bad_setup"


class IllegalMove(RulesError):
    """An event that does not fit the game at this point; nothing was changed."""

    code = "illegal_move"
