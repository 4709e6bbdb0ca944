"""The `companion` command: one subcommand per job, errors as one readable line."""

import sys
from collections.abc import Sequence
from types import ModuleType

from . import __version__
from .commands import CommandError, calibrate, read, score, serve, simulate, watch
from .commands.parser import SuggestingParser

COMMANDS = (score, simulate, serve, read, calibrate, watch)


def build_parser(
    prog: str = "companion",
    description: str = "Vegas Table Companion: reads, scores and shows Las Vegas games.",
    commands: Sequence[ModuleType] = COMMANDS,
) -> SuggestingParser:
    """The parser of ``prog``: one subcommand per module of ``commands`` (each adds its own)."""
    parser = SuggestingParser(prog=prog, description=description)
    parser.add_argument("--version", action="version", version=f"{prog} {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in commands:
        command.add_parser(subparsers)
    parser.commands = subparsers.choices
    return parser


def main(argv: Sequence[str] | None = None, parser: SuggestingParser | None = None) -> int:
    """Run one command; a problem the user can fix is one line on stderr and exit status 2."""
    parser = parser or build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # told by the command's own parser, which knows the options it has
        parser.commands[args.command].error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        return args.run(args)
    except CommandError as err:
        print(f"{parser.prog} {args.command}: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader (say, `head`) went away: not an error worth a traceback.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print(f"{parser.prog} {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
