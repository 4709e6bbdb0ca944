"""One module per `companion` subcommand: each adds its parser and runs it."""
