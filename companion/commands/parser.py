"""An argument parser that answers a typo with the nearest right word ("did you mean …?")."""

import argparse
import difflib
import re
from typing import NoReturn

INVALID_CHOICE = re.compile(r"invalid choice: '([^']*)' \(choose from (.*)\)")


def nearest(word: str, words: list[str]) -> str | None:
    """The closest of ``words`` to a mistyped ``word``, or None when none is close."""
    close = difflib.get_close_matches(word, words, n=1, cutoff=0.6)
    return close[0] if close else None


class SuggestingParser(argparse.ArgumentParser):
    """argparse, plus a suggestion for a mistyped choice (a command, ``--edition clasic``) or
    option (``--jsn``). Subcommand parsers made from it are SuggestingParsers too."""

    #: the subcommands' parsers by name (set by ``companion.cli.build_parser``)
    commands: dict[str, argparse.ArgumentParser]

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
