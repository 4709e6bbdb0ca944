"""The `companion` command: one subcommand per job, errors as one readable line."""

import sys
from collections.abc import Sequence
from importlib import import_module
from types import ModuleType

from . import __version__
from .commands import CommandError
from .commands.parser import SuggestingParser

#: the commands, in the order ``--help`` lists them: each a module of ``companion.commands`` (a
#: dash in the name is an underscore in the module's)
COMMAND_NAMES = (
    "score",
    "simulate",
    "advise",
    "review",
    "repair",
    "serve",
    "read",
    "calibrate",
    "watch",
    "export-fixes",
)


def command_modules(argv: Sequence[str]) -> tuple[ModuleType, ...]:
    """The modules of the commands the parser needs for ``argv``: only the one it names, so a
    command imports no other's modules at start-up; every one for help or a mistyped name."""
    named = [name for name in COMMAND_NAMES if argv[:1] == [name]]
    return tuple(
        import_module(f".commands.{name.replace('-', '_')}", __package__) for name in named or COMMAND_NAMES
    )


def build_parser(
    prog: str = "companion",
    description: str = "Vegas Table Companion: reads, scores and shows Las Vegas games.",
    commands: Sequence[ModuleType] | None = None,
) -> SuggestingParser:
    """The parser of ``prog``: one subcommand per module of ``commands`` (each adds its own)."""
    parser = SuggestingParser(prog=prog, description=description)
    parser.add_argument("--version", action="version", version=f"{prog} {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in command_modules([]) if commands is None else commands:
        command.add_parser(subparsers)
    parser.commands = subparsers.choices
    return parser


def main(argv: Sequence[str] | None = None, parser: SuggestingParser | None = None) -> int:
    """Run one command; a problem the user can fix is one line on stderr and exit status 2."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = parser or build_parser(commands=command_modules(argv))
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
