"""One module per `companion` subcommand: each adds its parser and runs it."""


class CommandError(Exception):
    """A problem the user can fix: printed as ``companion <command>: <message>``."""
