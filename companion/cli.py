"""The `companion` command: one subcommand per job, errors as one readable line."""

import sys
from collections.abc import Sequence

from . import __version__
from .commands import bench, calibrate, read, score, serve, simulate, watch
from .commands.errors import CommandError
from .commands.parser import SuggestingParser

COMMANDS = (score, simulate, serve, read, bench, calibrate, watch)


def build_parser() -> SuggestingParser:
    parser = SuggestingParser(
        prog="companion", description="Vegas Table Companion: reads, scores and shows Las Vegas games."
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(subparsers)
    parser.commands = subparsers.choices
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # told by the command's own parser, which knows the options it has
        parser.commands[args.command].error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        return args.run(args)
    except CommandError as err:
        print(f"companion {args.command}: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader (say, `head`) went away: not an error worth a traceback.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print(f"companion {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
