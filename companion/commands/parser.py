"""An argument parser that answers a typo with the nearest right word ("did you mean …?")."""

import argparse
import re
from collections.abc import Mapping
from typing import NoReturn

from ..words import nearest

INVALID_CHOICE = re.compile(r"invalid choice: '([^']*)' \(choose from (.*)\)")


class SuggestingParser(argparse.ArgumentParser):
    """argparse, plus a suggestion for a mistyped choice (a command, ``--edition clasic``) or
    option (``--jsn``). Subcommand parsers made from it are SuggestingParsers too."""

    #: the subcommands' parsers by name (set by ``companion.cli.build_parser``)
    commands: Mapping[str, argparse.ArgumentParser]

    def error(self, message: str) -> NoReturn:
        hint = self.suggestion(message)
        super().error(f"{message}{hint}")

    def suggestion(self, message: str) -> str:
        choice = INVALID_CHOICE.search(message)
        if choice:
            match = nearest(choice.group(1), re.findall(r"'([^']*)'", choice.group(2)))
            return f" — did you mean '{match}'?" if match else ""
        if message.startswith("unrecognized arguments: "):
            options = [s for action in self._actions for s in action.option_strings]
            words = message.removeprefix("unrecognized arguments: ").split()
            hints = [
                (word, match)
                for word in words
                if word.startswith("-") and (match := nearest(word.split("=")[0], options))
            ]
            if len(words) == 1 and hints:
                return f" — did you mean {hints[0][1]}?"
            return f" — did you mean {', '.join(f'{m} for {w}' for w, m in hints)}?" if hints else ""
        return ""


def whole_number(least: int, most: int | None = None):
    """An argparse type: a whole number from ``least`` (to ``most``), or a message saying which."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < least or (most is not None and value > most):
            span = f"from {least} to {most}" if most is not None else f"at least {least}"
            raise argparse.ArgumentTypeError(f"{value} is out of range: give a whole number {span}")
        return value

    return parse


def share(text: str) -> float:
    """An argparse type: a number above 0 and at most 1 (a detector score)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"{value:g} is out of range: give a score above 0 and at most 1")
    return value


def add_whole_frame_option(parser: argparse.ArgumentParser) -> None:
    """The detector's whole-frame search, for every command that reads dice."""
    parser.add_argument(
        "--whole-frame",
        action="store_true",
        help="look for dice over the whole picture at full size, not only round what a first, "
        "coarser pass found: slower; finds a die on a busy cloth the coarse pass missed",
    )
