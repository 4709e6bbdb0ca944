"""Errors raised by the rules core. Each leaves the game exactly as it was."""


class RulesError(ValueError):
    """A move or a setting the rules do not allow; the message says what to do instead."""


class ConfigError(RulesError):
    """A game cannot be set up this way (players, colours, edition, variants)."""


class IllegalMove(RulesError):
    """An event that does not fit the game at this point; nothing was changed."""
