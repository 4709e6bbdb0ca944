"""The error a command reports as one line on stderr, with a non-zero exit status."""


class CommandError(Exception):
    """A problem the user can fix: printed as ``companion <command>: <message>``."""
